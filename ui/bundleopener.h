#pragma once

#include "core/common/error.h"

#include <QObject>
#include <QString>

#include <functional>

class QWidget;

namespace nb2 {

class SessionManager;

/**
 * Opens a `.nb2session` bundle handed to the app (command line, or the file manager through
 * the desktop entry) as a session: asks where to unpack it, by default a new folder beside
 * the bundle named after it; unpacks it on a worker thread with SessionBundle::extract (every
 * file checked against the bundle's index; on failure nothing is left behind); then gives the
 * folder to the window's session opener, which reads it off the GUI thread too (a bundle of
 * thousands of frames opens as any big session does). The bundle itself is never changed.
 * Owns only the running extraction; errors are reported through finished(), the caller shows them.
 */
class BundleOpener : public QObject
{
    Q_OBJECT
public:
    /** Hears whether the unpacked folder opened. */
    using OpenDone = std::function<void(const Result<void> &)>;
    /**
     * Opens a folder as the window's session and calls done when it is open or failed
     * (SessionManager::openInBackground in the app).
     */
    using SessionOpener = std::function<void(const QString &dir, OpenDone done)>;
    /** The app's opener: the window's SessionManager::openInBackground (read on a worker). */
    static SessionOpener inBackground(SessionManager *sessions);

    BundleOpener(QWidget *window, SessionOpener openSession, QObject *parent = nullptr);

    /** Whether a path names a bundle (by its .nb2session suffix, any case). */
    static bool isBundle(const QString &path);
    /**
     * Where a bundle unpacks by default: beside it, named after it ("trip.nb2session" -> "trip",
     * then "trip 2", "trip 3" ... when the name is taken). When the bundle's folder is not
     * writable (a read-only mount, a mail attachment cache), the same name under fallbackParent.
     */
    static QString suggestedFolder(const QString &bundle, const QString &fallbackParent = {});
    /** Why a folder cannot take a bundle (exists and is not empty, is a file), or empty when it can. */
    static QString folderProblem(const QString &dir);

    /** The parent folder used when the bundle's own folder is not writable (the sessions folder). */
    void setFallbackParent(const QString &dir) { m_fallbackParent = dir; }

    /** Asks where to unpack, then unpacks and opens. False when the user cancelled. */
    bool open(const QString &bundle);
    /** The question open() asks, answered: the chosen folder, or empty when cancelled. */
    QString askFolder(const QString &bundle);
    /** Unpacks into dir on a worker, then opens it; finished() follows once the session is open. */
    void unpack(const QString &bundle, const QString &dir);
    bool isBusy() const { return m_busy; }

Q_SIGNALS:
    /** The bundle was unpacked into sessionDir and opened; error is empty on success. */
    void finished(const QString &sessionDir, const QString &error);

private:
    QWidget *m_window;
    SessionOpener m_openSession;
    QString m_fallbackParent;
    bool m_busy = false;
};

} // namespace nb2
