// The key store against a real Secret Service. run_keyring.sh starts a private D-Bus session
// and gnome-keyring-daemon in a throw-away HOME and runs one function per process, so that
// "restart the app" really is a new process. Each function reads what it needs from the
// environment: NB2_TEST_KEY (the key to save, generated per run; never on a command line).
// Run outside that script, every function skips.
#include "keystorerun.h"
#include "ui/keystore.h"
#include "ui/settingsdialog.h"

#include <QDir>
#include <QLabel>
#include <QLineEdit>
#include <QSettings>
#include <QSignalSpy>
#include <QTest>

using nb2::KeyStore;
using nb2::SettingsDialog;

class tst_KeyRing : public QObject
{
    Q_OBJECT

private:
    QString m_key;

    static KeyStore::Result run(KeyStore &store, const std::function<void()> &start)
    {
        return nb2::testing::runKeyStore(store, start);
    }
    static bool waitLoaded(SettingsDialog &d)
    {
        if (d.isKeyLoaded())
            return true;
        QSignalSpy spy(&d, &SettingsDialog::keyLoaded);
        return spy.wait(15000);
    }
    /** Types the key into the real dialog and presses OK; waits until the key store answered. */
    static void saveThroughDialog(SettingsDialog &d, const QString &key)
    {
        auto *edit = d.findChild<QLineEdit *>(QStringLiteral("apiKeyEdit"));
        QVERIFY(edit);
        edit->selectAll();
        QTest::keyClicks(edit, key);
        QSignalSpy saved(&d, &SettingsDialog::settingsSaved);
        d.accept();
        QVERIFY(saved.count() == 1 || saved.wait(15000));
        QCOMPARE(saved.first().at(0).toBool(), true);
    }
    static QString keyFile() { return QDir::homePath() + QStringLiteral("/gemini.key"); }

private Q_SLOTS:
    void initTestCase()
    {
        if (qEnvironmentVariableIsEmpty("NB2_KEYRING_TEST"))
            QSKIP("run through tests/widgets/run_keyring.sh (a private D-Bus session with gnome-keyring)");
        m_key = qEnvironmentVariable("NB2_TEST_KEY");
        QVERIFY(!m_key.isEmpty());
        // The app's own names, in the script's throw-away XDG_CONFIG_HOME.
        QCoreApplication::setOrganizationName(QStringLiteral("NB2Lite"));
        QCoreApplication::setApplicationName(QStringLiteral("NB2Lite Studio"));
        QVERIFY(QDir::homePath().startsWith(QDir::tempPath())); // never the real home
    }

    // 1st process, keyring unlocked: the key typed into Settings goes into the keyring.
    void settingsSavesKeyInKeyring()
    {
        KeyStore store;
        SettingsDialog d(&store, QProcessEnvironment());
        QVERIFY(waitLoaded(d));
        QCOMPARE(d.keyBackend(), KeyStore::Backend::None);
        // A keyring answered: the dialog promises the keychain, not a file.
        QVERIFY2(!d.keyStatusText().contains(QLatin1String("gemini.key")), qPrintable(d.keyStatusText()));
        saveThroughDialog(d, m_key);
        QCOMPARE(d.keyBackend(), KeyStore::Backend::Keychain);
        QCOMPARE(d.result(), int(QDialog::Accepted));
        QVERIFY2(!QFile::exists(keyFile()), "the key went to ~/gemini.key although the keyring was unlocked");
    }

    // 2nd process (the app restarted): a fresh KeyStore reads the key back from the keyring,
    // and the dialog says where it lives.
    void freshProcessReadsKeyFromKeyring()
    {
        KeyStore store;
        const auto r = run(store, [&] { store.read(); });
        QVERIFY2(r.ok, qPrintable(r.error));
        QVERIFY(r.found);
        QCOMPARE(r.key, m_key);
        QCOMPARE(r.backend, KeyStore::Backend::Keychain);
        QVERIFY(r.keychainAvailable);
        QVERIFY(r.keychainError.isEmpty());

        SettingsDialog d(&store, QProcessEnvironment());
        QVERIFY(waitLoaded(d));
        QCOMPARE(d.findChild<QLineEdit *>(QStringLiteral("apiKeyEdit"))->text(), m_key);
        QCOMPARE(d.keyBackend(), KeyStore::Backend::Keychain);
        QCOMPARE(d.keyStatusText(), QStringLiteral("Stored in the desktop keychain."));
    }

