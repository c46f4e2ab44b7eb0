// NB2Lite Studio: QApplication, theme, backend (real key or the built-in demo server), window.
#include "app/studio/backgroundpool.h"
#include "app/studio/benchprobe.h"
#include "app/studio/netmoduleloader.h"
#include "core/api/apikey.h"
#include "core/common/hugepages.h"
#include "core/common/translations.h"
#include "core/session/appsettings.h"
#include "core/session/sessionstore.h"
#include "ui/bundleopener.h"
#include "ui/canvasview.h"
#include "ui/firstpaint.h"
#include "ui/imagestage.h"
#include "ui/importcontroller.h"
#include "ui/keystore.h"
#include "ui/mainwindow.h"
#include "ui/sessionmanager.h"
#include "ui/settingsdialog.h"
#include "ui/theme.h"
#include "ui/timelineview.h"
#include "ui/windowpreferences.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QFontMetrics>
#include <QFutureWatcher>
#include <QIcon>
#include <QMessageBox>
#include <QSettings>
#include <QThreadPool>
#include <QUuid>
#include <QtConcurrent/QtConcurrentRun>

#include <cstdio>
#include <cstdlib>
#include <future>
#include <memory>

namespace {

/**
 * Chooses the backend: a key from the environment, the key store (keychain or
 * ~/gemini.key) or the CLI's ~/gemini.key means the real API; no key (or --demo) starts
 * the built-in demo server on 127.0.0.1 and the window says so. Both need the HTTP code,
 * which is in the module libnb2net.so (app/netmodule/netmodule.h): it loads after the
 * first frame, off the GUI thread (afterFirstPaint()), and whatever needs it waits for it.
 */
class Backend
{
public:
    Backend(nb2::MainWindow *window, bool forceDemo) : m_window(window), m_forceDemo(forceDemo) {}
    ~Backend() { waitForDemoServer(); } // never destroy the server while a worker starts it

    /**
     * Real key: the window gets its client now (its first request waits for the module). Demo:
     * the window shows the demo banner now; the module loads and the server starts (its accept
     * thread and 24 workers) on a worker after the first paint, and finish() gives the window
     * its client. Called again when the settings change (then the demo client is ready when
     * it returns).
     */
    void apply(const QString &storedKey, const QString &storedSource)
    {
        const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        QSettings s;
        // Environment > settings > defaults, and the environment's key > the stored key (appsettings.h).
        nb2::ClientConfig config = nb2::AppSettings::load(s).clientConfig(env, storedKey, storedSource);
        if (config.apiKey.isEmpty())
            config.apiKey = nb2::lookupApiKey(env, QDir::homePath());
        if (!config.apiKey.isEmpty() && !m_forceDemo) {
            waitForDemoServer();
            m_demo.reset();
            m_wantDemo = false;
            m_window->setBackend(config, false);
            return;
        }
        m_demoConfig = config;
        m_wantDemo = true;
        if (!m_windowUp && !m_demo) {
            m_window->showBackend(m_demoConfig, true);
            return;
        }
        finish();
    }

    /** The window has painted: the module loads on `pool`, or the demo server starts (loading it). */
    void afterFirstPaint(QThreadPool *pool)
    {
        if (m_wantDemo)
            startDemoServer();
        else
            nb2::NetModuleLoader::preload(pool);
    }

    /** The demo server listens (waiting for its start if needed): the window gets its client. */
    void finish()
    {
        m_windowUp = true; // from now on apply() finishes at once
        if (!m_wantDemo)
            return;
        startDemoServer();
        waitForDemoServer();
        if (!m_demo) {
            QMessageBox::critical(m_window, QCoreApplication::translate("main", "Demo Backend"), m_demoError);
            return;
        }
        nb2::ClientConfig config = m_demoConfig;
        config.baseUrl = m_demo->baseUrl();
        config.apiKey = nb2::ApiKey(m_demoKey, QCoreApplication::translate("main", "demo backend"));
        m_window->setBackend(config, true);
    }

private:
    struct Started {
        std::unique_ptr<nb2::DemoServer> server;
        QString error;
    };

