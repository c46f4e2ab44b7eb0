#pragma once

#include "core/common/error.h"

#include <QObject>
#include <QString>

class QMenu;
class QWidget;

namespace nb2 {

class NoticePresenter;
class SessionController;

/**
 * The session's lifecycle, like Tiled's DocumentManager: it owns the SessionController and
 * opens, creates, rebuilds and copies ("Save As") session folders, keeps the recent list
 * and the last session, and flushes the store before anything reads the folder. It never
 * leaves the window without a session: a failed open puts the previous one back.
 */
class SessionManager : public QObject
{
    Q_OBJECT
public:
    SessionManager(NoticePresenter *notices, QWidget *dialogParent);
    ~SessionManager() override;

    SessionController *session() const { return m_session; }
    /** The open session's folder; empty when none. */
    QString dir() const;

    /** Opens (or creates) a session folder. On failure nothing is shown; the error says why. */
    Result<void> open(const QString &dir);
    /** A new, empty session in the sessions folder, named after the date and time. */
    Result<void> newSession();
    /** Reopens the last session (and its frame), else starts a new one; problems go to the banner. */
    void restoreLast();
    /** Copies the session folder to target on a worker and continues there; sessionCopied() follows. */
    bool saveCopy(const QString &target);
    /** Session writes are queued on the store's writer thread: readers of the folder need them on disk. */
    Result<void> flush();
    /** Fills the "Open Recent" menu (existing folders only). */
    void fillRecentMenu(QMenu *menu);

public Q_SLOTS:
    void newSessionFromMenu();
    void openDialog();
    void saveAsDialog();

    /** Says why dir did not open; the banner offers "Rebuild Session" (journal and images, nothing deleted). */
    void offerRebuild(const QString &dir, const QString &error);

Q_SIGNALS:
    /** About to close the open session (pending retries must go). */
    void aboutToSwitch();
    /** A session is open (again): frameToSelect is where the user left off. */
    void switched(const QString &frameToSelect);
    void sessionCopied(const QString &target, const QString &error);
    void recentChanged();

private:
    NoticePresenter *m_notices;
    QWidget *m_dialogParent;
    SessionController *m_session;
};

} // namespace nb2
