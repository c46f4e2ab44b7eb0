// The window side of the app defects of issue 11, item 9:
//  - importing several files where some fail names every failure and counts what did get in
//    (it said "2 files were not imported … Nothing was imported" above an imported frame);
//  - a session whose remembered frame is in the trash reopens with a live frame selected, and
//    with nothing selected the canvas does not tell a session full of frames to "describe an
//    image" (the empty-state text was drawn over three frames);
//  - the app started on an explicit session folder on a first launch does not also create an
//    empty default session, nor list one in Recent;
//  - a valid picture too large to open (over 8192×8192) is "too large" with its size, and the
//    notice's button downscales it to the model's input size and imports it;
//  - item 10: a start without a usable display is a message and exit status 1, not SIGABRT.
#include "core/fakeapi/fakeserver.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"
#include "tests/testpaths.h"
#include "ui/bannerwidget.h"
#include "ui/canvasview.h"
#include "ui/frameselection.h"
#include "ui/importcontroller.h"
#include "ui/mainwindow.h"
#include "ui/noticepresenter.h"
#include "ui/sessionmanager.h"
#include "ui/windowpreferences.h"
#include "uitesthelpers.h"

#include <QApplication>
#include <QDirIterator>
#include <QImageReader>
#include <QProcess>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

#include <zlib.h>

using namespace nb2;

