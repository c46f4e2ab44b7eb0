#include "core/session/appsettings.h"

#include <QFile>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using namespace nb2;

Q_DECLARE_METATYPE(nb2::SettingSource)

/**
 * The app's settings table: what the studio and the CLI resolve from the same rows
 * (resolveConnection), and the settings-file round trip the Settings dialog relies on.
 */
class tst_AppSettings : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private Q_SLOTS:
    void defaults()
    {
        const Connection c = resolveConnection(QProcessEnvironment(), nullptr);
        QCOMPARE(c.config.baseUrl, QString::fromLatin1(kDefaultBaseUrl));
        QCOMPARE(c.config.model, QString::fromLatin1(kDefaultModel));
        QCOMPARE(c.config.apiVersion, QStringLiteral("v1"));
        QVERIFY(c.config.apiKey.isEmpty());
        QCOMPARE(c.modelSource, SettingSource::Default);
        QCOMPARE(c.baseUrlSource, SettingSource::Default);
        QCOMPARE(c.apiVersionSource, SettingSource::Default);
        // Stored defaults describe the same connection (an empty base URL is production).
        const AppSettings d = AppSettings::defaults();
        const Connection fromDefaults = resolveConnection(QProcessEnvironment(), &d);
        QCOMPARE(fromDefaults.config.baseUrl, c.config.baseUrl);
        QCOMPARE(fromDefaults.config.model, c.config.model);
    }

    void modelPrecedence_data()
    {
        QTest::addColumn<QString>("flag");
        QTest::addColumn<QString>("env");    // null: unset
        QTest::addColumn<QString>("stored"); // null: no settings layer (the CLI)
        QTest::addColumn<QString>("model");
        QTest::addColumn<SettingSource>("source");
        using S = SettingSource;
        const QString none;
        QTest::newRow("default") << none << none << none << "gemini-3.1-flash-lite-image" << S::Default;
        QTest::newRow("settings") << none << none << "m-set"
                                  << "m-set" << S::Settings;
        QTest::newRow("env wins over settings") << none << "m-env"
                                                << "m-set"
                                                << "m-env" << S::Environment;
        QTest::newRow("env trimmed") << none << " m-env\n"
                                     << "m-set"
                                     << "m-env" << S::Environment;
        QTest::newRow("whitespace env ignored") << none << "  "
                                                << "m-set"
                                                << "m-set" << S::Settings;
        QTest::newRow("whitespace env, no settings")
            << none << " " << none << "gemini-3.1-flash-lite-image" << S::Default;
        QTest::newRow("flag wins") << "m-flag"
                                   << "m-env"
                                   << "m-set"
                                   << "m-flag" << S::CommandLine;
        QTest::newRow("blank flag is not given") << "  "
                                                 << "m-env" << none << "m-env" << S::Environment;
        QTest::newRow("invalid stored model") << none << none << "bad model!"
                                              << "gemini-3.1-flash-lite-image" << S::Default;
    }
    void modelPrecedence()
    {
        QFETCH(QString, flag);
        QFETCH(QString, env);
        QFETCH(QString, stored);
        QFETCH(QString, model);
        QFETCH(SettingSource, source);
        QProcessEnvironment e;
        if (!env.isNull())
            e.insert(QStringLiteral("GEMINI_MODEL_NAME"), env);
        AppSettings s = AppSettings::defaults();
        s.model = stored;
        ConnectionChoices choices;
        if (!flag.isNull())
            choices.model = flag;
        const Connection c = resolveConnection(e, stored.isNull() ? nullptr : &s, choices);
        QCOMPARE(c.config.model, model);
        QCOMPARE(c.modelSource, source);
    }

    void baseUrlAndVersion()
    {
        AppSettings s = AppSettings::defaults();
        s.baseUrl = QStringLiteral("http://127.0.0.1:9");
        s.apiVersion = QStringLiteral("v1beta");
        QProcessEnvironment env;
        Connection c = resolveConnection(env, &s);
        QCOMPARE(c.config.baseUrl, QStringLiteral("http://127.0.0.1:9"));
        QCOMPARE(c.config.apiVersion, QStringLiteral("v1beta"));

        env.insert(QStringLiteral("GOOGLE_GEMINI_BASE_URL"), QStringLiteral(" http://127.0.0.1:10 "));
        env.insert(QStringLiteral("GOOGLE_GENAI_API_VERSION"), QStringLiteral("v1"));
        c = resolveConnection(env, &s);
        QCOMPARE(c.config.baseUrl, QStringLiteral("http://127.0.0.1:10"));
        QCOMPARE(c.baseUrlSource, SettingSource::Environment);
        QCOMPARE(c.config.apiVersion, QStringLiteral("v1"));

        // The SDK's spelling of the beta; a spelling nobody knows is ignored, not guessed.
        env.insert(QStringLiteral("GOOGLE_GENAI_API_VERSION"), QStringLiteral("beta"));
        QCOMPARE(resolveConnection(env, nullptr).config.apiVersion, QStringLiteral("v1beta"));
        env.insert(QStringLiteral("GOOGLE_GENAI_API_VERSION"), QStringLiteral("v9"));
        QCOMPARE(resolveConnection(env, &s).config.apiVersion, QStringLiteral("v1beta"));
        QCOMPARE(resolveConnection(env, &s).apiVersionSource, SettingSource::Settings);

        // The CLI's flags beat both.
        c = resolveConnection(
            env, nullptr, {std::nullopt, QStringLiteral("https://proxy.example"), QStringLiteral("v1")});
        QCOMPARE(c.config.baseUrl, QStringLiteral("https://proxy.example"));
        QCOMPARE(c.baseUrlSource, SettingSource::CommandLine);
        QCOMPARE(c.config.apiVersion, QStringLiteral("v1"));
    }

    void apiKeyPrecedence()
    {
        QTemporaryDir home;
        QFile file(home.filePath(QStringLiteral("gemini.key")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("file-key\n");
        file.close();
        QVERIFY(file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner));

        QProcessEnvironment env;
        QCOMPARE(
            resolveConnection(env, nullptr, {}, home.path()).config.apiKey.source(), QStringLiteral("~/gemini.key"));
        QVERIFY(resolveConnection(env, nullptr).config.apiKey.isEmpty()); // no home: the environment only
        env.insert(QStringLiteral("GEMINI_API_KEY"), QStringLiteral(" "));
        env.insert(QStringLiteral("GOOGLE_API_KEY"), QStringLiteral("google-key"));
        const ApiKey key = resolveConnection(env, nullptr, {}, home.path()).config.apiKey;
        QCOMPARE(key.value(), QStringLiteral("google-key"));
        QCOMPARE(key.source(), QStringLiteral("GOOGLE_API_KEY"));

        // The studio: the environment's key, else the key store's.
        const AppSettings s = AppSettings::defaults();
        QCOMPARE(s.clientConfig(env, QStringLiteral("stored"), QStringLiteral("keychain")).apiKey.value(),
            QStringLiteral("google-key"));
        const ClientConfig stored
            = s.clientConfig(QProcessEnvironment(), QStringLiteral(" stored \n"), QStringLiteral("keychain"));
        QCOMPARE(stored.apiKey.value(), QStringLiteral("stored"));
        QCOMPARE(stored.apiKey.source(), QStringLiteral("keychain"));
    }

    void outputFolderIsNeverStored()
    {
        QSettings settings(m_dir.filePath(QStringLiteral("out.ini")), QSettings::IniFormat);
        QVERIFY(!appprefs::outputFolder.write(settings, QStringLiteral("/tmp")));
        QVERIFY(!appprefs::keys().contains(QStringLiteral("IMAGE_OUTPUT_DIR")));
        QProcessEnvironment env;
        env.insert(QStringLiteral("IMAGE_OUTPUT_DIR"), QStringLiteral("  "));
        QCOMPARE(appprefs::outputFolder.resolve(env).source, SettingSource::Default);
        env.insert(QStringLiteral("IMAGE_OUTPUT_DIR"), QStringLiteral("/srv/images"));
        QCOMPARE(appprefs::outputFolder.resolve(env).value, QStringLiteral("/srv/images"));
        QCOMPARE(appprefs::outputFolder.resolve(env, std::nullopt, QStringLiteral("/o")).value, QStringLiteral("/o"));
    }

    void settingsFileRoundTrip()
    {
        const QString path = m_dir.filePath(QStringLiteral("app.ini"));
        AppSettings s = AppSettings::defaults();
        s.model = QStringLiteral("m2");
        s.baseUrl = QStringLiteral("https://proxy.example/p");
        s.apiVersion = QStringLiteral("v1beta");
        s.thinkingLevel = QStringLiteral("high");
        s.sessionsFolder = m_dir.filePath(QStringLiteral("sessions"));
        s.session.concurrencyLimit = 3;
        {
            QSettings settings(path, QSettings::IniFormat);
            s.save(settings);
        }
        QSettings settings(path, QSettings::IniFormat);
        const AppSettings back = AppSettings::load(settings);
        QCOMPARE(back.model, s.model);
        QCOMPARE(back.baseUrl, s.baseUrl);
        QCOMPARE(back.apiVersion, s.apiVersion);
        QCOMPARE(back.thinkingLevel, s.thinkingLevel);
        QCOMPARE(back.sessionsFolder, s.sessionsFolder);
        QCOMPARE(back.session.concurrencyLimit, 3);
        for (const QString &key : appprefs::keys())
            QVERIFY2(settings.contains(key), qPrintable(key));
        // No key material ever reaches the settings file.
        for (const QString &key : settings.allKeys())
            QVERIFY2(!key.contains(QLatin1String("key"), Qt::CaseInsensitive), qPrintable(key));

        // Hand-edited nonsense falls back to the defaults, row by row.
        settings.setValue(QLatin1String(appprefs::model.key), QStringLiteral("no spaces allowed"));
        settings.setValue(QLatin1String(appprefs::apiVersion.key), QStringLiteral("v3"));
        settings.setValue(QLatin1String(appprefs::sessionsFolder.key), QStringLiteral("relative/path"));
        const AppSettings edited = AppSettings::load(settings);
        QCOMPARE(edited.model, appprefs::model.defaultValue);
        QCOMPARE(edited.apiVersion, QStringLiteral("v1"));
        QCOMPARE(edited.sessionsFolder, QString());
        QCOMPARE(edited.effectiveSessionsFolder(), AppSettings::defaultSessionsFolder());
        QCOMPARE(edited.baseUrl, s.baseUrl);
    }
};

QTEST_GUILESS_MAIN(tst_AppSettings)
#include "tst_appsettings.moc"
