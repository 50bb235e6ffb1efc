// Ending by signal: SIGTERM (`kill`, a session logging out, a service manager) ends the viewer at
// once, without the unsaved-edits question and without saving anything.
#pragma once

namespace app {

// Installs the viewer's SIGTERM handler in place of SDL's (which turns the signal into a quit
// event, and so into the unsaved-edits question that nobody may be there to answer). Call it after
// SDL is initialised; calling it again changes nothing.
void CatchTermination();

// The signal number that asked the viewer to end (SIGTERM), or 0 while none has.
int TerminationSignal();

}  // namespace app
