#include "core/common/translations.h"
#include "core/export/htmlcard.h"
#include "core/export/provenance.h"
#include "core/session/framegraph.h"
#include "core/session/pricetable.h"
#include "core/session/sessionstore.h"
#include "tests/export/exportfixture.h"
#include "ui/exportdialog.h"
#include "ui/theme.h"

#include <QAbstractButton>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QLineEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSemaphore>
#include <QSignalSpy>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

#include <sys/stat.h>

using nb2::ExportDialog;
using nb2::ExportFormat;
using nb2::ExportRequest;
using nb2::ExportScope;
using nb2::ExportSession;

Q_DECLARE_METATYPE(ExportDialog::Choice)
Q_DECLARE_METATYPE(ExportDialog::ScopeChoice)
Q_DECLARE_METATYPE(ExportFormat)
Q_DECLARE_METATYPE(ExportScope::Kind)

/**
 * Holds every thread of the global pool until open() (or destruction), so work queued there
 * cannot start: what a test uses to see that work runs on the pool and not on its own thread.
 */
class PoolGate
{
public:
    PoolGate()
    {
        QThreadPool *pool = QThreadPool::globalInstance();
        m_threads = pool->maxThreadCount();
        for (int i = 0; i < m_threads; ++i) {
            // The semaphores are shared: a pool thread may still be leaving acquire() when the gate is gone.
            pool->start([state = m_state] {
                state->held.release();
                state->open.acquire();
            });
        }
        m_state->held.acquire(m_threads); // every thread is now waiting on the gate
    }
    ~PoolGate() { open(); }
    void open()
    {
        if (!m_opened)
            m_state->open.release(m_threads);
        m_opened = true;
    }

private:
    struct State {
        QSemaphore held;
        QSemaphore open;
    };
    std::shared_ptr<State> m_state = std::make_shared<State>();
    int m_threads = 0;
    bool m_opened = false;
};

class tst_ExportDialog : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    QString m_sessionDir;
    ExportSession m_session;
    nb2::testing::StandardSession m_ids;

    /** waitForScopes: until the worker's scope walks are in (counts and preview shown), as a user sees it. */
    std::unique_ptr<ExportDialog> makeDialog(
        const QStringList &selected = {}, const QString &head = {}, bool waitForScopes = true)
    {
        auto d = std::make_unique<ExportDialog>(m_session,
            selected.isEmpty() ? QStringList {m_ids.second, m_ids.third} : selected,
            head.isEmpty() ? m_ids.scripted : head);
        if (waitForScopes && !QTest::qWaitFor([&d] { return d->areScopesReady(); }, 20000))
            qWarning("the Export dialog's scope walks did not finish");
        return d;
    }
    static QStringList labels(const QList<QPair<QString, QString>> &rows)
    {
        QStringList out;
        for (const auto &r : rows)
            out << r.first;
        return out;
    }
    static bool anyStartsWith(const QStringList &list, const QString &prefix)
    {
        for (const QString &s : list) {
            if (s.startsWith(prefix))
                return true;
        }
        return false;
    }

