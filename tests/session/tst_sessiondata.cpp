// What a session keeps when its files are damaged (issue 11, item 8): a cut-short picture is
// refused, not kept as a finished frame; a lost manifest plus a torn last journal line keeps
// a finished frame finished (and its picture its own); a rebuild keeps created_at and the
// current frame.

#include "core/api/interactionsclient.h"
#include "core/fakeapi/fakeserver.h"
#include "core/session/journal.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"
#include "sessiontestutil.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace nb2;

class tst_SessionData : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<FakeServer> m_fake;
    std::unique_ptr<QTemporaryDir> m_tmp;
    QString m_dir;

    std::shared_ptr<InteractionsClient> client() const
    {
        ClientConfig config;
        config.baseUrl = m_fake->baseUrl();
        config.apiKey = ApiKey(QStringLiteral("test-key"), QStringLiteral("test"));
        return std::make_shared<InteractionsClient>(config);
    }

    /** One finished turn through the controller (streamed: the journal has begin, id and end). */
    QString finishedTurn(SessionController &session, const QString &prompt)
    {
        const Result<QString> id = session.generate({prompt, QStringLiteral("1:1"), {}});
        if (!id || !session.waitForIdle(60000) || !session.graph().value(id.value()).isDone())
            return {};
        return id.value();
    }

    QJsonObject manifest() const
    {
        return QJsonDocument::fromJson(test::readFile(m_dir + QStringLiteral("/manifest.json"))).object();
    }

    QStringList imageFiles() const { return QDir(m_dir + QStringLiteral("/images")).entryList(QDir::Files); }

