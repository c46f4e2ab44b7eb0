#include "ui/exportdialog.h"

#include "core/export/contactsheet.h"
#include "core/export/htmlcard.h"
#include "core/export/provenance.h"
#include "core/session/framegraph.h"
#include "core/session/pricetable.h"
#include "ui/bannerwidget.h"
#include "ui/displaypath.h"
#include "ui/theme.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QDesktopServices>
#include <QDialogButtonBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QTableWidget>
#include <QThreadPool>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace nb2 {

QFuture<ExportSession> prepareExportSession(
    const FrameGraph &graph, const QString &sessionDir, const PriceTable &prices)
{
    return QtConcurrent::run(
        [graph, sessionDir, prices]() { return ExportSession::fromGraph(graph, sessionDir, prices); });
}

QFuture<ExportOutcome> startExport(const ExportSession &session, const ExportRequest &request)
{
    // Copies go into the task: the caller's session may change or die while this runs.
    return QtConcurrent::run([session, request]() {
        ExportOutcome outcome;
        QElapsedTimer timer;
        timer.start();
        auto result = Exporter::run(session, request);
        outcome.elapsedMs = timer.elapsed();
        outcome.ok = result.ok();
        if (result)
            outcome.report = result.value();
        else
            outcome.errorMessage = result.error().message;
        return outcome;
    });
}

namespace {

void setNoteColor(QLabel *label, const QColor &color)
{
    QPalette pal = label->palette();
    QColor c = color.isValid() ? color : label->parentWidget()->palette().color(QPalette::WindowText);
    if (!color.isValid())
        c.setAlphaF(0.7);
    pal.setColor(QPalette::WindowText, c);
    label->setPalette(pal);
}

/** "1 frame", "4 frames" (the English catalogue carries the plural forms). */
QString framesText(int n)
{
    return ExportDialog::tr("%n frame(s)", nullptr, n);
}

bool isDirEmpty(const QString &path)
{
    return QDir(path).isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System);
}

} // namespace

ExportDialog::ExportDialog(const ExportSession &session, const QStringList &selectedFrameIds,
    const QString &currentBranchHeadId, QWidget *parent)
    : QDialog(parent), m_session(session), m_branchHead(currentBranchHeadId)
{
    // Only selected frames the session knows (a trashed or stale id would fail the export).
    for (const QString &id : selectedFrameIds) {
        if (m_session.frame(id) && !m_selected.contains(id))
            m_selected.append(id);
    }
    if (!m_branchHead.isEmpty() && !m_session.frame(m_branchHead))
        m_branchHead.clear();

    setWindowTitle(tr("Export Session"));
    setAccessibleName(tr("Export session"));
    buildUi();

    m_watcher = new QFutureWatcher<ExportOutcome>(this);
    connect(m_watcher, &QFutureWatcher<ExportOutcome>::finished, this, &ExportDialog::onExportDone);

    startScopeWalk();
    onFormatChanged();
}

ExportDialog::ExportDialog(const FrameGraph &graph, const QString &sessionDir, const QStringList &selectedFrameIds,
    const QString &currentBranchHeadId, QWidget *parent)
    : ExportDialog(ExportSession::fromGraph(graph, sessionDir), selectedFrameIds, currentBranchHeadId, parent)
{}

ExportDialog::~ExportDialog()
{
    // The task owns copies of everything it touches; waiting keeps a test's temp dirs (and
    // an app quitting mid-export) from pulling the output folder from under it.
    if (m_watcher && m_running)
        m_watcher->waitForFinished();
    // Freeing 10,000 frames' strings takes milliseconds: the last copy goes on a worker.
    if (m_session.frames.size() > 1000)
        QThreadPool::globalInstance()->start([dropped = std::move(m_session)] { Q_UNUSED(dropped); });
}

// --- Choices -----------------------------------------------------------------------------

ExportDialog::Choice ExportDialog::choice() const
{
    return Choice(m_format->currentData().toInt());
}

void ExportDialog::setChoice(Choice choice)
{
    m_format->setCurrentIndex(m_format->findData(int(choice)));
}

