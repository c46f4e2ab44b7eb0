#include "core/mcp/mcpresults.h"

#include "core/session/editfinisher.h"

#include <QDir>
#include <QFileInfo>
#include <QJsonArray>

#include <cmath>

namespace nb2::mcp {

namespace {

const QString kFrameUriPrefix = QStringLiteral("nb2lite://frame/");

QString oneLine(QString text, int max)
{
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return text.size() > max ? text.left(max - 1) + QChar(0x2026) : text;
}

QString seconds(int ms)
{
    return QString::number(std::ceil(ms / 100.0) / 10.0);
}

} // namespace

QString frameResourceUri(const QString &frameId)
{
    return kFrameUriPrefix + frameId;
}

QString frameIdFromResourceUri(const QString &uri)
{
    if (!uri.startsWith(kFrameUriPrefix))
        return {};
    const QString id = uri.mid(kFrameUriPrefix.size());
    return id.isEmpty() || id.contains(QLatin1Char('/')) ? QString() : id;
}

QJsonObject textContent(const QString &text)
{
    return {{QStringLiteral("type"), QStringLiteral("text")}, {QStringLiteral("text"), text}};
}

QJsonObject textResult(const QString &text, const QJsonObject &structured)
{
    QJsonObject result {{QStringLiteral("content"), QJsonArray {textContent(text)}}};
    if (!structured.isEmpty())
        result.insert(QStringLiteral("structuredContent"), structured);
    return result;
}

QJsonObject errorResult(const QString &text)
{
    return {{QStringLiteral("content"), QJsonArray {textContent(text)}}, {QStringLiteral("isError"), true}};
}

QJsonObject imageTurnResult(const TurnOutcome &o, bool resourceLinks)
{
    const Frame &f = o.frame;
    const QString kind = frameKindName(f.kind);
    QStringList lines;
    lines << QStringLiteral("Image saved: %1").arg(QDir::toNativeSeparators(o.imagePath));
    lines << QStringLiteral("Interaction ID: %1")
                 .arg(f.interactionId.isEmpty() ? QStringLiteral("(none: the server kept no id)") : f.interactionId);
    QString frameLine = QStringLiteral("Session frame: %1 (%2").arg(f.id, kind);
    frameLine += f.parentId.isEmpty() ? QStringLiteral(", a new root")
                                      : QStringLiteral(", continues frame %1").arg(f.parentId);
    if (f.parentId.isEmpty() && !f.continuedInteractionId.isEmpty())
        frameLine += QStringLiteral(" from interaction %1").arg(f.continuedInteractionId);
    frameLine += QStringLiteral(") in %1").arg(QDir::toNativeSeparators(o.sessionDir));
    lines << frameLine;
    lines << QStringLiteral("Size: %1x%2, aspect ratio %3").arg(f.image.width).arg(f.image.height).arg(f.aspectRatio);
    if (!o.copyPath.isEmpty())
        lines << QStringLiteral("Copy: %1").arg(QDir::toNativeSeparators(o.copyPath));
    else if (!o.copyProblem.isEmpty())
        lines << QStringLiteral("No copy in IMAGE_OUTPUT_DIR: %1").arg(o.copyProblem);
    if (f.reAnchored)
        lines << QStringLiteral("Re-anchored: the parent's interaction id had expired, so its stored image was sent "
                                "instead (continuity may differ).");
    if (!o.note.isEmpty())
        lines << o.note;
    if (!f.drift.isEmpty()) {
        lines << QStringLiteral("Drift: %1 % of the picture changed.").arg(qRound(f.drift.changed * 100));
        if (EditFinisher::warrantsWarning(f))
            lines << QStringLiteral(
                "Warning: this edit changed most of the picture, far more than an edit usually means. "
                "Look at the image; if parts had to stay, try again from the parent with "
                "branch_from and say in the prompt what must not change.");
    }
    if (!f.modelText.trimmed().isEmpty())
        lines << QStringLiteral("Model text: %1").arg(f.modelText.trimmed());
    if (!f.interactionId.isEmpty())
        lines << QStringLiteral(
            "Next: edit_image(previous_interaction_id=\"%1\", edit_prompt=...) continues this image.")
                     .arg(f.interactionId);

    QJsonObject structured {
        {QStringLiteral("path"), o.imagePath},
        {QStringLiteral("interaction_id"), f.interactionId},
        {QStringLiteral("frame_id"), f.id},
        {QStringLiteral("parent_frame_id"), f.parentId},
        {QStringLiteral("continued_interaction_id"), f.continuedInteractionId},
        {QStringLiteral("kind"), kind},
        {QStringLiteral("prompt"), f.prompt},
        {QStringLiteral("aspect_ratio"), f.aspectRatio},
        {QStringLiteral("thinking_level"), f.thinkingLevel},
        {QStringLiteral("model"), f.model},
        {QStringLiteral("model_text"), f.modelText},
        {QStringLiteral("mime_type"), f.image.mimeType},
        {QStringLiteral("width"), f.image.width},
        {QStringLiteral("height"), f.image.height},
        {QStringLiteral("re_anchored"), f.reAnchored},
        {QStringLiteral("copy_path"), o.copyPath},
        {QStringLiteral("session_dir"), o.sessionDir},
        {QStringLiteral("resource_uri"), frameResourceUri(f.id)},
    };
    if (!f.drift.isEmpty()) {
        structured.insert(QStringLiteral("drift_changed"), f.drift.changed);
        structured.insert(QStringLiteral("drift_warning"), EditFinisher::warrantsWarning(f));
    }
    QJsonArray content {textContent(lines.join(QLatin1Char('\n')))};
    if (o.preview) {
        content.append(QJsonObject {{QStringLiteral("type"), QStringLiteral("image")},
            {QStringLiteral("data"), QString::fromLatin1(o.preview->bytes.toBase64())},
            {QStringLiteral("mimeType"), o.preview->mimeType}});
    }
    if (resourceLinks) {
        content.append(QJsonObject {{QStringLiteral("type"), QStringLiteral("resource_link")},
            {QStringLiteral("uri"), frameResourceUri(f.id)},
            {QStringLiteral("name"), QFileInfo(o.imagePath).fileName()},
            {QStringLiteral("description"), QStringLiteral("Full-size image of frame %1").arg(f.id)},
            {QStringLiteral("mimeType"), f.image.mimeType}});
    }
    return {{QStringLiteral("content"), content}, {QStringLiteral("structuredContent"), structured}};
}

QJsonObject failedTurnResult(const QString &what, const Frame &frame, const std::optional<Error> &error)
{
    const ErrorKind kind = error ? error->kind : errorKindFromName(frame.error.kind);
    QString message = error ? error->message : frame.error.message;
    if (message.isEmpty())
        message = frame.statusText();
    QStringList lines;
    switch (kind) {
    case ErrorKind::NoImage: {
        const QString said
            = (error && !error->api.modelText.isEmpty() ? error->api.modelText : frame.modelText).trimmed();
        lines << QStringLiteral("%1: the model answered with text only, no image.").arg(what);
        if (!said.isEmpty())
            lines << QStringLiteral("Model text: %1").arg(said);
        lines << QStringLiteral("Nothing was saved. Rephrase the prompt as a description of the picture (not a "
                                "question or a request it may refuse) and call the tool again.");
        break;
    }
    case ErrorKind::RateLimited:
        lines << QStringLiteral("%1: the Gemini API's rate limit or quota is exhausted (HTTP 429).").arg(what);
        if (error && error->api.retryAfterMs >= 0)
            lines << QStringLiteral("Retry after %1 s.").arg(seconds(error->api.retryAfterMs));
        else
            lines << QStringLiteral("Retry in a minute; if it keeps failing, check the key's quota and billing.");
        if (error && !error->api.serverMessage.isEmpty())
            lines << QStringLiteral("Server said: %1").arg(error->api.serverMessage);
        break;
    case ErrorKind::Auth:
        lines << QStringLiteral("%1: %2").arg(what, message);
        lines << QStringLiteral("Fix the key where the agent starts nb2lite (GEMINI_API_KEY, GOOGLE_API_KEY or "
                                "~/gemini.key) and restart the MCP server; get_help shows which source is in use.");
        break;
    case ErrorKind::Cancelled:
        lines << QStringLiteral("%1: the request was cancelled; nothing was saved.").arg(what);
        break;
    default:
        lines << QStringLiteral("%1: %2").arg(what, message);
        if (error && !error->api.serverMessage.isEmpty() && !message.contains(error->api.serverMessage))
            lines << QStringLiteral("Server said: %1").arg(error->api.serverMessage);
        break;
    }
    if (!frame.id.isEmpty())
        lines << QStringLiteral("Session frame %1 is recorded as %2.").arg(frame.id, frameStatusName(frame.status));
    lines << QStringLiteral("Call get_help if the cause is unclear.");
    return errorResult(lines.join(QLatin1Char('\n')));
}

QJsonObject frameSummary(const Frame &f, const QString &sessionDir, bool isHead)
{
    QJsonObject o {{QStringLiteral("id"), f.id}, {QStringLiteral("parent"), f.parentId},
        {QStringLiteral("kind"), frameKindName(f.kind)}, {QStringLiteral("prompt"), f.prompt},
        {QStringLiteral("interaction_id"), f.interactionId},
        {QStringLiteral("continued_interaction_id"), f.continuedInteractionId},
        {QStringLiteral("status"), frameStatusName(f.status)},
        {QStringLiteral("file"), f.image.isNull() ? QString() : QDir(sessionDir).absoluteFilePath(f.image.file)},
        {QStringLiteral("origin"), f.origin}, {QStringLiteral("is_head"), isHead}};
    if (f.status == FrameStatus::Failed || f.status == FrameStatus::Interrupted)
        o.insert(QStringLiteral("error"), f.error.message.isEmpty() ? f.statusText() : f.error.message);
    return o;
}

QString frameLine(const Frame &f, bool isHead)
{
    QString line = QStringLiteral("%1  parent=%2  %3  %4")
                       .arg(f.id, f.parentId.isEmpty() ? QStringLiteral("-") : f.parentId, frameKindName(f.kind),
                           frameStatusName(f.status));
    if (isHead)
        line += QStringLiteral("  [head]");
    if (f.origin == kFrameOriginMcp)
        line += QStringLiteral("  [agent]");
    if (!f.interactionId.isEmpty())
        line += QStringLiteral("  id=%1").arg(f.interactionId);
    if (!f.prompt.isEmpty())
        line += QStringLiteral("  \"%1\"").arg(oneLine(f.prompt, 60));
    return line;
}

} // namespace nb2::mcp
