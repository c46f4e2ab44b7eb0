#include "app/cli/commands.h"

#include "app/cli/cliargs.h"
#include "app/cli/clitext.h"
#include "app/cli/imagefile.h"
#include "app/cli/turnbuilder.h"
#include "core/api/imageinput.h"
#include "core/api/interactionsclient.h"
#include "core/api/thinkinglevels.h"

namespace nb2 {

namespace {

CliReport errorReport(const Error &error)
{
    CliReport report;
    report.ok = false;
    report.error = error;
    report.attempts = error.api.attempts;
    if (error.kind == ErrorKind::NoImage)
        report.text = error.api.modelText;
    return report;
}

} // namespace

CommandRunner::CommandRunner(
    InteractionsClient &client, ThinkingLevels *levels, QString outputDir, ProgressSink progress)
    : m_client(client), m_levels(levels), m_outputDir(std::move(outputDir)), m_progress(std::move(progress))
{}

QString CommandRunner::filePrefix(const CliArgs &args)
{
    switch (args.command) {
    case CliCommand::Generate:
        return QStringLiteral("gen");
    case CliCommand::Edit:
        return QStringLiteral("edit");
    case CliCommand::EditLocal:
        return args.styleFile.isEmpty() ? QStringLiteral("edit_local") : QStringLiteral("style_edit");
    default:
        return QStringLiteral("get");
    }
}

std::optional<Error> CommandRunner::missingKey() const
{
    if (!m_client.config().apiKey.isEmpty())
        return std::nullopt;
    Error error;
    error.kind = ErrorKind::Auth;
    error.message = cli::CliText::tr("no API key: set GEMINI_API_KEY (or GOOGLE_API_KEY), or put the key on the first "
                                     "line of ~/gemini.key (chmod 600); or try --demo for the offline fake API");
    return error;
}

CallOptions CommandRunner::callOptions() const
{
    CallOptions options;
    options.cancel = m_cancel;
    options.deadline = m_deadline;
    // A server that does not answer must not look like a hung program: each retry says so.
    options.onRetry = [progress = m_progress](const RetryNotice &notice) { progress(retryNoticeLine(notice)); };
    return options;
}

CliReport CommandRunner::run(const CliArgs &args)
{
    // get/delete have nothing to check locally; create() checks the key only after its
    // local validation, so that a bad prompt is reported as such even without a key.
    if (args.command == CliCommand::Get || args.command == CliCommand::Delete) {
        if (auto error = missingKey())
            return errorReport(*error);
    }
    switch (args.command) {
    case CliCommand::Generate:
    case CliCommand::Edit:
    case CliCommand::EditLocal:
        return create(args);
    case CliCommand::Get:
        return get(args);
    case CliCommand::Delete:
        return remove(args);
    default:
        return failureReport(QStringLiteral("internal"), cli::CliText::tr("not an API command"));
    }
}

Result<QString> CommandRunner::parentAspectRatio(const QString &interactionId)
{
    CallOptions options = callOptions();
    Result<Interaction> parent = m_client.get(interactionId, options);
    if (!parent)
        return parent.error();
    const QSize size = imagePixelSize(parent.value().image.bytes);
    if (!size.isValid()) {
        Error error;
        error.kind = ErrorKind::InvalidInput;
        error.message = cli::CliText::tr("cannot tell the aspect ratio of interaction %1 (it has no readable image); "
                                         "pass --aspect")
                            .arg(interactionId);
        return error;
    }
    return nearestAspectRatio(size);
}

CliReport CommandRunner::create(const CliArgs &args)
{
    CliArgs effective = args;
    const bool keepChainRatio = args.command == CliCommand::Edit && !args.hasAspectRatio;
    if (keepChainRatio) {
        // Settings are per interaction, so an edit re-sends the chain's ratio. Check
        // everything local first (with a stand-in ratio) before asking the server.
        effective.aspectRatio = supportedAspectRatios().constFirst();
        effective.hasAspectRatio = true;
        TurnBuilder probe(m_client.config().model, m_levels, args.reencode);
        Result<TurnRequest> provisional = probe.build(effective);
        if (!provisional)
            return errorReport(provisional.error());
        if (auto invalid = m_client.validate(provisional.value()))
            return errorReport(*invalid);
        if (auto error = missingKey())
            return errorReport(*error);
        Result<QString> ratio = parentAspectRatio(args.interactionId);
        if (!ratio)
            return errorReport(ratio.error());
        effective.aspectRatio = ratio.value();
        m_progress(
            cli::CliText::tr("note: aspect ratio %1, kept from interaction %2").arg(ratio.value(), args.interactionId));
    }

    TurnBuilder builder(m_client.config().model, m_levels, args.reencode);
    Result<TurnRequest> request = builder.build(effective);
    for (const QString &note : builder.notes())
        m_progress(cli::CliText::tr("note: ") + note);
    if (!request)
        return errorReport(request.error());
    if (auto invalid = m_client.validate(request.value()))
        return errorReport(*invalid);
    if (auto error = missingKey())
        return errorReport(*error);

    CallOptions options = callOptions();
    options.stream = args.stream;
    if (args.stream) {
        options.onEvent = [this](const StreamEvent &event) {
            switch (event.type) {
            case StreamEvent::Type::Created:
                m_progress(cli::CliText::tr("stream: interaction id %1").arg(event.interactionId));
                break;
            case StreamEvent::Type::StatusChanged:
                m_progress(cli::CliText::tr("stream: status %1").arg(event.status));
                break;
            case StreamEvent::Type::Draft:
                m_progress(cli::CliText::tr("stream: draft image received (%1 bytes)").arg(event.image.bytes.size()));
                break;
            case StreamEvent::Type::Text:
                break; // the final caption is printed with the result
            case StreamEvent::Type::ImageReceived:
                m_progress(cli::CliText::tr("stream: image received (%1 bytes)").arg(event.image.bytes.size()));
                break;
            }
        };
    }

    Result<Interaction> result = m_client.create(request.value(), options);
    if (!result) {
        noteLearnedLevels(result.error());
        return errorReport(result.error());
    }
    return fromInteraction(result.value(), filePrefix(args));
}

CliReport CommandRunner::get(const CliArgs &args)
{
    CallOptions options = callOptions();
    Result<Interaction> result = m_client.get(args.interactionId, options);
    if (!result)
        return errorReport(result.error());
    return fromInteraction(result.value(), filePrefix(args));
}

CliReport CommandRunner::remove(const CliArgs &args)
{
    CallOptions options = callOptions();
    Result<Done> result = m_client.remove(args.interactionId, options);
    if (!result)
        return errorReport(result.error());
    CliReport report;
    report.ok = true;
    report.interactionId = args.interactionId;
    report.attempts = result.value().attempts;
    report.notice = cli::CliText::tr("Deleted interaction %1").arg(args.interactionId);
    return report;
}

CliReport CommandRunner::fromInteraction(const Interaction &interaction, const QString &prefix)
{
    CliReport report;
    report.ok = true;
    report.interactionId = interaction.id;
    report.text = interaction.text;
    report.usage = interaction.usage;
    report.attempts = interaction.attempts;
    report.status = interaction.status;
    report.model = interaction.model;
    report.previousInteractionId = interaction.previousInteractionId;
    if (interaction.image.isNull())
        return report;

    Result<QString> saved = saveResultImage(interaction.image, m_outputDir, prefix);
    if (!saved) {
        // The server's work is not lost: the id still reaches the user for `nb2lite get`.
        CliReport failed = errorReport(saved.error());
        failed.interactionId = interaction.id;
        failed.attempts = interaction.attempts;
        return failed;
    }
    report.path = saved.value();
    // Like the file extension, the reported type follows the bytes, not the label.
    const QString sniffed = sniffImageMimeType(interaction.image.bytes);
    report.mimeType = sniffed.isEmpty() ? interaction.image.mimeType : sniffed;
    const QSize size = imagePixelSize(interaction.image.bytes);
    if (size.isValid()) {
        report.width = size.width();
        report.height = size.height();
    }
    return report;
}

void CommandRunner::noteLearnedLevels(const Error &error)
{
    if (error.kind != ErrorKind::InvalidRequest || error.api.allowedValues.isEmpty() || !m_levels)
        return;
    // "Allowed values are:" can name other enums (aspect ratio); only thinking levels are learned.
    if (!error.api.serverMessage.contains(QLatin1String("thinking"), Qt::CaseInsensitive)
        && !error.message.contains(QLatin1String("thinking"), Qt::CaseInsensitive))
        return;
    const QString model = m_client.config().model;
    // The client records the set itself; make sure it is persisted even if it did not.
    if (m_levels->allowed(model) != error.api.allowedValues)
        m_levels->learn(model, error.api.allowedValues);
    m_progress(cli::CliText::tr("note: the server accepts these thinking levels for %1: %2 (remembered in %3)")
                   .arg(model, error.api.allowedValues.join(QStringLiteral(", ")),
                       m_levels->filePath().isEmpty() ? QStringLiteral("memory") : m_levels->filePath()));
}

} // namespace nb2
