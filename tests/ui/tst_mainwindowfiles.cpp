// The real main window against the in-process fake server, for files going in and out of it:
// dropped and pasted pictures, style references, exports that continue their chain, Save As,
// another program writing the session, and a damaged last session. The rest: tst_mainwindow.cpp.
#include "core/export/exporter.h"
#include "core/export/provenance.h"
#include "core/fakeapi/fakeserver.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"
#include "mainwindowfixture.h"
#include "ui/actionmanager.h"
#include "ui/bannerwidget.h"
#include "ui/canvasview.h"
#include "ui/exportdialog.h"
#include "ui/frameselection.h"
#include "ui/imagestage.h"
#include "ui/importcontroller.h"
#include "ui/mainwindow.h"
#include "ui/noticepresenter.h"
#include "ui/promptpanel.h"
#include "ui/sessionmanager.h"
#include "ui/settingsdialog.h"
#include "ui/timelinedelegate.h"
#include "ui/timelinemodel.h"
#include "ui/timelineview.h"
#include "ui/turndispatcher.h"
#include "ui/windowsettings.h"
#include "uitesthelpers.h"

#include "core/api/interactionsclient.h"
#include "ui/thumbnailprovider.h"
#include <QScrollBar>

#include <QAbstractButton>
#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDir>
#include <QElapsedTimer>
#include <QMessageBox>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>
#include <QUrl>

using namespace nb2;

class tst_MainWindowFiles : public test::MainWindowFixture
{
    Q_OBJECT

private Q_SLOTS: // initTestCase, init and cleanup: MainWindowFixture
    void droppedFileBecomesImportThenEditLocal();
    void droppedExportOffersToContinueItsChain();
    void corruptDropChangesNothing_data();
    void corruptDropChangesNothing();
    void sessionChangedDuringImportLeavesNoCopy();
    void sessionChangedWhileAskingLeavesNoCopy();
    void externalWriteIsFollowedAndKeepsSelection();
    void saveAsCopiesAndContinuesInTheCopy();
    void exportOpensDialog();
    void pasteAndCopyImage();
    void styleReferenceMakesStyleEdit();
    void damagedLastSessionOffersRebuild();
};

void tst_MainWindowFiles::droppedFileBecomesImportThenEditLocal()
{
    const QString png = nb2test::writePng(m_dir->path() + QStringLiteral("/photo.png"), QSize(160, 90));
    QSignalSpy spy(m_window->imports(), &ImportController::importFinished);
    drop({QUrl::fromLocalFile(png)});
    QVERIFY(spy.wait(10000));
    QCOMPARE(spy.first().at(1).toString(), QString());
    const QStringList ids = spy.first().at(0).toStringList();
    QCOMPARE(ids.size(), 1);
    const QString imported = ids.first();
    QCOMPARE(frame(imported).kind, FrameKind::Import);
    QCOMPARE(frame(imported).status, FrameStatus::Done);
    QCOMPARE(m_window->selection()->currentId(), imported);
    QCOMPARE(m_window->promptPanel()->mode(), PromptPanel::Mode::EditLocal);
    QCOMPARE(m_window->promptPanel()->sendButton()->text(), QStringLiteral("Edit this frame"));
    QCOMPARE(m_window->promptPanel()->aspectRatio(), QStringLiteral("16:9")); // nearest supported ratio to 160x90

    send(QStringLiteral("turn it into a watercolour"));
    QCOMPARE(m_window->timelineModel()->rowCount(), 2);
    const QString edited = frameAt(1);
    QCOMPARE(frame(edited).kind, FrameKind::EditLocal);
    QCOMPARE(frame(edited).parentId, imported);
    QVERIFY(waitStatus(edited, FrameStatus::Done));
}

