#pragma once
// Where a test finds the build tree, its data and the programs it starts.
//
// The paths are compiled into one small library (tests/testpaths.cpp), never defined on the
// tests themselves: an object whose flags name the checkout's folder misses ccache in a clone
// in any other folder, and CI builds a clean clone (every test compiled again, ~12 minutes per
// build tree on two cores).
#include <QString>

namespace nb2test {

/** The top of the build tree (CMake's PROJECT_BINARY_DIR). */
QString binaryDir();
/** The top of the source tree. */
QString sourceDir();
/** tests/data in the source tree. */
QString testDataDir();

/** The programs under test, as built. */
QString cliProgram();         // nb2lite
QString studioProgram();      // nb2lite-studio
QString fakeApiProgram();     // nb2lite-fakeapi
QString thumbnailerProgram(); // nb2lite-thumbnailer
/** tests/session's second process: a session store driven from its command line. */
QString sessionDriverProgram();

} // namespace nb2test
