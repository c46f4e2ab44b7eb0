#pragma once

#include "core/api/clientconfig.h"

#include <QMainWindow>

#include <memory>

class QDockWidget;
class QMenu;

namespace nb2 {

class ActionManager;
class BannerWidget;
class FindBar;
class FrameEditor;
class FrameSelection;
class ImageStage;
class ImportController;
class InfoPanel;
class ReplayPanel;
class NoticePresenter;
class PendingIndicator;
class PromptPanel;
class SelectionController;
class SessionController;
class SessionManager;
class SessionPresenter;
class ThinkingLevels;
class ThumbnailProvider;
class TimelineModel;
class TimelineView;
class TurnDispatcher;
class VariantsDispatch;
class WindowDialogs;
enum class ActionId;

/**
 * The studio's main window, kept thin the way Tiled keeps its MainWindow: it lays out the
 * docks (timeline along the bottom, prompt and frame details on the right, the image stage
 * in the centre), builds the menus and the toolbar from ActionIds, and wires the actions and
 * views to the controllers that do the work — SessionManager (sessions), FrameSelection,
 * TurnDispatcher (turns and their failures), ImportController, ImageStage, FrameEditor,
 * WindowDialogs and NoticePresenter; SessionPresenter keeps what it shows of the session
 * (title, status bar, Frame Details, the actions' state) up to date. It remembers its layout through WindowPreferences.
 */
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    /** The API the session talks to; demo = the built-in fake server (persistent banner). */
    void setBackend(const ClientConfig &config, bool demo);
    /**
     * What the window shows of a backend (the demo banner, the model's thinking levels) before
     * it can talk to it: start-up paints the window while the demo server starts on a worker,
     * then calls setBackend(). Nothing can be sent in between (no session is open yet).
     */
    void showBackend(const ClientConfig &config, bool demo);
    bool isDemoBackend() const { return m_demo; }
    const ClientConfig &clientConfig() const { return m_config; }
    /**
     * Restores geometry and docks and, with openLastSession, the last session and selection
     * (a new session if none). Without it no session is opened or created: the caller opens the
     * one it was given, so that a first launch on an explicit folder does not also make (and
     * list in Recent) an empty default session.
     */
    void restoreLastState(bool openLastSession = true);
    /** The first show also gives the docks their content and makes the status bar (attachTextWidgets()). */
    void setVisible(bool visible) override;

    // The controllers: the app and the tests talk to these.
    SessionManager *sessions() const { return m_sessions; }
    SessionController *session() const;
    FrameSelection *selection() const { return m_selection; }
    TurnDispatcher *turns() const { return m_turns; }
    /** The canvas selection per frame and its tools (issue 13). */
    SelectionController *selectionTools() const { return m_selectionTools; }
    VariantsDispatch *variants() const { return m_variants; }
    ImportController *imports() const { return m_imports; }
    ImageStage *stage() const { return m_stage; }
    FrameEditor *frameEditor() const { return m_editor; }
    NoticePresenter *notices() const { return m_notices; }
    ActionManager *actions() const { return m_actions; }
    WindowDialogs *dialogs() const { return m_dialogs; }
    QAction *action(ActionId id) const;

    // The views, for tests that click and type.
    TimelineModel *timelineModel() const { return m_model; }
    TimelineView *timelineView() const { return m_timeline; }
    PromptPanel *promptPanel() const { return m_prompt; }
    InfoPanel *infoPanel() const { return m_info; }
    BannerWidget *demoBanner() const { return m_demoBanner; }
    ThumbnailProvider *thumbnails() const { return m_thumbs; }
    PendingIndicator *pendingIndicator() const { return m_pending; }

Q_SIGNALS:
    void backendChanged();
    /** The Settings dialog saved; the app re-resolves the key and backend when keyChanged. */
    void settingsChanged(bool keyChanged);

protected:
    void closeEvent(QCloseEvent *event) override;
    void dragEnterEvent(QDragEnterEvent *event) override;
    void dragMoveEvent(QDragMoveEvent *event) override;
    void dropEvent(QDropEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void buildLayout();
    void buildControllers();
    void buildMenus();
    void wireActions();
    void wireSession();
    void refreshThinkingLevels();
    /**
     * The widgets whose making measures text, put in place at the first show: the docks'
     * content and the status bar. Measuring text waits for the fonts, which a worker loads at
     * start (app/studio/main.cpp): this way the rest of the window is built while it does, and
     * the saved dock layout is restored before the panels are measured into it.
     */
    void attachTextWidgets();
    void showTimelineMenu(const QPoint &pos);
    /** The replay panel, built when first needed (its dock is hidden at start). */
    ReplayPanel *replayPanel();

    ClientConfig m_config;
    bool m_demo = false;
    std::unique_ptr<ThinkingLevels> m_levels;

    NoticePresenter *m_notices = nullptr;
    SessionManager *m_sessions = nullptr;
    ActionManager *m_actions = nullptr;
    FrameSelection *m_selection = nullptr;
    SelectionController *m_selectionTools = nullptr;
    ImageStage *m_stage = nullptr;
    ImportController *m_imports = nullptr;
    TurnDispatcher *m_turns = nullptr;
    VariantsDispatch *m_variants = nullptr;
    FrameEditor *m_editor = nullptr;
    WindowDialogs *m_dialogs = nullptr;
    SessionPresenter *m_shown = nullptr; // title, status bar, Frame Details and actions for the open session

    TimelineModel *m_model = nullptr;
    TimelineView *m_timeline = nullptr;
    ThumbnailProvider *m_thumbs = nullptr;
    PromptPanel *m_prompt = nullptr;
    InfoPanel *m_info = nullptr;
    ReplayPanel *m_replay = nullptr;   // replay a chain (issue 14); built by replayPanel()
    QWidget *m_replayHolder = nullptr; // the replay dock's content, empty until then
    BannerWidget *m_demoBanner = nullptr;
    BannerWidget *m_messageBanner = nullptr;
    PendingIndicator *m_pending = nullptr;
    FindBar *m_find = nullptr;
    QMenu *m_recentMenu = nullptr;
    QList<std::pair<QDockWidget *, QWidget *>> m_dockContents; // given to their docks by attachTextWidgets()
};

} // namespace nb2
