#include "core/common/preference.h"

#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using namespace nb2;

Q_DECLARE_METATYPE(nb2::SettingSource)

namespace {

bool isShortName(const QString &v)
{
    return !v.isEmpty() && v.size() <= 8;
}

std::optional<QString> versionFromText(const QString &text)
{
    if (text == QLatin1String("beta"))
        return QStringLiteral("v1beta");
    if (text == QLatin1String("v1") || text == QLatin1String("v1beta"))
        return text;
    return std::nullopt;
}

const Preference<QString> name {"test/name", QStringLiteral("dflt"), &isShortName, "NB2_TEST_NAME"};
const Preference<int> count {"test/count", 4, [](const int &v) { return v >= 1 && v <= 16; }, "NB2_TEST_COUNT"};
const Preference<QString> version {
    "test/version", QStringLiteral("v1"), &isShortName, "NB2_TEST_VERSION", &versionFromText};
const Preference<QString> unstored {nullptr, QString(), &anyValue<QString>, "NB2_TEST_DIR"};

} // namespace

/**
 * The one environment rule (set and non-empty after trimming) and the one precedence
 * (command line > environment > settings file > default), against a real settings file.
 */
class tst_Preference : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<QSettings> settingsFile(const QString &name)
    {
        return std::make_unique<QSettings>(m_dir.filePath(name), QSettings::IniFormat);
    }

