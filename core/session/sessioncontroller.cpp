#include "core/session/sessioncontroller.h"

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

/** Everything a worker needs for one call; built on the GUI thread, read-only afterwards. */
struct SessionController::Job {
    QString frameId;
    FrameKind kind = FrameKind::Generate;
    QString prompt, aspectRatio, thinkingLevel;
    QString previousInteractionId; // Edit
    QStringList inputFiles;        // absolute: EditLocal/ReAnchor {target}; StyleEdit {style, target}
    QString reAnchorFile;          // Edit: the parent's image, sent inline if the id is rejected as not found
    bool canReAnchor = false;
    QString recoverId;         // recovery: get this id instead of creating
    bool createIfGone = false; // retry: when the known id is gone or finished without a picture, send anew
    QString sessionDir;
    bool stream = true;
    std::shared_ptr<InteractionsClient> client;
    CancelTokenPtr cancel = std::make_shared<CancelToken>();
    QDeadlineTimer deadline {QDeadlineTimer::Forever}; // the turn's time limit (setTurnTimeoutMs)
    Journal *journal = nullptr;
    Frame beginFrame;                              // the pending frame the journal "begin" record carries
    std::function<Result<void>()> manifestWritten; // blocks until the manifest lists the pending frame
    SessionController *controller = nullptr;
    std::optional<Error> setupError; // a file the frame names is unsafe: fail without sending

    /** Cancel token, deadline and retry progress, for every call of this turn. */
    CallOptions callOptions() const
    {
        CallOptions opts;
        opts.cancel = cancel;
        opts.deadline = deadline;
        SessionController *c = controller;
        const QString id = frameId;
        opts.onRetry = [c, id](const RetryNotice &n) {
            QMetaObject::invokeMethod(
                c, [c, id, n] { Q_EMIT c->turnRetrying(id, n.attempt, n.maxAttempts, n.delayMs, n.error); },
                Qt::QueuedConnection);
        };
        return opts;
    }
};

/** What a worker hands back to the GUI thread. */
struct SessionController::JobResult {
    QString frameId;
    bool recovery = false;
    bool ok = false;
    Error error;
    Interaction interaction;
    FrameImage image;
    bool reAnchored = false;
    int attempts = 0;
    QStringList notes; // inputs converted before sending (GIF -> PNG, ...), for the user
};

namespace {

qint64 currentPid()
{
    return QCoreApplication::applicationPid();
}

/** How often a session with another process's pending turn checks that the process still lives. */
constexpr int kOwnerCheckMs = 2000;

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

/** The blocking part of a turn: runs on a pool thread, touches no QObject. */
SessionController::JobResult runJob(std::shared_ptr<SessionController::Job> job)
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
    storeImage(*job, finalKind, r);
    return r;
}

} // namespace

SessionController::SessionController(QObject *parent) : QObject(parent)
{
    qRegisterMetaType<nb2::Error>();
    m_store = new SessionStore(this);
    m_undoStack = new QUndoStack(this);
    m_pool = new QThreadPool(this);
    m_pool->setMaxThreadCount(m_settings.concurrencyLimit + 1);
    connect(m_store, &SessionStore::changedExternally, this, &SessionController::onStoreChanged);
    connect(m_store, &SessionStore::writeFailed, this, &SessionController::errorOccurred);
    m_ownerCheck = new QTimer(this);
    m_ownerCheck->setInterval(kOwnerCheckMs);
    connect(m_ownerCheck, &QTimer::timeout, this, &SessionController::checkForeignOwners);
}

SessionController::~SessionController()
{
    close();
}

void SessionController::setClient(std::shared_ptr<InteractionsClient> client)
{
    m_client = std::move(client);
}

void SessionController::setSettings(const SessionSettings &settings)
{
    m_settings = settings;
    m_pool->setMaxThreadCount(qMax(1, settings.concurrencyLimit) + 1);
    m_store->setLockTimeoutMs(settings.lockTimeoutMs);
    pump();
}

Result<void> SessionController::open(const QString &dir)
{
    close();
    if (Result<void> opened = m_store->open(dir, SessionStore::OpenMode::CreateIfMissing); !opened)
        return opened;
    m_undoStack->clear();
    Q_EMIT opened();
    if (m_settings.recoverOnOpen)
        recoverInterrupted();
    watchForeignOwners();
    return {};
}

Result<void> SessionController::rebuild(const QString &dir)
{
    close();
    if (Result<void> rebuilt = m_store->rebuild(dir); !rebuilt)
        return rebuilt;
    m_undoStack->clear();
    Q_EMIT opened();
    if (m_settings.recoverOnOpen)
        recoverInterrupted();
    watchForeignOwners();
    return {};
}

