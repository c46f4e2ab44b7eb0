#include "core/common/preference.h"

namespace nb2 {

std::optional<QString> environmentOverride(const QProcessEnvironment &env, const char *name)
{
    // Trimmed: a variable exported as "" or " " by a shell script means "not set", and a
    // value pasted with a trailing newline still works.
    return nonEmptyText(env.value(QLatin1String(name)));
}

std::optional<QString> nonEmptyText(const QString &text)
{
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return std::nullopt;
    return trimmed;
}

} // namespace nb2
