#include "app/cli/console.h"

#include "app/cli/exitcodes.h"

#include <QTextStream>

namespace nb2::cli {

void Console::out(const QString &text)
{
    m_out << m_printer.redact(text);
    m_out.flush();
}

void Console::err(const QString &text)
{
    m_err << m_printer.redact(text);
    m_err.flush();
}

int Console::finish(const CliReport &report, bool json)
{
    if (json)
        out(m_printer.json(report));
    else
        out(m_printer.human(report));
    if (!report.ok)
        err(m_printer.errorLine(report));
    return exitCodeOf(report);
}

int exitCodeOf(const CliReport &report)
{
    if (report.ok)
        return kExitSuccess;
    if (report.errorKind == QLatin1String("usage"))
        return kExitUsage;
    if (!report.error || !report.errorKind.isEmpty())
        return kExitInternal;
    const int code = exitCodeFor(report.error->kind);
    return code == kExitSuccess ? kExitInternal : code;
}

} // namespace nb2::cli
