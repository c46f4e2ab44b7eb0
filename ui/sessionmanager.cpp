#include "ui/sessionmanager.h"

#include "core/common/threadpriority.h"
#include "core/session/framegraph.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessioncopy.h"
#include "core/session/sessionstore.h"
#include "ui/frameselection.h"
#include "ui/noticepresenter.h"
#include "ui/settingsdialog.h"
#include "ui/windowpreferences.h"

#include <QAction>
#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QMenu>
#include <QThreadPool>
#include <QTimer>
#include <QUndoStack>
#include <QtConcurrent/QtConcurrentRun>

namespace nb2 {

SessionManager::SessionManager(NoticePresenter *notices, QWidget *dialogParent)
    : QObject(dialogParent), m_notices(notices), m_dialogParent(dialogParent), m_session(new SessionController(this))
{
    const AppSettings studio = WindowPreferences::studio();
    m_session->setSettings(studio.session);
    m_session->setPriceTable(studio.prices);
    m_settingsWriter.setMaxThreadCount(1);
}

SessionManager::~SessionManager()
{
    // The recent list's last write lands before the window is gone (its recentChanged() posted
    // to us is dropped with us).
    m_settingsWriter.waitForDone();
    // The controller's teardown (waiting for running turns, clearing the undo stack) emits
    // signals: nobody outside may hear them from a half-destroyed window.
    if (m_session->undoStack())
        m_session->undoStack()->disconnect();
    m_session->disconnect();
    delete m_session;
    m_session = nullptr;
}

QString SessionManager::dir() const
{
    return m_session && m_session->isOpen() && m_session->store() ? m_session->store()->dir() : QString();
}

Result<void> SessionManager::open(const QString &dir)
{
    const QString previous = this->dir();
    if (!previous.isEmpty() && QFileInfo(previous) == QFileInfo(dir))
        return {};
    if (m_session->isOpen() && !m_session->isIdle())
        return Error::make(
            ErrorKind::Conflict, tr("Requests are still running in this session; wait for them or cancel them first."));
    ++m_openSerial; // a background open still parsing is superseded
    const QString fallback = isOpening() ? std::exchange(m_fallbackDir, {}) : previous;
    endOpening();
    Q_EMIT aboutToSwitch();
    closeSession();
    return finishOpen(dir, fallback, false, true);
}

void SessionManager::openInBackground(const QString &dirIn, OpenDone done)
{
    const QString dir = QDir(dirIn).absolutePath();
    const QString previous = this->dir();
    if (!previous.isEmpty() && QFileInfo(previous) == QFileInfo(dir)) {
        if (done)
            done({});
        return;
    }
    if (m_session->isOpen() && !m_session->isIdle()) {
        if (done)
            done(Error::make(ErrorKind::Conflict,
                tr("Requests are still running in this session; wait for them or cancel them first.")));
        return;
    }
    const quint64 serial = ++m_openSerial;
    if (!isOpening())
        m_fallbackDir = previous; // while one open parses, the session to go back to stays the first one
    Q_EMIT aboutToSwitch();
    // Closed now, not when the parse is done: the controller refuses every turn while no
    // session is open, so nothing can start on a half-open session (or on the one going away).
    closeSession();
    m_openingDir = dir;
    Q_EMIT openingChanged(true, dir);
    m_notices->status(tr("Opening %1…").arg(QFileInfo(dir).fileName()), 0);
    auto proceed = [this, serial, dir, done] {
        if (serial != m_openSerial)
            return; // superseded by a later open: that one reports
        const QString fallback = std::exchange(m_fallbackDir, {});
        endOpening();
        Q_EMIT handOverStarting();
        m_pendingHandOver = serial;
        m_gateOpenedAt.invalidate();
        const Result<void> opened = finishOpen(dir, fallback, true, false);
        if (!opened) {
            m_pendingHandOver = 0;
            if (done)
                done(opened);
            return;
        }
        // The hand-over goes on a frame later: the window paints and takes input between the
        // model reset (with the view's layout) and selecting the frame. Not a posted call (it
        // would run in the next batch of posted events with the paint the reset asked for), nor
        // a timer of ~0 ms (it can fire in the same pass of the event loop as that paint).
        // What the window prepares on a worker (the gate) must be in first.
        auto announce = [this, serial, done] {
            if (serial != m_openSerial || !m_session->isOpen())
                return; // another open came in between: that one reports
            if (m_handOverGate && !m_handOverGate()) {
                m_waitingHandOver = [this, serial, done] {
                    QTimer::singleShot(FrameSelection::kNextFrameMs, Qt::PreciseTimer, this, [this, serial, done] {
                        if (serial != m_openSerial || !m_session->isOpen())
                            return;
                        announceHandOver(done);
                    });
                };
                return;
            }
            // The gate opened just before (its rows went in at the same time as this timer, a
            // frame after the open): the switch still waits a frame after them, so the rows'
            // reset and layout and the switch are never one pass.
            if (const qint64 since = m_gateOpenedAt.isValid() ? m_gateOpenedAt.elapsed() : FrameSelection::kNextFrameMs;
                since < FrameSelection::kNextFrameMs) {
                QTimer::singleShot(
                    int(FrameSelection::kNextFrameMs - since), Qt::PreciseTimer, this, [this, serial, done] {
                        if (serial != m_openSerial || !m_session->isOpen())
                            return;
                        announceHandOver(done);
                    });
                return;
            }
            announceHandOver(done);
        };
        QTimer::singleShot(FrameSelection::kNextFrameMs, Qt::PreciseTimer, this, announce);
    };
    // The checkpoint and the journal tail are read on a worker; SessionStore::open() takes
    // what it read and parses only what was appended since.
    const QFuture<void> parsing = SessionStore::preload(dir);
    if (!parsing.isValid()) { // a new or empty folder: nothing to parse
        QTimer::singleShot(0, this, proceed);
        return;
    }
    auto *watcher = new QFutureWatcher<void>(this);
    connect(watcher, &QFutureWatcherBase::finished, this, [watcher, proceed] {
        watcher->deleteLater();
        proceed();
    });
    watcher->setFuture(parsing);
}

void SessionManager::announceHandOver(const OpenDone &done)
{
    m_pendingHandOver = 0;
    m_handingOver = true;
    Q_EMIT switched(frameToSelect());
    m_handingOver = false;
    if (done)
        done({});
}

bool SessionManager::isHandOverPending() const
{
    return m_pendingHandOver != 0 && m_pendingHandOver == m_openSerial && m_session->isOpen();
}

void SessionManager::setHandOverGate(std::function<bool()> ready)
{
    m_handOverGate = std::move(ready);
}

void SessionManager::handOverReady()
{
    m_gateOpenedAt.start();
    if (auto next = std::exchange(m_waitingHandOver, {}))
        next();
}

std::atomic<qint64> SessionManager::s_framesReleasedOnWorker {0};
std::atomic<qint64> SessionManager::s_settingsWritesOnWorker {0};

void SessionManager::closeSession()
{
    // The store's frame table is freed where its last reference goes: a copy taken here (shared,
    // nothing is copied) is that reference once the store has closed, and goes to a worker.
    // At 10,000 frames freeing takes 5-20 ms, on the GUI thread right as another session opens.
    FrameGraph closing = m_session->isOpen() ? m_session->graph() : FrameGraph();
    m_session->close();
    if (closing.size() < 1000)
        return;
    QThreadPool::globalInstance()->start([closing = std::move(closing)]() mutable {
        const qsizetype n = closing.size();
        const bool last = closing.frames().isDetached(); // nobody else holds the table: it is freed here
        closing = FrameGraph();
        if (last)
            s_framesReleasedOnWorker += n;
    });
}

void SessionManager::endOpening()
{
    if (m_openingDir.isEmpty())
        return;
    const QString dir = std::exchange(m_openingDir, {});
    m_notices->clearStatus();
    Q_EMIT openingChanged(false, dir);
}

Result<void> SessionManager::finishOpen(
    const QString &dir, const QString &previous, bool previousInBackground, bool announce)
{
    if (const Result<void> opened = m_session->open(dir); !opened) {
        // Put the previous session back, so the window is never left without one.
        if (!previous.isEmpty() && previousInBackground) {
            Q_EMIT switched({}); // nothing is open until the previous session is back
            openInBackground(previous);
        } else if (!previous.isEmpty() && m_session->open(previous)) {
            Q_EMIT switched(m_session->store()->currentFrameId());
        } else {
            Q_EMIT switched({});
        }
        return opened;
    }
    remember(QDir(dir).absolutePath());
    m_notices->clear();
    if (announce)
        Q_EMIT switched(frameToSelect());
    return {};
}

QString SessionManager::frameToSelect() const
{
    // The frame the user worked on last (the store remembers it), else the newest head.
    QString select = m_session->store()->currentFrameId();
    if (select.isEmpty() || !m_session->graph().contains(select) || m_session->graph().frame(select)->isTrashed()) {
        const QStringList heads = m_session->graph().heads();
        select = heads.isEmpty() ? QString() : heads.last();
    }
    return select;
}

void SessionManager::remember(const QString &absolute)
{
    // Only what changed is written: every QSettings write is a locked, fdatasync'ed rewrite of
    // the settings file, and reopening the last session at start-up wrote it twice before the
    // first paint (~100-250 ms on a busy disk). Reading is cheap (QSettings caches the file).
    // On the settings worker: in the pass that takes an opened session in, the write took
    // 3-17 ms of the GUI thread at 10,000 frames. QSettings objects on different threads may
    // share the file; WindowPreferences stays the one place that reads and writes the keys.
    m_settingsWriter.start([this, absolute] {
        lowerThisThreadPriority();
        bool wrote = false;
        if (WindowPreferences::lastSession() != absolute) {
            WindowPreferences::setLastSession(absolute);
            wrote = true;
        }
        bool recentChanged = false;
        if (WindowPreferences::recentSessions().value(0) != absolute) {
            WindowPreferences::addRecentSession(absolute);
            wrote = recentChanged = true;
        }
        if (wrote)
            ++s_settingsWritesOnWorker;
        // Queued to us: the destructor waits for this task first, and ~QObject drops what is
        // still posted, so it never reaches a window being destroyed.
        if (recentChanged)
            QMetaObject::invokeMethod(
                this, [this] { Q_EMIT this->recentChanged(); }, Qt::QueuedConnection);
    });
}

void SessionManager::waitForSettingsWritten()
{
    m_settingsWriter.waitForDone();
    QCoreApplication::sendPostedEvents(this, QEvent::MetaCall); // and recentChanged() said so
}

Result<void> SessionManager::newSession()
{
    const QString folder = WindowPreferences::sessionsFolder();
    const QString base = QDateTime::currentDateTime().toString(QStringLiteral("yyyy-MM-dd HH.mm"));
    QString dir = folder + QLatin1Char('/') + base;
    for (int n = 2; QFileInfo::exists(dir); ++n)
        dir = folder + QLatin1Char('/') + base + QStringLiteral(" (%1)").arg(n);
    if (!QDir().mkpath(dir))
        return Error::make(writeFailureKind(dir),
            tr("Cannot create the session folder %1. Choose another sessions folder in Settings.").arg(dir));
    return open(dir);
}

void SessionManager::newSessionFromMenu()
{
    if (const Result<void> r = newSession(); !r)
        m_notices->show(NoticeKind::Error, r.error().message);
}

void SessionManager::restoreLast()
{
    const QString last = WindowPreferences::lastSession();
    const QString frame = WindowPreferences::lastFrame();
    QString error;
    if (!last.isEmpty() && QFileInfo(last).isDir()) {
        if (const Result<void> r = open(last); r) {
            if (!frame.isEmpty() && m_session->graph().contains(frame))
                Q_EMIT switched(frame);
            return;
        } else {
            error = r.error().message;
        }
    }
    if (const Result<void> r = newSession(); !r)
        m_notices->show(NoticeKind::Error, r.error().message);
    else if (!error.isEmpty())
        offerRebuild(last, error); // a damaged last session: offer to rebuild it, never just move on
}

void SessionManager::fillRecentMenu(QMenu *menu)
{
    menu->clear();
    int n = 0;
    for (const QString &dir : WindowPreferences::recentSessions()) {
        if (!QFileInfo(dir).isDir())
            continue;
        ++n;
        QAction *a = menu->addAction(QStringLiteral("&%1 %2").arg(n).arg(QFileInfo(dir).fileName()));
        a->setToolTip(dir);
        a->setStatusTip(dir);
        connect(a, &QAction::triggered, this, [this, dir] {
            openInBackground(dir, [this](const Result<void> &r) {
                if (!r)
                    m_notices->show(NoticeKind::Error, tr("Cannot open the session: %1").arg(r.error().message));
            });
        });
    }
    menu->setEnabled(n > 0);
}

void SessionManager::openDialog()
{
    const QString dir
        = QFileDialog::getExistingDirectory(m_dialogParent, tr("Open Session"), WindowPreferences::sessionsFolder());
    if (dir.isEmpty())
        return;
    // Never turn an arbitrary folder (Pictures, a project) into a session by opening it.
    const QDir d(dir);
    const bool isSession = d.exists(QStringLiteral("manifest.json")) || d.exists(QStringLiteral("journal.jsonl"));
    if (!isSession && !d.isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot)) {
        m_notices->show(NoticeKind::Error,
            tr("“%1” is not an NB2Lite session (it has no manifest.json). Choose a session folder, or an "
               "empty folder to start a new session there.")
                .arg(QDir::toNativeSeparators(dir)));
        return;
    }
    openInBackground(dir, [this, dir](const Result<void> &r) {
        if (!r)
            offerRebuild(dir, r.error().message);
    });
}

