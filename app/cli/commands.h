#pragma once

#include "app/cli/clireport.h"
#include "core/api/cancellation.h"

#include <QDeadlineTimer>
#include <QString>

#include <functional>
#include <optional>

namespace nb2 {

struct CliArgs;
class InteractionsClient;
class ThinkingLevels;
struct CallOptions;

/**
 * Runs one API command of nb2lite (generate, edit, edit-local, get, delete) with a ready
 * client and turns the outcome into a CliReport: saves the image, collects the caption,
 * usage and attempts. Progress and notes go to the `progress` sink (stderr), never stdout,
 * so --json output stays a single object.
 */
class CommandRunner
{
public:
    using ProgressSink = std::function<void(const QString &line)>;

    CommandRunner(InteractionsClient &client, ThinkingLevels *levels, QString outputDir, ProgressSink progress);

    CliReport run(const CliArgs &args);
    void setCancelToken(CancelTokenPtr token) { m_cancel = std::move(token); }
    /** --timeout: the whole command's limit, retries and waits included (forever by default). */
    void setDeadline(QDeadlineTimer deadline) { m_deadline = deadline; }

    /** File name prefix of a command's images: gen, edit, edit_local, style_edit, get. */
    static QString filePrefix(const CliArgs &args);

private:
    CliReport create(const CliArgs &args);
    Result<QString> parentAspectRatio(const QString &interactionId);
    std::optional<Error> missingKey() const;
    CliReport get(const CliArgs &args);
    CliReport remove(const CliArgs &args);
    CliReport fromInteraction(const Interaction &interaction, const QString &prefix);
    void noteLearnedLevels(const Error &error);
    /** Cancel token, deadline and the retry progress line every call shares. */
    CallOptions callOptions() const;

    InteractionsClient &m_client;
    ThinkingLevels *m_levels;
    QString m_outputDir;
    ProgressSink m_progress;
    CancelTokenPtr m_cancel;
    QDeadlineTimer m_deadline {QDeadlineTimer::Forever};
};

} // namespace nb2
