#include "core/session/sessionjob.h"

#include "core/api/imageinput.h"
#include "core/api/inputpreparation.h"
#include "core/api/interactionsclient.h"
#include "core/session/costledger.h"
#include "core/session/framecommands.h"
#include "core/session/keeplist.h"
#include "core/session/ownerprocess.h"
#include "core/session/sessionpaths.h"
#include "core/session/sessionstore.h"
#include "core/session/turnplanner.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QSize>
#include <QThreadPool>
#include <QTimer>
#include <QUndoStack>
#include <QUuid>
#include <QtConcurrent/QtConcurrentRun>

#include <optional>

namespace nb2 {

namespace {

/** A stored input as the API takes it: GIF, BMP and TIFF are sent as PNG (and notes says so). */
Result<ImageInput> loadInput(const QString &path, QStringList *notes)
{
    const Result<ImageInput> loaded = loadImageInput(path);
    if (!loaded)
        return loaded;
    QString note;
    Result<ImageInput> converted = convertToApiType(loaded.value(), &note);
    if (converted && !note.isEmpty() && notes)
        notes->append(note);
    return converted;
}

Result<TurnRequest> buildRequest(const SessionController::Job &job, FrameKind kind, QStringList *notes = nullptr)
{
    switch (kind) {
    case FrameKind::Generate:
        return TurnRequest::generate(job.prompt, job.aspectRatio, job.thinkingLevel);
    case FrameKind::Edit:
        return TurnRequest::edit(job.previousInteractionId, job.prompt, job.aspectRatio, job.thinkingLevel);
    case FrameKind::EditLocal:
    case FrameKind::ReAnchor: {
        const QString file
            = kind == FrameKind::ReAnchor && job.kind == FrameKind::Edit ? job.reAnchorFile : job.inputFiles.value(0);
        const Result<ImageInput> target = loadInput(file, notes);
        if (!target)
            return target.error();
        return TurnRequest::editLocal(target.value(), job.prompt, job.aspectRatio, job.thinkingLevel);
    }
    case FrameKind::StyleEdit: {
        const Result<ImageInput> style = loadInput(job.inputFiles.value(0), notes);
        if (!style)
            return style.error();
        const Result<ImageInput> target = loadInput(job.inputFiles.value(1), notes);
        if (!target)
            return target.error();
        return TurnRequest::styleEdit(target.value(), style.value(), job.prompt, job.aspectRatio, job.thinkingLevel);
    }
    case FrameKind::Import:
        break;
    }
    return Error::make(ErrorKind::InvalidInput, QStringLiteral("an import frame has no request to send"));
}

void storeImage(const SessionController::Job &job, FrameKind kind, SessionController::JobResult &r)
{
    const ImageData &img = r.interaction.image;
    if (img.isNull()) {
        r.ok = false;
        r.error = Error::make(ErrorKind::NoImage, QStringLiteral("The model answered without an image."));
        r.error.api.modelText = r.interaction.text;
        return;
    }
    const QString rel = SessionStore::imageFileName(
        frameKindFilePrefix(kind), QDateTime::currentDateTimeUtc(), job.frameId, img.bytes);
    const Result<FrameImage> written = SessionStore::writeImageFile(job.sessionDir, rel, img.bytes);
    if (!written) {
        r.ok = false;
        r.error = written.error();
        // The server made it; only our copy failed (disk full, ...): a retry gets this id.
        r.error.api.interactionId = r.interaction.id;
        return;
    }
    r.image = written.value();
}

/**
 * Gets job.recoverId, polling while the server is still drawing it, into r (done with its
 * image stored, or an error). Returns true when the id cannot give a picture any more (gone,
 * failed on the server, finished without an image): only then may a retry send anew.
 */
bool fetchKnown(const SessionController::Job &job, SessionController::JobResult &r)
{
    CallOptions opts = job.callOptions();
    for (int poll = 0; poll < 20; ++poll) {
        Result<Interaction> got = job.client->get(job.recoverId, opts);
        if (!got) {
            r.error = got.error();
            r.attempts += got.error().api.attempts;
            return got.error().kind == ErrorKind::NotFound;
        }
        r.attempts += got.value().attempts;
        const QString status = got.value().status;
        if (status == QLatin1String("in_progress") || status == QLatin1String("queued")) {
            if (!job.cancel->sleepFor(500)) {
                r.error = Error::make(ErrorKind::Cancelled, QStringLiteral("Recovery was cancelled."));
                return false;
            }
            continue;
        }
        r.interaction = got.value();
        if (r.interaction.id.isEmpty())
            r.interaction.id = job.recoverId;
        if (status != QLatin1String("completed")) {
            r.error = Error::make(
                ErrorKind::Server, QStringLiteral("The server reports this interaction as \"%1\".").arg(status));
            return true;
        }
        r.ok = true;
        storeImage(job, job.kind, r);
        return !r.ok && r.error.kind == ErrorKind::NoImage;
    }
    r.error = Error::make(ErrorKind::Timeout,
        QStringLiteral("The server was still working on this interaction; "
                       "recover it later."));
    return false;
}

} // namespace

namespace sessionjob {

qint64 currentPid()
{
    return QCoreApplication::applicationPid();
}

/** How often a session with another process's pending turn checks that the process still lives. */

SessionController::JobResult runTurnJob(std::shared_ptr<SessionController::Job> job)
{
    SessionController::JobResult r;
    r.frameId = job->frameId;
    if (!job->client) {
        r.error = Error::make(ErrorKind::Auth, QStringLiteral("No API client is configured for this session."));
        return r;
    }
    if (job->setupError) {
        r.error = *job->setupError;
        return r;
    }

    if (!job->recoverId.isEmpty()) {
        // A known id is always fetched first: get is free, a new create would bill again.
        r.recovery = true;
        const bool gone = fetchKnown(*job, r);
        if (!gone || !job->createIfGone || job->cancel->isCancelled())
            return r;
        // retry: the server has no picture under that id (gone, failed, no image): send anew.
        r.recovery = false;
        r.ok = false;
        r.error = {};
        r.interaction = {};
    }

    Result<TurnRequest> request = buildRequest(*job, job->kind, &r.notes);
    if (!request) {
        r.error = request.error();
        return r;
    }
    {
        // Crash safety, in order: the manifest lists the pending frame (the store's writer), then
        // the journal "begin" record is on disk, then the request leaves. Waiting here keeps the
        // GUI thread free of both.
        if (job->manifestWritten) {
            if (const Result<void> written = job->manifestWritten(); !written) {
                r.error = written.error(); // keeps its kind: Locked, DiskFull, NotWritable, ...
                r.error.message
                    = QStringLiteral("Could not write the session manifest: %1").arg(written.error().message);
                return r;
            }
        }
        if (const Result<void> begun = job->journal->beginTurn(job->beginFrame); !begun) {
            r.error = begun.error();
            return r;
        }
    }
    CallOptions opts = job->callOptions();
    opts.stream = job->stream;
    const QString frameId = job->frameId;
    Journal *journal = job->journal;
    SessionController *controller = job->controller;
    opts.onEvent = [frameId, journal, controller](const StreamEvent &e) {
        if (e.type == StreamEvent::Type::Draft && !e.image.isNull()) {
            // The thought step's preview: views show it on the pending frame until the result arrives.
            const QByteArray bytes = e.image.bytes;
            QMetaObject::invokeMethod(
                controller, [controller, frameId, bytes] { Q_EMIT controller->draftReceived(frameId, bytes); },
                Qt::QueuedConnection);
            return;
        }
        if (e.type != StreamEvent::Type::Created || e.interactionId.isEmpty())
            return;
        // Persist first: if we die now, reopening fetches this id instead of paying again.
        journal->recordInteractionId(frameId, e.interactionId);
        const QString iid = e.interactionId;
        QMetaObject::invokeMethod(
            controller, [controller, frameId, iid] { controller->onInteractionIdLearned(frameId, iid); },
            Qt::QueuedConnection);
    };
    Result<Interaction> res = job->client->create(request.value(), opts);
    r.attempts += res ? res.value().attempts : res.error().api.attempts;
    FrameKind finalKind = job->kind;
    if (!res && res.error().kind == ErrorKind::NotFound && job->canReAnchor && !job->cancel->isCancelled()) {
        // The parent's id is gone on the server: send its stored pixels instead.
        Result<TurnRequest> inlineRequest = buildRequest(*job, FrameKind::ReAnchor, &r.notes);
        if (!inlineRequest) {
            r.error = inlineRequest.error();
            return r;
        }
        r.reAnchored = true;
        finalKind = FrameKind::ReAnchor;
        res = job->client->create(inlineRequest.value(), opts);
        r.attempts += res ? res.value().attempts : res.error().api.attempts;
    }
    if (!res) {
        r.error = res.error();
        return r;
    }
    r.ok = true;
    r.interaction = res.value();
    if (job->networkDone)
        job->networkDone(); // the next queued request may leave while this image is made durable
    storeImage(*job, finalKind, r);
    return r;
}

} // namespace sessionjob

} // namespace nb2
