#pragma once

#include <QString>

namespace nb2 {
class SessionController;
struct CliArgs;
} // namespace nb2

namespace nb2::cli {

class Console;

/**
 * `nb2lite --session DIR keep REF [--add TEXT | --remove N | --clear | --inherit]`: changes the
 * keep-list set on REF (core/session/keeplist.h: in force for REF and its descendants) and
 * prints the list in force at REF afterwards, numbered; --json prints
 * {"ok", "frame", "keep_list", "set_on"}.
 */
int runKeep(SessionController &session, const QString &frameId, const CliArgs &args, Console &console);

} // namespace nb2::cli
