#pragma once

#include "core/common/error.h"
#include "core/api/clientconfig.h"

#include <QFutureWatcher>
#include <QHash>
#include <QImage>
#include <QMainWindow>
#include <QPair>
#include <QPointer>
#include <QTemporaryDir>
#include <QTimer>

#include <memory>

class QAction;
class QLabel;
class QMenu;
class QMimeData;
class QStackedWidget;

namespace nb2 {

class BannerWidget;
class CanvasView;
class CompareView;
class InfoPanel;
class KeyStore;
class PendingIndicator;
class PromptPanel;
class SessionController;
class ThinkingLevels;
class ThumbnailProvider;
class TimelineModel;
class TimelineView;
struct Error;
struct ExportRequest;
struct ImportCheck;

/**
 * The studio's main window. It wires the session controller (core) to the views: the
 * timeline dock (model + view + delegate + thumbnail provider), the canvas / compare view
 * in the centre, the info panel and the prompt panel. It decides what the prompt's button
 * means from the selection (generate, edit, edit-local, branch), turns drops and pastes into
 * import frames after checking them off the GUI thread, shows progress and actionable
 * errors (rate-limit countdown and automatic retry, Settings for a bad key, re-anchor for an
 * expired id), handles sessions (new, open, recent, save-as copy, external changes) and
 * remembers its layout through the typed window settings. It never does HTTP or parses
 * JSON, and it never decodes a full-size image or writes a file on the GUI thread.
 */
class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;

    /** The API the session talks to; demo = the built-in fake server (persistent banner). */
    void setBackend(const ClientConfig &config, bool demo);
    bool isDemoBackend() const { return m_demo; }
    const ClientConfig &clientConfig() const { return m_config; }

    /** Opens (or creates) a session folder; on failure shows nothing and returns the message. */
    bool openSession(const QString &dir, QString *errorMessage = nullptr);
    /**
     * Shows why dir did not open (error: openSession()'s message); when its files are damaged
     * the banner offers "Rebuild Session" (journal and images, nothing deleted) instead of the
     * session silently being replaced by a new, empty one.
     */
    void reportOpenFailure(const QString &dir, const QString &error);
    /** A new, empty session in the sessions folder, named after the date and time. */
    bool newSession(QString *errorMessage = nullptr);
    /** Runs an export on a worker from a snapshot of the graph; exportFinished() follows. */
    void exportTo(const ExportRequest &request);
    /** Copies the session folder to target (off the GUI thread) and continues there; sessionCopied() follows. */
    bool saveSessionCopy(const QString &target);
    /** Restores geometry, docks, last session and selection; opens a new session if none. */
    void restoreLastState();
    QString sessionDir() const;

    SessionController *session() const { return m_session; }
    TimelineModel *timelineModel() const { return m_model; }
    TimelineView *timelineView() const { return m_timeline; }
    PromptPanel *promptPanel() const { return m_prompt; }
    InfoPanel *infoPanel() const { return m_info; }
    CanvasView *canvas() const { return m_canvas; }
    CompareView *compareView() const { return m_compare; }
    BannerWidget *messageBanner() const { return m_messageBanner; }
    BannerWidget *demoBanner() const { return m_demoBanner; }
    ThumbnailProvider *thumbnails() const { return m_thumbs; }
    PendingIndicator *pendingIndicator() const { return m_pending; }
    QAction *action(const QString &objectName) const;

    QString currentFrameId() const;
    void selectFrame(const QString &frameId);

    /** Drop / paste entry point: local files, file URLs or raw image data. Asynchronous;
     *  importFinished() reports the outcome. Returns false (with a message shown) when the
     *  data holds nothing importable. */
    bool importMimeData(const QMimeData *data);
    bool importFiles(const QStringList &paths);
    /** Validates and sets the style reference (asynchronous). */
    void setStyleReference(const QString &path);