void tst_MainWindowFiles::droppedExportOffersToContinueItsChain()
{
    // A picture made elsewhere, carrying the record NB2Lite writes into exported images.
    send(QStringLiteral("a lighthouse at dusk"));
    const QString origin = frameAt(0);
    QVERIFY(waitStatus(origin, FrameStatus::Done));
    const QString originId = frame(origin).interactionId;
    QFile image(m_window->session()->store()->dir() + QLatin1Char('/') + frame(origin).image.file);
    QVERIFY(image.open(QIODevice::ReadOnly));
    Provenance record;
    record.app = QStringLiteral("nb2lite test");
    record.frameId = origin;
    record.model = frame(origin).model;
    record.interactionId = originId;
    record.kind = QStringLiteral("generate");
    record.promptChain = {QStringLiteral("a lighthouse at dusk")};
    const Result<QByteArray> tagged = embedProvenance(image.readAll(), record);
    QVERIFY(tagged.ok());
    const QString exported = m_dir->path() + QStringLiteral("/exported.jpg");
    QFile out(exported);
    QVERIFY(out.open(QIODevice::WriteOnly));
    out.write(tagged.value());
    out.close();

    QSignalSpy spy(m_window->imports(), &ImportController::importFinished);
    drop({QUrl::fromLocalFile(exported)});
    // The window asks (without blocking) whether to continue the recorded chain.
    QMessageBox *question = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT(
        (question = m_window->findChild<QMessageBox *>(QStringLiteral("continueChainQuestion"))), 10000);
    QVERIFY(question->informativeText().contains(originId));
    QCOMPARE(spy.count(), 0); // nothing imported before the user answers
    auto *continueButton = question->findChild<QPushButton *>(QStringLiteral("continueChainButton"));
    QVERIFY(continueButton);
    continueButton->click();
    QVERIFY(spy.count() == 1 || spy.wait(5000));
    const QString imported = spy.first().at(0).toStringList().value(0);
    QCOMPARE(frame(imported).kind, FrameKind::Import);
    QCOMPARE(frame(imported).interactionId, originId);
    QCOMPARE(frame(imported).lineage.interactionId, originId);
    QCOMPARE(m_window->promptPanel()->mode(), PromptPanel::Mode::Edit); // continues, not a local edit

    m_server->clearRequests();
    m_window->activateWindow(); // the question box had the focus
    QVERIFY(QTest::qWaitForWindowActive(m_window));
    send(QStringLiteral("add a lantern"));
    QVERIFY2(m_window->timelineModel()->rowCount() == 3, qPrintable(m_window->notices()->lastMessage()));
    const QString edited = frameAt(2);
    QVERIFY(waitStatus(edited, FrameStatus::Done));
    QCOMPARE(frame(edited).kind, FrameKind::Edit);
    QVERIFY(!frame(edited).reAnchored);
    const QList<FakeRequest> requests = m_server->requests();
    QVERIFY(!requests.isEmpty());
    QVERIFY2(requests.last().body.contains(originId.toUtf8()), requests.last().body.constData());
}

void tst_MainWindowFiles::corruptDropChangesNothing_data()
{
    QTest::addColumn<QString>("fileName");
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("messagePart");
    const QByteArray pngMagic("\x89PNG\r\n\x1a\n", 8);
    QTest::newRow("truncated png") << QStringLiteral("broken.png") << (pngMagic + QByteArray("\0\0\0\x0dIHDR\0\0", 10))
                                   << QStringLiteral("broken.png");
    QTest::newRow("text named png") << QStringLiteral("notes.png") << QByteArray("just some text\n")
                                    << QStringLiteral("notes.png");
    QTest::newRow("empty file") << QStringLiteral("empty.jpg") << QByteArray() << QStringLiteral("empty.jpg");
    QTest::newRow("missing file") << QStringLiteral("") << QByteArray() << QStringLiteral("missing.png");
    QTest::newRow("too large") << QStringLiteral("huge.png") << (pngMagic + QByteArray(16'000'000, '\0'))
                               << QStringLiteral("huge.png");
}

