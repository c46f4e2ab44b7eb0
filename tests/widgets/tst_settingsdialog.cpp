#include "core/api/clientconfig.h"
#include "ui/screenfit.h"
#include "ui/settingsdialog.h"

#include <QAbstractButton>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using nb2::AppSettings;
using nb2::KeyStore;
using nb2::SettingsDialog;

class tst_SettingsDialog : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    KeyStore *makeStore(QObject *parent)
    {
        auto *store = new KeyStore(parent);
        store->setKeychainEnabled(false); // the fallback path, deterministic on any machine
        store->setFilePath(m_dir.filePath(QStringLiteral("gemini.key")));
        return store;
    }
    static bool waitLoaded(SettingsDialog &d)
    {
        if (d.isKeyLoaded())
            return true;
        QSignalSpy spy(&d, &SettingsDialog::keyLoaded);
        return spy.wait(10000);
    }
    template <typename T> static T *child(SettingsDialog &d, const char *name)
    {
        return d.findChild<T *>(QLatin1String(name));
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("nb2lite-tests"));
        // ctest starts this program several times at once (the screen variants in CMakeLists.txt run
        // priceNoteIsWhole), and each run clears and deletes its settings file: one file per
        // process, or one run's clear() lands in the middle of another's roundTrip().
        const qint64 pid = QCoreApplication::applicationPid();
        QCoreApplication::setApplicationName(QStringLiteral("tst_settingsdialog-%1").arg(pid));
        QSettings().clear();
        QVERIFY(m_dir.isValid());
    }
    void cleanupTestCase()
    {
        QSettings s;
        s.clear();
        s.sync();
        QFile::remove(s.fileName());
    }

    void roundTrip()
    {
        const QString secret = QStringLiteral("AIzaSy-roundtrip-SECRET-4321");
        QObject owner;
        {
            SettingsDialog d(makeStore(&owner), QProcessEnvironment());
            QVERIFY(waitLoaded(d));
            QVERIFY(child<QLineEdit>(d, "apiKeyEdit")->text().isEmpty());
            QCOMPARE(child<QLineEdit>(d, "apiKeyEdit")->echoMode(), QLineEdit::Password);

            child<QComboBox>(d, "modelEdit")->setCurrentText(QStringLiteral("gemini-test-model"));
            child<QLineEdit>(d, "baseUrlEdit")->setText(QStringLiteral("http://127.0.0.1:8123"));
            auto *version = child<QComboBox>(d, "apiVersionCombo");
            version->setCurrentIndex(version->findData(QStringLiteral("v1beta")));
            auto *tier = child<QComboBox>(d, "tierCombo");
            QVERIFY(child<QSpinBox>(d, "customDaysSpin")->isHidden()); // paid: fixed 55 days
            tier->setCurrentIndex(tier->findData(QStringLiteral("custom")));
            QVERIFY(!child<QSpinBox>(d, "customDaysSpin")->isHidden()); // only shown for "custom"
            child<QSpinBox>(d, "customDaysSpin")->setValue(12);
            child<QSpinBox>(d, "concurrencySpin")->setValue(7);
            d.setThinkingLevels({QStringLiteral("minimal"), QStringLiteral("low"), QStringLiteral("high")});
            auto *thinking = child<QComboBox>(d, "thinkingCombo");
            thinking->setCurrentIndex(thinking->findData(QStringLiteral("high")));
            child<QLineEdit>(d, "sessionsFolderEdit")->setText(m_dir.filePath(QStringLiteral("sessions")));
            QTest::keyClicks(child<QLineEdit>(d, "apiKeyEdit"), secret);
            QVERIFY(d.keyStatusText().contains(QLatin1String("0600"))); // says where the key will go

            QSignalSpy saved(&d, &SettingsDialog::settingsSaved);
            QSignalSpy accepted(&d, &QDialog::accepted);
            d.accept();
            QVERIFY(saved.wait(10000) || saved.count() == 1);
            QCOMPARE(saved.first().at(0).toBool(), true);
            QCOMPARE(accepted.count(), 1);
            QCOMPARE(d.result(), int(QDialog::Accepted));
        }

        // Values persisted through the typed tables.
        const AppSettings s = AppSettings::load(QSettings());
        QCOMPARE(s.model, QStringLiteral("gemini-test-model"));
        QCOMPARE(s.baseUrl, QStringLiteral("http://127.0.0.1:8123"));
        QCOMPARE(s.apiVersion, QStringLiteral("v1beta"));
        QCOMPARE(s.thinkingLevel, QStringLiteral("high"));
        QCOMPARE(s.session.retentionPlan, QStringLiteral("custom"));
        QCOMPARE(s.session.customRetentionDays, 12);
        QCOMPARE(s.session.retentionDays(), 12);
        QCOMPARE(s.session.concurrencyLimit, 7);
        QCOMPARE(s.sessionsFolder, m_dir.filePath(QStringLiteral("sessions")));

        // The key is in the private file, and nowhere in the settings file.
        struct stat st {
        };
        QVERIFY(::stat(QFile::encodeName(m_dir.filePath(QStringLiteral("gemini.key"))).constData(), &st) == 0);
        QCOMPARE(int(st.st_mode & 0777), 0600);
        QSettings settings;
        settings.sync();
        QVERIFY(settings.fileName().contains(QLatin1String(".qttest"))); // test mode: not the user's config
        QFile file(settings.fileName());
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray raw = file.readAll();
        QVERIFY(raw.contains("gemini-test-model"));
        QVERIFY(!raw.contains(secret.toUtf8()));
        QVERIFY(!raw.contains("SECRET"));

        // A new dialog shows what was saved, key included.
        SettingsDialog again(makeStore(&owner), QProcessEnvironment());
        QVERIFY(waitLoaded(again));
        QCOMPARE(child<QLineEdit>(again, "apiKeyEdit")->text(), secret);
        QCOMPARE(again.keyBackend(), KeyStore::Backend::File);
        QVERIFY(again.keyStatusText().contains(QLatin1String("0600")));
        const AppSettings shown = again.values();
        QCOMPARE(shown.model, s.model);
        QCOMPARE(shown.baseUrl, s.baseUrl);
        QCOMPARE(shown.apiVersion, s.apiVersion);
        QCOMPARE(shown.thinkingLevel, s.thinkingLevel);
        QCOMPARE(shown.session.concurrencyLimit, 7);
        QCOMPARE(shown.session.customRetentionDays, 12);
        QCOMPARE(shown.sessionsFolder, s.sessionsFolder);

        // Cancel changes nothing.
        child<QSpinBox>(again, "concurrencySpin")->setValue(2);
        again.reject();
        QCOMPARE(AppSettings::load(QSettings()).session.concurrencyLimit, 7);
    }

    void forgettingTheKeyDeletesIt()
    {
        QObject owner;
        KeyStore *store = makeStore(&owner);
        QVERIFY(KeyStore::writeFile(store->filePath(), QStringLiteral("to-be-forgotten")).ok);
        SettingsDialog d(store, QProcessEnvironment());
        QVERIFY(waitLoaded(d));
        QCOMPARE(child<QLineEdit>(d, "apiKeyEdit")->text(), QStringLiteral("to-be-forgotten"));
        QTest::mouseClick(d.findChild<QPushButton *>(QStringLiteral("removeKeyButton")), Qt::LeftButton);
        QVERIFY(d.keyStatusText().contains(QLatin1String("deleted")));
        QSignalSpy saved(&d, &SettingsDialog::settingsSaved);
        d.accept();
        QVERIFY(saved.count() == 1 || saved.wait(10000));
        QVERIFY(!QFile::exists(store->filePath()));
    }

    void sharedStoreResultsOfOthersAreIgnored()
    {
        QObject owner;
        KeyStore *store = makeStore(&owner);
        QVERIFY(KeyStore::writeFile(store->filePath(), QStringLiteral("shared-key")).ok);
        SettingsDialog d(store, QProcessEnvironment());
        QVERIFY(waitLoaded(d));
        auto *edit = child<QLineEdit>(d, "apiKeyEdit");
        edit->clear();
        QTest::keyClicks(edit, QStringLiteral("typed-by-user"));
        // The main window reads the key on the same store: the user's typing must survive.
        QSignalSpy spy(store, &KeyStore::finished);
        store->read();
        QVERIFY(spy.wait(10000));
        QCoreApplication::processEvents();
        QCOMPARE(edit->text(), QStringLiteral("typed-by-user"));
        QFile::remove(store->filePath());
    }

    void invalidValuesKeepTheDialogOpen_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("remote http") << "baseUrlEdit"
                                     << "http://example.com"
                                     << "http";
        QTest::newRow("not a url") << "baseUrlEdit"
                                   << "not a url"
                                   << "valid";
        QTest::newRow("relative folder") << "sessionsFolderEdit"
                                         << "relative/dir"
                                         << "absolute";
    }
    void invalidValuesKeepTheDialogOpen()
    {
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(QString, message);
        QObject owner;
        SettingsDialog d(makeStore(&owner), QProcessEnvironment());
        QVERIFY(waitLoaded(d));
        d.findChild<QLineEdit *>(field)->setText(value);
        QSignalSpy saved(&d, &SettingsDialog::settingsSaved);
        d.accept();
        QCOMPARE(saved.count(), 0);
        QVERIFY(d.result() != QDialog::Accepted);
        auto *error = d.findChild<QLabel *>(QStringLiteral("errorLabel"));
        QVERIFY(!error->isHidden());
        QVERIFY2(error->text().contains(message, Qt::CaseInsensitive), qPrintable(error->text()));
    }

    void environmentOverridesAreShown()
    {
        QProcessEnvironment env;
        env.insert(QStringLiteral("GEMINI_API_KEY"), QStringLiteral("env-key-never-shown"));
        env.insert(QStringLiteral("GEMINI_MODEL_NAME"), QStringLiteral("env-model"));
        QObject owner;
        SettingsDialog d(makeStore(&owner), env);
        QVERIFY(waitLoaded(d));
        auto *note = d.findChild<QLabel *>(QStringLiteral("envKeyNote"));
        QVERIFY(!note->isHidden());
        QVERIFY(note->text().contains(QLatin1String("GEMINI_API_KEY from the environment overrides this")));
        for (auto *label : d.findChildren<QLabel *>())
            QVERIFY(!label->text().contains(QLatin1String("env-key-never-shown")));
        QVERIFY(child<QLineEdit>(d, "apiKeyEdit")->text() != QLatin1String("env-key-never-shown"));
    }

    void clientConfigLetsTheEnvironmentWin()
    {
        AppSettings s = AppSettings::defaults();
        s.model = QStringLiteral("settings-model");
        s.baseUrl = QStringLiteral("http://127.0.0.1:9");
        s.apiVersion = QStringLiteral("v1beta");

        auto c = s.clientConfig(QProcessEnvironment(), QStringLiteral("stored-key"), QStringLiteral("keychain"));
        QCOMPARE(c.model, QStringLiteral("settings-model"));
        QCOMPARE(c.baseUrl, QStringLiteral("http://127.0.0.1:9"));
        QCOMPARE(c.apiVersion, QStringLiteral("v1beta"));
        QCOMPARE(c.apiKey.value(), QStringLiteral("stored-key"));
        QCOMPARE(c.apiKey.source(), QStringLiteral("keychain"));

        QProcessEnvironment env;
        env.insert(QStringLiteral("GEMINI_API_KEY"), QStringLiteral("env-key"));
        env.insert(QStringLiteral("GEMINI_MODEL_NAME"), QStringLiteral("env-model"));
        env.insert(QStringLiteral("GOOGLE_GEMINI_BASE_URL"), QStringLiteral("http://127.0.0.1:10"));
        c = s.clientConfig(env, QStringLiteral("stored-key"), QStringLiteral("keychain"));
        QCOMPARE(c.model, QStringLiteral("env-model"));
        QCOMPARE(c.baseUrl, QStringLiteral("http://127.0.0.1:10"));
        QCOMPARE(c.apiKey.value(), QStringLiteral("env-key"));
        QCOMPARE(c.apiKey.source(), QStringLiteral("GEMINI_API_KEY"));
    }

    void restoreDefaults()
    {
        QObject owner;
        SettingsDialog d(makeStore(&owner), QProcessEnvironment());
        QVERIFY(waitLoaded(d));
        child<QSpinBox>(d, "concurrencySpin")->setValue(9);
        d.restoreDefaults();
        const AppSettings v = d.values();
        QCOMPARE(v.session.concurrencyLimit, nb2::prefs::concurrencyLimit.defaultValue);
        QCOMPARE(v.model, QString::fromLatin1(nb2::kDefaultModel));
        QCOMPARE(v.apiVersion, QStringLiteral("v1"));
    }

    void everyPriceRowIsEditable()
    {
        // Issue 14 papercut: the rates of every model in the table can be edited, not only
        // the chosen model's, and choosing another model shows that model's rates at once.
        QObject owner;
        SettingsDialog d(makeStore(&owner), QProcessEnvironment());
        QVERIFY(waitLoaded(d));
        AppSettings v = AppSettings::defaults();
        v.model = QStringLiteral("gemini-3.1-flash-lite-image");
        v.prices = nb2::PriceTable::defaults();
        d.setValues(v);
        auto *rowCombo = child<QComboBox>(d, "priceModelCombo");
        auto *input = child<QDoubleSpinBox>(d, "inputRateSpin");
        auto *image = child<QDoubleSpinBox>(d, "imageRateSpin");
        QVERIFY(rowCombo && input && image);
        QCOMPARE(rowCombo->count(), v.prices.models.size());
        QCOMPARE(rowCombo->currentData().toString(), v.model);
        QCOMPARE(image->value(), 30.0);

        // Another row: its own rates; edit them, the chosen model's row stays as it was.
        rowCombo->setCurrentIndex(rowCombo->findData(QStringLiteral("gemini-3.1-flash-image-preview")));
        QCOMPARE(image->value(), 60.0);
        image->setValue(45.0);
        input->setValue(0.75);
        nb2::PriceTable out = d.values().prices;
        QCOMPARE(out.find(QStringLiteral("gemini-3.1-flash-image-preview"))->imageOutputPerMTok, 45.0);
        QCOMPARE(out.find(QStringLiteral("gemini-3.1-flash-image-preview"))->inputPerMTok, 0.75);
        QCOMPARE(out.find(QStringLiteral("gemini-3.1-flash-lite-image"))->imageOutputPerMTok, 30.0);
        QCOMPARE(out.models.size(), v.prices.models.size());

        // Changing the model in the dialog refreshes the rates to that model's row.
        auto *model = child<QComboBox>(d, "modelEdit");
        model->setCurrentText(QStringLiteral("gemini-2.5-flash-image"));
        QCOMPARE(rowCombo->currentData().toString(), QStringLiteral("gemini-2.5-flash-image"));
        QCOMPARE(input->value(), 0.30);
        QCOMPARE(child<QDoubleSpinBox>(d, "outputRateSpin")->value(), 2.50);
        model->setCurrentText(QStringLiteral("gemini-3.1-flash-image-preview"));
        QCOMPARE(image->value(), 45.0); // the edit made above is kept while the dialog is open

        // A model without a row shows the fallback; editing it adds a row for it.
        model->setCurrentText(QStringLiteral("gemini-new-model"));
        QCOMPARE(rowCombo->currentData().toString(), QStringLiteral("gemini-new-model"));
        QVERIFY(child<QLabel>(d, "pricesNote")->text().contains(QStringLiteral("not in the table")));
        QCOMPARE(d.values().prices.models.size(), v.prices.models.size()); // not edited: no row
        image->setValue(12.0);
        out = d.values().prices;
        QCOMPARE(out.models.size(), v.prices.models.size() + 1);
        QCOMPARE(out.find(QStringLiteral("gemini-new-model"))->imageOutputPerMTok, 12.0);
    }

    void priceNoteIsWhole_data()
    {
        // Run on three screens (tests/widgets/CMakeLists.txt): the offscreen default (800x800),
        // 800x600 and 1600x1000, and the last at QT_SCALE_FACTOR=2 (800x500 logical).
        QTest::addColumn<bool>("narrowest"); // false: the size the dialog opens at (as WindowDialogs opens it)
        QTest::addColumn<QString>("model");
        const QString known = QStringLiteral("gemini-3.1-flash-lite-image");
        const QString unknown = QStringLiteral("gemini-new-model"); // the longer "not in the table" note
        QTest::newRow("as opened") << false << known;
        QTest::newRow("as opened, model not in the table") << false << unknown;
        QTest::newRow("narrowest") << true << unknown;
    }
    void priceNoteIsWhole()
    {
        // The note under the prices wraps; in a QFormLayout of a top-level dialog its extra lines
        // used to be cut at the bottom of the Cost group (and the budget box squeezed).
        QFETCH(bool, narrowest);
        QFETCH(QString, model);
        QObject owner;
        SettingsDialog d(makeStore(&owner), QProcessEnvironment());
        QVERIFY(waitLoaded(d));
        AppSettings v = AppSettings::defaults();
        v.model = model;
        d.setValues(v);
        d.show();
        nb2::fitToScreen(&d);
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        if (narrowest)
            d.resize(d.minimumSize());
        QTest::qWait(100); // the layout requests settle
        auto *note = child<QLabel>(d, "pricesNote");
        QVERIFY(note);
        auto *box = qobject_cast<QGroupBox *>(note->parentWidget());
        QVERIFY(box);
        QVERIFY(!note->text().isEmpty() && note->isVisible());
        const QRect screen = d.screen()->availableGeometry();
        const QString where = QStringLiteral("screen %1x%2, dialog %3x%4, note %5x%6 needs %7")
                                  .arg(screen.width())
                                  .arg(screen.height())
                                  .arg(d.width())
                                  .arg(d.height())
                                  .arg(note->width())
                                  .arg(note->height())
                                  .arg(note->heightForWidth(note->width()));
        qInfo("%s", qPrintable(where));
        QVERIFY2(note->height() >= note->heightForWidth(note->width()), qPrintable(where));
        QVERIFY2(box->contentsRect().contains(QRect(note->mapTo(box, QPoint(0, 0)), note->size())), qPrintable(where));
        // The group is whole where it is laid out: in the scrolled page (on a short screen), else the dialog.
        auto *scroll = child<QScrollArea>(d, "settingsScroll");
        QWidget *page = scroll ? scroll->widget() : static_cast<QWidget *>(&d);
        QVERIFY2(page->rect().contains(QRect(box->mapTo(page, QPoint(0, 0)), box->size())), qPrintable(where));
        // No field of any group is squeezed below its own minimum either.
        for (QWidget *w : page->findChildren<QWidget *>()) {
            if (w->isVisible() && (qobject_cast<QAbstractSpinBox *>(w) || qobject_cast<QComboBox *>(w)))
                QVERIFY2(w->height() >= w->minimumSizeHint().height(), qPrintable(w->objectName() + where));
        }
        QVERIFY(scroll);
        QVERIFY2(!scroll->horizontalScrollBar()->isVisible() || screen.width() < d.minimumSizeHint().width(),
            qPrintable(where));
        // At the size it opens at, a screen with room for all of it shows all of it: nothing to scroll.
        const int needed = d.height() - scroll->height() + scroll->widget()->heightForWidth(scroll->width());
        if (!narrowest && needed + 40 <= screen.height()) {
            QVERIFY2(d.height() >= needed, qPrintable(where));
            QVERIFY2(!scroll->verticalScrollBar()->isVisible(), qPrintable(where));
        }
    }

    void priceNoteHasNoBlankLine()
    {
        // Opened as the window opens it. The note used to be given the height of three lines
        // at a width where its text takes two (QFormLayout measured it narrower than it laid it
        // out), which left a blank line at the bottom of the Cost group.
        QObject owner;
        SettingsDialog d(makeStore(&owner), QProcessEnvironment());
        QVERIFY(waitLoaded(d));
        d.open();
        nb2::fitToScreen(&d);
        QVERIFY(QTest::qWaitForWindowExposed(&d));
        QTest::qWait(100); // the layout requests settle
        auto *note = child<QLabel>(d, "pricesNote");
        QVERIFY(note && note->isVisible());
        const int needed = note->heightForWidth(note->width());
        QVERIFY2(note->height() == needed,
            qPrintable(QStringLiteral("note %1x%2, its text needs %3 px (a line: %4)")
                           .arg(note->width())
                           .arg(note->height())
                           .arg(needed)
                           .arg(note->fontMetrics().lineSpacing())));
        // Its text starts where the fields start, right under the rates it explains.
        const QWidget *box = note->parentWidget();
        auto *form = qobject_cast<QFormLayout *>(box->layout());
        QVERIFY(form);
        int fieldX = -1;
        for (int row = 0; row < form->rowCount() && fieldX < 0; ++row) {
            if (QLayoutItem *field = form->itemAt(row, QFormLayout::FieldRole); field && field->widget())
                fieldX = field->widget()->mapTo(box, QPoint(0, 0)).x();
        }
        QCOMPARE(note->mapTo(box, QPoint(0, 0)).x() + note->indent(), fieldX);
    }

    void everyControlIsNamed()
    {
        QObject owner;
        SettingsDialog d(makeStore(&owner), QProcessEnvironment());
        QVERIFY(waitLoaded(d));
        for (QWidget *w : d.findChildren<QWidget *>()) {
            const bool interactive = qobject_cast<QAbstractButton *>(w) || qobject_cast<QLineEdit *>(w)
                || qobject_cast<QComboBox *>(w) || qobject_cast<QAbstractSpinBox *>(w);
            if (!interactive || !w->isVisibleTo(&d) || w->parent()->inherits("QComboBox")
                || w->parent()->inherits("QAbstractSpinBox"))
                continue;
            QVERIFY2(!w->accessibleName().isEmpty(), w->metaObject()->className());
            QVERIFY2(!w->toolTip().isEmpty() || w->inherits("QLineEdit"), qPrintable(w->accessibleName()));
        }
    }
};

QTEST_MAIN(tst_SettingsDialog)
#include "tst_settingsdialog.moc"