ExportDialog::ScopeChoice ExportDialog::scopeChoice() const
{
    const int id = m_scopeGroup->checkedId();
    return id < 0 ? ScopeChoice::Session : ScopeChoice(id);
}

void ExportDialog::setScopeChoice(ScopeChoice scope)
{
    if (isScopeAvailable(scope))
        m_scopeGroup->button(int(scope))->setChecked(true);
}

bool ExportDialog::isScopeAvailable(ScopeChoice scope) const
{
    if (scope == ScopeChoice::Session)
        return true;
    if (choice() == Choice::Bundle)
        return false; // a bundle is the whole session: anything less would not round-trip
    if (scope == ScopeChoice::Branch)
        return !m_branchHead.isEmpty();
    return !m_selected.isEmpty();
}

ExportScope ExportDialog::scopeFor(ScopeChoice scope) const
{
    switch (scope) {
    case ScopeChoice::Session:
        return ExportScope::session();
    case ScopeChoice::Branch:
        return ExportScope::ofBranch(m_branchHead);
    case ScopeChoice::Selected:
        return ExportScope::ofFrames(m_selected);
    }
    return ExportScope::session();
}

Result<QList<const ExportFrame *>> ExportDialog::selectFrames(const ExportScope &scope, bool includeFailed) const
{
    // The session never changes while the dialog lives, so each scope is walked once: at
    // 10,000 frames a walk takes milliseconds, and every change of a control asked again.
    const QString key = selectKey(scope, includeFailed);
    if (const auto it = m_selectCache.constFind(key); it != m_selectCache.cend())
        return *it;
    // The whole session, the selected frames and both failed/not-failed variants share one walk.
    ++m_walksHere;
    if (!m_treeOrder && scope.kind != ExportScope::Kind::Branch)
        m_treeOrder = m_session.treeOrder();
    const Result<QList<const ExportFrame *>> chosen
        = m_session.select(scope, includeFailed, m_treeOrder.value_or(QList<const ExportFrame *>()));
    m_selectCache.insert(key, chosen);
    return chosen;
}

QString ExportDialog::selectKey(const ExportScope &scope, bool includeFailed)
{
    return QString::number(int(scope.kind)) + (includeFailed ? QStringLiteral("|1|") : QStringLiteral("|0|"))
        + scope.branch + QLatin1Char('|') + scope.frameIds.join(QLatin1Char('\n'));
}

int ExportDialog::scopeFrameCount(ScopeChoice scope) const
{
    if (scope != ScopeChoice::Session
        && ((scope == ScopeChoice::Branch && m_branchHead.isEmpty())
            || (scope == ScopeChoice::Selected && m_selected.isEmpty())))
        return 0;
    const ExportRequest r = request(); // includeFailed is already false where the format drops them
    const auto frames = selectFrames(scopeFor(scope), r.includeFailed || r.format == ExportFormat::Bundle);
    return frames ? int(frames.value().size()) : 0;
}

bool ExportDialog::choiceIsFolder(Choice choice) const
{
    return choice == Choice::HtmlPage || choice == Choice::Frames;
}

QString ExportDialog::suffixFor(Choice choice) const
{
    switch (choice) {
    case Choice::HtmlPage:
        return QStringLiteral("-html");
    case Choice::HtmlSingleFile:
        return QStringLiteral(".html");
    case Choice::Bundle:
        return QStringLiteral(".nb2session");
    case Choice::ContactSheet:
        return QStringLiteral("-sheet.png");
    case Choice::Frames:
        return QStringLiteral("-frames");
    }
    return {};
}

QString ExportDialog::defaultOutputPath(Choice choice) const
{
    // Beside the session folder (the sessions folder), never inside it: an export inside
    // the session would end up in the next bundle.
    const QString parent
        = m_session.sessionDir.isEmpty() ? QDir::homePath() : QFileInfo(m_session.sessionDir).absolutePath();
    QString title = m_session.title.trimmed();
    if (title.isEmpty())
        title = tr("session");
    title.replace(QLatin1Char('/'), QLatin1Char('-'));
    const QString suffix = suffixFor(choice);
    const QDir dir(parent);
    QString path = dir.filePath(title + suffix);
    // "-2", "-3", ... before the suffix, so an earlier export is never overwritten by default.
    for (int n = 2; QFileInfo::exists(path) && n < 1000; ++n)
        path = dir.filePath(QStringLiteral("%1-%2%3").arg(title).arg(n).arg(suffix));
    return path;
}

