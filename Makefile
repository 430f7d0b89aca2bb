# fsbench build.  `make run` and `make test` are the two documented entry
# points; both install missing Debian packages first (scripts/install-deps),
# as does `make deps`.  `make` alone only builds.

PKGS     = sqlite3 jansson gsl mount blkid libarchive zlib liburing libzstd libcrypto libxxhash devmapper numa
VERSION  = 0.1.0
GITREV  := $(shell git describe --always --dirty 2>/dev/null)
BUILD   ?= build
CC      ?= cc

# libaio and leveldb ship no pkg-config file in Debian: linked by name.
# Recursive (=) so pkg-config runs only after `deps` installed what it needs.
ASAN     = -fsanitize=address -fsanitize=undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
# FUZZ=1: the library instrumented for libFuzzer (clang only).
FUZZSAN  = -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
SANFLAGS = $(if $(FUZZ),$(FUZZSAN),$(if $(SAN),$(ASAN)))
CFLAGS   = -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wshadow -Wno-missing-field-initializers -MMD -MP \
           $(SANFLAGS) $(shell pkg-config --cflags $(PKGS)) $(MPICFLAGS)
FULLVERSION = $(VERSION)$(if $(GITREV),-$(GITREV),)
LDFLAGS  = $(SANFLAGS)
LDLIBS   = $(shell pkg-config --libs $(PKGS)) -laio -lleveldb -lpthread -lm $(MPILIBS)
# OpenMPI when pkg-config knows it (Debian libopenmpi-dev, in the default
# list); without it fsbench still builds and says MPI runs are unavailable.
MPIPC    = $(shell pkg-config --exists ompi-c 2>/dev/null && echo ompi-c)
MPICFLAGS = $(if $(MPIPC),-DHAVE_MPI $(shell pkg-config --cflags ompi-c))
MPILIBS  = $(if $(MPIPC),$(shell pkg-config --libs ompi-c))