    // The keyring is there but locked (no prompt can unlock it here): saving falls back to the
    // private file, and the dialog says why instead of claiming the keychain has it.
    void lockedKeyringFallsBackWithMessage()
    {
        KeyStore store;
        SettingsDialog d(&store, QProcessEnvironment());
        QVERIFY(waitLoaded(d));
        saveThroughDialog(d, m_key);
        QCOMPARE(d.keyBackend(), KeyStore::Backend::File);
        QVERIFY(QFile::exists(keyFile()));
        const QString status = d.keyStatusText();
        qInfo("status after saving into a locked keyring: %s", qPrintable(status));
        QVERIFY2(status.contains(QLatin1String("gemini.key"))
                && status.contains(QLatin1String("The desktop keychain is locked")),
            qPrintable(status));
        // libsecret's own words are one hover away.
        const QString detail = d.findChild<QLabel *>(QStringLiteral("keyStatus"))->toolTip();
        QVERIFY2(detail.contains(QLatin1String("locked")), qPrintable(detail));
        // The dialog promised the keychain, so it does not just close: it stays open and says
        // where the key went; OK then closes it without saving the key again.
        QVERIFY(d.result() != int(QDialog::Accepted));
        auto *note = d.findChild<QLabel *>(QStringLiteral("errorLabel"));
        QVERIFY(note && !note->isHidden());
        QVERIFY2(note->text().contains(QLatin1String("gemini.key")), qPrintable(note->text()));
        const QString shots = qEnvironmentVariable("NB2_SCREENSHOT_OUT"); // docs/screenshots, by hand
        if (!shots.isEmpty()) {
            d.show();
            QVERIFY(QTest::qWaitForWindowExposed(&d));
            QVERIFY(d.grab().save(shots + QStringLiteral("/widgets-settings-keyring-locked.png"), "PNG"));
        }
        QSignalSpy saved(&d, &SettingsDialog::settingsSaved);
        d.accept();
        QCOMPARE(saved.count(), 1);
        QCOMPARE(saved.first().at(0).toBool(), false);
        QCOMPARE(d.result(), int(QDialog::Accepted));
        QVERIFY2(!status.contains(QLatin1String("no desktop keychain service is running"), Qt::CaseInsensitive),
            qPrintable(status));

        // A fresh store finds the key in the file and still says the keyring is locked.
        KeyStore fresh;
        const auto r = run(fresh, [&] { fresh.read(); });
        QVERIFY(r.ok && r.found);
        QCOMPARE(r.key, m_key);
        QCOMPARE(r.backend, KeyStore::Backend::File);
        QFile::remove(keyFile());
    }

    // No Secret Service on the bus at all: the file, and a message that says so.
    void absentKeyringFallsBackWithMessage()
    {
        KeyStore store;
        SettingsDialog d(&store, QProcessEnvironment());
        QVERIFY(waitLoaded(d));
        // Before anything is typed, the dialog says where a key would go, and why.
        const QString status = d.keyStatusText();
        qInfo("status without a Secret Service: %s", qPrintable(status));
        QVERIFY2(status.contains(QLatin1String("gemini.key"))
                && status.contains(QLatin1String("No Secret Service keyring is running")),
            qPrintable(status));
        const QString detail = d.findChild<QLabel *>(QStringLiteral("keyStatus"))->toolTip();
        QVERIFY2(detail.contains(QLatin1String("org.freedesktop.secrets")), qPrintable(detail));
        saveThroughDialog(d, m_key);
        QCOMPARE(d.keyBackend(), KeyStore::Backend::File);
        QCOMPARE(d.result(), int(QDialog::Accepted)); // it said so before OK: nothing to add
        QVERIFY(QFile::exists(keyFile()));
        QFile::remove(keyFile());
    }
};

QTEST_MAIN(tst_KeyRing)
#include "tst_keyring.moc"
