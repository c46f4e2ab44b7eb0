#pragma once

#include "core/api/cancellation.h"
#include "core/common/error.h"

#include <QSize>
#include <QString>

#include <optional>

namespace nb2 {

class InteractionsClient;

/** A local image an agent named, checked and copied into the session's images folder. */
struct StagedImage {
    std::optional<Error> error; // set: nothing was copied
    QString sessionFile;        // absolute path inside the session's images/
    QSize size;                 // pixel size (header), for the default aspect ratio
};

/**
 * Checks the file an agent named — it exists, is not a folder, is at most 20 MB, really is an
 * image — and copies it into the session (so the history keeps what was sent). `argument` and
 * `given` name it in messages as the agent wrote it. Reads and writes files: a worker's job.
 */
StagedImage stageImageInput(
    const QString &argument, const QString &given, const QString &absolutePath, const QString &sessionDir);

/** What a get of an interaction no frame made says: whether it lives, and its image's aspect ratio. */
struct InteractionLookup {
    std::optional<Error> error;
    QString aspectRatio; // nearest supported ratio of its image
};

/** Blocking (a get costs nothing but time): call it on a worker thread. */
InteractionLookup lookUpInteraction(
    InteractionsClient &client, const QString &interactionId, const CancelTokenPtr &cancel);

} // namespace nb2
