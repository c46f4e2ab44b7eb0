#pragma once

#include "app/cli/clitable.h"

#include <QString>

namespace nb2::cli {

/** `nb2lite --help`: every command, every option and the exit statuses, from the command table. */
QString globalHelpText();

/** `nb2lite help COMMAND` and `nb2lite COMMAND --help`: the command's forms, options and details. */
QString commandHelpText(const CommandSpec &command);

} // namespace nb2::cli
