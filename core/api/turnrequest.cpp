#include "core/api/turnrequest.h"

namespace nb2 {

TurnRequest TurnRequest::generate(const QString &prompt, const QString &aspectRatio, const QString &thinkingLevel)
{
    TurnRequest r;
    r.kind = TurnKind::Generate;
    r.prompt = prompt;
    r.aspectRatio = aspectRatio;
    r.thinkingLevel = thinkingLevel;
    return r;
}

TurnRequest TurnRequest::edit(const QString &previousInteractionId, const QString &prompt, const QString &aspectRatio,
    const QString &thinkingLevel)
{
    TurnRequest r = generate(prompt, aspectRatio, thinkingLevel);
    r.kind = TurnKind::Edit;
    r.previousInteractionId = previousInteractionId;
    return r;
}

TurnRequest TurnRequest::editLocal(
    const ImageInput &target, const QString &prompt, const QString &aspectRatio, const QString &thinkingLevel)
{
    TurnRequest r = generate(prompt, aspectRatio, thinkingLevel);
    r.kind = TurnKind::EditLocal;
    r.images = {target};
    return r;
}

TurnRequest TurnRequest::styleEdit(const ImageInput &target, const ImageInput &style, const QString &prompt,
    const QString &aspectRatio, const QString &thinkingLevel)
{
    TurnRequest r = generate(prompt, aspectRatio, thinkingLevel);
    r.kind = TurnKind::StyleEdit;
    // The seed's edit_local_image_with_style sends the style reference first.
    r.images = {style, target};
    return r;
}

QString turnKindName(TurnKind kind)
{
    switch (kind) {
    case TurnKind::Generate:
        return QStringLiteral("generate");
    case TurnKind::Edit:
        return QStringLiteral("edit");
    case TurnKind::EditLocal:
        return QStringLiteral("edit_local");
    case TurnKind::StyleEdit:
        return QStringLiteral("style_edit");
    }
    return QStringLiteral("generate");
}

} // namespace nb2