    /** Shows the compare view for the current frame against `otherId` (empty: its parent). */
    void showCompare(const QString &otherId = {});
    void showCanvas();
    bool isCompareShown() const;
    /** Last message shown in the message banner (tests). */
    QString lastMessage() const { return m_lastMessage; }

public Q_SLOTS:
    void submit();
    void newImage();
    void openSessionDialog();
    void saveSessionAs();
    void openImageDialog();
    void exportSession();
    void showSettings();
    void showDiagnostics();
    void copyImage();
    void paste();
    void deleteFrame();
    void deleteBranch();
    void toggleStar();
    void renameFrame();
    void editNote();
    void retryFrame(const QString &frameId);
    void cancelFrame(const QString &frameId);
    void reAnchorFrame(const QString &frameId);
    void toggleFullScreen();

Q_SIGNALS:
    /** An import (drop, paste, Open Image) finished: the new frame ids, or an error message. */
    void importFinished(const QStringList &frameIds, const QString &error);
    void styleReferenceChecked(const QString &path, const QString &error);
    void sessionCopied(const QString &target, const QString &error);
    void exportFinished(const QString &output, const QString &error);
    /** A streaming draft is now shown on the pending frame's card (and the canvas when selected). */
    void draftShown(const QString &frameId);
    /** The image shown on the canvas changed (after the off-thread decode). */
    void canvasImageShown(const QString &frameId);
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
    void buildActions();
    void buildMenus();
    void buildLayout();
    void connectSession();
    void updateTitle();
    void updatePromptMode();
    void updateActions();
    void updateInfo();
    void updatePending();
    void loadCanvasImage();
    void onCurrentChanged();
    void onTurnFailed(const QString &frameId, const Error &error);
    void onTurnFinished(const QString &frameId);
    void onDraftReceived(const QString &frameId, const QByteArray &bytes);
    void showMessage(int kind, const QString &text, const QString &actionText = {},
                     std::function<void()> action = {});
    void clearMessage();
    void addRecent(const QString &dir);
    void rebuildRecentMenu();
    void refreshThinkingLevels();
    void saveWindowState();
    void scheduleRetry(const QString &frameId, int delayMs);
    void cancelScheduledRetry(const QString &frameId);
    void runImports(const QList<ImportCheck> &pending, const QList<QByteArray> &data);
    void finishImports(const QList<ImportCheck> &checks);
    void askToContinueChain(const QList<ImportCheck> &queue);
    Result<QString> importChecked(const ImportCheck &check, bool continueChain);
    void announceImports(const QStringList &added, const QStringList &errors);
    QString frameLabel(const QString &frameId) const;
    QString canvasDraftText(const QString &frameId) const;

    ClientConfig m_config;
    bool m_demo = false;
    std::unique_ptr<ThinkingLevels> m_levels;
    SessionController *m_session = nullptr;
    TimelineModel *m_model = nullptr;
    TimelineView *m_timeline = nullptr;
    ThumbnailProvider *m_thumbs = nullptr;
    PromptPanel *m_prompt = nullptr;
    InfoPanel *m_info = nullptr;
    CanvasView *m_canvas = nullptr;
    CompareView *m_compare = nullptr;
    QStackedWidget *m_centerStack = nullptr;
    BannerWidget *m_demoBanner = nullptr;
    BannerWidget *m_messageBanner = nullptr;
    PendingIndicator *m_pending = nullptr;
    QLabel *m_sessionLabel = nullptr;
    QMenu *m_recentMenu = nullptr;
    KeyStore *m_keyStore = nullptr;
    std::function<void()> m_messageAction;
    QString m_lastMessage;
    QPair<QString, QString> m_styleCopy; // style reference as chosen -> its copy in the session's images/
    QString m_compareOtherId;
    QString m_selectionBeforeReset;
    bool m_forceGenerate = false;
    bool m_closing = false;

    quint64 m_canvasGeneration = 0;
    QString m_canvasFrameId;
    QHash<QString, QTimer *> m_retryTimers;
    QTemporaryDir m_pasteDir;
    int m_importsInFlight = 0;

    QHash<QString, QAction *> m_actions;
};

} // namespace nb2
