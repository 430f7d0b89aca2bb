/* stop.c: the stop flag and its signal handler (see stop.h). */
#include "stop.h"

#include <string.h>

volatile sig_atomic_t fsb_stop_requested;

static void on_signal(int sig)
{
	fsb_stop_requested = sig;
}

void stop_install_signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}
