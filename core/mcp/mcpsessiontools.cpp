#include "core/mcp/mcpsessiontools.h"

#include "core/api/imageinput.h"
#include "core/api/interactionsclient.h"
#include "core/api/thinkinglevels.h"
#include "core/mcp/jsonrpc.h"
#include "core/mcp/mcpcall.h"
#include "core/mcp/mcpframeref.h"
#include "core/mcp/mcphelp.h"
#include "core/mcp/mcpinputs.h"
#include "core/mcp/mcpoutputcopy.h"
#include "core/mcp/mcpresults.h"
#include "core/session/editfinisher.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

namespace nb2 {

/** One image call waiting for its frame. */
struct McpSessionTools::Turn {
    std::shared_ptr<McpCall> call;
    QString what;               // "Image generation failed" ... for the failure text
    QString note;               // an extra line for the result
    std::optional<Error> error; // as turnFailed reported it (retry time, server words)
    QElapsedTimer clock;
    QTimer *ticker = nullptr;
    bool idReported = false;
};

namespace {

// The seed server told the model which picture is the style; the request sends the style first.
const QString kStyleInstruction = QStringLiteral(
    "Apply the visual style, technique, colour palette and lighting of the first image (the style reference) to "
    "the second image. ");

constexpr int kListCap = 100; // list_frames shows at most the newest 100 frames of its scope
constexpr int kTickMs = 1000; // progress while a turn runs
constexpr int kResourceDebounceMs = 200;

QString shortText(QString text, int max = 60)
{
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return text.size() > max ? text.left(max - 1) + QChar(0x2026) : text;
}

} // namespace

template <typename T> void McpSessionTools::offThread(std::function<T()> work, std::function<void(const T &)> then)
{
    auto *watcher = new QFutureWatcher<T>(this);
    connect(watcher, &QFutureWatcher<T>::finished, this, [watcher, then] {
        watcher->deleteLater();
        then(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(std::move(work)));
}

McpSessionTools::McpSessionTools(SessionController *session, McpBridgeOptions options, QObject *parent)
    : McpToolHost(parent), m_session(session), m_options(std::move(options))
{
    if (m_options.workingDir.isEmpty())
        m_options.workingDir = QDir::currentPath();
    m_session->setTurnOrigin(kFrameOriginMcp);
    m_toolsSnapshot = QJsonDocument(toolDefinitions()).toJson(QJsonDocument::Compact);

    m_resourceTimer = new QTimer(this);
    m_resourceTimer->setSingleShot(true);
    m_resourceTimer->setInterval(kResourceDebounceMs);
    connect(m_resourceTimer, &QTimer::timeout, this, [this] {
        QSet<QString> now;
        for (const QJsonValue &r : resourceList())
            now.insert(r.toObject().value(QLatin1String("uri")).toString());
        if (now != m_listedResources) {
            m_listedResources = now;
            Q_EMIT resourceListChanged();
        }
    });
    for (const QJsonValue &r : resourceList())
        m_listedResources.insert(r.toObject().value(QLatin1String("uri")).toString());

    connect(session, &SessionController::frameAdded, this, &McpSessionTools::scheduleResourceCheck);
    connect(session, &SessionController::framesRemoved, this, &McpSessionTools::scheduleResourceCheck);
    connect(session, &SessionController::framesChanged, this, [this](const QStringList &ids) {
        scheduleResourceCheck();
        for (const QString &id : ids) {
            const std::shared_ptr<Turn> turn = m_turns.value(id);
            const Frame *f = m_session->graph().frame(id);
            if (turn && f && f->isPending() && !f->interactionId.isEmpty() && !turn->idReported) {
                turn->idReported = true;
                reportProgress(
                    id, QStringLiteral("the server accepted the request (interaction %1)").arg(f->interactionId));
            }
        }
    });
    connect(session, &SessionController::turnStarted, this, [this](const QString &id) {
        reportProgress(id, QStringLiteral("sending the request to %1").arg(m_session->graph().value(id).model));
    });
    connect(session, &SessionController::draftReceived, this,
        [this](const QString &id) { reportProgress(id, QStringLiteral("a draft arrived; drawing the final image")); });
    connect(session, &SessionController::turnFailed, this, [this](const QString &id, const Error &error) {
        if (const std::shared_ptr<Turn> turn = m_turns.value(id))
            turn->error = error;
    });
    // turnFailed (with the client's error: retry time, server words) follows turnFinished: answer once both are in.
    connect(session, &SessionController::turnFinished, this, [this](const QString &id) {
        if (m_turns.contains(id))
            QMetaObject::invokeMethod(
                this, [this, id] { onTurnFinished(id); }, Qt::QueuedConnection);
    });
    connect(session, &SessionController::errorOccurred, this,
        [this](const QString &message) { Q_EMIT logMessage(mcp::LogLevel::Warning, message); });
    connect(session, &SessionController::changedExternally, this,
        [this] { Q_EMIT logMessage(mcp::LogLevel::Debug, QStringLiteral("another process changed the session")); });
}

McpSessionTools::~McpSessionTools()
{
    for (const std::shared_ptr<Turn> &turn : std::as_const(m_turns))
        turn->call->setCancelHandler({});
}

mcp::ToolCatalogInputs McpSessionTools::catalogInputs() const
{
    mcp::ToolCatalogInputs in;
    in.aspectRatios = supportedAspectRatios();
    const QString model
        = m_session && m_session->client() ? m_session->client()->config().model : QString::fromLatin1(kDefaultModel);
    in.thinkingLevels
        = m_options.thinkingLevels ? m_options.thinkingLevels->allowed(model) : ThinkingLevels::defaultLevels();
    in.defaultThinkingLevel = defaultThinkingLevel();
    return in;
}

QString McpSessionTools::defaultThinkingLevel() const
{
    const QString preferred = ThinkingLevels::defaultLevel();
    if (!m_options.thinkingLevels || !m_session || !m_session->client())
        return preferred;
    const QString model = m_session->client()->config().model;
    if (m_options.thinkingLevels->isAllowed(model, preferred))
        return preferred;
    // The server said "low" is not accepted: the first level it named instead of the same 400 again.
    const QStringList allowed = m_options.thinkingLevels->allowed(model);
    return allowed.isEmpty() ? preferred : allowed.constFirst();
}

QJsonArray McpSessionTools::toolDefinitions() const
{
    return mcp::toolDefinitions(catalogInputs());
}

QString McpSessionTools::instructions() const
{
    return QStringLiteral(
        "Images are generated and edited with Gemini's gemini-3.1-flash-lite-image and kept as frames of a local "
        "NB2Lite session that a person may be watching. Continue an image with edit_image and its NEWEST "
        "interaction id, describing only the change; fork an earlier one only with branch_from. Call get_help first "
        "when something fails.");
}

QString McpSessionTools::absolutePath(const QString &path) const
{
    return QDir::cleanPath(QDir(m_options.workingDir).absoluteFilePath(path));
}

std::optional<QJsonObject> McpSessionTools::unavailable(const QString &what) const
{
    if (!m_session || !m_session->isOpen()) {
        return mcp::errorResult(
            QStringLiteral("%1: the session folder %2 could not be opened: %3\nStart the server with --session DIR (or "
                           "NB2LITE_SESSION) naming a folder it can write, or repair this one with `nb2lite --session "
                           "%2 rebuild`; then restart the MCP server.")
                .arg(what, QDir::toNativeSeparators(m_options.sessionDir),
                    m_options.sessionError.isEmpty() ? QStringLiteral("it is not open") : m_options.sessionError));
    }
    if (m_options.keyRequired && m_options.keySource.isEmpty()) {
        return mcp::errorResult(
            QStringLiteral("%1: no Gemini API key. Set GEMINI_API_KEY (or GOOGLE_API_KEY) in the environment that "
                           "starts `nb2lite mcp`, or put the key on the first line of ~/gemini.key (mode 0600); then "
                           "restart the MCP server. Nothing was sent. (To try it offline, register `nb2lite mcp "
                           "--demo`.)")
                .arg(what));
    }
    return std::nullopt;
}

void McpSessionTools::callTool(const std::shared_ptr<McpCall> &call)
{
    const QString &name = call->toolName();
    if (name == mcp::tool::getHelp)
        help(call);
    else if (name == mcp::tool::listFrames)
        listFrames(call);
    else if (name == mcp::tool::generateImage)
        generate(call);
    else if (name == mcp::tool::editImage)
        edit(call, false);
    else if (name == mcp::tool::branchFrom)
        edit(call, true);
    else if (name == mcp::tool::editLocalImage)
        editLocal(call, false);
    else if (name == mcp::tool::editLocalImageWithStyle)
        editLocal(call, true);
    else
        call->finish(mcp::errorResult(QStringLiteral("%1 is not implemented").arg(name)));
}

void McpSessionTools::generate(const std::shared_ptr<McpCall> &call)
{
    const QString what = QStringLiteral("Image generation failed");
    if (auto error = unavailable(what))
        return call->finish(*error);
    TurnParams params;
    params.prompt = call->arguments().value(QLatin1String("prompt")).toString();
    params.aspectRatio = call->arguments().value(QLatin1String("aspect_ratio")).toString();
    params.thinkingLevel = call->arguments().value(QLatin1String("thinking_level")).toString();
    track(call, m_session->generate(params), what, {});
}

void McpSessionTools::edit(const std::shared_ptr<McpCall> &call, bool branch)
{
    const QString what = branch ? QStringLiteral("Branching failed") : QStringLiteral("Editing failed");
    if (auto error = unavailable(what))
        return call->finish(*error);
    const QJsonObject &args = call->arguments();
    const QString ref
        = args.value(branch ? QLatin1String("frame_or_interaction_id") : QLatin1String("previous_interaction_id"))
              .toString()
              .trimmed();
    TurnParams params;
    params.prompt = args.value(QLatin1String("edit_prompt")).toString();
    params.thinkingLevel = args.value(QLatin1String("thinking_level")).toString();

    // Another process (the app) may have added frames since the watcher last looked.
    m_session->store()->reload();
    const FrameGraph &graph = m_session->graph();
    const FrameReference target = FrameReference::resolve(graph, ref);
    if (target.kind == FrameReference::Kind::Invalid)
        return call->finish(mcp::errorResult(QStringLiteral("%1: %2.").arg(what, target.problem)));
    if (target.kind == FrameReference::Kind::UnknownInteraction) {
        const QStringList continued = continuationsOfInteraction(graph, target.interactionId);
        if (!branch && !continued.isEmpty()) {
            const QString head = graph.headFrom(continued.constLast());
            return call->finish(mcp::errorResult(
                QStringLiteral("%1: interaction %2 is already continued in this session (frame %3); editing it again "
                               "would fork the chain. To continue the newest image, call edit_image with frame %4%5. "
                               "To start an alternative on purpose, call branch_from(frame_or_interaction_id=\"%2\", "
                               "edit_prompt=...).")
                    .arg(what, target.interactionId, continued.constLast(), head,
                        graph.value(head).interactionId.isEmpty()
                            ? QString()
                            : QStringLiteral(" (interaction %1)").arg(graph.value(head).interactionId))));
        }
        continueInteraction(call, target.interactionId, params, what, branch);
        return;
    }

    const Frame frame = graph.value(target.frameId);
    if (frame.isPending())
        return call->finish(mcp::errorResult(
            QStringLiteral("%1: frame %2 is still being made; wait for its result and edit the id it returns.")
                .arg(what, frame.id)));
    if (!frame.isDone() || frame.image.isNull()) {
        return call->finish(mcp::errorResult(
            QStringLiteral("%1: frame %2 has no image to edit (%3).%4")
                .arg(what, frame.id, frame.statusText(),
                    frame.parentId.isEmpty()
                        ? QString()
                        : QStringLiteral(" Edit its parent, frame %1, instead.").arg(frame.parentId))));
    }
    const QStringList continued = continuationsOf(graph, frame.id);
    if (!branch && !continued.isEmpty()) {
        const QString head = graph.headFrom(frame.id);
        const Frame headFrame = graph.value(head);
        return call->finish(mcp::errorResult(
            QStringLiteral("%1: frame %2%3 already has a newer edit (frame %4); editing it again would fork the chain. "
                           "The newest image of that branch is frame %5%6: continue it with edit_image%7. To start an "
                           "alternative from frame %2 on purpose, call branch_from(frame_or_interaction_id=\"%2\", "
                           "edit_prompt=...).")
                .arg(what, frame.id,
                    frame.interactionId.isEmpty() ? QString()
                                                  : QStringLiteral(" (interaction %1)").arg(frame.interactionId),
                    continued.constLast(), head,
                    headFrame.interactionId.isEmpty()
                        ? QString()
                        : QStringLiteral(" (interaction %1)").arg(headFrame.interactionId),
                    headFrame.isPending() ? QStringLiteral(" once it is done") : QString())));
    }
    // Failed attempts hanging off the frame are dead ends, not continuations: the retry gets a lane of its own.
    params.newBranch = branch || graph.hasChildren(frame.id);
    track(call, m_session->edit(frame.id, params), what,
        branch && continued.isEmpty()
            ? QStringLiteral("Frame %1 had no other continuation, so this is not a fork.").arg(frame.id)
            : QString());
}

void McpSessionTools::continueInteraction(const std::shared_ptr<McpCall> &call, const QString &interactionId,
    TurnParams params, const QString &what, bool branch)
{
    const std::shared_ptr<InteractionsClient> client = m_session->client();
    if (!client)
        return call->finish(mcp::errorResult(QStringLiteral("%1: no API client is configured.").arg(what)));
    // The chain's aspect ratio is re-sent with every edit; a get (free) tells it and whether the id is alive.
    call->reportProgress(0, 0, QStringLiteral("looking up interaction %1").arg(interactionId));
    auto cancel = std::make_shared<CancelToken>();
    call->setCancelHandler([cancel] { cancel->cancel(); });
    offThread<InteractionLookup>(
        [client, interactionId, cancel] { return lookUpInteraction(*client, interactionId, cancel); },
        [this, call, interactionId, params, what, branch](const InteractionLookup &lookup) mutable {
            if (call->isDone())
                return;
            call->setCancelHandler({});
            if (lookup.error) {
                if (lookup.error->kind == ErrorKind::NotFound) {
                    return call->finish(mcp::errorResult(
                        QStringLiteral("%1: the server does not know interaction %2: it expired (ids last 1 day on "
                                       "free keys, 55 days on paid keys), was deleted, or was made with another key. "
                                       "Nothing was sent. Start again from the image file with edit_local_image, or "
                                       "call list_frames for this session's frames.")
                            .arg(what, interactionId)));
                }
                return call->finish(mcp::failedTurnResult(what, Frame(), lookup.error));
            }
            if (!branch && !continuationsOfInteraction(m_session->graph(), interactionId).isEmpty()) {
                return call->finish(mcp::errorResult(
                    QStringLiteral("%1: interaction %2 was continued meanwhile; call edit_image with the newest id or "
                                   "branch_from to fork on purpose.")
                        .arg(what, interactionId)));
            }
            params.aspectRatio = lookup.aspectRatio;
            track(call, m_session->editInteraction(interactionId, params), what,
                QStringLiteral("Interaction %1 was not made in this session: the result is recorded as a new root "
                               "that continues it (aspect ratio %2, as the interaction's image).")
                    .arg(interactionId, lookup.aspectRatio));
        });
}

void McpSessionTools::editLocal(const std::shared_ptr<McpCall> &call, bool withStyle)
{
    const QString what = withStyle ? QStringLiteral("Style edit failed") : QStringLiteral("Local image edit failed");
    if (auto error = unavailable(what))
        return call->finish(*error);
    const QJsonObject &args = call->arguments();
    const QString targetGiven = args.value(QLatin1String("image_path")).toString();
    const QString styleGiven = withStyle ? args.value(QLatin1String("style_image_path")).toString() : QString();
    const QString target = absolutePath(targetGiven);
    const QString style = withStyle ? absolutePath(styleGiven) : QString();
    const QString sessionDir = m_session->store()->dir();
    call->reportProgress(0, 0, QStringLiteral("checking the input image"));
    struct Staged {
        StagedImage target, style;
    };
    offThread<Staged>(
        [targetGiven, target, styleGiven, style, sessionDir] {
            Staged staged;
            staged.target = stageImageInput(QStringLiteral("image_path"), targetGiven, target, sessionDir);
            if (!staged.target.error && !style.isEmpty())
                staged.style = stageImageInput(QStringLiteral("style_image_path"), styleGiven, style, sessionDir);
            return staged;
        },
        [this, call, what, withStyle](const Staged &staged) {
            if (call->isDone())
                return;
            for (const StagedImage *input : {&staged.target, &staged.style}) {
                if (input->error)
                    return call->finish(
                        mcp::errorResult(QStringLiteral("%1: %2. Nothing was sent.").arg(what, input->error->message)));
            }
            if (!m_session->isOpen())
                return call->finish(*unavailable(what));
            const QJsonObject &args = call->arguments();
            TurnParams params;
            const QString prompt = args.value(QLatin1String("edit_prompt")).toString();
            params.prompt = withStyle ? kStyleInstruction + prompt : prompt;
            params.thinkingLevel = args.value(QLatin1String("thinking_level")).toString();
            params.aspectRatio = args.value(QLatin1String("aspect_ratio")).toString();
            QString note;
            if (params.aspectRatio.isEmpty()) {
                params.aspectRatio = nearestAspectRatio(staged.target.size);
                note
                    = QStringLiteral("Aspect ratio %1: the nearest supported one to the %2x%3 input (pass aspect_ratio "
                                     "to choose another).")
                          .arg(params.aspectRatio)
                          .arg(staged.target.size.width())
                          .arg(staged.target.size.height());
            }
            track(call,
                withStyle ? m_session->styleEdit({}, staged.target.sessionFile, staged.style.sessionFile, params)
                          : m_session->editLocal({}, staged.target.sessionFile, params),
                what, note);
        });
}

void McpSessionTools::track(
    const std::shared_ptr<McpCall> &call, const Result<QString> &started, const QString &what, const QString &note)
{
    if (!started) {
        // Rejected before anything was added or sent (a local check).
        return call->finish(mcp::failedTurnResult(what, Frame(), started.error()));
    }
    const QString frameId = started.value();
    auto turn = std::make_shared<Turn>();
    turn->call = call;
    turn->what = what;
    turn->note = note;
    turn->clock.start();
    m_turns.insert(frameId, turn);
    QPointer<SessionController> session = m_session;
    call->setCancelHandler([session, frameId] {
        if (session)
            session->cancel(frameId);
    });
    Q_EMIT logMessage(mcp::LogLevel::Info, QStringLiteral("%1: frame %2 started").arg(call->toolName(), frameId));
    if (call->wantsProgress()) {
        call->reportProgress(0, 0, QStringLiteral("frame %1 queued").arg(frameId));
        turn->ticker = new QTimer(this);
        connect(turn->ticker, &QTimer::timeout, this, [this, frameId] {
            if (const std::shared_ptr<Turn> t = m_turns.value(frameId))
                reportProgress(frameId, QStringLiteral("working (%1 s)").arg(t->clock.elapsed() / 1000));
        });
        turn->ticker->start(kTickMs);
    }
    // A turn can end inside the controller call (e.g. nothing to re-anchor from): answer it from the event loop.
    if (!m_session->graph().value(frameId).isPending())
        QMetaObject::invokeMethod(
            this, [this, frameId] { onTurnFinished(frameId); }, Qt::QueuedConnection);
}

void McpSessionTools::reportProgress(const QString &frameId, const QString &message)
{
    if (const std::shared_ptr<Turn> turn = m_turns.value(frameId))
        turn->call->reportProgress(double(qMax<qint64>(1, turn->clock.elapsed())) / 1000.0, 0, message);
}

void McpSessionTools::onTurnFinished(const QString &frameId)
{
    const std::shared_ptr<Turn> turn = m_turns.take(frameId);
    if (!turn)
        return;
    if (turn->ticker)
        turn->ticker->deleteLater();
    checkToolList(); // a 400 may have taught us the model's real thinking levels
    const Frame frame = m_session ? m_session->graph().value(frameId) : Frame();
    const std::shared_ptr<McpCall> call = turn->call;
    call->setCancelHandler({});
    Q_EMIT logMessage(frame.isDone() ? mcp::LogLevel::Info : mcp::LogLevel::Warning,
        QStringLiteral("frame %1: %2").arg(frameId, frame.statusText()));
    if (call->isDone()) // the client cancelled it
        return;
    if (!frame.isDone() || frame.image.isNull())
        return call->finish(mcp::failedTurnResult(turn->what, frame, turn->error));
    TurnOutcome outcome;
    outcome.frame = frame;
    outcome.sessionDir = m_session->store()->dir();
    outcome.imagePath = m_session->store()->absolutePath(frame.image.file);
    outcome.note = turn->note;
    // An agent's edit gets its drift reading like a person's (the window's EditFinisher, the
    // CLI's finishEditTurn): measured before the answer, so the agent hears when an edit
    // changed far more than it asked for, and a person watching sees it on the timeline.
    const Frame parent = m_session->graph().value(frame.parentId);
    const bool measure = EditFinisher::needsFinishing(frame, parent);
    const McpBridgeOptions options = m_options;
    offThread<TurnOutcome>(
        [outcome, options, parent, measure]() mutable {
            if (measure) {
                const Result<Frame> measured = EditFinisher::compute(outcome.sessionDir, parent, outcome.frame);
                if (measured)
                    outcome.measured = measured.value();
                else
                    outcome.driftProblem = measured.error().message;
            }
            if (options.imageBlocks) {
                const Result<ImagePreview> preview = makeImagePreview(outcome.imagePath, options.previewMaxSide);
                if (preview)
                    outcome.preview = preview.value();
                else
                    outcome.previewProblem = preview.error().message;
            }
            if (!options.outputCopyDir.isEmpty()) {
                if (QDir(options.outputCopyDir).absolutePath() == QFileInfo(outcome.imagePath).absolutePath()) {
                    outcome.copyPath = outcome.imagePath; // IMAGE_OUTPUT_DIR is the session's images folder
                } else {
                    const Result<QString> copy = copyImageToFolder(outcome.imagePath, options.outputCopyDir);
                    if (copy)
                        outcome.copyPath = copy.value();
                    else
                        outcome.copyProblem = copy.error().message;
                }
            }
            return outcome;
        },
        [this, call](const TurnOutcome &done) {
            TurnOutcome answer = done;
            if (answer.measured && m_session && m_session->store() && m_session->store()->dir() == answer.sessionDir) {
                if (const Result<void> recorded = m_session->recordDerived(*answer.measured); recorded)
                    answer.frame = m_session->graph().value(answer.frame.id);
                else
                    answer.driftProblem = recorded.error().message;
            }
            if (!answer.driftProblem.isEmpty())
                Q_EMIT logMessage(mcp::LogLevel::Warning,
                    QStringLiteral("frame %1: the drift could not be measured: %2")
                        .arg(answer.frame.id, answer.driftProblem));
            if (!answer.previewProblem.isEmpty())
                Q_EMIT logMessage(mcp::LogLevel::Warning, answer.previewProblem);
            if (!answer.copyProblem.isEmpty())
                Q_EMIT logMessage(mcp::LogLevel::Warning, answer.copyProblem);
            call->finish(mcp::imageTurnResult(answer, mcp::allowsResourceLinks(call->protocolVersion())));
        });
}

void McpSessionTools::listFrames(const std::shared_ptr<McpCall> &call)
{
    if (!m_session || !m_session->isOpen())
        return call->finish(*unavailable(QStringLiteral("list_frames failed")));
    m_session->store()->reload(); // frames a person just added in the app
    const FrameGraph &graph = m_session->graph();
    const QString branch = call->arguments().value(QLatin1String("branch")).toString().trimmed();
    QStringList ids;
    QString scope;
    if (branch.isEmpty()) {
        ids = graph.frameIds();
        scope = QStringLiteral("all frames");
    } else {
        const FrameReference ref = FrameReference::resolve(graph, branch);
        if (ref.kind != FrameReference::Kind::Frame)
            return call->finish(mcp::errorResult(
                QStringLiteral("list_frames failed: %1.")
                    .arg(ref.kind == FrameReference::Kind::Invalid
                            ? ref.problem
                            : QStringLiteral("no frame of this session made interaction %1").arg(ref.interactionId))));
        ids = graph.pathTo(graph.headFrom(ref.frameId));
        scope = QStringLiteral("the branch through frame %1").arg(ref.frameId);
    }
    const QString sessionDir = m_session->store()->dir();
    const QStringList heads = graph.heads();
    const qsizetype total = ids.size();
    if (ids.size() > kListCap)
        ids = ids.mid(ids.size() - kListCap);

    QJsonArray frames;
    QStringList lines;
    lines << QStringLiteral("Session %1: %2 (%3 frames, %4 branches).")
                 .arg(QDir::toNativeSeparators(sessionDir), scope)
                 .arg(total)
                 .arg(heads.size());
    if (total > ids.size())
        lines << QStringLiteral("Showing the newest %1; pass branch to narrow the list.").arg(ids.size());
    for (const QString &id : std::as_const(ids)) {
        const Frame f = graph.value(id);
        const bool isHead = heads.contains(id);
        frames.append(mcp::frameSummary(f, sessionDir, isHead));
        lines << mcp::frameLine(f, isHead);
    }
    if (ids.isEmpty())
        lines << QStringLiteral("No frames yet: generate_image or edit_local_image starts one.");
    const QJsonObject structured {{QStringLiteral("session_dir"), sessionDir}, {QStringLiteral("frames"), frames},
        {QStringLiteral("heads"), QJsonArray::fromStringList(heads)}, {QStringLiteral("total"), int(total)},
        {QStringLiteral("shown"), int(ids.size())}};
    call->finish(mcp::textResult(lines.join(QLatin1Char('\n')), structured));
}

void McpSessionTools::help(const std::shared_ptr<McpCall> &call)
{
    mcp::HelpFacts facts;
    const mcp::ToolCatalogInputs in = catalogInputs();
    facts.version = m_options.version;
    facts.model
        = m_session && m_session->client() ? m_session->client()->config().model : QString::fromLatin1(kDefaultModel);
    facts.demo = m_options.demo;
    facts.keyStatus = m_options.demo    ? QStringLiteral("demo")
        : m_options.keySource.isEmpty() ? QStringLiteral("missing")
                                        : QStringLiteral("set");
    facts.keySource = m_options.demo ? QString() : m_options.keySource;
    facts.sessionDir = m_options.sessionDir;
    facts.sessionError = m_session && m_session->isOpen() ? QString() : m_options.sessionError;
    facts.imageOutputDir = m_options.outputCopyDir;
    facts.imageBlocks = m_options.imageBlocks;
    facts.aspectRatios = in.aspectRatios;
    facts.thinkingLevels = in.thinkingLevels;
    facts.defaultThinkingLevel = in.defaultThinkingLevel;
    for (const QJsonValue &t : toolDefinitions())
        facts.tools.append(t.toObject().value(QLatin1String("name")).toString());
    facts.frameCount = m_session && m_session->isOpen() ? int(m_session->graph().frameIds().size()) : 0;
    call->finish(mcp::helpResult(facts));
}

QJsonArray McpSessionTools::resourceList() const
{
    QJsonArray list;
    if (!m_session || !m_session->isOpen())
        return list;
    const FrameGraph &graph = m_session->graph();
    for (const QString &id : graph.frameIds()) {
        const Frame *f = graph.frame(id);
        if (!f->isDone() || f->image.isNull())
            continue;
        list.append(QJsonObject {{QStringLiteral("uri"), mcp::frameResourceUri(f->id)},
            {QStringLiteral("name"), QStringLiteral("frame %1").arg(f->id)},
            {QStringLiteral("title"), f->prompt.isEmpty() ? f->title : shortText(f->prompt)},
            {QStringLiteral("description"),
                QStringLiteral("%1 frame%2%3")
                    .arg(frameKindName(f->kind),
                        f->interactionId.isEmpty() ? QString()
                                                   : QStringLiteral(", interaction %1").arg(f->interactionId),
                        f->origin == kFrameOriginMcp ? QStringLiteral(", made by an agent") : QString())},
            {QStringLiteral("mimeType"), f->image.mimeType}});
    }
    return list;
}

QJsonArray McpSessionTools::resourceTemplates() const
{
    return {QJsonObject {{QStringLiteral("uriTemplate"), QStringLiteral("nb2lite://frame/{frame_id}")},
        {QStringLiteral("name"), QStringLiteral("frame")},
        {QStringLiteral("title"), QStringLiteral("Session frame image")},
        {QStringLiteral("description"), QStringLiteral("The full-size image of a finished frame.")}}};
}

void McpSessionTools::readResource(const std::shared_ptr<McpCall> &call)
{
    const QString uri = call->params().value(QLatin1String("uri")).toString();
    const QString id = mcp::frameIdFromResourceUri(uri);
    const Frame *f = m_session && m_session->isOpen() && !id.isEmpty() ? m_session->graph().frame(id) : nullptr;
    if (!f || !f->isDone() || f->image.isNull() || f->isTrashed()) {
        return call->fail(jsonrpc::ResourceNotFound,
            QStringLiteral("Resource not found: %1 (resources/list names the finished frames)")
                .arg(shortText(uri, 120)),
            QJsonObject {{QStringLiteral("uri"), uri}});
    }
    const QString path = m_session->store()->absolutePath(f->image.file);
    const QString mime = f->image.mimeType;
    struct Read {
        QByteArray bytes;
        QString error;
    };
    offThread<Read>(
        [path] {
            Read r;
            QFile file(path);
            if (!file.open(QIODevice::ReadOnly))
                r.error = QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
            else
                r.bytes = file.readAll();
            return r;
        },
        [call, uri, mime](const Read &r) {
            if (!r.error.isEmpty())
                return call->fail(jsonrpc::InternalError, r.error, QJsonObject {{QStringLiteral("uri"), uri}});
            call->finish({{QStringLiteral("contents"),
                QJsonArray {QJsonObject {{QStringLiteral("uri"), uri}, {QStringLiteral("mimeType"), mime},
                    {QStringLiteral("blob"), QString::fromLatin1(r.bytes.toBase64())}}}}});
        });
}

void McpSessionTools::checkToolList()
{
    const QByteArray now = QJsonDocument(toolDefinitions()).toJson(QJsonDocument::Compact);
    if (now == m_toolsSnapshot)
        return;
    m_toolsSnapshot = now;
    Q_EMIT logMessage(mcp::LogLevel::Notice,
        QStringLiteral("the server named other thinking levels: %1")
            .arg(catalogInputs().thinkingLevels.join(QStringLiteral(", "))));
    Q_EMIT toolListChanged();
}

void McpSessionTools::scheduleResourceCheck()
{
    // A throttle, not a debounce: a busy agent changes frames more often than every 200 ms, and
    // restarting the timer on each change would never tell the client about any of them.
    if (!m_resourceTimer->isActive())
        m_resourceTimer->start();
}

} // namespace nb2