QString ExportDialog::outputPath() const
{
    return m_output->text().trimmed();
}

void ExportDialog::setOutputPath(const QString &path)
{
    m_output->setText(path);
}

void ExportDialog::setStripPrompts(bool on)
{
    m_stripPrompts->setChecked(on);
}
void ExportDialog::setStripIds(bool on)
{
    m_stripIds->setChecked(on);
}
void ExportDialog::setStripCost(bool on)
{
    m_stripCost->setChecked(on);
}
void ExportDialog::setIncludeFailed(bool on)
{
    m_includeFailed->setChecked(on);
}
void ExportDialog::setCopyImages(bool on)
{
    m_copyImages->setChecked(on);
}

ExportRequest ExportDialog::request() const
{
    ExportRequest r;
    const Choice c = choice();
    switch (c) {
    case Choice::HtmlPage:
    case Choice::HtmlSingleFile:
        r.format = ExportFormat::Html;
        break;
    case Choice::Bundle:
        r.format = ExportFormat::Bundle;
        break;
    case Choice::ContactSheet:
        r.format = ExportFormat::Sheet;
        break;
    case Choice::Frames:
        r.format = ExportFormat::Frames;
        break;
    }
    r.singleFile = c == Choice::HtmlSingleFile;
    r.scope = c == Choice::Bundle ? ExportScope::session() : scopeFor(scopeChoice());
    r.output = QDir::cleanPath(outputPath());
    if (outputPath().isEmpty())
        r.output.clear();
    // Only what the format honours goes into the request, so it reads the same as the CLI's.
    r.stripPrompts = c != Choice::Bundle && m_stripPrompts->isChecked();
    r.stripIds = (c != Choice::Bundle && c != Choice::ContactSheet) && m_stripIds->isChecked();
    r.stripCost = r.format == ExportFormat::Html && m_stripCost->isChecked();
    r.includeFailed
        = (r.format == ExportFormat::Html || r.format == ExportFormat::Sheet) && m_includeFailed->isChecked();
    r.linkImages = c == Choice::HtmlPage && !m_copyImages->isChecked();
    // The dialog says "A file with this name exists and will be replaced" before Export is
    // pressed: pressing it is the user's consent. Links, FIFOs and devices are refused anyway.
    r.existing = !choiceIsFolder(c) && QFileInfo(r.output).isFile() ? ExistingTarget::Replace : ExistingTarget::Refuse;
    return r;
}

QString ExportDialog::validationError() const
{
    if (const QString problem = pathProblem(); !problem.isEmpty())
        return problem;
    if (choice() != Choice::Bundle && scopeFrameCount(scopeChoice()) == 0)
        return tr("The chosen frames include nothing to export.");
    return {};
}

QString ExportDialog::pathProblem() const
{
    const QString path = outputPath();
    if (path.isEmpty())
        return tr("Choose where to save the export.");
    if (!QDir::isAbsolutePath(path))
        return tr("Enter a full path for the export, e.g. %1.").arg(displayPath(defaultOutputPath(choice())));
    const QFileInfo info(path);
    if (!info.absoluteDir().exists())
        return tr("The folder %1 does not exist.").arg(displayPath(info.absolutePath()));
    if (choiceIsFolder(choice())) {
        if (info.exists() && !info.isDir())
            return tr("A file named %1 exists; this format writes a folder. Choose another name.").arg(info.fileName());
        if (info.isDir() && !isDirEmpty(path))
            return tr(
                "The folder %1 is not empty. Choose a new or empty folder so the export does not mix with other files.")
                .arg(info.fileName());
    } else if (info.isDir()) {
        return tr("%1 is a folder; this format writes one file. Choose a file name.").arg(info.fileName());
    }
    return {};
}

// --- State -------------------------------------------------------------------------------