void SessionManager::offerRebuild(const QString &dir, const QString &error)
{
    m_notices->show(
        NoticeKind::Error, tr("Cannot open the session: %1").arg(error), tr("Rebuild Session"), [this, dir] {
            // Rebuild keeps the broken manifest aside and recovers frames from the journal and images.
            if (!m_session->isIdle()) {
                m_notices->show(NoticeKind::Error,
                    tr("Wait for the running requests to finish before rebuilding another session."));
                return;
            }
            ++m_openSerial; // a background open still parsing is superseded
            m_fallbackDir.clear();
            endOpening();
            Q_EMIT aboutToSwitch();
            closeSession();
            if (const Result<void> rebuilt = m_session->rebuild(dir); !rebuilt) {
                m_notices->show(
                    NoticeKind::Error, tr("The session could not be rebuilt: %1").arg(rebuilt.error().message));
                return;
            }
            closeSession();
            openInBackground(dir, [this](const Result<void> &r) {
                if (!r)
                    m_notices->show(NoticeKind::Error, r.error().message);
                else
                    m_notices->status(tr("Rebuilt the session from its journal and images."), 6000);
            });
        });
}

void SessionManager::saveAsDialog()
{
    const QString from = dir();
    if (from.isEmpty())
        return;
    const QString target = QFileDialog::getSaveFileName(
        m_dialogParent, tr("Save Session As"), from + tr(" copy"), {}, nullptr, QFileDialog::ShowDirsOnly);
    if (!target.isEmpty())
        saveCopy(target);
}