void SessionController::close()
{
    // Queued turns stay pending on disk and come back as "interrupted" (never re-sent unasked).
    m_queue.clear();
    for (auto it = m_jobs.begin(); it != m_jobs.end();)
        it = m_running.contains(it.key()) ? std::next(it) : m_jobs.erase(it);
    while (!m_running.isEmpty())
        waitForIdle(60000);
    m_ownerCheck->stop();
    m_store->close();
    m_undoStack->clear();
}

bool SessionController::isOpen() const
{
    return m_store->isOpen();
}

const FrameGraph &SessionController::graph() const
{
    return m_store->graph();
}

bool SessionController::isTracked(const QString &frameId) const
{
    return m_jobs.contains(frameId);
}

QDateTime SessionController::expiryFor(const QDateTime &from) const
{
    return from.addSecs(qint64(m_settings.retentionDays()) * 24 * 3600);
}

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
    // Failed, refused and cancelled children do not continue the parent (TurnPlanner's rule):
    // rephrasing from the parent after a refusal is an edit, not a forced branch.
    if (const int continuations = TurnPlanner::continuationCount(graph(), parentId);
        continuations > 0 && !params.newBranch)
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
        recordFrameAfterWrite(f);
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
    const Result<ImageInput> input = loadImageInput(file);
    if (!input)
        return input.error();
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const QString rel = SessionStore::imageFileName(QStringLiteral("import"), now, Frame::newId(), input.value().bytes);
    const Result<FrameImage> written = SessionStore::writeImageFile(m_store->dir(), rel, input.value().bytes);
    if (!written)
        return written.error();
    ImportOptions named = options;
    if (named.title.isEmpty())
        named.title = QFileInfo(file).fileName();
    return importStoredImage(written.value(), now, named);
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
    recordFrameAfterWrite(f);
    Q_EMIT frameAdded(f.id);
    return f.id;
}

Result<void> SessionController::checkBudget(FrameKind kind, int turns) const
{
    const QString model = m_client ? m_client->config().model : QString();
    return CostLedger(graph(), m_prices).checkBudget(m_settings.budgetUsd, kind, model, turns);
}

Result<QString> SessionController::addAndQueue(Frame frame, bool forks)
{
    // Last stop before anything is written or sent: a turn over the budget leaves no trace.
    if (const Result<void> allowed
        = CostLedger(graph(), m_prices).checkBudget(m_settings.budgetUsd, frame.kind, frame.model);
        !allowed)
        return allowed.error();
    if (!m_store->commitAsync({frame}, {}, frame.id))
        return Error::make(ErrorKind::Io, QStringLiteral("No session is open."));
    auto job = std::make_shared<Job>();
    job->frameId = frame.id;
    m_jobs.insert(frame.id, job);
    m_queue.append(frame.id);
    Q_EMIT frameAdded(frame.id);
    if (forks)
        Q_EMIT branchCreated(frame.parentId, frame.id);
    pump();
    return frame.id;
}

void SessionController::pump()
{
    while (!m_queue.isEmpty() && m_running.size() < qMax(1, m_settings.concurrencyLimit))
        launch(m_queue.takeFirst());
    if (isIdle()) {
        if (m_recovering) {
            m_recovering = false;
            Q_EMIT recoveryFinished(m_recovered, m_interrupted);
        }
        Q_EMIT idle();
    }
}

void SessionController::launch(const QString &frameId)
{
    std::shared_ptr<Job> job = m_jobs.value(frameId);
    const Frame *fp = graph().frame(frameId);
    if (!job || !fp || !fp->isPending()) {
        m_jobs.remove(frameId);
        return;
    }
    Frame f = *fp;
    job->kind = f.kind;
    job->prompt = f.promptSent.isEmpty() ? f.prompt : f.promptSent;
    job->aspectRatio = f.aspectRatio;
    job->thinkingLevel = f.thinkingLevel;
    job->previousInteractionId = f.continuedInteractionId;
    job->inputFiles.clear();
    job->setupError.reset();
    // Checked again at use: what is sent inline must be a file of this session.
    for (const QString &rel : std::as_const(f.inputImages)) {
        const Result<QString> file
            = SessionPaths::resolveInside(m_store->dir(), rel, QStringLiteral("input of frame %1").arg(f.id));
        if (!file)
            job->setupError = file.error();
        job->inputFiles.append(file ? file.value() : QString());
    }
    const Frame parent = graph().value(f.parentId);
    job->canReAnchor = f.kind == FrameKind::Edit && m_settings.autoReAnchor && !parent.image.isNull();
    if (job->canReAnchor) {
        const Result<QString> file = SessionPaths::resolveInside(
            m_store->dir(), parent.image.file, QStringLiteral("image of frame %1").arg(parent.id));
        job->reAnchorFile = file ? file.value() : QString();
        job->canReAnchor = file.ok();
    }
    job->sessionDir = m_store->dir();
    job->stream = m_settings.streamTurns;
    job->deadline = m_turnTimeoutMs > 0 ? QDeadlineTimer(m_turnTimeoutMs) : QDeadlineTimer(QDeadlineTimer::Forever);
    job->client = m_client;
    job->journal = &m_store->journal();
    job->controller = this;
    // The worker appends the journal "begin" record (after the manifest lists the frame) before sending.
    job->beginFrame = f;
    job->manifestWritten = m_store->waiterFor(m_store->queuedGeneration());
    m_running.insert(frameId, job);
    auto *watcher = new QFutureWatcher<JobResult>(this);
    connect(watcher, &QFutureWatcher<JobResult>::finished, this, [this, watcher] {
        const JobResult result = watcher->result();
        watcher->deleteLater();
        finishJob(result);
    });
    watcher->setFuture(QtConcurrent::run(m_pool, runJob, job));
    Q_EMIT turnStarted(frameId);
}