void ExportDialog::onFormatChanged()
{
    const Choice c = choice();
    switch (c) {
    case Choice::HtmlPage:
        m_formatNote->setText(tr("A folder with index.html and the images. Opens offline in any browser."));
        break;
    case Choice::HtmlSingleFile:
        m_formatNote->setText(tr("One self-contained .html file with the images inline, easy to send."));
        break;
    case Choice::Bundle:
        m_formatNote->setText(
            tr("The whole session, lossless: every image byte-identical. NB2Lite and the CLI can open it again."));
        break;
    case Choice::ContactSheet:
        m_formatNote->setText(tr("One PNG with the frames in order and short captions."));
        break;
    case Choice::Frames:
        m_formatNote->setText(
            tr("The pictures as files with readable names (03-add-a-lantern.jpg), each carrying its provenance."));
        break;
    }

    // A path we filled in follows the format; a path the user typed keeps its name and
    // only swaps the format's ending.
    const QString current = outputPath();
    QString next;
    if (current.isEmpty() || current == m_lastDefault) {
        next = defaultOutputPath(c);
        m_lastDefault = next;
    } else {
        QString base = current;
        for (const char *s : {"-sheet.png", ".nb2session", ".html", ".png", "-html", "-frames"}) {
            if (base.endsWith(QLatin1String(s), Qt::CaseInsensitive)) {
                base.chop(qsizetype(qstrlen(s)));
                break;
            }
        }
        next = base + suffixFor(c);
    }
    {
        const QSignalBlocker block(m_output);
        m_output->setText(next);
    }
    if (!isScopeAvailable(scopeChoice()))
        m_scopeSession->setChecked(true);
    updateState();
}

void ExportDialog::updateScopeCounts()
{
    if (!m_scopesReady) {
        // The worker is counting (startScopeWalk): the buttons get their numbers in a moment.
        m_scopeSession->setText(tr("Whole session"));
        m_scopeBranch->setText(tr("Current branch"));
        m_scopeSelected->setText(tr("Selected frames"));
    } else {
        const int all = scopeFrameCount(ScopeChoice::Session);
        m_scopeSession->setText(tr("Whole session (%1)").arg(framesText(all)));
        if (m_branchHead.isEmpty())
            m_scopeBranch->setText(tr("Current branch"));
        else
            m_scopeBranch->setText(tr("Current branch (%1)").arg(framesText(scopeFrameCount(ScopeChoice::Branch))));
        if (m_selected.isEmpty())
            m_scopeSelected->setText(tr("Selected frames"));
        else
            m_scopeSelected->setText(
                tr("Selected frames (%1)").arg(framesText(scopeFrameCount(ScopeChoice::Selected))));
    }

    const bool bundle = choice() == Choice::Bundle;
    m_scopeBranch->setToolTip(bundle ? tr("A bundle always holds the whole session")
            : m_branchHead.isEmpty() ? tr("No current frame: select a frame in the timeline first")
                                     : tr("The current frame and its ancestors, root first"));
    m_scopeSelected->setToolTip(bundle ? tr("A bundle always holds the whole session")
            : m_selected.isEmpty()     ? tr("No frames are selected in the timeline")
                                       : tr("Only the frames selected in the timeline"));
    m_scopeNote->setText(
        bundle ? tr("A bundle always holds the whole session, so it can be opened again without loss.") : QString());
    m_scopeNote->setVisible(bundle);
}

