#pragma once

#include "core/api/imageinput.h"

#include <QList>
#include <QString>

namespace nb2 {

enum class TurnKind { Generate, Edit, EditLocal, StyleEdit };

/**
 * One create call, described by what the user asked for. The client turns it into exactly
 * the JSON the official SDK sends (spec §7). Build it with the named constructors.
 */
struct TurnRequest {
    TurnKind kind = TurnKind::Generate;
    QString prompt;
    QString aspectRatio;           // empty: let the model choose (only sensible for edits)
    QString thinkingLevel;         // empty: omit generation_config
    QString previousInteractionId; // Edit only
    QList<ImageInput> images;      // EditLocal: {target}; StyleEdit: {style, target} in that order

    static TurnRequest generate(const QString &prompt, const QString &aspectRatio, const QString &thinkingLevel);
    static TurnRequest edit(const QString &previousInteractionId, const QString &prompt, const QString &aspectRatio,
        const QString &thinkingLevel);
    static TurnRequest editLocal(
        const ImageInput &target, const QString &prompt, const QString &aspectRatio, const QString &thinkingLevel);
    static TurnRequest styleEdit(const ImageInput &target, const ImageInput &style, const QString &prompt,
        const QString &aspectRatio, const QString &thinkingLevel);
};

QString turnKindName(TurnKind kind); // "generate", "edit", "edit_local", "style_edit"

} // namespace nb2
