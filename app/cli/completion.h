#pragma once

#include <QString>

namespace nb2::cli {

/**
 * Shell completion scripts for nb2lite, generated from the command table (app/cli/clitable.h)
 * so that they always offer exactly the commands, options and values the parser accepts:
 * command names, each command's options, fixed values (aspect ratios, thinking levels, export
 * formats, ...), files and folders where a path is expected, and the frame ids of the session
 * named by --session DIR (read with `nb2lite --session DIR log --ids`, which needs no network).
 */
QString bashCompletionScript();
QString zshCompletionScript();

} // namespace nb2::cli
