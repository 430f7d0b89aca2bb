/*
 * stop.h: "the user asked to stop" (SIGINT, SIGTERM), for every layer.
 *
 * The handler only sets a flag; it is installed without SA_RESTART, so a
 * blocking call returns EINTR and the loops that check stop_requested()
 * (the runner's, every workload's, the I/O core's) end promptly and clean
 * up.  It lives in core so that nothing below the runner depends on it.
 */
#ifndef FSB_STOP_H
#define FSB_STOP_H

#include <signal.h>

extern volatile sig_atomic_t fsb_stop_requested;

static inline int stop_requested(void)
{
	return fsb_stop_requested != 0;
}

/* Install the SIGINT/SIGTERM handler. */
void stop_install_signals(void);

#endif
