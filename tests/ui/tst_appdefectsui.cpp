// The window side of the app defects of issue 11, item 9:
//  - importing several files where some fail names every failure and counts what did get in
//    (it said "2 files were not imported … Nothing was imported" above an imported frame);
//  - a session whose remembered frame is in the trash reopens with a live frame selected, and
//    with nothing selected the canvas does not tell a session full of frames to "describe an
//    image" (the empty-state text was drawn over three frames);
//  - the app started on an explicit session folder on a first launch does not also create an
//    empty default session, nor list one in Recent.
#include "core/fakeapi/fakeserver.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"
#include "ui/canvasview.h"
#include "ui/frameselection.h"
#include "ui/importcontroller.h"
#include "ui/mainwindow.h"
#include "ui/sessionmanager.h"
#include "ui/windowpreferences.h"
#include "uitesthelpers.h"

#include <QApplication>
#include <QDirIterator>
#include <QProcess>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace nb2;

class tst_AppDefectsUi : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("NB2_NO_AUTO_SETTINGS", "1");
        QApplication::setOrganizationName(QStringLiteral("NB2LiteTest"));
        QApplication::setApplicationName(QStringLiteral("tst_appdefectsui"));
        FakeServerOptions options;
        options.apiKey = QStringLiteral("ui-test-key");
        m_server = std::make_unique<FakeServer>(options);
        QVERIFY(m_server->start(0));
    }

    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QSettings().clear();
        m_window = new MainWindow;
        m_window->setBackend(nb2test::fakeConfig(*m_server, QStringLiteral("ui-test-key")), true);
        QVERIFY(m_window->sessions()->open(m_dir->path() + QStringLiteral("/s1")));
        m_window->resize(900, 700);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window));
    }

    void cleanup()
    {
        if (m_window) {
            m_window->session()->waitForIdle(10000);
            delete m_window;
            m_window = nullptr;
        }
        m_dir.reset();
    }

    void multiFileImportNamesEveryFailure()
    {
        const QString whole = nb2test::writePng(m_dir->path() + QStringLiteral("/whole.png"), QSize(200, 120));
        QFile w(whole);
        QVERIFY(w.open(QIODevice::ReadOnly));
        QByteArray cut = w.readAll();
        cut.chop(cut.size() / 2);
        const QString corrupt = m_dir->path() + QStringLiteral("/corrupt.png");
        nb2test::writeBytes(corrupt, cut);
        const QString notImage = m_dir->path() + QStringLiteral("/notimage.jpg");
        nb2test::writeBytes(notImage, "this is a text file with an image's name");
        const QString valid = nb2test::writePng(m_dir->path() + QStringLiteral("/valid.png"));

        QSignalSpy done(m_window->imports(), &ImportController::importFinished);
        m_window->imports()->importFiles({corrupt, notImage, valid});
        QVERIFY(done.wait(20000));
        const QStringList added = done.first().at(0).toStringList();
        const QString message = done.first().at(1).toString();
        QCOMPARE(added.size(), 1);
        QVERIFY2(message.contains(QStringLiteral("corrupt.png")) && message.contains(QStringLiteral("notimage.jpg")),
                 qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("Imported 1 picture")), qPrintable(message));
        QVERIFY2(!message.contains(QStringLiteral("Nothing was imported")), qPrintable(message));
        QCOMPARE(m_window->selection()->currentId(), added.first());
    }

    void reopenAfterDeleteUndoRedoSelectsALiveFrame()
    {
        SessionController *s = m_window->session();
        QStringList ids;
        for (const char *name : {"a.png", "b.png", "c.png"}) {
            QSignalSpy done(m_window->imports(), &ImportController::importFinished);
            m_window->imports()->importFiles({nb2test::writePng(m_dir->path() + QLatin1Char('/') + QLatin1String(name))});
            QVERIFY(done.wait(10000));
            ids << done.first().at(0).toStringList().value(0);
        }
        QVERIFY(s->deleteFrame(ids.last()));
        s->undoStack()->undo();
        s->undoStack()->redo();
        const QString dir = s->store()->dir();
        QVERIFY(m_window->sessions()->open(m_dir->path() + QStringLiteral("/s2")));
        QVERIFY(m_window->sessions()->open(dir));
        const QString selected = m_window->selection()->currentId();
        QVERIFY2(!selected.isEmpty(), "nothing selected after reopening");
        QVERIFY(!s->graph().frame(selected)->isTrashed());

        // Nothing selected in a session with frames: the canvas does not ask for a first image.
        m_window->selection()->select(QString());
        QTest::qWait(50);
        auto *canvas = m_window->findChild<CanvasView *>(QStringLiteral("canvas"));
        QVERIFY(canvas);
        QVERIFY2(!canvas->emptyText().contains(QStringLiteral("Describe an image")), qPrintable(canvas->emptyText()));
    }

    /** The binary, as a user starts it: a private HOME, a session folder on the command line. */
    void explicitSessionOnFirstLaunchMakesNoDefaultSession()
    {
        const QString studio = QStringLiteral(NB2_BINARY_DIR "/app/studio/nb2lite-studio");
        QVERIFY(QFileInfo::exists(studio));
        QTemporaryDir home;
        QProcess app;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), home.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.path() + QStringLiteral("/.config"));
        env.insert(QStringLiteral("XDG_DATA_HOME"), home.path() + QStringLiteral("/.local/share"));
        env.insert(QStringLiteral("XDG_DOCUMENTS_DIR"), home.path() + QStringLiteral("/Documents"));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.remove(QStringLiteral("GEMINI_API_KEY"));
        env.remove(QStringLiteral("GOOGLE_API_KEY"));
        env.remove(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"));
        app.setProcessEnvironment(env);
        const QString explicitDir = home.path() + QStringLiteral("/my-session");
        app.start(studio, {QStringLiteral("--demo"), explicitDir});
        QVERIFY(app.waitForStarted(10000));
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(explicitDir + QStringLiteral("/manifest.json")), 20000);
        QTest::qWait(1000); // anything it would still create, it has created by now
        app.terminate();
        if (!app.waitForFinished(10000))
            app.kill();
        QStringList sessions;
        QDirIterator it(home.path(), {QStringLiteral("manifest.json")}, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            sessions << QDir(home.path()).relativeFilePath(QFileInfo(it.next()).absolutePath());
        QCOMPARE(sessions, QStringList{QStringLiteral("my-session")});
        QVERIFY(!QFileInfo::exists(home.path() + QStringLiteral("/Documents/NB2Lite Sessions")));
    }

private:
    std::unique_ptr<FakeServer> m_server;
    std::unique_ptr<QTemporaryDir> m_dir;
    MainWindow *m_window = nullptr;
};

QTEST_MAIN(tst_AppDefectsUi)
#include "tst_appdefectsui.moc"
