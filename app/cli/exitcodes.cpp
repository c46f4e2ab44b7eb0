#include "app/cli/exitcodes.h"

#include "app/cli/clitext.h"

#include <array>

namespace nb2 {

namespace {

struct ExitCodeRow {
    ErrorKind kind;
    int code;
    const char *meaning;
};

// Codes are part of the CLI's contract: append new kinds, never renumber.
constexpr std::array kExitCodes {
    ExitCodeRow {ErrorKind::InvalidInput, 3,
        "invalid input, rejected before any request (prompt, aspect ratio, thinking level, file)"},
    ExitCodeRow {ErrorKind::InvalidRequest, 4, "the server rejected the request (HTTP 400)"},
    ExitCodeRow {ErrorKind::Auth, 5, "no API key, or the key was refused"},
    ExitCodeRow {ErrorKind::NotFound, 6, "interaction id unknown, deleted or expired (or unknown model)"},
    ExitCodeRow {ErrorKind::RateLimited, 7, "rate limited (HTTP 429); try again later"},
    ExitCodeRow {ErrorKind::Server, 8, "server error (5xx or unexpected status)"},
    ExitCodeRow {ErrorKind::Network, 9, "network error (connection refused or reset)"},
    ExitCodeRow {ErrorKind::Tls, 10, "TLS verification failed, or plain http to a non-loopback host"},
    ExitCodeRow {ErrorKind::Timeout, 11, "timed out"},
    ExitCodeRow {ErrorKind::Cancelled, 12, "cancelled"},
    ExitCodeRow {ErrorKind::MalformedResponse, 13, "the server's answer could not be understood"},
    ExitCodeRow {ErrorKind::NoImage, 14, "the model answered without an image (its text is shown)"},
    ExitCodeRow {ErrorKind::TooLarge, 15, "request over the 20 MB limit (see --reencode)"},
    ExitCodeRow {ErrorKind::Io, 16, "a local file could not be read or written"},
    ExitCodeRow {ErrorKind::Conflict, 17, "refused: it would fork a branch or overwrite existing files"},
    ExitCodeRow {ErrorKind::Unsafe, 18, "a path would leave its folder, or a link would be followed"},
    ExitCodeRow {ErrorKind::Corrupt, 19, "a manifest or bundle is damaged (a session can be rebuilt)"},
    ExitCodeRow {ErrorKind::Locked, 20, "the session is locked by another process"},
    ExitCodeRow {ErrorKind::NotWritable, 21, "the folder is read-only"},
    ExitCodeRow {ErrorKind::DiskFull, 22, "the disk is full"},
    ExitCodeRow {ErrorKind::Budget, 23, "over the cost budget"},
};

} // namespace

int exitCodeFor(ErrorKind kind)
{
    if (kind == ErrorKind::None)
        return kExitSuccess;
    for (const auto &row : kExitCodes) {
        if (row.kind == kind)
            return row.code;
    }
    return kExitInternal;
}

QString exitCodeHelp()
{
    QString text = cli::CliText::tr("Exit status:\n");
    const auto line = [&text](int code, const QString &name, const QString &meaning) {
        text += QStringLiteral("  %1  %2 %3\n").arg(code, 2).arg(name, -20).arg(meaning);
    };
    line(kExitSuccess, QStringLiteral("ok"), QStringLiteral("success"));
    line(kExitInternal, QStringLiteral("internal"), cli::CliText::tr("unexpected internal failure"));
    line(kExitUsage, QStringLiteral("usage"), cli::CliText::tr("bad command line"));
    for (const auto &row : kExitCodes)
        line(row.code, errorKindName(row.kind), QString::fromLatin1(row.meaning));
    return text;
}

} // namespace nb2