    void startDemoServer()
    {
        if (m_demo || m_starting.valid())
            return;
        // A random key: the demo server is only reachable by this process's client.
        m_demoKey = QUuid::createUuid().toString(QUuid::Id128);
        m_starting = std::async(std::launch::async, [key = m_demoKey] {
            Started started;
            const nb2::Result<const nb2::NetModule *> module = nb2::NetModuleLoader::require();
            if (!module) {
                started.error = module.error().message;
                return started;
            }
            // 900 ms: long enough to see progress, short enough to play with.
            std::unique_ptr<nb2::DemoServer> server(module.value()->createDemoServer(key, 900));
            if (!server->start()) {
                started.error = QCoreApplication::translate("main", "The demo backend could not start: %1")
                                    .arg(server->errorString());
                return started;
            }
            started.server = std::move(server);
            return started;
        });
    }

    void waitForDemoServer()
    {
        if (!m_starting.valid())
            return;
        Started started = m_starting.get();
        m_demo = std::move(started.server);
        m_demoError = started.error;
        if (!m_demo)
            qWarning("%s", qPrintable(m_demoError));
    }

    nb2::MainWindow *m_window;
    bool m_forceDemo;
    bool m_wantDemo = false;
    std::unique_ptr<nb2::DemoServer> m_demo;
    QString m_demoError;
    std::future<Started> m_starting; // after m_demo: destroyed (waited for) first
    nb2::ClientConfig m_demoConfig;
    QString m_demoKey;
    bool m_windowUp = false;
};

/** The command line, shared by the no-display path (--help, --version) and the real start. */
struct StudioCommandLine {
    QCommandLineParser parser;
    QCommandLineOption demo {QStringLiteral("demo"),
        QCoreApplication::translate("main", "Use the built-in demo backend even when a key is set.")};

    StudioCommandLine()
    {
        parser.setApplicationDescription(QCoreApplication::translate("main",
            "Iterative image editing over the Gemini Interactions API.\n\n"
            "Without an API key (GEMINI_API_KEY, GOOGLE_API_KEY, the key saved in Settings, "
            "or ~/gemini.key) the app runs on a built-in offline demo backend that draws "
            "synthetic images."));
        parser.addHelpOption();
        parser.addVersionOption();
        parser.addOption(demo);
        parser.addPositionalArgument(QStringLiteral("paths"),
            QCoreApplication::translate("main",
                "A session folder to open (created if missing), "
                "a .nb2session bundle to unpack and open, "
                "and/or image files to import."),
            QStringLiteral("[session|bundle] [images...]"));
    }
};

/** --help and --version must work where there is no display (help2man, a terminal over ssh). */
bool wantsInfoOnly(int argc, char *argv[])
{
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg(argv[i]);
        if (arg == "--") // what follows is a path, not an option
            return false;
        if (arg == "-h" || arg == "--help" || arg == "-?" || arg == "--help-all" || arg == "-v" || arg == "--version")
            return true;
    }
    return false;
}

QtMessageHandler g_previousHandler = nullptr;

/**
 * Qt ends a start without a usable display with qFatal(), i.e. SIGABRT and a core dump, and
 * advises reinstalling. Under Xvfb that is a display that went away or is not up yet (e.g. the
 * X server of an instance that was just killed): say so and exit with status 1 instead.
 * Installed only while QApplication is being constructed.
 */
void startMessageHandler(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (type == QtFatalMsg
        && message.contains(
            QLatin1String("no Qt platform plugin could be initialized"))) { // notr: Qt's own message, matched
        const QByteArray display = qgetenv("DISPLAY");
        const QString text
            = QCoreApplication::translate("main",
                "nb2lite-studio: cannot open a window: no display could be opened (DISPLAY=%1, platform %2). "
                "Start it in a desktop session, or under xvfb-run when there is no screen. Nothing was changed.")
                  .arg(display.isEmpty() ? QStringLiteral("unset") : QString::fromLocal8Bit(display),
                      qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") ? QStringLiteral("default")
                                                                     : qEnvironmentVariable("QT_QPA_PLATFORM"));
        std::fputs(qPrintable(text + QLatin1Char('\n')), stderr);
        std::fflush(stderr);
        std::_Exit(1); // no destructors: QApplication is half-built
    }
    if (g_previousHandler)
        g_previousHandler(type, context, message);
}

} // namespace

