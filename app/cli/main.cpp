// nb2lite: the command-line front end. Wiring only; everything else is in app/cli (nb2cli).
#include "app/cli/clirun.h"

int main(int argc, char *argv[])
{
    return nb2::cli::runNb2lite(argc, argv);
}