void SessionController::onInteractionIdLearned(const QString &frameId, const QString &interactionId)
{
    if (!m_running.contains(frameId))
        return;
    const Frame *fp = graph().frame(frameId);
    if (!fp || !fp->isPending() || fp->interactionId == interactionId)
        return;
    Frame f = *fp;
    f.interactionId = interactionId;
    if (commitFrames({f}))
        Q_EMIT frameChanged(frameId);
}

void SessionController::finishJob(const JobResult &result)
{
    std::shared_ptr<Job> job = m_running.take(result.frameId);
    m_jobs.remove(result.frameId);
    for (const QString &note : result.notes)
        Q_EMIT inputConverted(result.frameId, note);
    const Frame *fp = graph().frame(result.frameId);
    if (!fp) {
        pump();
        return;
    }
    Frame f = *fp;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    f.attempts += result.attempts;
    f.finishedAt = now;
    f.ownerPid = 0;
    if (result.ok) {
        f.status = FrameStatus::Done;
        f.error = {};
        f.image = result.image;
        f.interactionId = result.interaction.id;
        f.idExpiresAt = f.interactionId.isEmpty() ? QDateTime() : expiryFor(now);
        f.modelText = result.interaction.text;
        f.usage = result.interaction.usage;
        if (!result.interaction.model.isEmpty())
            f.model = result.interaction.model;
        if (result.reAnchored) {
            const QString goneId = f.continuedInteractionId;
            f.kind = FrameKind::ReAnchor;
            f.reAnchored = true;
            f.continuedInteractionId.clear();
            f.inputImages = {graph().value(f.parentId).image.file};
            // An imported lineage id has no known expiry: once the server says it is gone, drop
            // it so later edits of that frame re-anchor at once (the lineage still records it).
            const Frame parent = graph().value(f.parentId);
            if (parent.kind == FrameKind::Import && !goneId.isEmpty() && parent.interactionId == goneId) {
                Frame p = parent;
                p.interactionId.clear();
                p.idExpiresAt = {};
                if (commitFrames({p})) {
                    recordFrameAfterWrite(p);
                    Q_EMIT frameChanged(p.id);
                }
            }
        }
        if (result.recovery)
            ++m_recovered;
    } else if (result.error.kind == ErrorKind::Cancelled) {
        f.status = FrameStatus::Cancelled;
        f.error = FrameError::fromError(result.error);
    } else if (result.recovery) {
        f.status = FrameStatus::Interrupted;
        f.error = FrameError::fromError(result.error);
        if (result.error.kind == ErrorKind::NotFound)
            f.interactionId.clear(); // gone on the server: a retry has to send it again
        ++m_interrupted;
    } else {
        f.status = FrameStatus::Failed;
        f.error = FrameError::fromError(result.error);
        // An answer cut after the id arrived: the server may finish it; recover/retry get it.
        if (!result.error.api.interactionId.isEmpty())
            f.interactionId = result.error.api.interactionId;
        if (result.error.kind == ErrorKind::NotFound && f.kind == FrameKind::Edit && !f.parentId.isEmpty())
            f.error.message = QStringLiteral("The server no longer has the parent's interaction %1 and automatic "
                                             "re-anchoring is off. Re-anchor this frame to send the parent's stored "
                                             "image instead (continuity may differ).")
                                  .arg(f.continuedInteractionId);
        if (!result.error.api.modelText.isEmpty())
            f.modelText = result.error.api.modelText;
    }
    if (!commitFrames({f}))
        Q_EMIT errorOccurred(QStringLiteral("Could not record the result of frame %1 in the manifest.").arg(f.id));
    endTurn(f);
    Q_EMIT frameChanged(f.id);
    if (f.reAnchored && f.isDone())
        Q_EMIT frameReAnchored(f.id);
    Q_EMIT turnFinished(f.id);
    if (f.status != FrameStatus::Done) {
        Error e = result.error;
        Q_EMIT turnFailed(f.id, e);
    }
    pump();
}