Result<void> SessionManager::flush()
{
    if (!m_session->isOpen())
        return {};
    return m_session->store()->flush();
}

bool SessionManager::saveCopy(const QString &target)
{
    const QString from = dir();
    if (from.isEmpty())
        return false;
    if (QFileInfo::exists(target)) {
        m_notices->show(NoticeKind::Error, tr("%1 already exists; choose a new name.").arg(target));
        return false;
    }
    if (!m_session->isIdle()) {
        m_notices->show(NoticeKind::Warning,
            tr("Requests are still running; save a copy when they have finished (or cancel them)."));
        return false;
    }
    if (const Result<void> flushed = flush(); !flushed) {
        m_notices->show(
            NoticeKind::Error, tr("The session could not be saved before copying: %1").arg(flushed.error().message));
        return false;
    }
    m_notices->status(tr("Copying the session…"), 0);
    // Every finished frame is already on disk: "Save As" is a copy of the folder, made on a
    // worker, after which the window continues in the copy.
    auto *watcher = new QFutureWatcher<Result<void>>(this);
    connect(watcher, &QFutureWatcher<Result<void>>::finished, this, [this, watcher, target] {
        watcher->deleteLater();
        const Result<void> copied = watcher->result();
        if (!copied) {
            m_notices->show(NoticeKind::Error, tr("The copy failed: %1").arg(copied.error().message));
            Q_EMIT sessionCopied(target, copied.error().message);
            return;
        }
        openInBackground(target, [this, target](const Result<void> &opened) {
            if (opened)
                m_notices->status(tr("Saved a copy as %1; you are now working in the copy.").arg(target), 6000);
            else
                m_notices->show(NoticeKind::Error, opened.error().message);
            Q_EMIT sessionCopied(target, opened ? QString() : opened.error().message);
        });
    });
    watcher->setFuture(QtConcurrent::run([from, target] { return copySessionFolder(from, target); }));
    return true;
}

} // namespace nb2
