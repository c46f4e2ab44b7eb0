#pragma once

#include "core/export/exporter.h"

#include <QDialog>
#include <QFuture>
#include <QHash>
#include <QList>
#include <QPair>
#include <QUrl>

#include <memory>
#include <optional>

class QButtonGroup;
class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QProgressBar;
class QPushButton;
class QRadioButton;
class QToolButton;
class QTableWidget;
template <typename T> class QFutureWatcher;

namespace nb2 {

class BannerWidget;
class FrameGraph;

/** How one export ended, as a plain value that can cross threads. */
struct ExportOutcome {
    bool ok = false;
    ExportReport report;  // valid when ok
    QString errorMessage; // readable, when !ok
    qint64 elapsedMs = 0;
};

/**
 * Runs Exporter::run on a thread-pool thread. The session is a value copy, so the caller may
 * keep editing the live session while it runs; watch the future with a QFutureWatcher.
 */
QFuture<ExportOutcome> startExport(const ExportSession &session, const ExportRequest &request);

/**
 * ExportSession::fromGraph on a thread-pool thread, from a copy of the graph (implicitly
 * shared: the copy costs nothing here, and the live graph detaches if it changes meanwhile).
 * At 10,000 frames the export model takes tens of milliseconds: made on the GUI thread it
 * would stall the window when the Export dialog opens.
 */
QFuture<ExportSession> prepareExportSession(
    const FrameGraph &graph, const QString &sessionDir, const PriceTable &prices);

/**
 * The Export dialog: turns the user's choices (format, scope, output, strip switches, copy vs
 * link) into an ExportRequest, shows exactly what the export will carry — the provenance
 * fields written into each image, the page or caption text — and runs the export off the GUI
 * thread with a busy state and a result banner that opens the output. It works on an
 * ExportSession value, never on the live graph, so nothing it does can change the session.
 */
class ExportDialog : public QDialog
{
    Q_OBJECT
public:
    /** What the user picks in the format list (HTML splits into page folder and one file). */
    enum class Choice { HtmlPage, HtmlSingleFile, Bundle, ContactSheet, Frames };
    Q_ENUM(Choice)
    enum class ScopeChoice { Session, Branch, Selected };
    Q_ENUM(ScopeChoice)

    /**
     * `selectedFrameIds`: the timeline's selection (empty disables "Selected frames");
     * `currentBranchHeadId`: the frame whose root-to-frame path is "the current branch"
     * (usually the current frame; empty disables "Current branch").
     */
    ExportDialog(const ExportSession &session, const QStringList &selectedFrameIds, const QString &currentBranchHeadId,
        QWidget *parent = nullptr);
    /** Convenience: ExportSession::fromGraph(graph, sessionDir). */
    ExportDialog(const FrameGraph &graph, const QString &sessionDir, const QStringList &selectedFrameIds,
        const QString &currentBranchHeadId, QWidget *parent = nullptr);
    ~ExportDialog() override;

    Choice choice() const;
    void setChoice(Choice choice);
    ScopeChoice scopeChoice() const;
    /** Ignored when that scope is not available (disabled) for the current format. */
    void setScopeChoice(ScopeChoice scope);
    bool isScopeAvailable(ScopeChoice scope) const;

    QString outputPath() const;
    void setOutputPath(const QString &path);
    /** "<session title><suffix>" in the folder that holds the session folder, made unique. */
    QString defaultOutputPath(Choice choice) const;

    void setStripPrompts(bool on);
    void setStripIds(bool on);
    void setStripCost(bool on);
    void setIncludeFailed(bool on);
    void setCopyImages(bool on);

    /** The request the controls describe now (what Export would run). */
    ExportRequest request() const;
    /** Why Export is disabled now (empty when it is enabled). */
    QString validationError() const;

    /** The rows the preview shows now: (field, value) as they will be written. */
    QList<QPair<QString, QString>> previewFields() const;
    /** The preview's heading ("Written into each exported image", ...). */
    QString previewHeading() const;
    /** The frame the preview describes (the scope's latest frame with an image). */
    QString previewFrameId() const;
    /**
     * How many scope walks ran on the dialog's own thread rather than on the worker: none while
     * the dialog opens and its controls change before the worker is done (for tests).
     */
    int scopeWalksHere() const { return m_walksHere; }