void SessionController::endTurn(const Frame &frame)
{
    // On the writer, after the manifest write that has the result ("end" follows the manifest).
    Journal *journal = &m_store->journal();
    m_store->enqueue([journal, frame] { return journal->endTurn(frame); });
}

void SessionController::recordFrameAfterWrite(const Frame &frame)
{
    Journal *journal = &m_store->journal();
    m_store->enqueue([journal, frame] { return journal->recordFrame(frame); });
}

bool SessionController::commitFrames(const QList<Frame> &frames, const QString &current)
{
    // The graph changes at once; the manifest write runs on the store's writer (errors come back by writeFailed).
    if (m_store->commitAsync(frames, {}, current))
        return true;
    Q_EMIT errorOccurred(QStringLiteral("No session is open."));
    return false;
}

Result<void> SessionController::recordDerived(const Frame &updated)
{
    const Frame *current = graph().frame(updated.id);
    if (!current || !current->isDone())
        return Error::make(ErrorKind::InvalidInput,
            QStringLiteral("Frame %1 is not a finished frame of this session.").arg(updated.id));
    Frame f = *current;
    f.image = updated.image;
    f.regionEdit = updated.regionEdit;
    f.drift = updated.drift;
    if (!commitFrames({f}))
        return Error::make(ErrorKind::Io, QStringLiteral("Could not write the session manifest."));
    recordFrameAfterWrite(f);
    Q_EMIT frameChanged(f.id);
    return {};
}

bool SessionController::cancel(const QString &frameId)
{
    if (m_queue.contains(frameId)) {
        m_queue.removeAll(frameId);
        m_jobs.remove(frameId);
        Frame f = graph().value(frameId);
        if (f.id.isEmpty())
            return false;
        f.status = FrameStatus::Cancelled;
        f.finishedAt = QDateTime::currentDateTimeUtc();
        f.ownerPid = 0;
        commitFrames({f});
        recordFrameAfterWrite(f);
        Q_EMIT frameChanged(frameId);
        Q_EMIT turnFinished(frameId);
        pump();
        return true;
    }
    if (auto job = m_running.value(frameId)) {
        job->cancel->cancel();
        return true;
    }
    // Another process's turn: if that process is gone, recover it now instead of waiting for
    // the next owner check (a live owner's turn is not ours to cancel).
    const Frame *fp = graph().frame(frameId);
    if (fp && fp->isPending() && fp->ownerPid != currentPid() && !isOwnerProcessAlive(fp->ownerPid)) {
        recoverInterrupted();
        return true;
    }
    return false;
}

Result<QString> SessionController::retry(const QString &frameId)
{
    const Frame *fp = graph().frame(frameId);
    if (!fp)
        return Error::make(
            ErrorKind::InvalidInput, QStringLiteral("There is no frame %1 in this session.").arg(frameId));
    if (!isValidStatusTransition(fp->status, FrameStatus::Pending) || isTracked(frameId))
        return Error::make(ErrorKind::InvalidInput,
            QStringLiteral("Frame %1 is %2; only failed, cancelled or interrupted frames can be retried.")
                .arg(frameId, frameStatusName(fp->status)));
    if (fp->kind == FrameKind::Import)
        return Error::make(ErrorKind::InvalidInput, QStringLiteral("An imported frame has nothing to retry."));
    if (!m_client)
        return Error::make(ErrorKind::Auth, QStringLiteral("No API client is configured (set an API key)."));
    Frame f = *fp;
    const bool recovers = f.isRecoverable(); // fetched by its id first (re-sent only if the server lost it)
    if (!recovers) {                         // a get of a known id costs nothing; a re-send does
        if (const Result<void> allowed
            = CostLedger(graph(), m_prices).checkBudget(m_settings.budgetUsd, f.kind, f.model);
            !allowed)
            return allowed.error();
    }
    auto job = std::make_shared<Job>();
    job->frameId = f.id;
    if (f.isRecoverable()) {
        // The server may have finished it: get it first, and send anew only if it is gone.
        job->recoverId = f.interactionId;
        job->createIfGone = true;
    } else {
        // A root edit (editInteraction) continues a server id, not a frame: nothing to check here.
        if ((f.kind == FrameKind::Edit || f.kind == FrameKind::ReAnchor) && !f.parentId.isEmpty()) {
            if (auto r = checkParentForChild(f.parentId, TurnParams {f.prompt, {}, {}, true, {}}, true); !r)
                return r;
            if (f.kind == FrameKind::Edit) {
                if (const Result<void> prepared = prepareEdit(f, graph().value(f.parentId)); !prepared)
                    return prepared.error();
            }
        }
        f.interactionId.clear();
    }
    f.status = FrameStatus::Pending;
    f.error = {};
    f.finishedAt = {};
    f.ownerPid = currentPid();
    if (!commitFrames({f}))
        return Error::make(ErrorKind::Io, QStringLiteral("Could not write the session manifest."));
    m_jobs.insert(f.id, job);
    m_queue.append(f.id);
    Q_EMIT frameChanged(f.id);
    pump();
    return f.id;
}