void tst_MainWindowFiles::corruptDropChangesNothing()
{
    QFETCH(QString, fileName);
    QFETCH(QByteArray, bytes);
    QFETCH(QString, messagePart);
    // Start from a session with one frame, so "unchanged" is visible.
    const QString good = nb2test::writePng(m_dir->path() + QStringLiteral("/good.png"));
    QSignalSpy spy(m_window->imports(), &ImportController::importFinished);
    QVERIFY(m_window->imports()->importFiles({good}));
    QVERIFY(spy.wait(10000));
    spy.clear();
    QVERIFY(m_window->session()->store()->flush()); // the import's manifest write runs on the writer thread
    const QString manifest = m_window->session()->store()->manifestPath();
    QFile mf(manifest);
    QVERIFY(mf.open(QIODevice::ReadOnly));
    const QByteArray before = mf.readAll();
    mf.close();
    const int framesBefore = m_window->session()->graph().size();
    const QString selected = m_window->selection()->currentId();
    const int imagesBefore = int(QDir(m_window->session()->store()->imagesDir()).entryList(QDir::Files).size());

    QString path = m_dir->path() + QLatin1Char('/') + (fileName.isEmpty() ? QStringLiteral("missing.png") : fileName);
    if (!fileName.isEmpty())
        nb2test::writeBytes(path, bytes);
    drop({QUrl::fromLocalFile(path)});
    QVERIFY(spy.wait(10000));
    QVERIFY(spy.first().at(0).toStringList().isEmpty());
    const QString error = spy.first().at(1).toString();
    QVERIFY2(error.contains(messagePart), qPrintable(error));
    QVERIFY(m_window->notices()->isShown());
    QCOMPARE(m_window->session()->graph().size(), framesBefore);
    QCOMPARE(m_window->timelineModel()->rowCount(), framesBefore);
    QCOMPARE(m_window->selection()->currentId(), selected);
    QCOMPARE(int(QDir(m_window->session()->store()->imagesDir()).entryList(QDir::Files).size()), imagesBefore);
    QVERIFY(mf.open(QIODevice::ReadOnly));
    QCOMPARE(mf.readAll(), before);
}

void tst_MainWindowFiles::sessionChangedDuringImportLeavesNoCopy()
{
    // The worker copies the picture into s1's images/ while the user opens s2: the import is
    // refused, and the copy no frame will name is deleted from s1 (it used to stay for good).
    const QString png = nb2test::writePng(m_dir->path() + QStringLiteral("/a.png"));
    const QString firstImages = m_window->session()->store()->imagesDir();
    QSignalSpy spy(m_window->imports(), &ImportController::importFinished);
    QVERIFY(m_window->imports()->importFiles({png}));
    // Synchronous, before the event loop runs again: the worker's result always arrives after the switch.
    const Result<void> opened = m_window->sessions()->open(m_dir->path() + QStringLiteral("/s2"));
    QVERIFY2(opened, qPrintable(opened.error().message));
    QVERIFY(spy.wait(10000));
    QVERIFY(spy.first().at(0).toStringList().isEmpty());
    const QString error = spy.first().at(1).toString();
    QVERIFY2(error.contains(QStringLiteral("the session changed while it was being copied")), qPrintable(error));
    QCOMPARE(m_window->session()->graph().size(), 0);
    QCOMPARE(QDir(firstImages).entryList({QStringLiteral("import_*")}, QDir::Files), QStringList());
    QCOMPARE(QDir(m_window->session()->store()->imagesDir()).entryList(QDir::Files), QStringList());
}

