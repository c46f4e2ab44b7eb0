#include "app/cli/clireport.h"

#include "app/cli/clitext.h"
#include "app/cli/jsonout.h"
#include "core/api/interactionsclient.h"
#include "core/common/humanduration.h"

#include <nlohmann/json.hpp>

namespace nb2 {

namespace {

using Json = cli::OutJson;

Json optionalString(const QString &value)
{
    return value.isEmpty() ? Json(nullptr) : Json(value.toStdString());
}

Json optionalCount(qint64 value)
{
    return value < 0 ? Json(nullptr) : Json(value);
}

// Messages go on one stderr line; a server's multi-line text must not break that.
QString oneLine(QString text)
{
    text.replace(QLatin1String("\r\n"), QLatin1String(" "));
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    text.replace(QLatin1Char('\r'), QLatin1Char(' '));
    return text.trimmed();
}

// The readable message, plus the server's own words when the message does not carry them.
QString fullMessage(const Error &error)
{
    QString message = error.message.isEmpty() ? QStringLiteral("failed") : error.message;
    // Messages quote the server without its final full stop: compare the same way, or its words come twice.
    QString said = error.api.serverMessage.trimmed();
    while (said.endsWith(QLatin1Char('.')))
        said.chop(1);
    if (!said.isEmpty() && !message.contains(said))
        message += cli::CliText::tr(" (server said: %1)").arg(error.api.serverMessage);
    // Only where re-encoding can help: the message says so when images were sent (not for a
    // text-only request, a bundle entry or an image that cannot shrink enough).
    if (error.kind == ErrorKind::TooLarge && message.contains(QLatin1String("re-encode option"))
        && !message.contains(QLatin1String("--reencode")))
        message += cli::CliText::tr(" Re-run with --reencode to send a re-encoded JPEG copy instead.");
    return message;
}

QString kindName(const CliReport &report)
{
    if (!report.errorKind.isEmpty())
        return report.errorKind;
    return report.error ? errorKindName(report.error->kind) : QString();
}

} // namespace

QString ReportPrinter::redact(const QString &text) const
{
    // Short secrets (test and demo keys) would mangle ordinary words; real keys are ~39 chars.
    if (m_secret.size() < 6 || !text.contains(m_secret))
        return text;
    QString copy = text;
    copy.replace(m_secret, QStringLiteral("[redacted]"));
    return copy;
}

QByteArray ReportPrinter::json(const CliReport &report) const
{
    Json object;
    object["ok"] = report.ok;
    object["path"] = optionalString(report.path);
    object["interaction_id"] = optionalString(redact(report.interactionId));
    object["mime_type"] = optionalString(report.mimeType);
    object["width"] = report.width < 0 ? Json(nullptr) : Json(report.width);
    object["height"] = report.height < 0 ? Json(nullptr) : Json(report.height);
    object["text"] = optionalString(redact(report.text));
    if (report.usage) {
        Json usage;
        usage["input_tokens"] = optionalCount(report.usage->inputTokens);
        usage["output_tokens"] = optionalCount(report.usage->outputTokens);
        usage["thought_tokens"] = optionalCount(report.usage->thoughtTokens);
        usage["total_tokens"] = optionalCount(report.usage->totalTokens);
        object["usage"] = usage;
    } else {
        object["usage"] = nullptr;
    }
    object["attempts"] = report.attempts;
    if (report.error) {
        Json error;
        const Error &e = *report.error;
        error["kind"] = kindName(report).toStdString();
        error["http_status"] = e.api.httpStatus > 0 ? Json(e.api.httpStatus) : Json(nullptr);
        error["message"] = redact(oneLine(fullMessage(e))).toStdString();
        object["error"] = error;
    } else {
        object["error"] = nullptr;
    }
    for (auto it = report.extra.constBegin(); it != report.extra.constEnd(); ++it)
        object[it.key().toStdString()] = cli::toOutJson(it.value());
    return cli::jsonLine(object);
}

QString ReportPrinter::human(const CliReport &report) const
{
    QString out;
    const auto line = [&out](const QString &label, const QString &value) {
        if (!value.isEmpty())
            out += label + value + QLatin1Char('\n');
    };
    line(QString(), report.notice);
    line(cli::CliText::tr("Saved to: "), report.path);
    line(cli::CliText::tr("Interaction ID: "), report.interactionId);
    if (report.ok) {
        line(QStringLiteral("Status: "), report.status);
        line(QStringLiteral("Model: "), report.model);
        line(cli::CliText::tr("Previous interaction ID: "), report.previousInteractionId);
        if (report.width > 0 && report.height > 0)
            out += QStringLiteral("Image: %1x%2 %3\n").arg(report.width).arg(report.height).arg(report.mimeType);
        line(cli::CliText::tr("Model text: "), oneLine(report.text));
        if (report.attempts > 1)
            out += cli::CliText::tr("Attempts: %1 (the request was retried)\n").arg(report.attempts);
    }
    return redact(out);
}

QString ReportPrinter::errorLine(const CliReport &report) const
{
    if (!report.error)
        return {};
    const Error &error = *report.error;
    const QString kind = kindName(report);
    QString line = QStringLiteral("nb2lite: error (%1").arg(kind);
    if (error.api.httpStatus > 0)
        line += QStringLiteral(", HTTP %1").arg(error.api.httpStatus);
    line += QStringLiteral("): ") + oneLine(fullMessage(error));
    if (error.kind == ErrorKind::NoImage && !error.api.modelText.isEmpty()
        && !line.contains(oneLine(error.api.modelText)))
        line += cli::CliText::tr(" Model said: \"%1\"").arg(oneLine(error.api.modelText));
    if (error.api.attempts > 1)
        line += QStringLiteral(" [%1 attempts]").arg(error.api.attempts);
    return redact(line) + QLatin1Char('\n');
}

QString retryNoticeLine(const RetryNotice &notice)
{
    return cli::CliText::tr("retrying: attempt %1 of %2 failed (%3: %4); trying again in %5")
        .arg(notice.attempt)
        .arg(notice.maxAttempts)
        .arg(errorKindName(notice.error.kind), oneLine(notice.error.message), humanDuration(notice.delayMs));
}

CliReport failureReport(const QString &kind, const QString &message)
{
    CliReport report;
    Error error;
    error.message = message;
    report.error = error;
    report.errorKind = kind;
    return report;
}

} // namespace nb2