void ExportDialog::updateState()
{
    const Choice c = choice();
    const bool bundle = c == Choice::Bundle;
    if (!m_running) {
        m_scopeBranch->setEnabled(isScopeAvailable(ScopeChoice::Branch));
        m_scopeSelected->setEnabled(isScopeAvailable(ScopeChoice::Selected));
        m_stripPrompts->setEnabled(!bundle);
        m_stripIds->setEnabled(!bundle && c != Choice::ContactSheet);
        m_stripCost->setEnabled(c == Choice::HtmlPage || c == Choice::HtmlSingleFile);
        m_includeFailed->setEnabled(c == Choice::HtmlPage || c == Choice::HtmlSingleFile || c == Choice::ContactSheet);
        m_copyImages->setEnabled(c == Choice::HtmlPage);
    }
    m_stripPrompts->setToolTip(bundle
            ? tr("A bundle is a lossless copy of the session: nothing is stripped")
            : tr("Leave prompts and the model's text out of the export and of the images' provenance record"));
    m_stripIds->setToolTip(bundle ? tr("A bundle is a lossless copy of the session: nothing is stripped")
            : c == Choice::ContactSheet
            ? tr("Contact sheet captions carry no ids")
            : tr("Leave frame ids, interaction ids and the parent image hash out. "
                 "Without an interaction id an imported image cannot continue its chain on the server."));
    m_includeFailed->setToolTip(m_includeFailed->isEnabled()
            ? tr("Show turns that failed, with their error message")
            : tr("Only the HTML history and the contact sheet can show failed turns"));
    m_copyImages->setToolTip(m_copyImages->isEnabled()
            ? tr("Copy the image files. Hard links save space, but editing an exported image in place "
                 "would also change the session's original.")
            : tr("Only the HTML folder can hard-link images; other formats always write new files"));

    updateScopeCounts();

    // Before the worker's walks are in, the count is left to Export (startExporting() checks it).
    const QString problem = m_scopesReady ? validationError() : pathProblem();
    const bool justExported
        = m_outcome.ok && !m_runRequest.output.isEmpty() && QDir::cleanPath(outputPath()) == m_runRequest.output;
    if (justExported) {
        m_outputNote->setText(tr("Exported here. Choose a new name to export again."));
        setNoteColor(m_outputNote, QColor());
    } else if (!problem.isEmpty()) {
        m_outputNote->setText(problem);
        setNoteColor(m_outputNote, themeColor(ThemeColor::Error));
    } else if (!choiceIsFolder(c) && QFileInfo(outputPath()).isFile()) {
        m_outputNote->setText(tr("A file with this name exists and will be replaced."));
        setNoteColor(m_outputNote, themeColor(ThemeColor::Warning));
    } else {
        m_outputNote->setText(
            choiceIsFolder(c) ? tr("A new folder is created for the export.") : tr("One file is written."));
        setNoteColor(m_outputNote, QColor());
    }
    m_output->setToolTip(
        choiceIsFolder(c) ? tr("The folder to create for the export (new or empty)") : tr("The file to write"));
    m_exportButton->setEnabled(!m_running && problem.isEmpty());
    updatePreview();
}

void ExportDialog::browse()
{
    const Choice c = choice();
    QString path;
    if (choiceIsFolder(c)) {
        path = QFileDialog::getSaveFileName(this, tr("Export to a New Folder"), outputPath(), QString(), nullptr,
            QFileDialog::DontConfirmOverwrite | QFileDialog::ShowDirsOnly);
    } else {
        QString filter;
        switch (c) {
        case Choice::HtmlSingleFile:
            filter = tr("HTML file (*.html)");
            break;
        case Choice::Bundle:
            filter = tr("NB2Lite session bundle (*.nb2session)");
            break;
        case Choice::ContactSheet:
            filter = tr("PNG image (*.png)");
            break;
        default:
            break;
        }
        path = QFileDialog::getSaveFileName(this, tr("Export to File"), outputPath(), filter);
    }
    if (!path.isEmpty())
        m_output->setText(QDir::toNativeSeparators(path));
}

// --- Running -----------------------------------------------------------------------------

void ExportDialog::setBusy(bool busy)
{
    m_running = busy;
    for (QWidget *w : std::initializer_list<QWidget *> {m_format, m_scopeSession, m_scopeBranch, m_scopeSelected,
             m_output, m_browse, m_stripPrompts, m_stripIds, m_stripCost, m_includeFailed, m_copyImages}) {
        if (busy)
            w->setEnabled(false);
    }
    if (!busy) {
        for (QWidget *w : std::initializer_list<QWidget *> {m_format, m_scopeSession, m_output, m_browse})
            w->setEnabled(true);
    }
    m_progress->setVisible(busy);
    m_buttons->button(QDialogButtonBox::Close)->setEnabled(!busy);
    updateState();
}