private Q_SLOTS:
    void initTestCase()
    {
        nb2::ensureResources();
        // As the app does: plural messages read "6 frames", not "6 frame(s)" (export-dialog.png).
        nb2::installTranslations(qApp, QLocale(QStringLiteral("en_US")));
        QVERIFY(m_tmp.isValid());
        m_sessionDir = m_tmp.filePath(QStringLiteral("sessions/Harbour study"));
        nb2::SessionStore store;
        const nb2::Result<void> opened = store.open(m_sessionDir, nb2::SessionStore::OpenMode::CreateIfMissing);
        QVERIFY2(opened, qPrintable(opened.error().message));
        m_ids = nb2::testing::buildStandardSession(store, QStringLiteral("<script>alert(1)</script> a boat"));
        m_session = ExportSession::fromGraph(store.graph(), store.dir());
        QCOMPARE(m_session.frames.size(), m_ids.liveFrames);
    }

    void exportModelIsMadeOnThePool()
    {
        // The window asks for the export model this way (WindowDialogs::showExport): made on a
        // pool thread from a copy of the graph, so the GUI thread does not stall at 10,000
        // frames, and a change of the live graph meanwhile does not reach it.
        nb2::SessionStore store;
        QVERIFY(store.open(m_sessionDir, nb2::SessionStore::OpenMode::OpenExisting));
        nb2::FrameGraph graph = store.graph();
        QFuture<ExportSession> future;
        {
            PoolGate gate; // every pool thread is busy: the work cannot have run on this thread
            future = prepareExportSession(graph, store.dir(), nb2::PriceTable::defaults());
            QTest::qWait(50);
            QVERIFY(!future.isFinished());
            graph = nb2::FrameGraph(); // the live graph changes (here: goes away)
        }
        future.waitForFinished();
        const ExportSession prepared = future.result();
        const ExportSession direct = ExportSession::fromGraph(store.graph(), store.dir(), nb2::PriceTable::defaults());
        QCOMPARE(prepared.frames.size(), direct.frames.size());
        for (qsizetype i = 0; i < direct.frames.size(); ++i) {
            QCOMPARE(prepared.frames.at(i).id, direct.frames.at(i).id);
            QCOMPARE(prepared.frames.at(i).costUsd, direct.frames.at(i).costUsd);
        }
        QCOMPARE(prepared.sessionFiles, direct.sessionFiles);
        QCOMPARE(prepared.branches.size(), direct.branches.size());
    }

    void requestFromControls_data()
    {
        QTest::addColumn<ExportDialog::Choice>("choice");
        QTest::addColumn<ExportDialog::ScopeChoice>("scope");
        QTest::addColumn<bool>("stripPrompts");
        QTest::addColumn<bool>("stripIds");
        QTest::addColumn<bool>("copy");
        QTest::addColumn<ExportFormat>("format");
        QTest::addColumn<bool>("singleFile");
        QTest::addColumn<ExportScope::Kind>("scopeKind");
        QTest::addColumn<bool>("wantStripPrompts");
        QTest::addColumn<bool>("wantStripIds");
        QTest::addColumn<bool>("wantLink");
        QTest::addColumn<bool>("wantFailed");
        using C = ExportDialog::Choice;
        using S = ExportDialog::ScopeChoice;
        using K = ExportScope::Kind;
        QTest::newRow("html page, session, copy")
            << C::HtmlPage << S::Session << false << false << true << ExportFormat::Html << false << K::Session << false
            << false << false << true;
        QTest::newRow("html page, branch, links")
            << C::HtmlPage << S::Branch << true << false << false << ExportFormat::Html << false << K::Branch << true
            << false << true << true;
        QTest::newRow("html single, selected")
            << C::HtmlSingleFile << S::Selected << false << true << false << ExportFormat::Html << true << K::Frames
            << false << true << false << true;
        QTest::newRow("bundle forces session, no strip")
            << C::Bundle << S::Branch << true << true << true << ExportFormat::Bundle << false << K::Session << false
            << false << false << false;
        QTest::newRow("sheet, branch, ids n/a")
            << C::ContactSheet << S::Branch << true << true << true << ExportFormat::Sheet << false << K::Branch << true
            << false << false << true;
        QTest::newRow("frames, selected, no failed")
            << C::Frames << S::Selected << true << true << true << ExportFormat::Frames << false << K::Frames << true
            << true << false << false;
    }
    void requestFromControls()
    {
        QFETCH(ExportDialog::Choice, choice);
        QFETCH(ExportDialog::ScopeChoice, scope);
        QFETCH(bool, stripPrompts);
        QFETCH(bool, stripIds);
        QFETCH(bool, copy);
        auto d = makeDialog();
        d->setScopeChoice(scope); // before the format: a bundle must override it
        d->setChoice(choice);
        d->setStripPrompts(stripPrompts);
        d->setStripIds(stripIds);
        d->setCopyImages(copy);
        const ExportRequest r = d->request();
        QTEST(r.format, "format");
        QTEST(r.singleFile, "singleFile");
        QTEST(r.scope.kind, "scopeKind");
        QTEST(r.stripPrompts, "wantStripPrompts");
        QTEST(r.stripIds, "wantStripIds");
        QTEST(r.linkImages, "wantLink");
        QTEST(r.includeFailed, "wantFailed");
        if (r.scope.kind == ExportScope::Kind::Branch)
            QCOMPARE(r.scope.branch, m_ids.scripted);
        if (r.scope.kind == ExportScope::Kind::Frames)
            QCOMPARE(r.scope.frameIds, (QStringList {m_ids.second, m_ids.third}));
        // The default output sits beside the session folder, named after the session.
        QCOMPARE(QFileInfo(r.output).absolutePath(), QFileInfo(m_sessionDir).absolutePath());
        QVERIFY2(QFileInfo(r.output).fileName().startsWith(QLatin1String("Harbour study")), qPrintable(r.output));
        QVERIFY2(d->validationError().isEmpty(), qPrintable(d->validationError()));
        QVERIFY(d->findChild<QPushButton *>(QStringLiteral("exportButton"))->isEnabled());
    }

    void defaultOutputFollowsFormat()
    {
        auto d = makeDialog();
        const QString parent = QFileInfo(m_sessionDir).absolutePath();
        d->setChoice(ExportDialog::Choice::Bundle);
        QCOMPARE(d->outputPath(), parent + QStringLiteral("/Harbour study.nb2session"));
        d->setChoice(ExportDialog::Choice::HtmlSingleFile);
        QCOMPARE(d->outputPath(), parent + QStringLiteral("/Harbour study.html"));
        d->setChoice(ExportDialog::Choice::ContactSheet);
        QCOMPARE(d->outputPath(), parent + QStringLiteral("/Harbour study-sheet.png"));
        d->setChoice(ExportDialog::Choice::Frames);
        QCOMPARE(d->outputPath(), parent + QStringLiteral("/Harbour study-frames"));
        // A name the user typed keeps its stem; only the ending follows the format.
        d->setOutputPath(parent + QStringLiteral("/for-anna-frames"));
        d->setChoice(ExportDialog::Choice::Bundle);
        QCOMPARE(d->outputPath(), parent + QStringLiteral("/for-anna.nb2session"));
    }

    void defaultOutputIsUnique()
    {
        const QString parent = QFileInfo(m_sessionDir).absolutePath();
        QVERIFY(QDir().mkpath(parent + QStringLiteral("/Harbour study-frames")));
        auto d = makeDialog();
        QCOMPARE(
            d->defaultOutputPath(ExportDialog::Choice::Frames), parent + QStringLiteral("/Harbour study-2-frames"));
        QVERIFY(QDir(parent + QStringLiteral("/Harbour study-frames")).removeRecursively());
    }

    void previewFollowsStripSwitches()
    {
        auto d = makeDialog();
        d->setChoice(ExportDialog::Choice::Frames);
        const QString id = d->previewFrameId();
        QVERIFY(!id.isEmpty());
        auto *tree = d->findChild<QTableWidget *>(QStringLiteral("previewFields"));
        QVERIFY(tree);

        auto expected = [&](bool sp, bool si) {
            nb2::ProvenanceOptions o;
            o.stripPrompts = sp;
            o.stripIds = si;
            return nb2::Provenance::fieldsToWrite(nb2::Provenance::forFrame(m_session, id, o));
        };
        // Exactly what fieldsToWrite says, and the tree shows the same rows.
        QCOMPARE(d->previewFields(), expected(false, false));
        QCOMPARE(tree->rowCount(), d->previewFields().size());
        QStringList l = labels(d->previewFields());
        QVERIFY2(anyStartsWith(l, QStringLiteral("Prompt chain")), qPrintable(l.join(u',')));
        QVERIFY(l.contains(QStringLiteral("Frame id")));
        QVERIFY(l.contains(QStringLiteral("Interaction id")));
        QVERIFY(l.contains(QStringLiteral("Parent image SHA-256")));
        QVERIFY(l.contains(QStringLiteral("Model")));

        d->findChild<QCheckBox *>(QStringLiteral("stripPrompts"))->click();
        QCOMPARE(d->previewFields(), expected(true, false));
        l = labels(d->previewFields());
        QVERIFY(!anyStartsWith(l, QStringLiteral("Prompt chain")));
        QVERIFY(l.contains(QStringLiteral("Frame id")));
        QCOMPARE(tree->rowCount(), d->previewFields().size());

        d->findChild<QCheckBox *>(QStringLiteral("stripIds"))->click();
        QCOMPARE(d->previewFields(), expected(true, true));
        l = labels(d->previewFields());
        QVERIFY(!l.contains(QStringLiteral("Frame id")));
        QVERIFY(!l.contains(QStringLiteral("Interaction id")));
        QVERIFY(!l.contains(QStringLiteral("Parent image SHA-256")));
        QVERIFY(l.contains(QStringLiteral("Model")));
        QCOMPARE(tree->rowCount(), d->previewFields().size());
        for (int i = 0; i < tree->rowCount(); ++i)
            QVERIFY(!tree->item(i, 1)->text().contains(id));

        // The HTML preview drops the same things from the page.
        d->setChoice(ExportDialog::Choice::HtmlPage);
        l = labels(d->previewFields());
        QVERIFY(!l.contains(QStringLiteral("Prompt")));
        QVERIFY(!l.contains(QStringLiteral("Frame id")));
        d->findChild<QCheckBox *>(QStringLiteral("stripPrompts"))->click();
        l = labels(d->previewFields());
        QVERIFY(l.contains(QStringLiteral("Prompt")));
    }

    void htmlPreviewIsTheExportersCard_data()
    {
        QTest::addColumn<ExportDialog::Choice>("choice");
        QTest::addColumn<bool>("stripPrompts");
        QTest::addColumn<bool>("stripIds");
        QTest::newRow("page") << ExportDialog::Choice::HtmlPage << false << false;
        QTest::newRow("page, strip prompts") << ExportDialog::Choice::HtmlPage << true << false;
        QTest::newRow("single file, strip ids") << ExportDialog::Choice::HtmlSingleFile << false << true;
        QTest::newRow("single file, strip both") << ExportDialog::Choice::HtmlSingleFile << true << true;
    }
    void htmlPreviewIsTheExportersCard()
    {
        QFETCH(ExportDialog::Choice, choice);
        QFETCH(bool, stripPrompts);
        QFETCH(bool, stripIds);
        auto d = makeDialog();
        d->setChoice(choice);
        d->setStripPrompts(stripPrompts);
        d->setStripIds(stripIds);
        const nb2::ExportFrame *f = m_session.frame(d->previewFrameId());
        QVERIFY(f);

        // Exactly the exporter's card rows, with the options the exporter will get.
        const QList<nb2::CardRow> card = nb2::HtmlCard::rows(*f, nb2::Exporter::htmlOptions(d->request()));
        QList<QPair<QString, QString>> expected;
        for (const nb2::CardRow &row : card)
            expected.append({row.label, row.value});
        QCOMPARE(d->previewFields(), expected);
        QVERIFY(labels(expected).contains(QStringLiteral("Kind")));

        // The table shows those rows, cell for cell.
        auto *table = d->findChild<QTableWidget *>(QStringLiteral("previewFields"));
        QCOMPARE(table->rowCount(), int(expected.size()));
        for (int i = 0; i < table->rowCount(); ++i) {
            QCOMPARE(table->item(i, 0)->text(), expected.at(i).first);
            QCOMPARE(table->item(i, 1)->text(), expected.at(i).second);
        }

        // And the page the export writes carries each of them.
        QTemporaryDir out;
        ExportRequest r = d->request();
        r.singleFile = true;
        r.output = out.filePath(QStringLiteral("page.html"));
        const auto written = nb2::Exporter::run(m_session, r);
        QVERIFY2(written, written ? "" : qPrintable(written.error().message));
        QFile page(r.output);
        QVERIFY(page.open(QIODevice::ReadOnly));
        const QString html = QString::fromUtf8(page.readAll());
        for (const auto &row : expected)
            QVERIFY2(html.contains(nb2::exportfiles::htmlEscape(row.second)), qPrintable(row.second));
    }

    void scopeCountsAreWalkedOnAWorkerAndEqualSelect()
    {
        // The scope walks run on the pool (at 10,000 frames they took 6-9 ms of the dialog's
        // first frame): with the pool held, the dialog opens at once, without counts.
        PoolGate gate;
        auto d = makeDialog({m_ids.second, m_ids.failed}, m_ids.failed, false);
        QVERIFY(!d->areScopesReady());
        auto *session = d->findChild<QRadioButton *>(QStringLiteral("scopeSession"));
        auto *branch = d->findChild<QRadioButton *>(QStringLiteral("scopeBranch"));
        auto *selected = d->findChild<QRadioButton *>(QStringLiteral("scopeSelected"));
        QCOMPARE(session->text(), QStringLiteral("Whole session"));
        QCOMPARE(branch->text(), QStringLiteral("Current branch"));
        QCOMPARE(selected->text(), QStringLiteral("Selected frames"));
        // Nothing was walked here: not for the preview's heading either (it named the scope's
        // frame, walking 10,000 frames in the dialog's first pass: 12 ms at 10,000 frames).
        for (const auto choice :
            {ExportDialog::Choice::HtmlPage, ExportDialog::Choice::Frames, ExportDialog::Choice::ContactSheet,
                ExportDialog::Choice::Bundle, ExportDialog::Choice::HtmlSingleFile}) {
            d->setChoice(choice);
            d->setIncludeFailed(choice == ExportDialog::Choice::ContactSheet);
        }
        QCOMPARE(d->scopeWalksHere(), 0);
        QVERIFY(!d->areScopesReady());
        QVERIFY(!d->previewFrameId().isEmpty()); // the API still answers (walking here)
        QVERIFY(d->scopeWalksHere() > 0);
        QSignalSpy ready(d.get(), &ExportDialog::scopesReady);
        gate.open();
        QVERIFY(ready.wait(20000));
        QVERIFY(d->areScopesReady());
        auto count = [this](const ExportScope &scope, bool includeFailed) {
            const auto frames = m_session.select(scope, includeFailed);
            return ExportDialog::tr("%n frame(s)", nullptr, frames ? int(frames.value().size()) : -1);
        };
        for (const bool includeFailed : {false, true}) {
            d->setChoice(ExportDialog::Choice::HtmlPage);
            d->setIncludeFailed(includeFailed);
            QCOMPARE(session->text(),
                QStringLiteral("Whole session (%1)").arg(count(ExportScope::session(), includeFailed)));
            QCOMPARE(branch->text(),
                QStringLiteral("Current branch (%1)").arg(count(ExportScope::ofBranch(m_ids.failed), includeFailed)));
            QCOMPARE(selected->text(),
                QStringLiteral("Selected frames (%1)")
                    .arg(count(ExportScope::ofFrames({m_ids.second, m_ids.failed}), includeFailed)));
        }
        QVERIFY(count(ExportScope::session(), true) != count(ExportScope::session(), false)); // the failed turn
    }

    void exportRightAfterOpeningWaitsForTheWalk()
    {
        auto d = makeDialog({}, {}, false);
        d->setChoice(ExportDialog::Choice::HtmlPage);
        d->setOutputPath(m_tmp.filePath(QStringLiteral("right-away")));
        QSignalSpy finished(d.get(), &ExportDialog::exportFinished);
        d->startExporting(); // maybe before the walk is in: it is waited for, not skipped
        QVERIFY(d->areScopesReady());
        QVERIFY(d->isExporting());
        QVERIFY(finished.wait(30000));
        QVERIFY2(d->lastOutcome().ok, qPrintable(d->lastOutcome().errorMessage));
    }

    void previewFrameFollowsScope()
    {
        auto d = makeDialog({m_ids.second}, m_ids.scripted);
        d->setChoice(ExportDialog::Choice::Frames);
        d->setScopeChoice(ExportDialog::ScopeChoice::Selected);
        QCOMPARE(d->previewFrameId(), m_ids.second);
        d->setScopeChoice(ExportDialog::ScopeChoice::Branch);
        QCOMPARE(d->previewFrameId(), m_ids.scripted);
    }

    void bundleDisablesScope()
    {
        auto d = makeDialog();
        auto *branch = d->findChild<QRadioButton *>(QStringLiteral("scopeBranch"));
        auto *selected = d->findChild<QRadioButton *>(QStringLiteral("scopeSelected"));
        auto *session = d->findChild<QRadioButton *>(QStringLiteral("scopeSession"));
        d->setScopeChoice(ExportDialog::ScopeChoice::Branch);
        QVERIFY(branch->isChecked());
        d->setChoice(ExportDialog::Choice::Bundle);
        QVERIFY(!branch->isEnabled());
        QVERIFY(!selected->isEnabled());
        QVERIFY(session->isChecked());
        QVERIFY(!d->findChild<QCheckBox *>(QStringLiteral("stripPrompts"))->isEnabled());
        QVERIFY(!d->findChild<QCheckBox *>(QStringLiteral("stripIds"))->isEnabled());
        d->setScopeChoice(ExportDialog::ScopeChoice::Selected); // ignored: not available
        QCOMPARE(d->request().scope.kind, ExportScope::Kind::Session);
        d->setChoice(ExportDialog::Choice::HtmlPage);
        QVERIFY(branch->isEnabled());
        QVERIFY(selected->isEnabled());
    }

    void unavailableScopesAreDisabled()
    {
        ExportDialog d(m_session, {QStringLiteral("no-such-frame")}, QString());
        QVERIFY(!d.isScopeAvailable(ExportDialog::ScopeChoice::Branch));
        QVERIFY(!d.isScopeAvailable(ExportDialog::ScopeChoice::Selected));
        QVERIFY(!d.findChild<QRadioButton *>(QStringLiteral("scopeBranch"))->isEnabled());
        QVERIFY(!d.findChild<QRadioButton *>(QStringLiteral("scopeSelected"))->isEnabled());
        QVERIFY(d.findChild<QRadioButton *>(QStringLiteral("scopeSession"))->isEnabled());
    }

    void badOutputBlocksExport()
    {
        auto d = makeDialog();
        auto *button = d->findChild<QPushButton *>(QStringLiteral("exportButton"));
        d->setChoice(ExportDialog::Choice::Frames);
        d->setOutputPath(QStringLiteral("relative/out"));
        QVERIFY(!button->isEnabled());
        QVERIFY(!d->validationError().isEmpty());
        d->setOutputPath(m_tmp.filePath(QStringLiteral("missing/parent/out")));
        QVERIFY(d->validationError().contains(QStringLiteral("does not exist")));
        // A folder format never writes into a folder with other files in it.
        const QString busy = m_tmp.filePath(QStringLiteral("busy"));
        QVERIFY(QDir().mkpath(busy));
        QFile f(busy + QStringLiteral("/keep.txt"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        d->setOutputPath(busy);
        QVERIFY(!button->isEnabled());
        QVERIFY(d->validationError().contains(QStringLiteral("not empty")));
        d->setOutputPath(busy + QStringLiteral("/new"));
        QVERIFY(button->isEnabled());
    }

    void realExportRunsOffGuiThread_data()
    {
        QTest::addColumn<ExportDialog::Choice>("choice");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("mustExist");
        QTest::newRow("html page") << ExportDialog::Choice::HtmlPage << QStringLiteral("page")
                                   << QStringLiteral("page/index.html");
        QTest::newRow("html single") << ExportDialog::Choice::HtmlSingleFile << QStringLiteral("one.html")
                                     << QStringLiteral("one.html");
        QTest::newRow("bundle") << ExportDialog::Choice::Bundle << QStringLiteral("s.nb2session")
                                << QStringLiteral("s.nb2session");
        QTest::newRow("sheet") << ExportDialog::Choice::ContactSheet << QStringLiteral("s.png")
                               << QStringLiteral("s.png");
        QTest::newRow("frames") << ExportDialog::Choice::Frames << QStringLiteral("frames") << QStringLiteral("frames");
    }
    void realExportRunsOffGuiThread()
    {
        QFETCH(ExportDialog::Choice, choice);
        QFETCH(QString, name);
        QFETCH(QString, mustExist);
        QTemporaryDir out;
        auto d = makeDialog();
        d->setChoice(choice);
        d->setOutputPath(out.filePath(name));
        QSignalSpy finished(d.get(), &ExportDialog::exportFinished);
        auto *button = d->findChild<QPushButton *>(QStringLiteral("exportButton"));
        QVERIFY(button->isEnabled());
        {
            // The probe: with every pool thread held, an export on the pool cannot start, while
            // one on this thread would be done by now. The window keeps handling events meanwhile.
            PoolGate gate;
            button->click();
            QTest::qWait(300);
            QVERIFY(d->isExporting());
            QVERIFY(!button->isEnabled());
            QCOMPARE(finished.count(), 0);
            QVERIFY(!QFileInfo::exists(out.filePath(name)));
        }
        QVERIFY(finished.count() == 1 || finished.wait(60000));
        QCOMPARE(finished.first().first().toBool(), true);
        QVERIFY2(d->lastOutcome().ok, qPrintable(d->lastOutcome().errorMessage));
        QVERIFY(!d->isExporting());
        QVERIFY2(QFileInfo::exists(out.filePath(mustExist)), qPrintable(out.filePath(mustExist)));
        QVERIFY(d->resultUrl().isLocalFile());
        QVERIFY(QFileInfo::exists(d->resultUrl().toLocalFile()));
        QVERIFY(QFileInfo(d->resultFolderUrl().toLocalFile()).isDir());
        if (choice == ExportDialog::Choice::HtmlPage) {
            // Copy is the GUI default: no exported image shares its inode with the session.
            int images = 0;
            QDirIterator it(out.filePath(name), {QStringLiteral("*.jpg"), QStringLiteral("*.png")}, QDir::Files,
                QDirIterator::Subdirectories);
            while (it.hasNext()) {
                struct stat st {
                };
                QCOMPARE(::stat(QFile::encodeName(it.next()).constData(), &st), 0);
                QCOMPARE(int(st.st_nlink), 1);
                ++images;
            }
            QVERIFY(images >= 6);
            QCOMPARE(d->lastOutcome().report.imagesLinked, 0);
        }
        if (choice == ExportDialog::Choice::Frames) {
            // The frames carry the record the preview promised.
            QDirIterator it(out.filePath(name), {QStringLiteral("*.png")}, QDir::Files);
            QVERIFY(it.hasNext());
            auto rec = nb2::readProvenance(it.next());
            QVERIFY2(rec, rec ? "" : qPrintable(rec.error().message));
        }
    }

    void workerReportsErrors()
    {
        // A request the exporter refuses comes back as a readable error, not a crash.
        QTemporaryDir out;
        ExportRequest r;
        r.format = ExportFormat::Bundle;
        r.scope = ExportScope::ofBranch(m_ids.scripted);
        r.output = out.filePath(QStringLiteral("x.nb2session"));
        // Waited for through a watcher: QFuture::waitForFinished() may run a task that has not
        // started yet on the waiting thread, which is exactly what the dialog must avoid.
        QFutureWatcher<nb2::ExportOutcome> watcher;
        QSignalSpy done(&watcher, &QFutureWatcher<nb2::ExportOutcome>::finished);
        watcher.setFuture(nb2::startExport(m_session, r));
        QVERIFY(done.wait(60000));
        const nb2::ExportOutcome o = watcher.result();
        QVERIFY(!o.ok);
        QVERIFY2(o.errorMessage.contains(QStringLiteral("whole session")), qPrintable(o.errorMessage));
        QVERIFY(!QFileInfo::exists(r.output));
    }

    void resultKeepsFormatOfTheRun()
    {
        QTemporaryDir out;
        auto d = makeDialog();
        d->setChoice(ExportDialog::Choice::HtmlPage);
        d->setOutputPath(out.filePath(QStringLiteral("page")));
        QSignalSpy finished(d.get(), &ExportDialog::exportFinished);
        d->startExporting();
        QVERIFY(finished.wait(60000));
        const QUrl url = d->resultUrl();
        QVERIFY(url.toLocalFile().endsWith(QLatin1String("/page/index.html")));
        d->setChoice(ExportDialog::Choice::Bundle); // changing the controls afterwards changes nothing
        QCOMPARE(d->resultUrl(), url);
        QCOMPARE(d->resultFolderUrl(), QUrl::fromLocalFile(out.filePath(QStringLiteral("page"))));
    }

    void controlsAreNamedAndExplained()
    {
        auto d = makeDialog();
        const auto widgets = d->findChildren<QWidget *>();
        int checked = 0;
        for (QWidget *w : widgets) {
            if (!qobject_cast<QAbstractButton *>(w) && !qobject_cast<QComboBox *>(w) && !qobject_cast<QLineEdit *>(w)
                && !qobject_cast<QTableWidget *>(w))
                continue;
            if (w->parentWidget()
                && (qobject_cast<QComboBox *>(w->parentWidget()) || qobject_cast<QTableWidget *>(w->parentWidget())))
                continue; // Qt's own internals (combo popup, table corner button)
            if (w->isHidden())
                continue; // e.g. the banner's action button before there is a result
            QVERIFY2(!w->accessibleName().isEmpty(),
                qPrintable(QLatin1String(w->metaObject()->className()) + QLatin1Char(u' ') + w->objectName()));
            QVERIFY2(!w->toolTip().isEmpty(), qPrintable(w->accessibleName()));
            ++checked;
        }
        QVERIFY(checked >= 12);
    }

    void screenshot()
    {
        auto d = makeDialog();
        d->setChoice(ExportDialog::Choice::Frames);
        d->setScopeChoice(ExportDialog::ScopeChoice::Branch);
        d->setStripIds(true);
        d->resize(d->sizeHint().expandedTo(QSize(900, 0)));
        d->show();
        QVERIFY(QTest::qWaitForWindowExposed(d.get()));
        // After an export, as the user sees it: the result banner with its actions.
        QSignalSpy finished(d.get(), &ExportDialog::exportFinished);
        d->startExporting();
        QVERIFY(finished.wait(60000));
        QVERIFY(finished.first().first().toBool());
        QVERIFY(d->findChild<QWidget *>(QStringLiteral("exportBanner"))->isVisible());
        QTest::qWait(50);
        const QImage img = d->grab().toImage();
        QVERIFY(!img.isNull());
        const QString dir = qEnvironmentVariable("NB2_SCREENSHOT_OUT");
        if (!dir.isEmpty())
            QVERIFY(img.save(dir + QStringLiteral("/export-dialog.png"), "PNG"));
    }
};

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    nb2::applyTheme(app, nb2::ThemeMode::Light);
    tst_ExportDialog t;
    return QTest::qExec(&t, argc, argv);
}

#include "tst_exportdialog.moc"