Result<QString> SessionController::reAnchor(const QString &frameId)
{
    const Frame *fp = graph().frame(frameId);
    if (!fp)
        return Error::make(
            ErrorKind::InvalidInput, QStringLiteral("There is no frame %1 in this session.").arg(frameId));
    if (fp->kind != FrameKind::Edit && fp->kind != FrameKind::ReAnchor)
        return Error::make(ErrorKind::InvalidInput,
            QStringLiteral("Frame %1 is not an edit of a parent frame; there is nothing to re-anchor.").arg(frameId));
    if (!isValidStatusTransition(fp->status, FrameStatus::Pending) || isTracked(frameId))
        return Error::make(ErrorKind::InvalidInput,
            QStringLiteral("Frame %1 is %2; only failed, cancelled or interrupted edits can be re-anchored.")
                .arg(frameId, frameStatusName(fp->status)));
    if (!m_client)
        return Error::make(ErrorKind::Auth, QStringLiteral("No API client is configured (set an API key)."));
    if (auto r = checkParentForChild(fp->parentId, TurnParams {fp->prompt, {}, {}, true, {}}, true); !r)
        return r;
    if (const Result<void> allowed
        = CostLedger(graph(), m_prices).checkBudget(m_settings.budgetUsd, FrameKind::ReAnchor, fp->model);
        !allowed)
        return allowed.error();
    Frame f = *fp;
    f.kind = FrameKind::ReAnchor;
    f.reAnchored = true;
    f.continuedInteractionId.clear();
    f.interactionId.clear();
    f.inputImages = {graph().value(f.parentId).image.file};
    f.status = FrameStatus::Pending;
    f.error = {};
    f.finishedAt = {};
    f.ownerPid = currentPid();
    if (!commitFrames({f}))
        return Error::make(ErrorKind::Io, QStringLiteral("Could not write the session manifest."));
    m_jobs.insert(f.id, std::make_shared<Job>());
    m_jobs[f.id]->frameId = f.id;
    m_queue.append(f.id);
    Q_EMIT frameChanged(f.id);
    pump();
    return f.id;
}

void SessionController::recoverInterrupted()
{
    if (!isOpen())
        return;
    m_recovered = 0;
    m_interrupted = 0;
    QList<Frame> interrupted;
    QStringList toFetch;
    std::optional<Journal::Replay> journal; // read once, only if a dead turn's id is not in the manifest
    for (Frame f : graph().frames()) {
        if (isTracked(f.id))
            continue;
        if (!f.isPending()) {
            // Interrupted or cut off earlier, with a known id: still the server's to give back.
            if (f.isRecoverable() && m_client)
                toFetch.append(f.id);
            continue;
        }
        if (f.ownerPid != currentPid() && isOwnerProcessAlive(f.ownerPid))
            continue; // another live process is running this turn
        if (f.interactionId.isEmpty()) {
            // The owner may have died between journalling the id its stream revealed and the
            // manifest write that would have carried it: the journal has it, and get is free.
            if (!journal)
                journal = Journal::replay(m_store->journalPath());
            const QString journalled = journal->interactionIds.value(f.id);
            if (!journalled.isEmpty()) {
                f.interactionId = journalled;
                commitFrames({f});
            }
        }
        if (!f.interactionId.isEmpty() && !m_client)
            continue; // recoverable by get: leave it for an opening that has a client (key)
        if (f.interactionId.isEmpty()) {
            Frame g = f;
            g.status = FrameStatus::Interrupted;
            g.finishedAt = QDateTime::currentDateTimeUtc();
            g.ownerPid = 0;
            g.error.kind = errorKindName(ErrorKind::Network);
            g.error.message = QStringLiteral("The program stopped before the server confirmed this request. Nothing "
                                             "was re-sent; retry to send it.");
            interrupted.append(g);
        } else {
            toFetch.append(f.id);
        }
    }
    if (!interrupted.isEmpty()) {
        commitFrames(interrupted);
        for (const Frame &g : std::as_const(interrupted)) {
            endTurn(g);
            Q_EMIT frameChanged(g.id);
            Q_EMIT turnFinished(g.id);
        }
    }
    m_interrupted = interrupted.size();
    for (const QString &id : std::as_const(toFetch)) {
        Frame f = graph().value(id);
        f.status = FrameStatus::Pending; // a recoverable frame goes back to pending while it is fetched
        f.ownerPid = currentPid();       // ours now: another process must not recover it twice
        commitFrames({f});
        auto job = std::make_shared<Job>();
        job->frameId = id;
        job->recoverId = f.interactionId;
        m_jobs.insert(id, job);
        m_queue.append(id);
    }
    m_recovering = true;
    pump();
}

