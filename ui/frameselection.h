#pragma once

#include <QObject>
#include <QString>
#include <QStringList>

namespace nb2 {

class SessionController;
class TimelineModel;
class TimelineView;
struct Frame;

/**
 * Which frame the user is working on: the timeline's current index as a frame id, plus the
 * "New image" state (nothing selected on purpose, so the next turn generates). It keeps the
 * user's place when the model resets (a delete, an undo, another process's write), and
 * scrolls the timeline to frames another window, the CLI or an agent added, without taking
 * the selection away. Every controller asks it rather than the view.
 */
class FrameSelection : public QObject
{
    Q_OBJECT
public:
    FrameSelection(SessionController *session, TimelineModel *model, TimelineView *view, QObject *parent = nullptr);

    QString currentId() const;
    /** The selected frame (a default Frame when none). */
    Frame current() const;
    bool isNewImageRequested() const { return m_newImage; }
    /** "#3": the frame's number on the timeline. */
    QString label(const QString &frameId) const;

    /** Selects and scrolls to the frame; an unknown or empty id clears the selection. */
    void select(const QString &frameId);
    /**
     * As select(), but currentChanged() follows in a later pass of the event loop, after the
     * window has painted the selection: what listens to it (Frame Details, the turn plan and
     * its cost estimate, ~7 ms at 10,000 frames) does not run in the same pass as a session
     * switch and its first paint (issue 10, case 5). Any selection meanwhile (a click, a
     * turn) announces itself and this announcement is dropped.
     */
    void selectAndAnnounceLater(const QString &frameId);
    /** How long after the selection selectAndAnnounceLater() announces it: one frame at 60 Hz. */
    static constexpr int kNextFrameMs = 16;
    /** An announcement from selectAndAnnounceLater() is still to come (for tests). */
    bool isAnnouncementPending() const { return m_announcePending; }
    /** Clears the selection so the next turn starts a new chain. */
    void requestNewImage();

Q_SIGNALS:
    /** The selection or the "New image" state changed (also after a reset kept the place). */
    void currentChanged();

private:
    void onExternalChange();

    SessionController *m_session;
    TimelineModel *m_model;
    TimelineView *m_view;
    bool m_newImage = false;
    bool m_restoring = false;
    bool m_announcePending = false;
    quint64 m_announceSerial = 0; // every currentChanged() counts: a later one supersedes a deferred one
    QString m_beforeReset;
    QStringList m_added; // frames added since the last selection, to scroll to after an outside write
};

} // namespace nb2