private Q_SLOTS:
    void environmentOverride_data()
    {
        QTest::addColumn<bool>("set");
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("overrides");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unset") << false << QString() << false << QString();
        QTest::newRow("empty") << true << QString() << false << QString();
        QTest::newRow("spaces") << true << QStringLiteral("   ") << false << QString();
        QTest::newRow("tab and newline") << true << QStringLiteral("\t\n") << false << QString();
        QTest::newRow("value") << true << QStringLiteral("abc") << true << QStringLiteral("abc");
        QTest::newRow("value trimmed") << true << QStringLiteral("  abc \n") << true << QStringLiteral("abc");
        QTest::newRow("inner space kept") << true << QStringLiteral(" a b ") << true << QStringLiteral("a b");
    }
    void environmentOverride()
    {
        QFETCH(bool, set);
        QFETCH(QString, value);
        QFETCH(bool, overrides);
        QFETCH(QString, expected);
        QProcessEnvironment env;
        if (set)
            env.insert(QStringLiteral("NB2_TEST_NAME"), value);
        const std::optional<QString> got = nb2::environmentOverride(env, "NB2_TEST_NAME");
        QCOMPARE(got.has_value(), overrides);
        if (overrides)
            QCOMPARE(*got, expected);
        // The preference applies the same rule, and never reports the environment as the
        // source of a value it did not give.
        const Resolved<QString> r = name.resolve(env, QStringLiteral("stored"));
        QCOMPARE(r.source, overrides ? SettingSource::Environment : SettingSource::Settings);
        QCOMPARE(r.value, overrides ? expected : QStringLiteral("stored"));
    }

    void precedence_data()
    {
        QTest::addColumn<QString>("commandLine"); // null: not given
        QTest::addColumn<QString>("env");         // null: unset
        QTest::addColumn<QString>("file");        // null: not in the settings file
        QTest::addColumn<QString>("value");
        QTest::addColumn<SettingSource>("source");
        using S = SettingSource;
        const QString none;
        QTest::newRow("default") << none << none << none << "dflt" << S::Default;
        QTest::newRow("file") << none << none << "file"
                              << "file" << S::Settings;
        QTest::newRow("env beats file") << none << "env"
                                        << "file"
                                        << "env" << S::Environment;
        QTest::newRow("env beats default") << none << "env" << none << "env" << S::Environment;
        QTest::newRow("blank env: file") << none << "  "
                                         << "file"
                                         << "file" << S::Settings;
        QTest::newRow("blank env: default") << none << "" << none << "dflt" << S::Default;
        QTest::newRow("flag beats env and file") << "flag"
                                                 << "env"
                                                 << "file"
                                                 << "flag" << S::CommandLine;
        QTest::newRow("invalid file: default") << none << none << "far-too-long-for-this"
                                               << "dflt" << S::Default;
        QTest::newRow("invalid file, env") << none << "env"
                                           << "far-too-long-for-this"
                                           << "env" << S::Environment;
        // An explicit choice is taken as given: where it is used says what is wrong with it.
        QTest::newRow("env not validated") << none << "far-too-long-env"
                                           << "file"
                                           << "far-too-long-env" << S::Environment;
    }
    void precedence()
    {
        QFETCH(QString, commandLine);
        QFETCH(QString, env);
        QFETCH(QString, file);
        QFETCH(QString, value);
        QFETCH(SettingSource, source);

        auto settings = settingsFile(
            QStringLiteral("%1.ini").arg(QString::fromLatin1(QTest::currentDataTag())).replace(u' ', u'_'));
        if (!file.isNull())
            settings->setValue(QLatin1String(name.key), file); // as a hand edit would: unchecked
        settings->sync();
        QProcessEnvironment e;
        if (!env.isNull())
            e.insert(QStringLiteral("NB2_TEST_NAME"), env);
        const std::optional<QString> flag = commandLine.isNull() ? std::nullopt : std::optional<QString>(commandLine);

        const Resolved<QString> r = name.resolve(e, name.stored(*settings), flag);
        QCOMPARE(r.value, value);
        QCOMPARE(r.source, source);
        // read() is the settings layer alone.
        QCOMPARE(name.read(*settings), name.stored(*settings).value_or(name.defaultValue));
    }

    void typedEnvironmentValues()
    {
        QProcessEnvironment env;
        QCOMPARE(count.resolve(env, 7).value, 7);
        env.insert(QStringLiteral("NB2_TEST_COUNT"), QStringLiteral(" 9 "));
        QCOMPARE(count.resolve(env, 7).value, 9);
        QCOMPARE(count.resolve(env, 7).source, SettingSource::Environment);
        env.insert(QStringLiteral("NB2_TEST_COUNT"), QStringLiteral("nine"));
        // Text that is not a number does not convert: ignored (not read as 0).
        QCOMPARE(count.resolve(env, 7).value, 7);
        QCOMPARE(count.resolve(env, 7).source, SettingSource::Settings);

        // A reader maps spellings and may refuse text: a refused variable is ignored.
        env.insert(QStringLiteral("NB2_TEST_VERSION"), QStringLiteral("beta"));
        QCOMPARE(version.resolve(env, QStringLiteral("v1")).value, QStringLiteral("v1beta"));
        env.insert(QStringLiteral("NB2_TEST_VERSION"), QStringLiteral("v7"));
        const Resolved<QString> refused = version.resolve(env, QStringLiteral("v1"));
        QCOMPARE(refused.value, QStringLiteral("v1"));
        QCOMPARE(refused.source, SettingSource::Settings);
    }

    void storedValuesAreValidated()
    {
        auto settings = settingsFile(QStringLiteral("validated.ini"));
        QVERIFY(!count.write(*settings, 99)); // refused: not written
        QVERIFY(!settings->contains(QLatin1String(count.key)));
        QVERIFY(count.write(*settings, 12));
        QCOMPARE(count.read(*settings), 12);
        settings->setValue(QLatin1String(count.key), 0); // a hand edit out of range
        QCOMPARE(count.read(*settings), 4);
        QVERIFY(!count.stored(*settings).has_value());
        settings->setValue(QLatin1String(count.key), QStringLiteral("lots"));
        QCOMPARE(count.read(*settings), 4);
    }

    void unstoredPreferenceNeverTouchesTheFile()
    {
        auto settings = settingsFile(QStringLiteral("unstored.ini"));
        QVERIFY(!unstored.write(*settings, QStringLiteral("/tmp/x")));
        QVERIFY(settings->allKeys().isEmpty());
        QVERIFY(!unstored.stored(*settings).has_value());
        QProcessEnvironment env;
        QCOMPARE(unstored.resolve(env).source, SettingSource::Default);
        env.insert(QStringLiteral("NB2_TEST_DIR"), QStringLiteral("/out "));
        QCOMPARE(unstored.resolve(env).value, QStringLiteral("/out"));
        QCOMPARE(unstored.resolve(env, std::nullopt, QStringLiteral("flag")).value, QStringLiteral("flag"));
    }

    void nonEmptyText()
    {
        QVERIFY(!nb2::nonEmptyText(QString()).has_value());
        QVERIFY(!nb2::nonEmptyText(QStringLiteral(" \t")).has_value());
        QCOMPARE(*nb2::nonEmptyText(QStringLiteral(" x ")), QStringLiteral("x"));
    }
};

QTEST_GUILESS_MAIN(tst_Preference)
#include "tst_preference.moc"
