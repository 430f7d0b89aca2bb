/* test_cli.c: the command-line model (cli.h): each option's row declares
 * its type, its field in the command's struct, its bounds and its scope,
 * and the one parser reads every kind of value one way. */
#include "testutil.h"
#include "cli/cli.h"
#include "core/error.h"

#include <math.h>
#include <stdarg.h>

extern const struct cmd_entry cmd_run_entry, cmd_compare_entry, cmd_io_entry, cmd_show_entry,
	cmd_list_entry, cmd_report_entry, cmd_export_entry, cmd_import_entry, cmd_kernel_entry;

static const struct cli_opt *row(const struct cmd_entry *cmd, const char *name)
{
	for (const struct cli_opt *o = cmd->args; o->name; o++)
		if (!strcmp(o->name, name))
			return o;
	fail_msg("%s has no option --%s", cmd->name, name);
	return NULL;
}

/* Parse words (argv[0] the command's name); 0 or -1 as cli_parse. */
static int parse(const struct cmd_entry *cmd, struct cli_args *a, int n, ...)
{
	static char *argv[32];
	va_list ap;

	argv[0] = (char *)cmd->name;
	va_start(ap, n);
	for (int i = 0; i < n && i < 31; i++)
		argv[i + 1] = va_arg(ap, char *);
	va_end(ap);
	return cli_parse(cmd, n + 1, argv, a);
}

#define FIELD(a, cmd, name, type) (*(const type *)((const char *)(a)->opts + row(cmd, name)->offset))

/* Every kind of value lands typed in the command's struct: the body reads
 * fields, never text.  The bug it catches: a row whose type or offset is
 * wrong (a count read as a size, a field of another option). */
static void test_typed_values(void **state)
{
	(void)state;
	struct cli_args a;
	const struct cmd_entry *run = &cmd_run_entry;

	assert_int_equal(parse(run, &a, 12, "--runs", "5", "--precision", "3%", "--fs-size", "2G",
			       "--scale", "0.5", "--time-budget", "30m", "--quiet", "fsmark"), 0);
	assert_non_null(a.opts);
	assert_int_equal(FIELD(&a, run, "runs", int), 5);
	assert_true(FIELD(&a, run, "precision", double) == 0.03);
	assert_true(FIELD(&a, run, "fs-size", uint64_t) == 2ULL << 30);
	assert_true(FIELD(&a, run, "scale", double) == 0.5);
	assert_true(FIELD(&a, run, "time-budget", double) == 1800);
	assert_int_equal(FIELD(&a, run, "quiet", int), 1);
	assert_int_equal(FIELD(&a, run, "verbose", int), 0);	/* not given: zero */
	assert_null(FIELD(&a, run, "db", char *));
	assert_int_equal(cli_npos(&a), 1);
	assert_string_equal(cli_pos(&a, 0), "fsmark");
	cli_args_free(&a);
}

/* A percentage is read one way in every command: "5%" and "5" are 0.05
 * for compare --fail-on-regression as for run --margin (the bug: compare
 * refused "5%" where run took "3%"). */
static void test_percent_one_way(void **state)
{
	(void)state;
	struct cli_args a;
	static const char *const texts[] = { "5%", "5" };

	for (int i = 0; i < 2; i++) {
		assert_int_equal(parse(&cmd_compare_entry, &a, 4, "1", "2", "--fail-on-regression",
				       texts[i]), 0);
		assert_true(fabs(FIELD(&a, &cmd_compare_entry, "fail-on-regression", double) - 0.05) < 1e-12);
		cli_args_free(&a);
		assert_int_equal(parse(&cmd_run_entry, &a, 2, "--margin", texts[i]), 0);
		assert_true(fabs(FIELD(&a, &cmd_run_entry, "margin", double) - 0.05) < 1e-12);
		cli_args_free(&a);
	}
	assert_int_equal(parse(&cmd_compare_entry, &a, 4, "1", "2", "--fail-on-regression", "0"), 0);
	cli_args_free(&a);	/* a threshold of 0 means something */
}

/* Out of bounds or not of the type: refused when parsed, naming the
 * option and the value, as every command says it.  The bug it catches: a
 * bound declared but not checked (--precision 100% accepted). */
