// What the main window shows of the open session, kept out of MainWindow (which only lays out
// and wires): the window title and the status bar's session name and cost, Frame Details and
// the enabled actions for the selected frame, the hand-over when SessionManager switches or
// starts opening a session, and the notices the session raises (errors, re-anchors, recovery,
// changes made by another process).
#pragma once

#include <QObject>
#include <QString>

class QLabel;
class QMainWindow;
class QWidget;

namespace nb2 {

class ActionManager;
class FrameSelection;
class ImageStage;
class InfoPanel;
class NoticePresenter;
class SessionController;
class SessionManager;
class ThumbnailProvider;
class TimelineModel;
class TurnDispatcher;

/**
 * Keeps the window's view of the session up to date: it listens to SessionManager (switched,
 * opening), FrameSelection (current frame) and the SessionController (frames added, changed,
 * removed; turns finished; errors and recovery) and refreshes the title, the status-bar labels
 * (it adds them itself), Frame Details, the image stage, the turn plan and the actions' state.
 */
class SessionPresenter : public QObject
{
    Q_OBJECT
public:
    /** The window's parts it reads and refreshes; all outlive the presenter (MainWindow owns them). */
    struct Parts {
        QMainWindow *window = nullptr;
        SessionManager *sessions = nullptr;
        FrameSelection *selection = nullptr;
        TurnDispatcher *turns = nullptr;
        ImageStage *stage = nullptr;
        ActionManager *actions = nullptr;
        TimelineModel *model = nullptr;
        ThumbnailProvider *thumbs = nullptr;
        InfoPanel *info = nullptr;
        NoticePresenter *notices = nullptr;
    };
    /** Connects to the parts' signals and adds the session and cost labels to the window's status bar. */
    SessionPresenter(const Parts &parts, QObject *parent);

    /** The window title and the status bar's session name (and cost). */
    void updateTitle();
    /** Enables the actions for the selected frame (ActionManager::apply). */
    void updateActions();
    /** Frame Details of the selected frame, with its cost. */
    void updateInfo();
    /** The status bar's session cost (and budget). */
    void updateCost();
    /** The status bar's session name and cost labels; the window puts them in its status bar. */
    QList<QWidget *> statusWidgets() const;

private:
    SessionController *session() const;
    void onSelectionChanged();
    void onSessionSwitched(const QString &frameToSelect);
    /**
     * The selection's turn plan, actions and image (after Frame Details). handOver: the second
     * half of a hand-over's announcement, whose plan cost estimate follows a frame later.
     */
    void finishSelectionChanged(bool handOver = false);

    QMainWindow *m_window;
    SessionManager *m_sessions;
    FrameSelection *m_selection;
    TurnDispatcher *m_turns;
    ImageStage *m_stage;
    ActionManager *m_actions;
    TimelineModel *m_model;
    ThumbnailProvider *m_thumbs;
    InfoPanel *m_info;
    NoticePresenter *m_notices;
    QLabel *m_sessionLabel = nullptr;
    QLabel *m_costLabel = nullptr;
    bool m_splitNextSelection = false; // the hand-over's announcement: its work over two frames
    quint64 m_selectionSerial = 0;     // a later selection change supersedes a split one's second half
};

} // namespace nb2
