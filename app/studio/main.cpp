// NB2Lite Studio: QApplication, theme, backend (real key or the built-in demo server), window.
#include "core/api/apikey.h"
#include "core/fakeapi/fakeserver.h"
#include "ui/keystore.h"
#include "ui/mainwindow.h"
#include "ui/settingsdialog.h"
#include "ui/theme.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QUuid>

#include <memory>

namespace {

/**
 * Chooses the backend: a key from the environment, the key store (keychain or
 * ~/gemini.key) or the CLI's ~/gemini.key means the real API; no key (or --demo) starts
 * the in-process fake server on 127.0.0.1 and the window says so.
 */
class Backend
{
public:
    Backend(nb2::MainWindow *window, bool forceDemo) : m_window(window), m_forceDemo(forceDemo) {}

    void apply(const QString &storedKey, const QString &storedSource)
    {
        const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        QSettings s;
        nb2::ClientConfig config = nb2::StudioSettings::load(s).clientConfig(env, storedKey, storedSource);
        if (config.apiKey.isEmpty())
            config.apiKey = nb2::lookupApiKey(env, QDir::homePath());
        if (!config.apiKey.isEmpty() && !m_forceDemo) {
            m_fake.reset();
            m_window->setBackend(config, false);
            return;
        }
        if (!m_fake) {
            // A random key: the demo server is only reachable by this process's client.
            const QString key = QUuid::createUuid().toString(QUuid::Id128);
            nb2::FakeServerOptions options;
            options.apiKey = key;
            options.latencyMs = 900; // long enough to see progress, short enough to play with
            m_fake = std::make_unique<nb2::FakeServer>(options);
            if (!m_fake->start(0))
                qWarning("Demo backend could not start: %s", qPrintable(m_fake->errorString()));
            m_demoKey = key;
        }
        config.baseUrl = m_fake->baseUrl();
        config.apiKey = nb2::ApiKey(m_demoKey, QStringLiteral("demo backend"));
        m_window->setBackend(config, true);
    }

private:
    nb2::MainWindow *m_window;
    bool m_forceDemo;
    std::unique_ptr<nb2::FakeServer> m_fake;
    QString m_demoKey;
};

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("NB2Lite"));
    QApplication::setApplicationName(QStringLiteral("NB2Lite Studio"));
    QApplication::setApplicationVersion(QStringLiteral(NB2_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("io.github.nb2lite.Studio")); // matches the desktop entry
    nb2::applyTheme(app);

    QCommandLineParser parser;
    parser.setApplicationDescription(QApplication::translate("main", "Iterative image editing over the Gemini Interactions API."));
    parser.addHelpOption();
    parser.addVersionOption();
    QCommandLineOption demo(QStringLiteral("demo"),
                            QApplication::translate("main", "Use the built-in demo backend even when a key is set."));
    parser.addOption(demo);
    parser.addPositionalArgument(QStringLiteral("paths"),
                                 QApplication::translate("main", "A session folder to open (created if missing), "
                                                                 "and/or image files to import."),
                                 QStringLiteral("[session] [images...]"));
    parser.process(app);

    // The desktop entry passes files (%F): folders are sessions, files are pictures to import.
    QString sessionArg;
    QStringList images;
    for (const QString &arg : parser.positionalArguments()) {
        const QFileInfo info(arg);
        if (info.exists() && !info.isDir())
            images << info.absoluteFilePath();
        else if (sessionArg.isEmpty())
            sessionArg = arg;
    }

    nb2::MainWindow window;
    Backend backend(&window, parser.isSet(demo));
    nb2::KeyStore keyStore;

    auto start = [&](const QString &key, const QString &source) {
        backend.apply(key, source);
        window.restoreLastState();
        if (!sessionArg.isEmpty()) {
            QString error;
            if (!QDir().mkpath(sessionArg) || !window.openSession(QDir(sessionArg).absolutePath(), &error))
                qWarning("Cannot open session %s: %s", qPrintable(sessionArg), qPrintable(error));
        }
        window.show();
        if (!images.isEmpty())
            window.importFiles(images); // checked off the GUI thread; bad files get a message
    };

    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    const bool envKey = !env.value(QStringLiteral("GEMINI_API_KEY")).trimmed().isEmpty()
                        || !env.value(QStringLiteral("GOOGLE_API_KEY")).trimmed().isEmpty();
    bool started = false;
    QObject::connect(&keyStore, &nb2::KeyStore::finished, &window, [&](const nb2::KeyStore::Result &r) {
        const QString source = r.backend == nb2::KeyStore::Backend::Keychain ? QStringLiteral("keychain")
                                                                             : QStringLiteral("~/gemini.key");
        const QString key = r.ok && r.found ? r.key : QString();
        if (!started) {
            started = true;
            start(key, source);
        } else {
            backend.apply(key, source); // the settings changed
        }
    });
    // Any saved setting (key, model, base URL, version) rebuilds the backend; the key is
    // re-read because the environment and the key store decide between real and demo.
    QObject::connect(&window, &nb2::MainWindow::settingsChanged, &window, [&](bool) { keyStore.read(); });
    if (envKey || parser.isSet(demo)) {
        started = true;
        start({}, {});
    } else {
        keyStore.read(); // keychain first, ~/gemini.key when no keychain answers
    }
    return app.exec();
}
