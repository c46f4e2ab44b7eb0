// The only object of the tests compiled with the checkout's paths (see testpaths.h).
#include "tests/testpaths.h"

namespace nb2test {

QString binaryDir()
{
    return QStringLiteral(NB2_BINARY_DIR);
}

QString sourceDir()
{
    return QStringLiteral(NB2_SOURCE_DIR);
}

QString testDataDir()
{
    return sourceDir() + QStringLiteral("/tests/data");
}

QString cliProgram()
{
    return QStringLiteral(NB2_CLI_PROGRAM);
}

QString studioProgram()
{
    return QStringLiteral(NB2_STUDIO_PROGRAM);
}

QString fakeApiProgram()
{
    return QStringLiteral(NB2_FAKEAPI_PROGRAM);
}

QString thumbnailerProgram()
{
    return QStringLiteral(NB2_THUMBNAILER_PROGRAM);
}

QString sessionDriverProgram()
{
    return QStringLiteral(NB2_SESSION_DRIVER_PROGRAM);
}

} // namespace nb2test
