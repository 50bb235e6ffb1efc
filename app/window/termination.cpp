// The SIGTERM handler: it only records the signal (async-signal-safe); the loop ends the viewer.
#include "app/window/termination.h"

#include <signal.h>

#include <csignal>

namespace app {

namespace {

volatile std::sig_atomic_t g_signal = 0;

extern "C" void OnTerminate(int signal_number) { g_signal = signal_number; }

}  // namespace

void CatchTermination() {
  struct sigaction action = {};
  action.sa_handler = OnTerminate;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  sigaction(SIGTERM, &action, nullptr);
}

int TerminationSignal() { return static_cast<int>(g_signal); }

}  // namespace app
