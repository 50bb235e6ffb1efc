// skelview entry point: everything happens in app::RunCommandLine.
#include "app/cli.h"

int main(int argc, char** argv) { return app::RunCommandLine(argc, argv); }
