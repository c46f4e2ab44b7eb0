// Test driver: runs the same code as `nb2lite --session DIR ...` (app/cli/sessioncommands.cpp).
#include "app/cli/sessioncommands.h"

#include <QCoreApplication>
#include <QTextStream>

#include <cstdio>

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QTextStream out(stdout);
    QTextStream err(stderr);
    const int rc = nb2::cli::runSessionCommand(QCoreApplication::arguments().mid(1), out, err);
    out.flush();
    err.flush();
    return rc;
}
