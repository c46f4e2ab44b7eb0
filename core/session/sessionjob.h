// Internal to core/session: one turn as a worker runs it (SessionController::Job in, JobResult
// out). The controller builds a Job on the GUI thread and hands it to runTurnJob() on its pool;
// nothing here touches the frame graph. Included only by the controller's own sources.
#pragma once

#include "core/api/interactionsclient.h"
#include "core/common/error.h"
#include "core/session/frame.h"
#include "core/session/journal.h"
#include "core/session/sessioncontroller.h"

#include <QDeadlineTimer>
#include <QString>
#include <QStringList>

#include <functional>
#include <memory>
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
    quint64 listedGeneration = 0;                  // the store write that lists the pending frame (stamped when queued)
    /** Called by the worker once the server's answer is in (only disk work left): frees the slot. */
    std::function<void()> networkDone;
    bool slotReleased = false; // GUI thread: networkDone has been handled
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

namespace sessionjob {

/** This process's pid, as frames record their owner. */
qint64 currentPid();

/** The blocking part of a turn: runs on a pool thread, touches no QObject. */
SessionController::JobResult runTurnJob(std::shared_ptr<SessionController::Job> job);

} // namespace sessionjob

} // namespace nb2
