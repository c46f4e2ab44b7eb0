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
    QString m_beforeReset;
    QStringList m_added; // frames added since the last selection, to scroll to after an outside write
};

} // namespace nb2