int main(int argc, char *argv[])
{
    // Before any thread exists: the heap in 2 MB pages (a 10,000-frame session opened and
    // painted in ~140 ms instead of ~230; the window itself starts ~5 % sooner).
    nb2::preferHugePagesForHeap();
    // Before any application object: QApplication would need a display to answer --help.
    QCoreApplication::setOrganizationName(QStringLiteral("NB2Lite"));
    QCoreApplication::setApplicationName(QStringLiteral("NB2Lite Studio"));
    QCoreApplication::setApplicationVersion(QStringLiteral(NB2_VERSION));
    if (wantsInfoOnly(argc, argv)) {
        QCoreApplication app(argc, argv);
        nb2::installTranslations(&app);
        StudioCommandLine commandLine;
        commandLine.parser.process(app); // prints the help or version and exits
        return 0;
    }

    g_previousHandler = qInstallMessageHandler(startMessageHandler);
    QApplication app(argc, argv);
    qInstallMessageHandler(g_previousHandler);
    // The system locale's catalogue when there is one, else English (for its plural forms).
    nb2::installTranslations(&app);
    QApplication::setDesktopFileName(QStringLiteral("io.github.nb2lite.Studio")); // matches the desktop entry
    nb2::applyTheme(app);
    // The first text measured loads the fonts: fontconfig's configuration and cache, Qt's font
    // database and the default face (~3 ms of the GUI thread before the first paint). A worker
    // does the shared part (fontconfig, the database) while the window is built; each thread
    // still opens its own font engine. QCoreApplication waits for the pool before it goes.
    const QFuture<void> fontsLoading
        = QtConcurrent::run([font = QGuiApplication::font()] { QFontMetrics(font).height(); });

    StudioCommandLine commandLine;
    QCommandLineParser &parser = commandLine.parser;
    const QCommandLineOption &demo = commandLine.demo;
    parser.process(app);

    // The desktop entry passes files (%F): folders are sessions, .nb2session files are bundles
    // to unpack and open, other files are pictures to import.
    QString sessionArg;
    QString bundleArg;
    QStringList images;
    for (const QString &arg : parser.positionalArguments()) {
        const QFileInfo info(arg);
        if (info.isFile() && nb2::BundleOpener::isBundle(arg) && bundleArg.isEmpty())
            bundleArg = info.absoluteFilePath();
        else if (info.exists() && !info.isDir())
            images << info.absoluteFilePath();
        else if (sessionArg.isEmpty())
            sessionArg = arg;
    }

    // The session's checkpoint is parsed on a worker while the window is built (on 10,000
    // frames that parse is ~30 ms); SessionStore::open() then takes what it read. The worker
    // runs at a lower priority, so that on a shared core the window is built first.
    nb2::BackgroundPool backgroundPool;
    const QString sessionToOpen
        = !sessionArg.isEmpty() ? QDir(sessionArg).absolutePath() : nb2::WindowPreferences::lastSession();
    const QFuture<void> preloading = nb2::SessionStore::preload(sessionToOpen, &backgroundPool);

    nb2::MainWindow window;
    nb2::installBenchProbe(&window); // only when NB2_BENCH_* asks (nb2lite-bench)
    Backend backend(&window, parser.isSet(demo));
    nb2::KeyStore keyStore;
    nb2::BundleOpener bundleOpener(&window, nb2::BundleOpener::inBackground(window.sessions()));
    QObject::connect(&bundleOpener, &nb2::BundleOpener::finished, &window, [&](const QString &, const QString &error) {
        if (!error.isEmpty())
            QMessageBox::warning(&window, QCoreApplication::translate("main", "Cannot Open the Bundle"), error);
        else if (!images.isEmpty())
            window.imports()->importFiles(images); // pictures given with the bundle go into its session
    });

    // What needs the session (opening it, the bundle, the pictures to import).
    auto openSessionAndFiles = [&] {
        // A session named on the command line is the one to open: the last (or a new default)
        // session only when there is none, or when it cannot be opened.
        if (sessionArg.isEmpty())
            window.sessions()->restoreLast();
        if (!sessionArg.isEmpty()) {
            const nb2::Result<void> opened = QDir().mkpath(sessionArg)
                ? window.sessions()->open(QDir(sessionArg).absolutePath())
                : nb2::Result<void>(nb2::Error::make(
                    nb2::ErrorKind::NotWritable, QCoreApplication::translate("main", "cannot create the folder")));
            if (!opened) {
                qWarning("Cannot open session %s: %s", qPrintable(sessionArg), qPrintable(opened.error().message));
                window.sessions()->restoreLast();
                // A damaged folder: the banner offers to rebuild it (journal and images, nothing deleted).
                window.sessions()->offerRebuild(QDir(sessionArg).absolutePath(), opened.error().message);
            }
        }
        // The views leave their "opening" state: the session's frames, or its empty states.
        window.timelineView()->setOpening(false);
        if (window.stage()->canvas()->emptyText().isEmpty())
            window.stage()->reload();
        if (!bundleArg.isEmpty()) {
            QSettings s;
            bundleOpener.setFallbackParent(nb2::AppSettings::load(s).effectiveSessionsFolder());
            if (bundleOpener.open(bundleArg)) // asks where to unpack (default: beside the bundle)
                return;                       // the pictures follow once the bundle is open
        }
        if (!images.isEmpty())
            window.imports()->importFiles(images); // checked off the GUI thread; bad files get a message
    };
    QFutureWatcher<void> preloadWatcher;
    bool painted = false;
    bool backendKnown = false;
    // The session opens once the window has painted and the backend is known (its client
    // recovers interrupted requests), and once its checkpoint is parsed.
    auto openWhenReady = [&] {
        if (!painted || !backendKnown)
            return;
        auto open = [&] {
            backend.finish(); // the demo server, started on a worker after the first paint
            openSessionAndFiles();
        };
        if (preloading.isRunning()) {
            QObject::connect(&preloadWatcher, &QFutureWatcherBase::finished, &window, open);
            preloadWatcher.setFuture(preloading);
        } else {
            open();
        }
    };
    auto knowBackend = [&](const QString &key, const QString &source) {
        backendKnown = true;
        backend.apply(key, source);
        openWhenReady();
    };

    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const bool envKey = !nb2::apiKeyFromEnvironment(env).isEmpty();
    QObject::connect(&keyStore, &nb2::KeyStore::finished, &window, [&](const nb2::KeyStore::Result &r) {
        const QString source = r.backend == nb2::KeyStore::Backend::Keychain ? QStringLiteral("keychain")
                                                                             : QStringLiteral("~/gemini.key");
        const QString key = r.ok && r.found ? r.key : QString();
        if (!backendKnown)
            knowBackend(key, source);
        else
            backend.apply(key, source); // the settings changed
    });
    // Any saved setting (key, model, base URL, version) rebuilds the backend; the key is
    // re-read because the environment and the key store decide between real and demo.
    QObject::connect(&window, &nb2::MainWindow::settingsChanged, &window, [&](bool) { keyStore.read(); });
    if (envKey || parser.isSet(demo))
        knowBackend({}, {}); // the demo banner is in the first frame
    else
        keyStore.read(); // keychain first, ~/gemini.key when no keychain answers

    // The first frame waits neither for the session nor for the key store: a keychain can take
    // seconds (a Secret Service that does not answer: KeyStore's 3 s timeout; a locked keyring
    // asks for its password). Without a key the demo banner shows when the store has answered.
    window.restoreLastState(false); // the layout; the session follows
    if (!sessionToOpen.isEmpty()) {
        // A session opens after the first frame: until then the timeline says so, and the image
        // area stays blank. Their empty-session hints ("No frames yet", "Describe an image...")
        // would be wrong for a session of frames, and their fonts cost three engines and the
        // shaping of two paragraphs before that frame.
        window.timelineView()->setOpening(true);
        window.stage()->canvas()->setEmptyText({});
    }
    window.show();
    nb2::afterFirstPaint(&window, [&] {
        // The window manager's icon, once the window is up: an SVG loads Qt's icon-engine plugin
        // (1.5 M instructions), and on X11 the window is given it drawn at six sizes (4 M more),
        // all before the first frame when set with the window. The frame itself has no icon.
        window.setWindowIcon(QIcon(QStringLiteral(":/icons/app.svg")));
        painted = true;
        backend.afterFirstPaint(&backgroundPool); // the HTTP module, off the GUI thread
        openWhenReady();
    });
    return app.exec();
}