void tst_MainWindowFiles::sessionChangedWhileAskingLeavesNoCopy()
{
    // A picture that names the interaction it came from: the window asks whether to continue
    // that chain. Another session is opened before the answer; the answer must not record, in
    // s2, a frame whose picture was copied into s1.
    Provenance record;
    record.app = QStringLiteral("nb2lite test");
    record.interactionId = QStringLiteral("v1_asked-before-switch");
    record.kind = QStringLiteral("generate");
    QFile plain(nb2test::writePng(m_dir->path() + QStringLiteral("/plain.png")));
    QVERIFY(plain.open(QIODevice::ReadOnly));
    const Result<QByteArray> tagged = embedProvenance(plain.readAll(), record);
    QVERIFY(tagged.ok());
    const QString exported = m_dir->path() + QStringLiteral("/exported.png");
    nb2test::writeBytes(exported, tagged.value());
    const QString firstImages = m_window->session()->store()->imagesDir();

    QSignalSpy spy(m_window->imports(), &ImportController::importFinished);
    QVERIFY(m_window->imports()->importFiles({exported}));
    QMessageBox *question = nullptr;
    QTRY_VERIFY_WITH_TIMEOUT(
        (question = m_window->findChild<QMessageBox *>(QStringLiteral("continueChainQuestion"))), 10000);
    QCOMPARE(QDir(firstImages).entryList({QStringLiteral("import_*")}, QDir::Files).size(), 1); // copied, not recorded
    const Result<void> opened = m_window->sessions()->open(m_dir->path() + QStringLiteral("/s2"));
    QVERIFY2(opened, qPrintable(opened.error().message));
    question->findChild<QPushButton *>(QStringLiteral("startFromPixelsButton"))->click();
    QVERIFY(spy.count() == 1 || spy.wait(5000));
    QVERIFY(spy.first().at(0).toStringList().isEmpty());
    const QString error = spy.first().at(1).toString();
    QVERIFY2(error.contains(QStringLiteral("another session was opened")), qPrintable(error));
    QCOMPARE(m_window->session()->graph().size(), 0);
    QCOMPARE(QDir(firstImages).entryList({QStringLiteral("import_*")}, QDir::Files), QStringList());

    // NB2_SCREENSHOT_OUT=docs/screenshots (under xvfb-run): the window saying why, in the new session.
    if (const QString shots = qEnvironmentVariable("NB2_SCREENSHOT_OUT"); !shots.isEmpty()) {
        QTest::qWait(300); // the banner's fade-in
        QVERIFY(nb2test::saveScreenshot(m_window, shots, QStringLiteral("import-refused-session-changed.png")));
    }
}

void tst_MainWindowFiles::externalWriteIsFollowedAndKeepsSelection()
{
    const QString png = nb2test::writePng(m_dir->path() + QStringLiteral("/a.png"));
    QSignalSpy spy(m_window->imports(), &ImportController::importFinished);
    QVERIFY(m_window->imports()->importFiles({png, png}));
    QVERIFY(spy.wait(10000));
    QVERIFY(m_window->session()->store()->flush()); // the imports reach the disk before the other process reads it
    const QString first = frameAt(0);
    m_window->selection()->select(first);

    // The CLI (another process) trashes the second frame and adds a child of the first.
    SessionStore other;
    QVERIFY(other.open(m_window->sessions()->dir(), SessionStore::OpenMode::OpenExisting));
    Frame trashed = other.graph().value(frameAt(1));
    trashed.trashedAt = QDateTime::currentDateTimeUtc();
    Frame child = other.graph().value(first);
    child.id = Frame::newId();
    child.parentId = first;
    child.title = QStringLiteral("from the CLI");
    const Result<void> committed = other.commit({trashed, child});
    QVERIFY2(committed, qPrintable(committed.error().message));
    QTRY_VERIFY_WITH_TIMEOUT(m_window->timelineModel()->indexOf(child.id).isValid(), 10000);
    QCOMPARE(m_window->timelineModel()->rowCount(), 2);
    QCOMPARE(m_window->selection()->currentId(), first);                  // the user's place survives the reload
    QCOMPARE(m_window->promptPanel()->mode(), PromptPanel::Mode::Branch); // it has a child now
}