SRCS     = $(wildcard src/core/*.c src/workloads/*.c src/io/*.c src/targets/*.c \
                      src/store/*.c src/report/*.c src/runner/*.c src/cli/*.c src/vm/*.c \
                      src/crash/*.c src/aging/*.c src/media/*.c)
LIBSRCS  = $(filter-out src/cli/main.c,$(SRCS))
# The guest's init, linked statically and carried inside fsbench (blob.S).
VMINIT   = $(BUILD)/vminit
BLOBOBJ  = $(BUILD)/src/vm/init/blob.o
# The modelled flash medium's nbdkit plugin, also carried inside fsbench
# (src/media/plugin/blob.S), which writes it out for nbdkit to load.  Built
# without sanitizers: nbdkit, which loads it, has none.
FLASHSO  = $(BUILD)/fsbench-flash.so
FLASHBLOB = $(BUILD)/src/media/plugin/blob.o
# The version string is a generated source of its own (build/version.c).
VERSIONOBJ = $(BUILD)/version.o
FLAGSTAMP  = $(BUILD)/flags
OBJS     = $(SRCS:%.c=$(BUILD)/%.o) $(BLOBOBJ) $(FLASHBLOB) $(VERSIONOBJ)
LIBOBJS  = $(LIBSRCS:%.c=$(BUILD)/%.o) $(BLOBOBJ) $(FLASHBLOB) $(VERSIONOBJ)
TESTSRCS = $(wildcard tests/unit/test_*.c)
TESTBINS = $(TESTSRCS:tests/unit/%.c=$(BUILD)/tests/%)
BIN      = $(if $(SAN),$(BUILD)/fsbench,fsbench)
FUZZSRCS = $(wildcard tests/fuzz/fuzz_*.c)
FUZZBINS = $(FUZZSRCS:tests/fuzz/%.c=$(BUILD)/fuzz/%)
FUZZ_TIME ?= 600

.PHONY: all deps run test test-asan test-run test-stress check-clang clean fuzz fuzz-bins fuzz-long install uninstall man FORCE

# `make install` (PREFIX, DESTDIR as usual): the binary, the suites (found
# from PREFIX/bin/fsbench as PREFIX/share/fsbench/suites) and the docs.
PREFIX  ?= /usr/local
BINDIR   = $(DESTDIR)$(PREFIX)/bin
SHAREDIR = $(DESTDIR)$(PREFIX)/share/fsbench
DOCDIR   = $(DESTDIR)$(PREFIX)/share/doc/fsbench
MANDIR   = $(DESTDIR)$(PREFIX)/share/man/man1
COMPDIR  = $(DESTDIR)$(PREFIX)/share/bash-completion/completions

all: $(BIN)

deps:
	@scripts/install-deps --check || scripts/install-deps

$(BIN): $(OBJS)
	$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/libfsbench.a: $(LIBOBJS)
	rm -f $@
	ar rcs $@ $^

# No sanitizer in PID 1 of a guest: it is static and runs before anything.
$(VMINIT): src/vm/init/vminit.c Makefile
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -Wall -Wextra -Werror -static -o $@ $<

$(BLOBOBJ): src/vm/init/blob.S $(VMINIT)
	@mkdir -p $(dir $@)
	$(CC) -c -DVMINIT_PATH='"$(VMINIT)"' -o $@ $<

$(FLASHSO): src/media/plugin/nbdkit-flash.c src/media/flash.c src/media/flash.h src/media/counters.h Makefile
	@mkdir -p $(dir $@)
	$(CC) -std=gnu11 -O2 -g -Wall -Wextra -Werror -Wshadow -fPIC -shared \
		$(shell pkg-config --cflags nbdkit) -o $@ src/media/plugin/nbdkit-flash.c src/media/flash.c

$(FLASHBLOB): src/media/plugin/blob.S $(FLASHSO)
	@mkdir -p $(dir $@)
	$(CC) -c -DFLASHSO_PATH='"$(FLASHSO)"' -o $@ $<

# Each object depends on the headers it includes (-MMD -MP writes .d files)
# and on the compiler and its flags, kept in $(FLAGSTAMP): a newly
# installed library's pkg-config flags, or SAN=1, rebuild every object.
$(BUILD)/%.o: %.c Makefile $(FLAGSTAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

# Both files are rewritten only when their text changes, so make sees a
# change only when there is one; a new commit rebuilds version.o alone.
# $(call update_file,FILE,VAR): FILE holds VAR's text, rewritten only when
# it differs (a variable's name, as the flags hold commas).
update_file = mkdir -p $(dir $(1)) && printf '%s\n' '$($(2))' | cmp -s - $(1) || \
	printf '%s\n' '$($(2))' > $(1)
FLAGS_TEXT   = $(CC) $(CFLAGS)
VERSION_TEXT = const char fsbench_version[] = "$(FULLVERSION)";

$(FLAGSTAMP): FORCE
	@$(call update_file,$@,FLAGS_TEXT)

$(BUILD)/version.c: FORCE
	@$(call update_file,$@,VERSION_TEXT)

$(VERSIONOBJ): $(BUILD)/version.c $(FLAGSTAMP)
	$(CC) $(CFLAGS) -c -o $@ $<

FORCE:

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libfsbench.a $(FLAGSTAMP)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Isrc -o $@ $< $(BUILD)/libfsbench.a $(LDFLAGS) \
		$(shell pkg-config --libs cmocka libseccomp) $(LDLIBS)

# libFuzzer harnesses, one per parser of untrusted text (tests/fuzz/).
$(BUILD)/fuzz/%: tests/fuzz/%.c tests/fuzz/fuzz.h $(BUILD)/libfsbench.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Isrc -fsanitize=fuzzer,address,undefined -o $@ $< $(BUILD)/libfsbench.a $(LDLIBS)

fuzz-bins: $(FUZZBINS)

# `make fuzz` builds them (build-fuzz/fuzz/); `make test` replays each
# one's corpus (tests/fuzz/corpus/NAME/) through it; `make fuzz-long`
# fuzzes each for FUZZ_TIME seconds, keeping crashes in its corpus.
fuzz: deps
	@$(MAKE) --no-print-directory BUILD=build-fuzz CC=clang FUZZ=1 fuzz-bins

fuzz-long: fuzz
	@tests/fuzz/run-long build-fuzz/fuzz $(FUZZ_TIME)

# The default comparison.  As root: the quick suite on five filesystems
# fsbench makes itself on 1 GiB images.  Otherwise fsbench cannot mkfs or
# mount, so it compares a scratch directory of the current filesystem with
# one under /dev/shm, and says so.
RUN_FS = ext4,xfs,btrfs,btrfs:compress=zstd,exfat-fuse
run: deps
	@$(MAKE) --no-print-directory -s all
	@if [ "$$(id -u)" -eq 0 ]; then \
		./fsbench run --suite quick --fs $(RUN_FS) --fs-size 1G; \
	else \
		echo "fsbench: not root, so no mkfs or mount: comparing directories instead (run as root for $(RUN_FS))"; \
		./fsbench run --suite quick --target disk=. --target shm=/dev/shm; \
	fi

# Tests also prove the tree builds warning-free with clang.
# The builds use every CPU (JOBS); tests/run runs as many suites at once.
JOBS ?= $(shell nproc 2>/dev/null || echo 1)
test: deps
	@$(MAKE) --no-print-directory -s -j$(JOBS) check-clang >/dev/null
	@$(MAKE) --no-print-directory -s -j$(JOBS) fuzz >/dev/null
	@$(MAKE) --no-print-directory -j$(JOBS) test-run

test-asan: deps
	@$(MAKE) --no-print-directory -s -j$(JOBS) fuzz >/dev/null
	@$(MAKE) --no-print-directory -j$(JOBS) BUILD=build-asan SAN=1 test-run

# The VM tests boot a pinned kernel from fsbench's cache: fetched (unpacked
# from Debian's package, never installed) the first time.
test-run: $(BIN) $(TESTBINS)
	@$(abspath $(BIN)) kernel fetch --if-missing || echo "fsbench: could not fetch a kernel: the VM tests will be skipped"
	@FSBENCH=$(abspath $(BIN)) TESTBIN=$(abspath $(BUILD)/tests) FUZZBIN=$(abspath build-fuzz/fuzz) tests/run

# `make test` on PASSES fresh clones of HEAD while the machine is hostile (page
# cache drops, busy loops, a concurrent fsbench run), AT_ONCE of them at a
# time; QUIET=1 without the background.
PASSES  ?= 10
AT_ONCE ?= 1
test-stress: deps
	@scripts/test-stress -n $(PASSES) -j $(AT_ONCE) $(if $(QUIET),--quiet)

check-clang: deps
	@$(MAKE) --no-print-directory BUILD=build-clang CC=clang build-clang/fsbench SAN= BIN=build-clang/fsbench

# The manual page and the bash completion are generated by fsbench itself
# from its option tables, so they cannot drift from --help.
man: build/fsbench.1 build/fsbench.bash
build/fsbench.1: fsbench
	@mkdir -p build
	./fsbench manpage > $@
build/fsbench.bash: fsbench $(wildcard suites/*.suite)
	@mkdir -p build
	FSBENCH_SUITES=suites ./fsbench completion bash > $@

install: fsbench build/fsbench.1 build/fsbench.bash
	install -d $(BINDIR) $(SHAREDIR)/suites $(DOCDIR)/workloads $(MANDIR) $(COMPDIR)
	install -m 755 fsbench $(BINDIR)/fsbench
	install -m 644 suites/*.suite $(SHAREDIR)/suites/
	install -m 644 README.md docs/*.md $(DOCDIR)/
	install -m 644 docs/workloads/*.md $(DOCDIR)/workloads/
	install -m 644 build/fsbench.1 $(MANDIR)/fsbench.1
	install -m 644 build/fsbench.bash $(COMPDIR)/fsbench

uninstall:
	rm -f $(BINDIR)/fsbench $(SHAREDIR)/suites/*.suite $(DOCDIR)/*.md $(DOCDIR)/workloads/*.md \
		$(MANDIR)/fsbench.1 $(COMPDIR)/fsbench
	-rmdir $(SHAREDIR)/suites $(SHAREDIR) $(DOCDIR)/workloads $(DOCDIR) 2>/dev/null

clean:
	rm -rf build build-asan build-clang build-fuzz fsbench fsbench.d

-include $(OBJS:.o=.d) $(TESTBINS:=.d) $(FUZZBINS:=.d) $(BIN).d
