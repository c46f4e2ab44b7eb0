#pragma once

#include "core/api/turnrequest.h"
#include "core/common/error.h"

#include <QString>
#include <QStringList>

namespace nb2 {

struct CliArgs;
class ThinkingLevels;

/**
 * Turns the generate / edit / edit-local arguments into a TurnRequest: reads the input
 * images, picks the documented defaults (aspect ratio, thinking level) and, only when the
 * user passed --reencode, shrinks oversized inputs. Anything it changes on the user's
 * behalf is listed in notes() so the CLI can say so.
 */
class TurnBuilder
{
public:
    TurnBuilder(const QString &model, const ThinkingLevels *levels, bool allowReencode);

    Result<TurnRequest> build(const CliArgs &args);
    const QStringList &notes() const { return m_notes; }

    /** The thinking level sent when the user names none: "low", unless the learned set excludes it. */
    QString defaultThinkingLevel() const;

private:
    Result<ImageInput> loadImage(const QString &path, qint64 budgetBytes);

    QString m_model;
    const ThinkingLevels *m_levels;
    bool m_allowReencode;
    QStringList m_notes;
};

} // namespace nb2