void tst_MainWindowFiles::saveAsCopiesAndContinuesInTheCopy()
{
    const QString png = nb2test::writePng(m_dir->path() + QStringLiteral("/a.png"));
    QSignalSpy imported(m_window->imports(), &ImportController::importFinished);
    QVERIFY(m_window->imports()->importFiles({png}));
    QVERIFY(imported.wait(10000));
    const QString original = m_window->sessions()->dir();
    const QString target = m_dir->path() + QStringLiteral("/Copy of s1");
    QSignalSpy copied(m_window->sessions(), &SessionManager::sessionCopied);
    QVERIFY(m_window->sessions()->saveCopy(target));
    QVERIFY(copied.wait(10000));
    QCOMPARE(copied.first().at(1).toString(), QString());
    QCOMPARE(QFileInfo(m_window->sessions()->dir()).canonicalFilePath(), QFileInfo(target).canonicalFilePath());
    QVERIFY(m_window->windowTitle().startsWith(QStringLiteral("Copy of s1")));
    QCOMPARE(m_window->timelineModel()->rowCount(), 1);
    QVERIFY(QFileInfo::exists(m_window->timelineModel()->index(0).data(TimelineRole::ImagePath).toString()));
    QVERIFY(m_window->timelineModel()->index(0).data(TimelineRole::ImagePath).toString().startsWith(target));
    QVERIFY(QFileInfo::exists(original + QStringLiteral("/manifest.json"))); // the original is untouched
    QVERIFY(!m_window->sessions()->saveCopy(target));                        // never overwrites
}

void tst_MainWindowFiles::exportOpensDialog()
{
    send(QStringLiteral("a windmill"));
    QVERIFY(waitStatus(frameAt(0), FrameStatus::Done));
    m_window->action(ActionId::Export)->trigger();
    // The export model is made on a worker (at 10,000 frames it would stall the window): the
    // dialog comes when it is ready, and a second Ctrl+E meanwhile does not open another.
    QVERIFY(m_window->findChild<ExportDialog *>() == nullptr);
    m_window->action(ActionId::Export)->trigger();
    ExportDialog *dialog = nullptr;
    QTRY_VERIFY((dialog = m_window->findChild<ExportDialog *>()) != nullptr);
    QVERIFY(dialog->isVisible());
    QTest::qWait(100);
    QCOMPARE(m_window->findChildren<ExportDialog *>().size(), 1);
    QCOMPARE(dialog->previewFrameId(), frameAt(0));
    // The store was flushed first: the bundle export reads manifest.json from disk.
    QVERIFY(QFileInfo::exists(m_window->session()->store()->manifestPath()));
    dialog->reject();
}

void tst_MainWindowFiles::damagedLastSessionOffersRebuild()
{
    // A session with one frame whose manifest is then damaged, remembered as the last one.
    const QString broken = m_dir->path() + QStringLiteral("/broken");
    {
        SessionStore store;
        QVERIFY(store.open(broken));
        Frame f;
        f.id = QStringLiteral("0b0e0c0a");
        f.kind = FrameKind::Import;
        f.status = FrameStatus::Done;
        f.requestedAt = f.finishedAt = QDateTime::currentDateTimeUtc();
        QFile png(nb2test::writePng(m_dir->path() + QStringLiteral("/in.png")));
        QVERIFY(png.open(QIODevice::ReadOnly));
        f.image = SessionStore::writeImageFile(
            broken, QStringLiteral("images/import_1767000000_0b0e0c0a.png"), png.readAll())
                      .value();
        QVERIFY(store.commit({f}, {}, f.id));
        QVERIFY(store.journal().recordFrames({f}));
    }
    nb2test::writeBytes(
        broken + QStringLiteral("/manifest.json"), QByteArray("{\"format\": \"nb2lite-session\", \"frames\": ["));
    m_window->sessions()->waitForSettingsWritten(); // the first session's entry, written on a worker, lands first
    {
        QSettings s;
        windowprefs::lastSession.write(s, broken);
    }
    m_window->restoreLastState();
    // Not a silent new session: the banner says what happened and offers the rebuild.
    QVERIFY(m_window->notices()->isShown());
    QVERIFY2(m_window->notices()->lastMessage().contains(QStringLiteral("Cannot open the session")),
        qPrintable(m_window->notices()->lastMessage()));
    QCOMPARE(m_window->notices()->actionText(), QStringLiteral("Rebuild Session"));
    auto *banner = m_window->findChild<BannerWidget *>(QStringLiteral("messageBanner"));
    QVERIFY(banner);
    Q_EMIT banner->actionTriggered();
    QTRY_COMPARE(QFileInfo(m_window->sessions()->dir()).canonicalFilePath(), QFileInfo(broken).canonicalFilePath());
    QVERIFY(m_window->session()->graph().contains(QStringLiteral("0b0e0c0a")));
    QCOMPARE(QDir(broken).entryList({QStringLiteral("manifest.broken-*.json")}, QDir::Files).size(), 1); // kept aside
}

