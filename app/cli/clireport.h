#pragma once

#include "core/api/interaction.h"
#include "core/common/error.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace nb2 {

/** The outcome of one nb2lite command, in the shape --json promises. */
struct CliReport {
    bool ok = false;
    QString path; // absolute path of the saved image; empty when none
    QString interactionId;
    QString mimeType;
    int width = -1; // -1: unknown / no image
    int height = -1;
    QString text; // the model's caption (or, for no_image, what it said instead)
    std::optional<Usage> usage;
    int attempts = 0;
    std::optional<Error> error;
    QString errorKind; // overrides errorKindName(error->kind): "usage", "internal"
    QJsonObject extra; // --json only: more keys after the documented ones (a session turn's frame_id, frame, ...)

    // Human output only.
    QString status;
    QString model;
    QString previousInteractionId;
    QString notice; // e.g. "Deleted interaction X"
};

/**
 * Renders a CliReport for people (stdout lines + one stderr error line) or for programs
 * (exactly one JSON object, keys in the documented order). Every string that leaves the
 * process goes through redact(), so a key echoed by a misbehaving server is still not shown.
 */
class ReportPrinter
{
public:
    explicit ReportPrinter(QString secret = {}) : m_secret(std::move(secret)) {}

    QByteArray json(const CliReport &report) const;   // one line, ends with '\n'
    QString human(const CliReport &report) const;     // stdout text (may be empty)
    QString errorLine(const CliReport &report) const; // "nb2lite: error (<kind>, HTTP n): <message>\n"
    QString redact(const QString &text) const;

private:
    QString m_secret;
};

/** A failure that is not an API error: kind "usage" (bad command line) or "internal". */
CliReport failureReport(const QString &kind, const QString &message);

struct RetryNotice;
/** "retrying: attempt 1 of 5 failed (timeout: ...); trying again in 1.5 s" for stderr. */
QString retryNoticeLine(const RetryNotice &notice);

} // namespace nb2