static void test_refusals(void **state)
{
	(void)state;
	struct cli_args a;
	static const struct { const char *opt, *value, *says; } bad[] = {
		{ "--runs", "x", "--runs: bad value 'x' (a whole number from 1 to 1000)" },
		{ "--runs", "0", "--runs: bad value '0'" },
		{ "--precision", "0%", "--precision: bad value '0%' (a percentage above 0 and below 100" },
		{ "--precision", "100", "--precision: bad value '100'" },
		{ "--margin", "51%", "--margin: bad value '51%' (a percentage above 0 and at most 50" },
		{ "--fs-size", "1M", "--fs-size: bad value '1M' (a size of at least 16M" },
		{ "--vm-mem", "2T", "--vm-mem: bad value '2T' (a size of at least 256M and at most 1T" },
		{ "--scale", "0", "--scale: bad value '0' (a number from 0.001 to 1000" },
		{ "--time-budget", "soon", "--time-budget: bad value 'soon' (a duration" },
		{ "--warmup", "-1", "--warmup: bad value '-1'" },
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(parse(&cmd_run_entry, &a, 2, bad[i].opt, bad[i].value), -1);
		if (!strstr(error_get(), bad[i].says))
			fail_msg("%s %s: \"%s\", not \"%s\"", bad[i].opt, bad[i].value, error_get(),
				 bad[i].says);
		cli_args_free(&a);
	}
}

/* The scopes that replaced cmd-run.c's hand lists: what --vm keeps from
 * its guest and what --resume takes beside it.  The bug it catches: an
 * option added to one list and not the other (a VM-only option passed to
 * the guest, which would refuse it). */
static void test_scopes(void **state)
{
	(void)state;
	const struct cmd_entry *run = &cmd_run_entry;
	int vm_only = 0, resumable = 0;

	for (const struct cli_opt *o = run->args; o->name; o++) {
		if (o->flags & CLI_VM_ONLY) {
			vm_only++;
			assert_true(o->flags & CLI_HOST_ONLY);	/* never passed to the guest */
		}
		resumable += !!(o->flags & CLI_RESUMABLE);
	}
	/* kernel, vm-mem, vm-cpus, vm-accel, vm-timeout, vm-device-bus, vm-device-throttle */
	assert_int_equal(vm_only, 7);
	assert_int_equal(resumable, 4);	/* resume, db, quiet, verbose */
	assert_true(row(run, "vm")->flags & CLI_HOST_ONLY);
	assert_true(row(run, "json")->flags & CLI_HOST_ONLY);
	assert_false(row(run, "runs")->flags & CLI_HOST_ONLY);
	/* the guest takes its turns on --device's region as the host would */
	assert_false(row(run, "device-size")->flags & CLI_HOST_ONLY);
	assert_false(row(run, "device-reset")->flags & CLI_HOST_ONLY);
}

/* Every typed row of every command points inside its command's struct,
 * with bounds that make sense (the bug: an offset past the struct, which
 * the parser would write through). */
static void test_rows_fit(void **state)
{
	(void)state;
	static const struct cmd_entry *const cmds[] = { &cmd_run_entry, &cmd_compare_entry,
		&cmd_io_entry, &cmd_show_entry, &cmd_list_entry, &cmd_report_entry, &cmd_export_entry,
		&cmd_import_entry, &cmd_kernel_entry };

	for (size_t c = 0; c < sizeof(cmds) / sizeof(cmds[0]); c++)
		for (const struct cli_opt *o = cmds[c]->args; o->name; o++) {
			size_t width = o->type == CLI_SIZE ? sizeof(uint64_t) : o->type == CLI_STRING ?
				sizeof(const char *) : o->type == CLI_FLAG || o->type == CLI_COUNT ?
				sizeof(int) : sizeof(double);
			if (o->type == CLI_RAW)
				continue;
			if (o->offset + width > cmds[c]->opts_size)
				fail_msg("%s --%s: field past the command's struct", cmds[c]->name, o->name);
			assert_true(o->type == CLI_FLAG ? !o->has_arg : o->has_arg);
			if (o->type == CLI_COUNT)
				assert_true(o->min <= o->max);
		}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_typed_values),
		cmocka_unit_test(test_percent_one_way),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_scopes),
		cmocka_unit_test(test_rows_fit),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