namespace {

void appendChunk(QByteArray &png, const char *type, const QByteArray &data)
{
    const quint32 n = quint32(data.size());
    png.append(char(n >> 24)).append(char(n >> 16)).append(char(n >> 8)).append(char(n));
    const QByteArray typed = QByteArray(type, 4) + data;
    png.append(typed);
    const quint32 crc = quint32(crc32(0, reinterpret_cast<const Bytef *>(typed.constData()), uInt(typed.size())));
    png.append(char(crc >> 24)).append(char(crc >> 16)).append(char(crc >> 8)).append(char(crc));
}

/** A valid 8-bit grey PNG of w×h with a left-to-right ramp, deflated row by row (a few hundred KB). */
QByteArray bigGreyPng(int w, int h)
{
    QByteArray png("\x89PNG\r\n\x1a\n", 8);
    QByteArray ihdr;
    for (quint32 v : {quint32(w), quint32(h)})
        ihdr.append(char(v >> 24)).append(char(v >> 16)).append(char(v >> 8)).append(char(v));
    ihdr.append(char(8)).append(char(0)).append(char(0)).append(char(0)).append(char(0));
    appendChunk(png, "IHDR", ihdr);
    QByteArray row(1 + w, '\0');
    for (int x = 0; x < w; ++x)
        row[1 + x] = char(x * 255 / w);
    z_stream z {};
    deflateInit(&z, 1);
    QByteArray idat;
    QByteArray out(1 << 16, '\0');
    for (int y = 0; y < h; ++y) {
        z.next_in = reinterpret_cast<Bytef *>(row.data());
        z.avail_in = uInt(row.size());
        const int flush = y + 1 == h ? Z_FINISH : Z_NO_FLUSH;
        do {
            z.next_out = reinterpret_cast<Bytef *>(out.data());
            z.avail_out = uInt(out.size());
            deflate(&z, flush);
            idat.append(out.constData(), out.size() - qsizetype(z.avail_out));
        } while (z.avail_out == 0 || (flush == Z_FINISH && z.avail_in > 0));
    }
    deflateEnd(&z);
    appendChunk(png, "IDAT", idat);
    appendChunk(png, "IEND", {});
    return png;
}

} // namespace

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

    void tooLargePictureOffersDownscaleAndImportsIt()
    {
        // 12000×8000 (96 megapixels): valid, over the 8192×8192 bound for opening pictures.
        const QString huge = m_dir->path() + QStringLiteral("/huge.png");
        nb2test::writeBytes(huge, bigGreyPng(12000, 8000));
        SessionController *s = m_window->session();
        const int framesBefore = int(s->graph().frames().size());

        QSignalSpy done(m_window->imports(), &ImportController::importFinished);
        m_window->imports()->importFiles({huge}); // what Ctrl+I does with the chosen file
        QVERIFY(done.wait(20000));
        QVERIFY(done.first().at(0).toStringList().isEmpty());
        const QString message = done.first().at(1).toString();
        QVERIFY2(message.contains(QStringLiteral("too large")) && message.contains(QStringLiteral("12000×8000"))
                && !message.contains(QStringLiteral("damaged")),
            qPrintable(message));
        QCOMPARE(int(s->graph().frames().size()), framesBefore);

        // The notice offers the downscale as its button; clicking it imports the picture.
        QCOMPARE(m_window->notices()->actionText(), QStringLiteral("Downscale and Import"));
        auto *banner = m_window->findChild<BannerWidget *>(QStringLiteral("messageBanner"));
        QVERIFY(banner);
        QPushButton *button = nullptr;
        for (QPushButton *b : banner->findChildren<QPushButton *>()) {
            if (b->text() == m_window->notices()->actionText() && b->isVisible())
                button = b;
        }
        QVERIFY2(button, "the banner shows no downscale button");
        if (qEnvironmentVariableIsSet("NB2_SHOT_DIR"))
            m_window->grab().save(qEnvironmentVariable("NB2_SHOT_DIR") + QStringLiteral("/too-large-import.png"));
        done.clear();
        QTest::mouseClick(button, Qt::LeftButton);
        QVERIFY(done.wait(60000));
        const QStringList added = done.first().at(0).toStringList();
        QVERIFY2(done.first().at(1).toString().isEmpty(), qPrintable(done.first().at(1).toString()));
        QCOMPARE(added.size(), 1);
        const Frame f = s->graph().value(added.first());
        QCOMPARE(f.kind, FrameKind::Import);
        QCOMPARE(f.status, FrameStatus::Done);
        // About one megapixel with the same 3:2 aspect ratio: 1254×836.
        QVERIFY2(qAbs(f.image.width * 2 - f.image.height * 3) <= 3,
            qPrintable(QStringLiteral("%1×%2").arg(f.image.width).arg(f.image.height)));
        QVERIFY(qint64(f.image.width) * f.image.height <= 1024 * 1024);
        QVERIFY(f.image.width >= 1200);
        const QString stored = s->store()->absolutePath(f.image.file);
        QCOMPARE(QImageReader(stored).size(), QSize(f.image.width, f.image.height));
        QCOMPARE(m_window->selection()->currentId(), added.first());
        QVERIFY2(m_window->notices()->lastStatus().contains(QStringLiteral("12000×8000")),
            qPrintable(m_window->notices()->lastStatus()));
        QVERIFY(!m_window->notices()->isShown());
    }

    void reopenAfterDeleteUndoRedoSelectsALiveFrame()
    {
        SessionController *s = m_window->session();
        QStringList ids;
        for (const char *name : {"a.png", "b.png", "c.png"}) {
            QSignalSpy done(m_window->imports(), &ImportController::importFinished);
            m_window->imports()->importFiles(
                {nb2test::writePng(m_dir->path() + QLatin1Char('/') + QLatin1String(name))});
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
        const QString studio = nb2test::studioProgram();
        QVERIFY(QFileInfo::exists(studio));
        QTemporaryDir home;
        QProcess app;
        QProcessEnvironment env = nb2test::isolatedStudioEnvironment(home.path());
        env.insert(QStringLiteral("XDG_DOCUMENTS_DIR"), home.path() + QStringLiteral("/Documents"));
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
        QCOMPARE(sessions, QStringList {QStringLiteral("my-session")});
        QVERIFY(!QFileInfo::exists(home.path() + QStringLiteral("/Documents/NB2Lite Sessions")));
    }

    /**
     * Item 10's one SIGABRT on start under Xvfb: Qt aborts (core dump, "reinstalling may fix
     * this") when the display cannot be opened, e.g. an X server that went away with a killed
     * instance. The app says so and exits with 1 instead, before touching any session.
     */
    void startWithoutDisplayIsAMessageNotAnAbort()
    {
        const QString studio = nb2test::studioProgram();
        QTemporaryDir home;
        QProcess app;
        QProcessEnvironment env = nb2test::isolatedStudioEnvironment(home.path());
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("xcb"));
        env.insert(QStringLiteral("DISPLAY"), QStringLiteral(":4095")); // no X server there
        env.remove(QStringLiteral("WAYLAND_DISPLAY"));
        app.setProcessEnvironment(env);
        app.setWorkingDirectory(home.path()); // a core dump, if any, lands here
        const QString session = home.path() + QStringLiteral("/s");
        app.start(studio, {QStringLiteral("--demo"), session});
        QVERIFY(app.waitForFinished(30000));
        const QString err = QString::fromLocal8Bit(app.readAllStandardError());
        QCOMPARE(app.exitStatus(), QProcess::NormalExit); // not SIGABRT
        QCOMPARE(app.exitCode(), 1);
        QVERIFY2(err.contains(QStringLiteral("no display could be opened (DISPLAY=:4095")), qPrintable(err));
        QVERIFY2(!err.contains(QStringLiteral("Reinstalling")), qPrintable(err));
        QVERIFY(!QFileInfo::exists(session));
    }

private:
    std::unique_ptr<FakeServer> m_server;
    std::unique_ptr<QTemporaryDir> m_dir;
    MainWindow *m_window = nullptr;
};

QTEST_MAIN(tst_AppDefectsUi)
#include "tst_appdefectsui.moc"