bool SessionController::hasForeignPendingTurn(bool *ownerDead) const
{
    bool any = false;
    for (const Frame &f : graph().frames()) {
        if (!f.isPending() || isTracked(f.id) || f.ownerPid == currentPid())
            continue;
        any = true;
        if (ownerDead && !isOwnerProcessAlive(f.ownerPid)) {
            *ownerDead = true;
            return true;
        }
    }
    return any;
}

void SessionController::watchForeignOwners()
{
    // Another window or nb2lite may run a turn of this session and die with it (kill -9, a
    // crash): while such a turn is listed, look every couple of seconds whether its owner lives.
    if (isOpen() && hasForeignPendingTurn()) {
        if (!m_ownerCheck->isActive())
            m_ownerCheck->start();
    } else {
        m_ownerCheck->stop();
    }
}

void SessionController::checkForeignOwners()
{
    bool ownerDead = false;
    if (isOpen() && hasForeignPendingTurn(&ownerDead) && ownerDead)
        recoverInterrupted(); // get for known ids, "interrupted" (Retry) for the rest
    watchForeignOwners();
}

bool SessionController::applyRetentionToExistingFrames()
{
    QList<Frame> changed;
    for (const Frame &f : graph().frames()) {
        // An import's id came from its lineage record: when it was made is unknown.
        if (f.interactionId.isEmpty() || !f.finishedAt.isValid() || !f.isDone() || f.kind == FrameKind::Import)
            continue;
        Frame g = f;
        g.idExpiresAt = expiryFor(f.finishedAt);
        if (g.idExpiresAt != f.idExpiresAt)
            changed.append(g);
    }
    if (changed.isEmpty())
        return true;
    if (!commitFrames(changed))
        return false;
    for (const Frame &f : std::as_const(changed))
        Q_EMIT frameChanged(f.id);
    return true;
}

bool SessionController::waitForIdle(int timeoutMs)
{
    QDeadlineTimer deadline(timeoutMs);
    // processEvents(flags, ms) drops WaitForMoreEvents (Qt polls with a zero timeout in a loop),
    // so waiting that way spun this thread at 100 % of a core while the turn's worker needed
    // it: on 2 cores that was most of a CLI turn's overhead. Block in the event loop instead;
    // the turn's own events wake it, the tick bounds each wait so the deadline is seen.
    QTimer tick;
    tick.start(50);
    while (!isIdle()) {
        if (deadline.hasExpired())
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
        QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
    }
    // Idle also means on disk: callers (the CLI, tests) read the folder next.
    if (isOpen())
        m_store->flush();
    return true;
}

Result<QString> SessionController::resolveFrameRef(const QString &ref) const
{
    if (ref.isEmpty())
        return Error::make(ErrorKind::InvalidInput, QStringLiteral("Empty frame reference."));
    if (ref == QLatin1String("head")) {
        QString start = m_store->currentFrameId();
        if (start.isEmpty() || !graph().contains(start) || graph().frame(start)->isTrashed()) {
            const QStringList heads = graph().heads();
            if (heads.isEmpty())
                return Error::make(ErrorKind::InvalidInput, QStringLiteral("The session has no frames yet."));
            start = heads.last();
        }
        return graph().headFrom(start);
    }
    const QStringList matches = graph().matchPrefix(ref);
    if (matches.isEmpty())
        return Error::make(ErrorKind::InvalidInput, QStringLiteral("No frame matches \"%1\".").arg(ref));
    if (matches.size() > 1)
        return Error::make(ErrorKind::InvalidInput,
            QStringLiteral("\"%1\" is ambiguous: it matches %2.").arg(ref, matches.join(QStringLiteral(", "))));
    return matches.first();
}

// ---- local operations ----

