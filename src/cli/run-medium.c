/*
 * run-medium.c: the medium a run's filesystems take turns on, from the
 * command line: a user's device (--device) or a model of one (--medium),
 * with its region, reset and settle; whether a model is served to this
 * host (media/host.h) or to the guest; and, for this host, starting it
 * before the targets are made.  cmd-run.c calls it; it calls nothing of
 * cmd-run.c's.
 */
#include "run-cli.h"
#include "../core/error.h"
#include "../targets/medium.h"
#include "../targets/profiles.h"
#include "../vm/vm.h"

#include <limits.h>

int run_medium_options(const struct cli_args *a, struct run_cli *c)
{
	const struct run_args *o = a->opts;

	/* --device: one medium every --fs target takes turns on; its region
	 * is sized once the tests are known (check_targets) */
	if (o->device && o->medium)
		return error_set("--device and --medium: one medium a run (a device, or a model of one)");
	if (o->medium) {
		if (model_lookup(o->medium, &c->model))
			return -1;
		c->modelled = 1;
	}
	if (o->device || o->medium) {
		enum medium_reset reset = MEDIUM_RESET_DISCARD;
		if (o->device_reset && medium_reset_parse(o->device_reset, &reset))
			return -1;
		if (o->fs_size)
			return error_set("--fs-size sizes images; the region of --device is "
					 "--device-size");
		/* a model: the guest's USB key, named once the guest finds it */
		c->prov.medium = medium_new(o->device ? o->device : "(the modelled medium)",
					    o->device_size, reset,
					    cli_has(a, "device-settle") ? o->device_settle : 2,
					    o->force_format);
		if (!c->prov.medium)
			return error_set("out of memory");
	} else if (o->device_size || o->device_reset || cli_has(a, "device-settle")) {
		return error_set("--device-size, --device-reset and --device-settle go with --device "
				 "or --medium");
	}
	return 0;
}

int run_medium_here(const struct run_cli *c, char *why, size_t len)
{
	if (model_host_possible(why, len))
		return 0;
	for (int i = 0; i < c->rq.ntargets; i++)
		if (fs_profile_available(target_fs_spec(&c->rq.targets[i])->profile, why, len))
			return 0;
	return 1;
}

int run_medium_start(struct run_cli *c)
{
	char dev[64], what[1400], counters[PATH_MAX];

	if (!c->model_here || c->vm || vm_guest_job())
		return 0;
	/* the model's device, which every target then takes turns on as on
	 * a user's --device */
	if (model_host_start(&c->mh, c->prov.image_dir ? c->prov.image_dir : "/var/tmp", &c->model,
			     dev, sizeof(dev), what, sizeof(what), counters, sizeof(counters)))
		return -1;
	medium_set_device(c->prov.medium, dev, what, counters);
	medium_set_buffer(c->prov.medium, c->model.buffer);
	medium_set_discard_file(c->prov.medium, model_host_file(c->mh));
	return 0;
}
