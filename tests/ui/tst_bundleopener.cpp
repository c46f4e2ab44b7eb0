// Opening a .nb2session bundle handed to the app (issue 9): the question where to unpack it,
// the default beside the bundle, the unpacked folder opened as the window's session, and a
// damaged bundle that leaves nothing behind. Bundles are made by the real exporter.
#include "core/export/exportsession.h"
#include "core/export/sessionbundle.h"
#include "core/session/sessioncontroller.h"
#include "tests/export/exportfixture.h"
#include "ui/bundleopener.h"
#include "ui/mainwindow.h"
#include "ui/sessionmanager.h"
#include "ui/timelinemodel.h"

#include <QApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <functional>

using namespace nb2;

class tst_BundleOpener : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    QString m_bundle;
    int m_frames = 0;

    /** Runs action on the bundle dialog once open() or askFolder() shows it. */
    static void whenDialogShows(std::function<void(QDialog *)> action)
    {
        QTimer::singleShot(0, qApp, [action] {
            auto *dialog = qobject_cast<QDialog *>(QApplication::activeModalWidget());
            if (!dialog || dialog->objectName() != QLatin1String("bundleOpenDialog")) {
                whenDialogShows(action); // not up yet
                return;
            }
            action(dialog);
        });
    }
    static void clickOk(QDialog *dialog)
    {
        dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
    }
    static QString copyOf(const QString &bundle, const QString &path)
    {
        QDir().mkpath(QFileInfo(path).absolutePath());
        QFile::remove(path);
        if (!QFile::copy(bundle, path))
            qFatal("cannot copy the bundle");
        return path;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("NB2LiteTest"));
        QApplication::setApplicationName(QStringLiteral("tst_bundleopener"));
        QVERIFY(m_tmp.isValid());
        SessionStore store;
        QVERIFY(store.open(m_tmp.filePath(QStringLiteral("original"))));
        testing::buildStandardSession(store, QStringLiteral("A fox in the snow"));
        m_frames = store.graph().size();
        m_bundle = m_tmp.filePath(QStringLiteral("Harbour trip.nb2session"));
        QVERIFY(SessionBundle::write(ExportSession::fromGraph(store.graph(), store.dir()), m_bundle).ok());
    }

    void recognisesBundlesBySuffix_data()
    {
        QTest::addColumn<QString>("path");
        QTest::addColumn<bool>("bundle");
        QTest::newRow("bundle") << QStringLiteral("/a/trip.nb2session") << true;
        QTest::newRow("upper case") << QStringLiteral("/a/TRIP.NB2SESSION") << true;
        QTest::newRow("picture") << QStringLiteral("/a/trip.png") << false;
        QTest::newRow("folder name") << QStringLiteral("/a/nb2session") << false;
    }
    void recognisesBundlesBySuffix()
    {
        QFETCH(QString, path);
        QFETCH(bool, bundle);
        QCOMPARE(BundleOpener::isBundle(path), bundle);
    }

    void suggestsAFreshFolderBesideTheBundle()
    {
        QTemporaryDir dir;
        const QString bundle = copyOf(m_bundle, dir.filePath(QStringLiteral("trip.nb2session")));
        QCOMPARE(BundleOpener::suggestedFolder(bundle), dir.filePath(QStringLiteral("trip")));
        // An empty folder of that name is fine; a used one is not reused.
        QVERIFY(QDir().mkpath(dir.filePath(QStringLiteral("trip"))));
        QCOMPARE(BundleOpener::suggestedFolder(bundle), dir.filePath(QStringLiteral("trip")));
        QVERIFY(QFile(dir.filePath(QStringLiteral("trip/manifest.json"))).open(QIODevice::WriteOnly));
        QCOMPARE(BundleOpener::suggestedFolder(bundle), dir.filePath(QStringLiteral("trip 2")));
    }

    void suggestsTheFallbackWhenTheBundlesFolderIsNotWritable()
    {
        QTemporaryDir dir;
        const QString sessions = dir.filePath(QStringLiteral("sessions"));
        // A folder that is gone (the bundle came from a removed mount) is not writable, even for root.
        QCOMPARE(BundleOpener::suggestedFolder(dir.filePath(QStringLiteral("gone/trip.nb2session")), sessions),
            sessions + QStringLiteral("/trip"));
        // A read-only folder, where permissions count (not as root).
        const QString bundle = copyOf(m_bundle, dir.filePath(QStringLiteral("ro/trip.nb2session")));
        QFile::setPermissions(dir.filePath(QStringLiteral("ro")), QFile::ReadOwner | QFile::ExeOwner);
        const bool rootIgnoresPermissions = QFileInfo(dir.filePath(QStringLiteral("ro"))).isWritable();
        const QString suggested = BundleOpener::suggestedFolder(bundle, sessions);
        QFile::setPermissions(
            dir.filePath(QStringLiteral("ro")), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        if (rootIgnoresPermissions)
            QSKIP("running as root: a read-only folder is still writable");
        QCOMPARE(suggested, sessions + QStringLiteral("/trip"));
    }

    void refusesFoldersThatCannotTakeABundle()
    {
        QTemporaryDir dir;
        QVERIFY(BundleOpener::folderProblem(dir.filePath(QStringLiteral("new"))).isEmpty());
        QVERIFY(BundleOpener::folderProblem(dir.path()).isEmpty()); // empty: fine
        QVERIFY(QFile(dir.filePath(QStringLiteral("file"))).open(QIODevice::WriteOnly));
        QVERIFY(BundleOpener::folderProblem(dir.path()).contains(QLatin1String("not empty")));
        QVERIFY(BundleOpener::folderProblem(dir.filePath(QStringLiteral("file"))).contains(QLatin1String("is a file")));
        QVERIFY(QFile::link(dir.filePath(QStringLiteral("new")), dir.filePath(QStringLiteral("link"))));
        QVERIFY(
            BundleOpener::folderProblem(dir.filePath(QStringLiteral("link"))).contains(QLatin1String("symbolic link")));
        QVERIFY(!BundleOpener::folderProblem(QString()).isEmpty());
    }

    // The whole path the desktop takes: ask (default accepted), unpack, open in the window.
    void opensTheBundleAsTheWindowsSession()
    {
        QTemporaryDir dir;
        const QString bundle = copyOf(m_bundle, dir.filePath(QStringLiteral("Harbour trip.nb2session")));
        const QByteArray bundleBytes = [&] {
            QFile f(bundle);
            f.open(QIODevice::ReadOnly);
            return f.readAll();
        }();
        MainWindow window;
        BundleOpener opener(&window, BundleOpener::inBackground(window.sessions())); // the app's opener
        bool openedInBackground = false;
        connect(window.sessions(), &SessionManager::openingChanged, this,
            [&openedInBackground](bool opening) { openedInBackground = openedInBackground || opening; });
        QSignalSpy finished(&opener, &BundleOpener::finished);
        QString shownDefault;
        whenDialogShows([&shownDefault](QDialog *dialog) {
            shownDefault = dialog->findChild<QLineEdit *>(QStringLiteral("bundleFolderEdit"))->text();
            // To look at the question: NB2_SCREENSHOT_DIR=/tmp/x tst_bundleopener (under xvfb-run).
            if (const QString shots = qEnvironmentVariable("NB2_SCREENSHOT_DIR"); !shots.isEmpty())
                dialog->grab().save(shots + QStringLiteral("/bundle-open-dialog.png"));
            clickOk(dialog);
        });
        QVERIFY(opener.open(bundle));
        QVERIFY(finished.wait(20000));
        const QString expected = dir.filePath(QStringLiteral("Harbour trip"));
        QCOMPARE(QDir::fromNativeSeparators(shownDefault), expected);
        QCOMPARE(finished.first().at(0).toString(), expected);
        QCOMPARE(finished.first().at(1).toString(), QString());
        QVERIFY(openedInBackground); // read off the GUI thread, as the menu's open
        QCOMPARE(window.sessions()->dir(), expected);
        QCOMPARE(window.session()->graph().size(), m_frames);
        QCOMPARE(window.timelineModel()->rowCount(), m_frames);
        QVERIFY(QFileInfo::exists(expected + QStringLiteral("/manifest.json")));
        // The bundle is untouched.
        QFile again(bundle);
        QVERIFY(again.open(QIODevice::ReadOnly));
        QCOMPARE(again.readAll(), bundleBytes);
    }

    void aUsedFolderIsRefusedInTheDialogAndAnotherCanBeChosen()
    {
        QTemporaryDir dir;
        const QString bundle = copyOf(m_bundle, dir.filePath(QStringLiteral("trip.nb2session")));
        const QString used = dir.filePath(QStringLiteral("used"));
        QVERIFY(QDir().mkpath(used));
        QVERIFY(QFile(used + QStringLiteral("/notes.txt")).open(QIODevice::WriteOnly));
        BundleOpener opener(nullptr, {});
        bool refusedVisibly = false;
        const QString other = dir.filePath(QStringLiteral("elsewhere/trip"));
        whenDialogShows([&](QDialog *dialog) {
            auto *edit = dialog->findChild<QLineEdit *>(QStringLiteral("bundleFolderEdit"));
            auto *problem = dialog->findChild<QLabel *>(QStringLiteral("bundleFolderProblem"));
            edit->setText(used);
            clickOk(dialog);
            refusedVisibly
                = dialog->isVisible() && problem->isVisible() && problem->text().contains(QLatin1String("not empty"));
            edit->setText(other);
            clickOk(dialog);
        });
        QCOMPARE(opener.askFolder(bundle), other);
        QVERIFY(refusedVisibly);
        QCOMPARE(QDir(used).entryList(QDir::Files), QStringList {QStringLiteral("notes.txt")});
    }

    void cancellingLeavesNothing()
    {
        QTemporaryDir dir;
        const QString bundle = copyOf(m_bundle, dir.filePath(QStringLiteral("trip.nb2session")));
        BundleOpener opener(nullptr, [](const QString &, BundleOpener::OpenDone done) { done({}); });
        QSignalSpy finished(&opener, &BundleOpener::finished);
        whenDialogShows([](QDialog *dialog) { dialog->reject(); });
        QVERIFY(!opener.open(bundle));
        QTest::qWait(50);
        QCOMPARE(finished.size(), 0);
        QVERIFY(!QFileInfo::exists(dir.filePath(QStringLiteral("trip"))));
    }

    // The opener answers later (the app reads the session on a worker): finished() waits for
    // that answer, carries its error, and the opener stays busy meanwhile.
    void finishedWaitsForTheSessionToOpen()
    {
        QTemporaryDir dir;
        const QString bundle = copyOf(m_bundle, dir.filePath(QStringLiteral("late.nb2session")));
        BundleOpener::OpenDone pending;
        BundleOpener opener(nullptr, [&pending](const QString &, BundleOpener::OpenDone done) { pending = done; });
        QSignalSpy finished(&opener, &BundleOpener::finished);
        const QString target = dir.filePath(QStringLiteral("late"));
        opener.unpack(bundle, target);
        QTRY_VERIFY_WITH_TIMEOUT(bool(pending), 20000); // unpacked, the open asked for
        QTest::qWait(50);
        QCOMPARE(finished.size(), 0);
        QVERIFY(opener.isBusy());
        QVERIFY(QApplication::overrideCursor());
        pending(Error::make(ErrorKind::Corrupt, QStringLiteral("manifest.json is damaged")));
        QCOMPARE(finished.size(), 1);
        QCOMPARE(finished.first().at(0).toString(), target);
        QVERIFY(finished.first().at(1).toString().contains(QLatin1String("manifest.json is damaged")));
        QVERIFY(!opener.isBusy());
        QVERIFY(!QApplication::overrideCursor());
    }

    void aDamagedBundleIsReportedAndLeavesNothing()
    {
        QTemporaryDir dir;
        const QString bundle = copyOf(m_bundle, dir.filePath(QStringLiteral("damaged.nb2session")));
        QFile f(bundle);
        QVERIFY(f.open(QIODevice::ReadWrite));
        QVERIFY(f.resize(f.size() / 2));
        f.close();
        bool opened = false;
        BundleOpener opener(nullptr, [&opened](const QString &, BundleOpener::OpenDone done) {
            opened = true;
            done({});
        });
        QSignalSpy finished(&opener, &BundleOpener::finished);
        const QString target = dir.filePath(QStringLiteral("damaged"));
        opener.unpack(bundle, target);
        QVERIFY(opener.isBusy());
        QVERIFY(finished.wait(20000));
        QVERIFY(!opener.isBusy());
        QVERIFY(!finished.first().at(1).toString().isEmpty());
        QVERIFY(!opened);
        QVERIFY(!QFileInfo::exists(target) || QDir(target).isEmpty());
        QVERIFY(!QApplication::overrideCursor());
    }
};

QTEST_MAIN(tst_BundleOpener)
#include "tst_bundleopener.moc"