    /**
     * The scopes' frames (the counts on the scope buttons, the preview's frame) are walked on a
     * worker when the dialog opens: at 10,000 frames the walks take milliseconds the window
     * would not paint in. Until they are in, the buttons show no counts and the preview no
     * frame; scopesReady() follows. Export pressed before waits for them.
     */
    bool areScopesReady() const { return m_scopesReady; }
    bool isExporting() const { return m_running; }
    /** Valid after exportFinished(). */
    const ExportOutcome &lastOutcome() const { return m_outcome; }
    /** What "Open in browser" / "Open image" / "Open folder" opens for the last export. */
    QUrl resultUrl() const;
    QUrl resultFolderUrl() const;

public Q_SLOTS:
    /** Validates and starts the export on a worker thread; returns at once. */
    void startExporting();
    /** Ignored while an export runs: the worker's files must not be left half-made. */
    void reject() override;

Q_SIGNALS:
    void exportStarted();
    /** The worker's scope walks are in: counts and preview are shown. */
    void scopesReady();
    /** The export ended; lastOutcome() has the report or the error. */
    void exportFinished(bool ok);

private:
    void buildUi();
    void onFormatChanged();
    void onExportDone();
    void updateState();
    void updatePreview();
    /** previewHeading() for the frame f (none: the heading without a frame). */
    QString previewHeadingFor(const ExportFrame *f) const;
    /** The line under the preview: what is left out and how images are written. */
    void updatePreviewNote(Choice c, const ExportRequest &r);
    void updateScopeCounts();
    void browse();
    void setBusy(bool busy);
    int scopeFrameCount(ScopeChoice scope) const;
    /** validationError() without the scope's count: what is wrong with the output path. */
    QString pathProblem() const;
    struct ScopeWalk; // what the worker walked: the tree order and every scope the dialog asks for
    /** Starts walking the scopes on a worker (from the constructor). */
    void startScopeWalk();
    /** Takes the walk's results in (on the GUI thread): caches, counts, preview. */
    void adoptScopeWalk();
    /** The cache key of a scope (selectFrames()). */
    static QString selectKey(const ExportScope &scope, bool includeFailed);
    /** m_session.select(), remembered per scope (m_session is fixed for the dialog's life). */
    Result<QList<const ExportFrame *>> selectFrames(const ExportScope &scope, bool includeFailed) const;
    ExportScope scopeFor(ScopeChoice scope) const;
    bool choiceIsFolder(Choice choice) const;
    QString suffixFor(Choice choice) const;

    ExportSession m_session;
    QStringList m_selected;
    QString m_branchHead;
    mutable QHash<QString, Result<QList<const ExportFrame *>>> m_selectCache; // selectFrames()
    mutable std::optional<QList<const ExportFrame *>> m_treeOrder;            // m_session's, walked once
    mutable int m_walksHere = 0;       // scopes selectFrames() walked on this thread (scopeWalksHere())
    std::shared_ptr<ScopeWalk> m_walk; // filled by the worker; read here once it is finished
    QFutureWatcher<void> *m_walkWatcher = nullptr;
    bool m_scopesReady = false;
    bool m_previewShown = false;                  // the preview table shows m_previewRows
    QList<QPair<QString, QString>> m_previewRows; // what updatePreview() last put in the table
    QString m_lastDefault;                        // the default we filled in: replaced when the format changes
    bool m_running = false;
    ExportOutcome m_outcome;
    ExportRequest m_runRequest; // what the last export ran (the controls may change since)
    Choice m_runChoice = Choice::HtmlPage;
    QFutureWatcher<ExportOutcome> *m_watcher = nullptr;

    QComboBox *m_format = nullptr;
    QLabel *m_formatNote = nullptr;
    QButtonGroup *m_scopeGroup = nullptr;
    QRadioButton *m_scopeSession = nullptr;
    QRadioButton *m_scopeBranch = nullptr;
    QRadioButton *m_scopeSelected = nullptr;
    QLabel *m_scopeNote = nullptr;
    QLineEdit *m_output = nullptr;
    QPushButton *m_browse = nullptr;
    QLabel *m_outputNote = nullptr;
    QCheckBox *m_stripPrompts = nullptr;
    QCheckBox *m_stripIds = nullptr;
    QCheckBox *m_stripCost = nullptr;
    QCheckBox *m_includeFailed = nullptr;
    QCheckBox *m_copyImages = nullptr;
    QLabel *m_previewHeading = nullptr;
    QTableWidget *m_preview = nullptr;
    QLabel *m_previewNote = nullptr;
    QProgressBar *m_progress = nullptr;
    BannerWidget *m_banner = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    QPushButton *m_exportButton = nullptr;
};

} // namespace nb2
