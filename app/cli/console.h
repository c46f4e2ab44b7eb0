#pragma once

#include "app/cli/clireport.h"

#include <QByteArray>
#include <QString>

class QTextStream;

namespace nb2::cli {

/**
 * nb2lite's two output streams. Every write goes through the report printer's redaction (the
 * API key never leaves the process, even when a server echoes it) and is flushed at once, so
 * progress on stderr and the result on stdout keep their order. The binary writes to stdout
 * and stderr; in-process tests pass streams over strings.
 */
class Console
{
public:
    Console(QTextStream &out, QTextStream &err) : m_out(out), m_err(err) {}

    /** The key to scrub from everything written from now on. */
    void setSecret(const QString &secret) { m_printer = ReportPrinter(secret); }
    const ReportPrinter &printer() const { return m_printer; }

    void out(const QString &text);
    void out(const QByteArray &utf8) { out(QString::fromUtf8(utf8)); }
    void err(const QString &text);

    /**
     * Prints a report (one JSON object with --json, else the human lines) and its error line;
     * returns the process exit status from the exit-code table.
     */
    int finish(const CliReport &report, bool json);

private:
    QTextStream &m_out;
    QTextStream &m_err;
    ReportPrinter m_printer;
};

/** The exit status of a report: 0, 2 for "usage", 1 for "internal", else exitCodeFor(kind). */
int exitCodeOf(const CliReport &report);

} // namespace nb2::cli