private Q_SLOTS:
    void init()
    {
        m_fake = std::make_unique<FakeServer>();
        QVERIFY(m_fake->start(0));
        m_tmp = std::make_unique<QTemporaryDir>();
        m_dir = m_tmp->filePath(QStringLiteral("session"));
    }

    void cutShortPicturesAreRefused_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        const QByteArray png = test::pngBytes(Qt::blue, 200, 150);
        const QByteArray jpeg = test::jpegBytes(Qt::red, 200, 150);
        QTest::newRow("png, half") << png.left(png.size() / 2);
        QTest::newRow("png, without IEND") << png.left(png.size() - 12);
        QTest::newRow("jpeg, half") << jpeg.left(jpeg.size() / 2);
        QTest::newRow("jpeg, without EOI") << jpeg.left(jpeg.size() - 2);
    }

    void cutShortPicturesAreRefused()
    {
        QFETCH(QByteArray, bytes);
        const QString file = test::writeFile(m_tmp->filePath(QStringLiteral("cut.img")), bytes);
        SessionController session;
        session.setClient(client());
        QVERIFY(session.open(m_dir));
        const Result<QString> imported = session.importImage(file, QStringLiteral("cut"));
        QVERIFY(!imported);
        QCOMPARE(imported.error().kind, ErrorKind::Corrupt);
        QVERIFY2(imported.error().message.contains(QStringLiteral("cut short")), qPrintable(imported.error().message));
        QCOMPARE(session.graph().size(), 0);   // not a done frame, not any frame
        QCOMPARE(imageFiles(), QStringList()); // and no file left in images/
        // Nor is it sent to the server as an edit-local target.
        const Result<QString> sent = session.editLocal({}, file, {QStringLiteral("sharper"), {}, {}});
        QVERIFY(!sent);
        QCOMPARE(m_fake->requests().size(), 0);
    }

    void wholePicturesStillImport()
    {
        SessionController session;
        session.setClient(client());
        QVERIFY(session.open(m_dir));
        // Trailing bytes after the end (some cameras add them) do not make a picture damaged.
        const QByteArray jpeg = test::jpegBytes() + QByteArray(64, 'x');
        const QString file = test::writeFile(m_tmp->filePath(QStringLiteral("whole.jpg")), jpeg);
        QVERIFY(session.importImage(file, QStringLiteral("whole")));
        const QString png = test::writeFile(m_tmp->filePath(QStringLiteral("whole.png")), test::pngBytes());
        QVERIFY(session.importImage(png, QStringLiteral("whole png")));
        QCOMPARE(session.graph().size(), 2);
    }

    void tornJournalWithoutManifestKeepsAFinishedFrame()
    {
        QString id, image, interaction;
        {
            SessionController session;
            session.setClient(client());
            QVERIFY(session.open(m_dir));
            id = finishedTurn(session, QStringLiteral("a lighthouse"));
            QVERIFY(!id.isEmpty());
            image = session.graph().value(id).image.file;
            interaction = session.graph().value(id).interactionId;
        }
        // The crash: the manifest is gone and the journal's last line ("end") is torn.
        QVERIFY(QFile::remove(m_dir + QStringLiteral("/manifest.json")));
        QByteArray journal = test::readFile(m_dir + QStringLiteral("/journal.jsonl"));
        const qsizetype lastLine = journal.lastIndexOf('\n', journal.size() - 2) + 1;
        QVERIFY(journal.mid(lastLine).contains("\"end\""));
        journal.truncate(lastLine + (journal.size() - lastLine) / 2);
        QFile j(m_dir + QStringLiteral("/journal.jsonl"));
        QVERIFY(j.open(QIODevice::WriteOnly | QIODevice::Truncate));
        j.write(journal);
        j.close();

        SessionStore store;
        QVERIFY(store.open(m_dir));        // no manifest: rebuilt from the journal and images/
        QCOMPARE(store.graph().size(), 1); // no second "import" frame for the same picture
        const Frame f = store.graph().value(id);
        QCOMPARE(f.status, FrameStatus::Done);
        QCOMPARE(f.image.file, image);
        QCOMPARE(f.interactionId, interaction);
        QCOMPARE(f.image.sha256, SessionStore::sha256Hex(test::readFile(m_dir + QLatin1Char('/') + image)));
    }

    void rebuildKeepsCreatedAtAndCurrentFrame_data()
    {
        QTest::addColumn<QString>("damage");
        QTest::newRow("frames unreadable") << QStringLiteral("frames");
        QTest::newRow("not JSON any more") << QStringLiteral("cut");
        QTest::newRow("manifest deleted") << QStringLiteral("deleted");
    }

    void rebuildKeepsCreatedAtAndCurrentFrame()
    {
        QFETCH(QString, damage);
        QString first, second;
        {
            SessionController session;
            session.setClient(client());
            QVERIFY(session.open(m_dir));
            first = finishedTurn(session, QStringLiteral("a lighthouse"));
            second = finishedTurn(session, QStringLiteral("a harbour"));
            QVERIFY(!first.isEmpty() && !second.isEmpty());
            QVERIFY(session.setTitle(first, QStringLiteral("the one I was on"))); // the user went back to the first
            QVERIFY(session.store()->commit({}, {}, first));
        }
        const QJsonObject before = manifest();
        const QString createdAt = before.value(QStringLiteral("created_at")).toString();
        QVERIFY(!createdAt.isEmpty());
        QCOMPARE(before.value(QStringLiteral("current_frame")).toString(), first);

        const QString path = m_dir + QStringLiteral("/manifest.json");
        if (damage == QLatin1String("frames")) {
            QJsonObject broken = before;
            broken.insert(QStringLiteral("frames"), 5);
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(QJsonDocument(broken).toJson());
        } else if (damage == QLatin1String("cut")) {
            // Written with created_at and current_frame first, as the manifest is: cut after them.
            QByteArray raw = QJsonDocument(before).toJson();
            raw.truncate(raw.indexOf("\"frames\"") + 20);
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(raw);
        } else {
            QVERIFY(QFile::remove(path));
        }

        SessionStore store;
        QVERIFY(store.rebuild(m_dir));
        QCOMPARE(store.graph().size(), 2);
        const QJsonObject after = manifest();
        if (damage == QLatin1String("deleted")) {
            // Only the journal is left: it began with the first turn, a moment after the session.
            const QDateTime journalStart = fromIsoUtc(after.value(QStringLiteral("created_at")).toString());
            QVERIFY(journalStart.isValid());
            QVERIFY(qAbs(journalStart.secsTo(fromIsoUtc(createdAt))) < 60);
        } else {
            QCOMPARE(after.value(QStringLiteral("created_at")).toString(), createdAt);
        }
        QCOMPARE(store.currentFrameId(), first);
        QCOMPARE(after.value(QStringLiteral("current_frame")).toString(), first);
        QVERIFY(after.contains(QStringLiteral("rebuilt_at")));
    }
};

QTEST_GUILESS_MAIN(tst_SessionData)
#include "tst_sessiondata.moc"