bool SessionController::applyUserFields(const QList<Frame> &frames)
{
    QList<Frame> updated;
    for (const Frame &src : frames) {
        const Frame *cur = graph().frame(src.id);
        if (!cur)
            continue;
        Frame f = *cur;
        f.title = src.title;
        f.starred = src.starred;
        f.folded = src.folded;
        f.note = src.note;
        f.keepList = src.keepList;
        f.keepListSet = src.keepListSet;
        f.trashedAt = src.trashedAt;
        f.trashGroup = src.trashGroup;
        updated.append(f);
    }
    if (updated.isEmpty())
        return false;
    // The current frame ("head", the selection after reopening) must stay a live frame: when
    // it goes to the trash (delete, or redo of one) it moves to its nearest live ancestor,
    // else to the newest live head. Undo of a delete leaves it where it moved.
    QString current = m_store->currentFrameId();
    if (!current.isEmpty()) {
        QHash<QString, const Frame *> next;
        for (const Frame &f : std::as_const(updated))
            next.insert(f.id, &f);
        auto trashedAfter = [&](const QString &id) {
            if (const Frame *f = next.value(id))
                return f->isTrashed();
            const Frame *g = graph().frame(id);
            return !g || g->isTrashed();
        };
        if (trashedAfter(current)) {
            QString live;
            for (QString up = graph().value(current).parentId; !up.isEmpty(); up = graph().value(up).parentId) {
                if (!trashedAfter(up)) {
                    live = up;
                    break;
                }
            }
            if (live.isEmpty()) {
                const QList<Frame> all = graph().frames();
                for (auto it = all.crbegin(); it != all.crend() && live.isEmpty(); ++it)
                    if (!trashedAfter(it->id))
                        live = it->id;
            }
            current = live; // empty when nothing is left outside the trash: left as it was
        } else {
            current.clear(); // unchanged
        }
    }
    if (!commitFrames(updated, current))
        return false;
    for (const Frame &f : std::as_const(updated)) {
        recordFrameAfterWrite(f); // so a rebuild keeps titles, stars, notes and the trash
        Q_EMIT frameChanged(f.id);
    }
    return true;
}

namespace {
template <typename Fn>
bool editUserField(SessionController *c, QUndoStack *stack, const QString &id, const QString &text, Fn change)
{
    const Frame *cur = c->graph().frame(id);
    if (!cur)
        return false;
    Frame after = *cur;
    change(after);
    stack->push(new FrameEditCommand(c, text, {*cur}, {after}));
    return true;
}
} // namespace

bool SessionController::setTitle(const QString &frameId, const QString &title)
{
    return editUserField(this, m_undoStack, frameId, tr("Rename frame"), [&](Frame &f) { f.title = title; });
}

bool SessionController::setStarred(const QString &frameId, bool starred)
{
    return editUserField(this, m_undoStack, frameId, starred ? tr("Star frame") : tr("Unstar frame"),
        [&](Frame &f) { f.starred = starred; });
}

bool SessionController::setNote(const QString &frameId, const QString &note)
{
    return editUserField(this, m_undoStack, frameId, tr("Edit note"), [&](Frame &f) { f.note = note; });
}

bool SessionController::setKeepList(const QString &frameId, const QStringList &items, bool set)
{
    return editUserField(this, m_undoStack, frameId, tr("Edit keep-list"), [&](Frame &f) {
        f.keepList = set ? KeepList::cleaned(items) : QStringList();
        f.keepListSet = set;
    });
}

bool SessionController::setFolded(const QStringList &frameIds, bool folded)
{
    QList<Frame> before, after;
    for (const QString &id : frameIds) {
        const Frame *f = graph().frame(id);
        if (!f || f->folded == folded)
            continue;
        before.append(*f);
        after.append(*f);
        after.last().folded = folded;
    }
    if (before.isEmpty())
        return false;
    m_undoStack->push(new FrameEditCommand(this, folded ? tr("Fold frames") : tr("Unfold frames"), before, after));
    return true;
}

bool SessionController::pickVariant(const QString &chosenId, const QStringList &siblings)
{
    const Frame *chosen = graph().frame(chosenId);
    if (!chosen)
        return false;
    QList<Frame> before {*chosen}, after {*chosen};
    after.last().starred = true;
    after.last().folded = false;
    for (const QString &id : siblings) {
        const Frame *f = graph().frame(id);
        if (!f || id == chosenId)
            continue;
        before.append(*f);
        after.append(*f);
        after.last().folded = true;
    }
    m_undoStack->push(new FrameEditCommand(this, tr("Pick variant"), before, after));
    return true;
}