void tst_MainWindowFiles::pasteAndCopyImage()
{
    QImage img(64, 48, QImage::Format_RGB32);
    img.fill(QColor(200, 30, 30));
    QGuiApplication::clipboard()->setImage(img);
    // The folder for pasted bytes is made by the first paste, not with the window (a window that
    // was killed left an empty one in /tmp at every start).
    const auto tempFolders = [] {
        return QDir(QDir::tempPath())
            .entryList({QCoreApplication::applicationName() + QStringLiteral("-*")}, QDir::Dirs)
            .size();
    };
    const int foldersBefore = tempFolders();
    QSignalSpy spy(m_window->imports(), &ImportController::importFinished);
    m_window->timelineView()->setFocus(); // Ctrl+V in the prompt editor pastes text instead
    m_window->action(ActionId::Paste)->trigger();
    QVERIFY(spy.wait(10000));
    QCOMPARE(tempFolders(), foldersBefore + 1);
    QCOMPARE(spy.first().at(0).toStringList().size(), 1);
    const QString id = spy.first().at(0).toStringList().first();
    QCOMPARE(frame(id).kind, FrameKind::Import);
    QCOMPARE(frame(id).image.width, 64);

    QGuiApplication::clipboard()->clear();
    m_window->selection()->select(id);
    QVERIFY(m_window->action(ActionId::CopyImage)->isEnabled());
    m_window->action(ActionId::CopyImage)->trigger();
    QTRY_VERIFY(!QGuiApplication::clipboard()->image().isNull());
    QCOMPARE(QGuiApplication::clipboard()->image().size(), QSize(64, 48));
}

void tst_MainWindowFiles::styleReferenceMakesStyleEdit()
{
    const QString target = nb2test::writePng(m_dir->path() + QStringLiteral("/target.png"), QSize(120, 120));
    const QString style
        = nb2test::writePng(m_dir->path() + QStringLiteral("/style.png"), QSize(80, 80), QColor(220, 160, 20));
    QSignalSpy imported(m_window->imports(), &ImportController::importFinished);
    QVERIFY(m_window->imports()->importFiles({target}));
    QVERIFY(imported.wait(10000));
    QSignalSpy checked(m_window->imports(), &ImportController::styleReferenceChecked);
    m_window->imports()->setStyleReference(style);
    QVERIFY(checked.wait(10000));
    QCOMPARE(checked.first().at(1).toString(), QString());
    QCOMPARE(m_window->promptPanel()->styleFile(), style);
    send(QStringLiteral("in the style of the reference"));
    QCOMPARE(m_window->timelineModel()->rowCount(), 2);
    QCOMPARE(frame(frameAt(1)).kind, FrameKind::StyleEdit);
    QVERIFY(waitStatus(frameAt(1), FrameStatus::Done));
    QVERIFY(m_window->promptPanel()->styleFile().isEmpty()); // used once
    // The style picture was copied into the session once, by the check's worker, and that copy was sent.
    const QStringList inputs
        = QDir(m_window->session()->store()->imagesDir()).entryList({QStringLiteral("input_*")}, QDir::Files);
    QCOMPARE(inputs.size(), 1);
    QCOMPARE(frame(frameAt(1)).inputImages.value(0), QStringLiteral("images/") + inputs.first());

    // A broken style file is refused with a message; the slot stays empty.
    const QString broken = m_dir->path() + QStringLiteral("/broken.png");
    nb2test::writeBytes(broken, QByteArray("\x89PNG\r\n\x1a\n", 8));
    checked.clear();
    m_window->imports()->setStyleReference(broken);
    QVERIFY(checked.wait(10000));
    QVERIFY(!checked.first().at(1).toString().isEmpty());
    QVERIFY(m_window->promptPanel()->styleFile().isEmpty());
}

QTEST_MAIN(tst_MainWindowFiles)
#include "tst_mainwindowfiles.moc"
