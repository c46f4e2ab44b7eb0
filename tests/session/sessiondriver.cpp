// Test driver: the whole nb2lite command line (app/cli, linked as nb2cli: the binary's own
// code), built beside the tests so they need not find the installed binary. It has no seams
// of its own: tests shape timing through the fake server (FakeServer::setLatencyMs).
#include "app/cli/clirun.h"

int main(int argc, char *argv[])
{
    return nb2::cli::runNb2lite(argc, argv);
}