Result<void> SessionController::trash(const QStringList &ids, const QString &text)
{
    if (ids.isEmpty())
        return Error::make(ErrorKind::InvalidInput, QStringLiteral("Nothing to delete."));
    QList<Frame> before, after;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const QString group = QUuid::createUuid().toString(QUuid::Id128).left(8);
    for (const QString &id : ids) {
        const Frame *f = graph().frame(id);
        if (!f)
            continue;
        if (f->isPending())
            return Error::make(
                ErrorKind::Conflict, QStringLiteral("Frame %1 is still running; cancel it before deleting.").arg(id));
        before.append(*f);
        Frame a = *f;
        a.trashedAt = now;
        a.trashGroup = group;
        after.append(a);
    }
    m_undoStack->push(new FrameEditCommand(this, text, before, after));
    return {};
}

Result<void> SessionController::deleteFrame(const QString &frameId)
{
    if (!graph().contains(frameId) || graph().frame(frameId)->isTrashed())
        return Error::make(
            ErrorKind::InvalidInput, QStringLiteral("There is no frame %1 outside the trash.").arg(frameId));
    return trash(graph().subtree(frameId), tr("Delete frame"));
}

Result<void> SessionController::deleteBranch(const QString &headId)
{
    const QStringList own = graph().branchOwnFrames(headId);
    if (own.isEmpty())
        return Error::make(
            ErrorKind::InvalidInput, QStringLiteral("Frame %1 is not the head of a branch.").arg(headId));
    return trash(own, tr("Delete branch"));
}

Result<void> SessionController::restoreFrame(const QString &frameId)
{
    const Frame *f = graph().frame(frameId);
    if (!f || !f->isTrashed())
        return Error::make(ErrorKind::InvalidInput, QStringLiteral("Frame %1 is not in the trash.").arg(frameId));
    QStringList ids;
    for (const Frame &g : graph().frames())
        if (g.isTrashed() && g.trashGroup == f->trashGroup)
            ids.append(g.id);
    // A restored frame needs its ancestors back too, or it would hang off nothing.
    for (const QString &a : graph().pathTo(frameId))
        if (graph().frame(a)->isTrashed() && !ids.contains(a))
            ids.append(a);
    QList<Frame> before, after;
    for (const QString &id : std::as_const(ids)) {
        const Frame *g = graph().frame(id);
        before.append(*g);
        Frame a = *g;
        a.trashedAt = {};
        a.trashGroup.clear();
        after.append(a);
    }
    m_undoStack->push(new FrameEditCommand(this, tr("Restore from trash"), before, after));
    return {};
}

Result<void> SessionController::emptyTrash()
{
    QStringList trashed;
    for (const Frame &f : graph().frames())
        if (f.isTrashed())
            trashed.append(f.id);
    if (trashed.isEmpty())
        return {};
    const QStringList stillUsed = graph().referencedFiles(trashed);
    const QSet<QString> keep(stillUsed.cbegin(), stillUsed.cend());
    QStringList files;
    for (const QString &id : std::as_const(trashed)) {
        const Frame *f = graph().frame(id);
        if (!f->image.isNull())
            files.append(f->image.file);
        files.append(f->inputImages);
    }
    files.removeDuplicates();
    // Manifest first: a crash after it leaves unreferenced files (harmless), never dangling
    // references. The removals run on the store's writer, after that write, and only if it worked.
    const quint64 gen = m_store->commitAsync({}, trashed, {});
    if (!gen)
        return Error::make(ErrorKind::InvalidInput, QStringLiteral("No session is open."));
    QStringList doomed;
    for (const QString &rel : std::as_const(files))
        if (!keep.contains(rel))
            doomed.append(m_store->absolutePath(rel));
    const QString thumbsDir = m_store->thumbsDir();
    m_store->enqueue([written = m_store->waiterFor(gen), journal = &m_store->journal(), trashed, doomed,
                         thumbsDir]() -> Result<void> {
        if (Result<void> onDisk = written(); !onDisk)
            return onDisk; // the manifest still lists them: keep every file
        const Result<void> recorded = journal->recordRemoval(trashed);
        for (const QString &path : doomed)
            QFile::remove(path);
        for (const QString &id : trashed) {
            const QStringList thumbs = QDir(thumbsDir).entryList({id + QStringLiteral("_*")}, QDir::Files);
            for (const QString &t : thumbs)
                QFile::remove(thumbsDir + QLatin1Char('/') + t);
        }
        return recorded;
    });
    m_undoStack->clear(); // the commands refer to frames that no longer exist
    for (const QString &id : std::as_const(trashed))
        Q_EMIT frameRemoved(id);
    return {};
}

void SessionController::onStoreChanged(const QStringList &added, const QStringList &changed, const QStringList &removed)
{
    for (const QString &id : added)
        Q_EMIT frameAdded(id);
    for (const QString &id : changed)
        Q_EMIT frameChanged(id);
    for (const QString &id : removed)
        Q_EMIT frameRemoved(id);
    Q_EMIT changedExternally();
    watchForeignOwners();
}

} // namespace nb2
