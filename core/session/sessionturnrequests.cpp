// SessionController: the turn requests, from the call to the pending frame: checking the
// parameters and the parent, making the new frame (generate, edit, branch, continue an
// interaction, edit-local, style edit; inputs copied into the session) and imports, which are
// done at once. Queuing, running and finishing a turn is in sessioncontroller.cpp.
#include "core/session/sessioncontroller.h"
#include "core/session/sessionjob.h"

#include "core/api/imageinput.h"
#include "core/api/interactionsclient.h"
#include "core/session/keeplist.h"
#include "core/session/sessionpaths.h"
#include "core/session/sessionstore.h"
#include "core/session/turnplanner.h"

#include <QDir>
#include <QFileInfo>
#include <QSize>

namespace nb2 {

using sessionjob::currentPid;

Result<QString> SessionController::checkParams(const TurnParams &params, FrameKind kind) const
{
    if (!isOpen())
        return Error::make(ErrorKind::InvalidInput, QStringLiteral("No session is open."));
    if (!m_client)
        return Error::make(ErrorKind::Auth, QStringLiteral("No API client is configured (set an API key)."));
    // Prompt, ratio and thinking level are checked the way the client will check them; image
    // inputs are checked when they are read. Edits without a ratio inherit the parent's (see edit()).
    Q_UNUSED(kind);
    const TurnRequest probe = TurnRequest::generate(
        params.prompt, params.aspectRatio.isEmpty() ? QStringLiteral("1:1") : params.aspectRatio, params.thinkingLevel);
    if (const auto err = m_client->validate(probe))
        return *err;
    return QString();
}

Result<QString> SessionController::checkParentForChild(
    const QString &parentId, const TurnParams &params, bool needsImage) const
{
    const Frame *parent = graph().frame(parentId);
    if (!parent)
        return Error::make(
            ErrorKind::InvalidInput, QStringLiteral("There is no frame %1 in this session.").arg(parentId));
    if (parent->isTrashed())
        return Error::make(ErrorKind::InvalidInput,
            QStringLiteral("Frame %1 is in the trash; restore it before continuing from it.").arg(parentId));
    if (parent->isPending())
        return Error::make(ErrorKind::InvalidInput,
            QStringLiteral("Frame %1 is still running; wait for it to finish before continuing from it.")
                .arg(parentId));
    if (!parent->isDone()) {
        // Usually "edit head" right after a failed turn: the way on is to retry that turn.
        QString next = parent->isRecoverable()
            ? QStringLiteral("Recover it first (nb2lite: recover), or retry it (retry %1)").arg(parentId)
            : QStringLiteral("Retry it first (nb2lite: retry %1)").arg(parentId);
        if (!parent->parentId.isEmpty())
            next += QStringLiteral(", or continue from its parent %1").arg(parent->parentId);
        return Error::make(ErrorKind::InvalidInput,
            QStringLiteral("Frame %1 is %2; only a finished frame can be continued. %3.")
                .arg(parentId, frameStatusName(parent->status), next));
    }
    if (needsImage && parent->image.isNull())
        return Error::make(ErrorKind::InvalidInput, QStringLiteral("Frame %1 has no image to edit.").arg(parentId));
    // The files a turn from this parent may read (its image, inline or for the drift reading),
    // checked before anything is sent: a one-shot command's open left that to its readers
    // (SessionStore::setFileChecksDeferred()), and a file can change after a session opened.
    if (const Result<void> inside = SessionPaths::checkFrame(*parent, m_store->dir(), QStringLiteral("manifest"));
        !inside)
        return inside.error();
    // Failed, refused and cancelled children do not continue the parent (TurnPlanner's rule):
    // rephrasing from the parent after a refusal is an edit, not a forced branch. A branch on
    // purpose is never refused, so it does not count them (a scan of every frame).
    if (const int continuations = params.newBranch ? 0 : TurnPlanner::continuationCount(graph(), parentId);
        continuations > 0)
        return Error::make(ErrorKind::Conflict,
            QStringLiteral("Frame %1 already has %2 child frame(s); continuing from it starts a new "
                           "branch. Use branchFrom() (CLI: --branch) to fork on purpose, or continue "
                           "from the branch head %3.")
                .arg(parentId)
                .arg(continuations)
                .arg(graph().headFrom(parentId)));
    return QString();
}

Frame SessionController::newFrame(FrameKind kind, const QString &parentId, const TurnParams &params) const
{
    Frame f;
    do {
        f.id = Frame::newId();
    } while (graph().contains(f.id));
    f.parentId = parentId;
    f.kind = kind;
    f.prompt = params.prompt;
    f.aspectRatio = params.aspectRatio;
    if (kind == FrameKind::Generate && f.aspectRatio.isEmpty())
        f.aspectRatio = QStringLiteral("1:1");
    f.thinkingLevel = params.thinkingLevel;
    f.model = m_client ? m_client->config().model : QString();
    f.status = FrameStatus::Pending;
    f.requestedAt = QDateTime::currentDateTimeUtc();
    f.ownerPid = currentPid();
    f.origin = m_turnOrigin;
    f.regionEdit = params.regionEdit;
    f.replayOf = params.replayOf;
    f.replayRun = params.replayRun;
    // The branch's keep-list goes out with every edit; the frame keeps both texts (keeplist.h).
    if (const QString sent = KeepList::promptToSend(f.prompt, KeepList::effective(graph(), parentId).items);
        sent != f.prompt)
        f.promptSent = sent;
    return f;
}

Result<void> SessionController::prepareEdit(Frame &frame, const Frame &parent) const
{
    if (parent.hasUsableId()) {
        frame.kind = FrameKind::Edit;
        frame.continuedInteractionId = parent.interactionId;
        frame.inputImages.clear();
        return {};
    }
    const QString why = parent.interactionId.isEmpty()
        ? QStringLiteral("frame %1 has no server interaction id").arg(parent.id)
        : QStringLiteral("the server id of frame %1 expired at %2").arg(parent.id, toIsoUtc(parent.idExpiresAt));
    if (!m_settings.autoReAnchor) {
        return Error::make(ErrorKind::NotFound,
            QStringLiteral("Cannot continue: %1 and automatic re-anchoring is off. Re-anchor this "
                           "frame to send the parent's stored image instead (continuity may differ).")
                .arg(why));
    }
    frame.kind = FrameKind::ReAnchor;
    frame.reAnchored = true;
    frame.continuedInteractionId.clear();
    frame.inputImages = {parent.image.file};
    return {};
}

Result<QString> SessionController::generate(const TurnParams &params)
{
    if (auto r = checkParams(params, FrameKind::Generate); !r)
        return r;
    return addAndQueue(newFrame(FrameKind::Generate, {}, params), false);
}

Result<QString> SessionController::edit(const QString &parentId, const TurnParams &paramsIn)
{
    // The API needs a ratio for an edit: keep the parent's unless the user picked one.
    TurnParams params = paramsIn;
    const Frame parent = graph().value(parentId);
    if (params.aspectRatio.isEmpty())
        params.aspectRatio = !parent.aspectRatio.isEmpty()
            ? parent.aspectRatio
            : nearestAspectRatio(QSize(parent.image.width, parent.image.height));
    if (auto r = checkParams(params, FrameKind::Edit); !r)
        return r;
    if (auto r = checkParentForChild(parentId, params, true); !r)
        return r;
    const bool forks = graph().hasChildren(parentId);
    Frame f = newFrame(FrameKind::Edit, parentId, params);
    if (const Result<void> prepared = prepareEdit(f, parent); !prepared) {
        const Error &err = prepared.error();
        // Visible as a failed frame with an explicit re-anchor action; nothing was sent.
        f.status = FrameStatus::Failed;
        f.error = FrameError::fromError(err);
        f.finishedAt = f.requestedAt;
        f.ownerPid = 0;
        if (!commitFrames({f}, f.id))
            return Error::make(ErrorKind::Io, QStringLiteral("Could not write the session manifest."));
        recordFramesAfterWrite({f});
        Q_EMIT frameAdded(f.id);
        if (forks)
            Q_EMIT branchCreated(parentId, f.id);
        Q_EMIT turnFinished(f.id);
        Q_EMIT turnFailed(f.id, err);
        return f.id;
    }
    return addAndQueue(f, forks);
}

Result<QString> SessionController::branchFrom(const QString &parentId, const TurnParams &params)
{
    TurnParams p = params;
    p.newBranch = true;
    return edit(parentId, p);
}

Result<QString> SessionController::editInteraction(const QString &interactionId, const TurnParams &params)
{
    if (interactionId.trimmed().isEmpty())
        return Error::make(
            ErrorKind::InvalidInput, QStringLiteral("An edit needs the id of the interaction to continue."));
    if (params.aspectRatio.isEmpty())
        return Error::make(ErrorKind::InvalidInput,
            QStringLiteral("Continuing interaction %1 needs its aspect ratio.").arg(interactionId));
    if (auto r = checkParams(params, FrameKind::Edit); !r)
        return r;
    Frame f = newFrame(FrameKind::Edit, {}, params);
    f.continuedInteractionId = interactionId.trimmed();
    return addAndQueue(f, false);
}

Result<QString> SessionController::editLocal(
    const QString &parentId, const QString &targetFile, const TurnParams &params)
{
    if (auto r = checkParams(params, FrameKind::EditLocal); !r)
        return r;
    if (parentId.isEmpty() && targetFile.isEmpty())
        return Error::make(
            ErrorKind::InvalidInput, QStringLiteral("Edit-local needs a target: a parent frame or an image file."));
    bool forks = false;
    if (!parentId.isEmpty()) {
        if (auto r = checkParentForChild(parentId, params, targetFile.isEmpty()); !r)
            return r;
        forks = graph().hasChildren(parentId);
    }
    Frame f = newFrame(FrameKind::EditLocal, parentId, params);
    if (targetFile.isEmpty()) {
        f.inputImages = {graph().value(parentId).image.file};
    } else {
        const Result<QString> copied = inputInSession(targetFile);
        if (!copied)
            return copied.error();
        f.inputImages = {copied.value()};
    }
    return addAndQueue(f, forks);
}

Result<QString> SessionController::styleEdit(
    const QString &parentId, const QString &targetFile, const QString &styleFile, const TurnParams &params)
{
    if (auto r = checkParams(params, FrameKind::StyleEdit); !r)
        return r;
    if (styleFile.isEmpty())
        return Error::make(ErrorKind::InvalidInput, QStringLiteral("A style edit needs a style image file."));
    if (parentId.isEmpty() && targetFile.isEmpty())
        return Error::make(
            ErrorKind::InvalidInput, QStringLiteral("A style edit needs a target: a parent frame or an image file."));
    bool forks = false;
    if (!parentId.isEmpty()) {
        if (auto r = checkParentForChild(parentId, params, targetFile.isEmpty()); !r)
            return r;
        forks = graph().hasChildren(parentId);
    }
    Frame f = newFrame(FrameKind::StyleEdit, parentId, params);
    const Result<QString> style = inputInSession(styleFile);
    if (!style)
        return style.error();
    QString target;
    if (targetFile.isEmpty()) {
        target = graph().value(parentId).image.file;
    } else {
        const Result<QString> copied = inputInSession(targetFile);
        if (!copied)
            return copied.error();
        target = copied.value();
    }
    f.inputImages = {style.value(), target};
    return addAndQueue(f, forks);
}

Result<QString> SessionController::inputInSession(const QString &file) const
{
    // A picture a worker already copied into images/ (the GUI does that for style references)
    // is used where it is; anything else is copied in so the session stays self-contained.
    const QFileInfo info(file);
    if (info.isFile() && QDir(info.absolutePath()) == QDir(m_store->imagesDir()))
        return QStringLiteral("images/") + info.fileName();
    return SessionStore::copyInputImage(m_store->dir(), file);
}

Result<QString> SessionController::importImage(const QString &file, const QString &title)
{
    ImportOptions options;
    options.title = title;
    options.continueChain = false;
    return importImage(file, options);
}

Result<QString> SessionController::importImage(const QString &file, const ImportOptions &options)
{
    if (!isOpen())
        return Error::make(ErrorKind::InvalidInput, QStringLiteral("No session is open."));
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const Result<FrameImage> written = storeImportFile(m_store->dir(), file, now);
    if (!written)
        return written.error();
    ImportOptions named = options;
    if (named.title.isEmpty())
        named.title = QFileInfo(file).fileName();
    const Result<QString> recorded = importStoredImage(written.value(), now, named);
    if (!recorded)
        SessionStore::removeUnrecordedCopy(m_store->dir(), written.value().file);
    return recorded;
}

Result<FrameImage> SessionController::storeImportFile(
    const QString &sessionDir, const QString &file, const QDateTime &writtenAt)
{
    const Result<ImageInput> input = loadImageInput(file);
    if (!input)
        return input.error();
    const QString rel
        = SessionStore::imageFileName(QStringLiteral("import"), writtenAt, Frame::newId(), input.value().bytes);
    return SessionStore::writeImageFile(sessionDir, rel, input.value().bytes);
}

Result<QString> SessionController::importStoredImage(
    const FrameImage &image, const QDateTime &writtenAt, const ImportOptions &options)
{
    if (!isOpen())
        return Error::make(ErrorKind::InvalidInput, QStringLiteral("No session is open."));
    if (image.file.isEmpty() || image.sha256.isEmpty())
        return Error::make(
            ErrorKind::InvalidInput, QStringLiteral("The imported picture was not stored in the session."));
    Frame f;
    do {
        f.id = Frame::newId();
    } while (graph().contains(f.id));
    f.kind = FrameKind::Import;
    f.requestedAt = writtenAt.isValid() ? writtenAt : QDateTime::currentDateTimeUtc();
    f.finishedAt = f.requestedAt;
    f.title = options.title.isEmpty() ? QFileInfo(image.file).fileName() : options.title;
    f.image = image;
    f.status = FrameStatus::Done;
    f.lineage = options.lineage;
    f.model = options.lineage.model;
    if (options.continueChain && !options.lineage.interactionId.isEmpty()) {
        // When the id was made is not in the record: no expiry, so the first edit tries it and
        // falls back to the pixels on a 404 (see finishJob).
        f.interactionId = options.lineage.interactionId;
        f.idExpiresAt = {};
    }
    if (!commitFrames({f}, f.id))
        return Error::make(ErrorKind::Io, QStringLiteral("Could not write the session manifest."));
    recordFramesAfterWrite({f});
    Q_EMIT frameAdded(f.id);
    return f.id;
}

} // namespace nb2
