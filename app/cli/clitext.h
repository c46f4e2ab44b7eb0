#pragma once

#include <QCoreApplication>

namespace nb2::cli {

/** tr() for nb2lite's own messages outside QObject classes (context "nb2lite", like the command table). */
struct CliText {
    Q_DECLARE_TR_FUNCTIONS(nb2lite)
};

} // namespace nb2::cli
