// Test driver: the whole nb2lite command line (app/cli, linked as nb2cli: the binary's own
// code) plus the seams only tests may set. They come from the environment, so the product
// binary carries no test-only flag: NB2_TEST_STEP_DELAY_MS widens the crash windows
// (SessionController::setStepDelayForTesting) for the kill test.
#include "app/cli/clirun.h"

#include <QtGlobal>

int main(int argc, char *argv[])
{
    nb2::cli::TestSeams seams;
    seams.stepDelayMs = qEnvironmentVariableIntValue("NB2_TEST_STEP_DELAY_MS");
    return nb2::cli::runNb2lite(argc, argv, seams);
}
