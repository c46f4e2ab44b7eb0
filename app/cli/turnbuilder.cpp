#include "app/cli/turnbuilder.h"

#include "app/cli/cliargs.h"
#include "app/cli/clitext.h"
#include "core/api/inputpreparation.h"
#include "core/api/thinkinglevels.h"

#include <QFile>
#include <QFileInfo>

namespace nb2 {

namespace {

// Room left for the prompt and the JSON around the images when splitting the 20 MB budget.
constexpr qint64 kEnvelopeBytes = 256 * 1024;

qint64 base64Size(qint64 bytes)
{
    return (bytes + 2) / 3 * 4;
}

QString megabytes(qint64 bytes)
{
    return QString::number(double(bytes) / 1e6, 'f', 1) + QStringLiteral(" MB");
}

} // namespace

TurnBuilder::TurnBuilder(const QString &model, const ThinkingLevels *levels, bool allowReencode)
    : m_model(model), m_levels(levels), m_allowReencode(allowReencode)
{}

QString TurnBuilder::defaultThinkingLevel() const
{
    const QString preferred = ThinkingLevels::defaultLevel();
    if (!m_levels || m_levels->isAllowed(m_model, preferred))
        return preferred;
    // The server told us "low" is not accepted for this model; the user did not ask for a
    // level, so take the first one the server named instead of provoking the same 400.
    const QStringList allowed = m_levels->allowed(m_model);
    return allowed.isEmpty() ? preferred : allowed.constFirst();
}

Result<ImageInput> TurnBuilder::loadImage(const QString &path, qint64 budgetBytes)
{
    Result<ImageInput> loaded = loadImageInput(path);
    if (loaded.ok()) {
        // GIF, BMP and TIFF are not among the API's input types: send a PNG and say so.
        QString note;
        Result<ImageInput> converted = convertToApiType(loaded.value(), &note);
        if (converted && !note.isEmpty())
            m_notes << note;
        return converted;
    }
    if (loaded.error().kind != ErrorKind::TooLarge || !m_allowReencode)
        return loaded;

    // Over the limit and the user opted in: read the bytes ourselves and re-encode.
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return loaded;
    ImageInput input;
    input.bytes = file.readAll();
    input.mimeType = sniffImageMimeType(input.bytes);
    input.fileName = QFileInfo(path).fileName();
    Result<ImageInput> smaller = reencodeToFit(input, budgetBytes);
    if (smaller)
        m_notes << cli::CliText::tr("re-encoded %1 (%2) as JPEG (%3) to fit the 20 MB request limit")
                       .arg(input.fileName, megabytes(input.bytes.size()), megabytes(smaller.value().bytes.size()));
    return smaller;
}

Result<TurnRequest> TurnBuilder::build(const CliArgs &args)
{
    m_notes.clear();
    QString thinking = args.thinkingLevel;
    if (!args.hasThinkingLevel) {
        thinking = defaultThinkingLevel();
        if (thinking != ThinkingLevels::defaultLevel())
            m_notes << cli::CliText::tr("using thinking level '%1' (the server does not accept '%2' for %3)")
                           .arg(thinking, ThinkingLevels::defaultLevel(), m_model);
    }

    switch (args.command) {
    case CliCommand::Generate:
        return TurnRequest::generate(
            args.prompt, args.hasAspectRatio ? args.aspectRatio : QStringLiteral("1:1"), thinking);
    case CliCommand::Edit:
        return TurnRequest::edit(args.interactionId, args.prompt, args.aspectRatio, thinking);
    case CliCommand::EditLocal:
        break;
    default: {
        Error error;
        error.kind = ErrorKind::InvalidInput;
        error.message = cli::CliText::tr("'%1' does not create an image").arg(args.commandName);
        return error;
    }
    }

    const bool withStyle = !args.styleFile.isEmpty();
    const qint64 budget = (kMaxRequestBytes - kEnvelopeBytes - args.prompt.toUtf8().size()) / (withStyle ? 2 : 1);
    Result<ImageInput> target = loadImage(args.file, budget);
    if (!target)
        return target.error();
    std::optional<ImageInput> style;
    if (withStyle) {
        Result<ImageInput> loadedStyle = loadImage(args.styleFile, budget);
        if (!loadedStyle)
            return loadedStyle.error();
        style = loadedStyle.value();
    }

    // An image can fit the limit as a file but not as base64 (a third larger), and two
    // images that each fit can overflow together; with --reencode shrink each to its share.
    auto fitTogether = [&](ImageInput &input, const QString &path) -> std::optional<Error> {
        if (!m_allowReencode || base64Size(input.bytes.size()) <= budget)
            return std::nullopt;
        const qint64 before = input.bytes.size();
        Result<ImageInput> smaller = reencodeToFit(input, budget);
        if (!smaller)
            return smaller.error();
        input = smaller.value();
        m_notes << cli::CliText::tr("re-encoded %1 (%2) as JPEG (%3) to fit the 20 MB request limit")
                       .arg(QFileInfo(path).fileName(), megabytes(before), megabytes(input.bytes.size()));
        return std::nullopt;
    };
    if (auto error = fitTogether(target.value(), args.file))
        return *error;
    if (style) {
        if (auto error = fitTogether(*style, args.styleFile))
            return *error;
    }

    const QString aspect = args.hasAspectRatio ? args.aspectRatio : nearestAspectRatio(target.value().size);
    if (!args.hasAspectRatio)
        m_notes << cli::CliText::tr("aspect ratio %1 (nearest to the %2x%3 source; change it with --aspect)")
                       .arg(aspect)
                       .arg(target.value().size.width())
                       .arg(target.value().size.height());
    if (style)
        return TurnRequest::styleEdit(target.value(), *style, args.prompt, aspect, thinking);
    return TurnRequest::editLocal(target.value(), args.prompt, aspect, thinking);
}

} // namespace nb2