void ExportDialog::startExporting()
{
    if (m_running)
        return;
    if (!m_scopesReady) { // Export right after opening: the counts decide whether there is anything to export
        m_walkWatcher->waitForFinished();
        adoptScopeWalk();
    }
    const QString problem = validationError();
    if (!problem.isEmpty()) {
        m_banner->setMessage(BannerWidget::Kind::Error, problem.toHtmlEscaped());
        m_banner->setActionText({});
        return;
    }
    const ExportRequest r = request();
    m_outcome = ExportOutcome();
    m_banner->setActionText({});
    m_banner->setMessage(BannerWidget::Kind::Info, tr("Exporting to %1…").arg(displayPath(r.output).toHtmlEscaped()));
    m_runRequest = r;
    m_runChoice = choice();
    setBusy(true);
    m_watcher->setFuture(startExport(m_session, r));
    Q_EMIT exportStarted();
}

void ExportDialog::onExportDone()
{
    m_outcome = m_watcher->result();
    if (m_outcome.report.output.isEmpty())
        m_outcome.report.output = m_runRequest.output;
    setBusy(false);
    const QString where = displayPath(m_outcome.report.output).toHtmlEscaped();
    if (!m_outcome.ok) {
        m_banner->setActionText({});
        m_banner->setMessage(
            BannerWidget::Kind::Error, tr("The export failed: %1").arg(m_outcome.errorMessage.toHtmlEscaped()));
        Q_EMIT exportFinished(false);
        return;
    }
    const ExportReport &rep = m_outcome.report;
    const QString took = m_outcome.elapsedMs < 1000
        ? tr("%1 ms").arg(m_outcome.elapsedMs)
        : tr("%1 s").arg(QString::number(double(m_outcome.elapsedMs) / 1000.0, 'f', 1));
    QString text = tr("Exported %1 to %2 in %3.").arg(framesText(rep.frames), where, took);
    if (!rep.warnings.isEmpty())
        text += QLatin1Char(' ') + tr("Warnings: %1").arg(rep.warnings.join(QStringLiteral("; ")).toHtmlEscaped());
    if (!choiceIsFolder(m_runChoice) && m_runChoice != Choice::Bundle)
        text += QStringLiteral(" <a href=\"folder\">%1</a>").arg(tr("Open folder"));
    m_banner->setMessage(rep.warnings.isEmpty() ? BannerWidget::Kind::Success : BannerWidget::Kind::Warning, text);
    switch (m_runChoice) {
    case Choice::HtmlPage:
    case Choice::HtmlSingleFile:
        m_banner->setActionText(tr("Open in Browser"), tr("Open the exported page in your web browser"));
        break;
    case Choice::ContactSheet:
        m_banner->setActionText(tr("Open Image"), tr("Open the contact sheet in your image viewer"));
        break;
    case Choice::Frames:
    case Choice::Bundle:
        m_banner->setActionText(tr("Show Files"), tr("Open the folder with the exported files"));
        break;
    }
    Q_EMIT exportFinished(true);
}

QUrl ExportDialog::resultUrl() const
{
    if (!m_outcome.ok)
        return {};
    const QString out = m_outcome.report.output;
    switch (m_runChoice) {
    case Choice::HtmlPage:
        return QUrl::fromLocalFile(QDir(out).filePath(QStringLiteral("index.html")));
    case Choice::HtmlSingleFile:
    case Choice::ContactSheet:
        return QUrl::fromLocalFile(out);
    case Choice::Frames:
        return QUrl::fromLocalFile(out);
    case Choice::Bundle:
        return QUrl::fromLocalFile(QFileInfo(out).absolutePath());
    }
    return {};
}

QUrl ExportDialog::resultFolderUrl() const
{
    if (!m_outcome.ok)
        return {};
    const QString out = m_outcome.report.output;
    return QUrl::fromLocalFile(choiceIsFolder(m_runChoice) ? out : QFileInfo(out).absolutePath());
}

void ExportDialog::reject()
{
    if (m_running)
        return;
    QDialog::reject();
}

} // namespace nb2
