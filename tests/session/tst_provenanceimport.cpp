#include "core/api/interactionsclient.h"
#include "core/export/exportsession.h"
#include "core/export/framesexporter.h"
#include "core/export/provenance.h"
#include "core/fakeapi/fakeserver.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"
#include "fakeclient.h"
#include "sessiontestutil.h"
#include "tests/testpaths.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace nb2;

/**
 * Importing an exported image with its lineage record: the record is kept with the frame, an
 * edit continues the recorded interaction (previous_interaction_id), a forgotten id re-anchors
 * from the pixels, a file without a record imports plainly, and the CLI shows all of it.
 */
class tst_ProvenanceImport : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<FakeServer> m_fake;
    std::unique_ptr<QTemporaryDir> m_tmp;

    struct Source {
        Frame root, head; // the exporting session's frames: head is an edit of root
        QString file;     // the exported image of head, with its lineage record
    };

    std::shared_ptr<InteractionsClient> client() const { return test::fakeServerClient(*m_fake); }

    QString sub(const char *name) const
    {
        const QString path = m_tmp->filePath(QString::fromUtf8(name));
        QDir().mkpath(path);
        return path;
    }

    bool openIn(SessionController &c, const QString &dir)
    {
        c.setClient(client());
        if (const Result<void> opened = c.open(dir); !opened) {
            qWarning() << opened.error().message;
            return false;
        }
        return c.waitForIdle(10000);
    }

    static Frame finish(SessionController &c, const Result<QString> &r)
    {
        if (!r) {
            qWarning() << "refused:" << r.error().message;
            return {};
        }
        c.waitForIdle(20000);
        return c.graph().value(r.value());
    }

    static TurnParams p(const char *prompt) { return TurnParams {QString::fromUtf8(prompt), {}, {}, false, {}}; }

    /** A session with generate + edit, the edit exported as a frames file (record embedded). */
    Source makeSource()
    {
        Source s;
        SessionController c;
        const QString dir = sub("source");
        if (!openIn(c, dir))
            return s;
        s.root = finish(c, c.generate(p("a red fox")));
        s.head = finish(c, c.edit(s.root.id, p("add a lantern")));
        const ExportSession es = ExportSession::fromGraph(c.graph(), dir);
        const Result<ExportReport> rep = FramesExporter::write(es, {es.frame(s.head.id)}, sub("out"), {});
        if (!rep || rep.value().files.size() != 1) {
            qWarning() << "export failed" << (rep ? QString() : rep.error().message);
            return s;
        }
        s.file = QDir(rep.value().output).filePath(rep.value().files.first());
        return s;
    }

    static QList<QJsonObject> createBodies(const QList<FakeRequest> &requests)
    {
        QList<QJsonObject> out;
        for (const FakeRequest &r : requests)
            if (r.method == QLatin1String("POST") && r.path.endsWith(QLatin1String("/interactions")))
                out.append(QJsonDocument::fromJson(r.body).object());
        return out;
    }

    static QString previousId(const QJsonObject &body)
    {
        return body.value(QStringLiteral("previous_interaction_id")).toString();
    }

    struct Run {
        int code = -1;
        QByteArray out, err;
    };

    Run runCli(const QString &dir, const QStringList &command) const
    {
        QProcess proc;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("GOOGLE_GEMINI_BASE_URL"), m_fake->baseUrl());
        env.insert(QStringLiteral("GEMINI_API_KEY"), QStringLiteral("test-key"));
        proc.setProcessEnvironment(env);
        proc.start(nb2test::sessionDriverProgram(), QStringList {QStringLiteral("--session"), dir} + command);
        if (!proc.waitForFinished(60000))
            return {};
        return {proc.exitCode(), proc.readAllStandardOutput(), proc.readAllStandardError()};
    }

private Q_SLOTS:
    void init()
    {
        m_fake = std::make_unique<FakeServer>();
        QVERIFY(m_fake->start(0));
        m_tmp = std::make_unique<QTemporaryDir>();
        QVERIFY(m_tmp->isValid());
    }

    void cleanup()
    {
        m_fake.reset();
        m_tmp.reset();
    }

    void lineageJsonRoundTripsInTheManifestForm()
    {
        Frame f;
        f.id = QStringLiteral("0a1b2c3d");
        f.kind = FrameKind::Import;
        f.status = FrameStatus::Done;
        f.lineage.app = QStringLiteral("nb2lite 0.1.0");
        f.lineage.frameId = QStringLiteral("deadbeef");
        f.lineage.interactionId = QStringLiteral("v1_abc");
        f.lineage.promptChain = {QStringLiteral("a"), QStringLiteral("b")};
        f.lineage.promptChainTotal = 5;
        const QJsonObject o = f.toJson();
        QCOMPARE(o.value(QStringLiteral("lineage")).toObject().value(QStringLiteral("interaction")).toString(),
            QStringLiteral("v1_abc"));
        const Result<Frame> read = Frame::fromJson(o);
        QVERIFY(read);
        const Frame &back = read.value();
        QCOMPARE(back.lineage, f.lineage);
        QVERIFY(back.extra.isEmpty()); // "lineage" is a known field, not an unknown one
        // A frame without a record writes no "lineage" key at all.
        QVERIFY(!Frame().toJson().contains(QStringLiteral("lineage")));
        // The record's own JSON (what core/export writes) reads straight into a lineage.
        const FrameLineage l = FrameLineage::fromRecordJson(
            R"({"schema":1,"frame":"deadbeef","interaction":"v1_abc","prompts":["x"],"promptsTotal":3,"future":1})");
        QCOMPARE(l.frameId, QStringLiteral("deadbeef"));
        QCOMPARE(l.promptChain, QStringList {QStringLiteral("x")});
        QCOMPARE(l.promptChainTotal, 3);
        QVERIFY(FrameLineage::fromRecordJson("not json").isEmpty());
    }

    void importWithLineageContinuesTheChain()
    {
        const Source src = makeSource();
        QVERIFY(!src.file.isEmpty());
        const Result<Provenance> record = readProvenance(src.file);
        QVERIFY2(record, qPrintable(record ? QString() : record.error().message));
        QCOMPARE(record.value().interactionId, src.head.interactionId);

        SessionController c;
        QVERIFY(openIn(c, sub("target")));
        ImportOptions options;
        options.lineage = FrameLineage::fromRecordJson(record.value().toJson());
        const Frame imp = finish(c, c.importImage(src.file, options));
        QCOMPARE(imp.kind, FrameKind::Import);
        QCOMPARE(imp.status, FrameStatus::Done);
        QCOMPARE(imp.interactionId, src.head.interactionId);
        QVERIFY(!imp.idExpiresAt.isValid()); // unknown: possibly valid
        QVERIFY(imp.hasUsableId());
        QCOMPARE(imp.lineage.frameId, src.head.id);
        QCOMPARE(imp.lineage.parentSha256, src.root.image.sha256);
        QCOMPARE(imp.lineage.promptChain, (QStringList {QStringLiteral("a red fox"), QStringLiteral("add a lantern")}));
        QCOMPARE(imp.image.sha256, SessionStore::sha256Hex(test::readFile(src.file))); // bytes as in the file

        // The manifest keeps it (another reader sees the same lineage).
        SessionStore other;
        QVERIFY(other.open(sub("target"), SessionStore::OpenMode::OpenExisting));
        QCOMPARE(other.graph().value(imp.id).lineage, imp.lineage);
        QCOMPARE(other.graph().value(imp.id).interactionId, imp.interactionId);

        // Retention changes do not invent an expiry for an id whose age is unknown.
        QVERIFY(c.applyRetentionToExistingFrames());
        QVERIFY(!c.graph().value(imp.id).idExpiresAt.isValid());

        m_fake->clearRequests();
        const Frame e = finish(c, c.edit(imp.id, p("make it night")));
        QCOMPARE(e.status, FrameStatus::Done);
        QCOMPARE(e.kind, FrameKind::Edit);
        QVERIFY(!e.reAnchored);
        QCOMPARE(e.continuedInteractionId, src.head.interactionId);
        const QList<QJsonObject> bodies = createBodies(m_fake->requests());
        QCOMPARE(bodies.size(), 1);
        QCOMPARE(previousId(bodies.first()), src.head.interactionId);
        QVERIFY(test::checkInvariants(sub("target")).isEmpty());
    }

    void forgottenIdReAnchorsFromThePixels_data()
    {
        QTest::addColumn<bool>("continueChain");
        QTest::newRow("continue, id forgotten") << true;
        QTest::newRow("--no-continue") << false;
    }

    void forgottenIdReAnchorsFromThePixels()
    {
        QFETCH(bool, continueChain);
        const Source src = makeSource();
        QVERIFY(!src.file.isEmpty());
        const Result<Provenance> record = readProvenance(src.file);
        QVERIFY(record);
        if (continueChain)
            m_fake->forget(src.head.interactionId);

        SessionController c;
        QVERIFY(openIn(c, sub("target")));
        ImportOptions options;
        options.lineage = FrameLineage::fromRecordJson(record.value().toJson());
        options.continueChain = continueChain;
        const Frame imp = finish(c, c.importImage(src.file, options));
        QCOMPARE(imp.interactionId, continueChain ? src.head.interactionId : QString());
        QCOMPARE(imp.lineage.interactionId, src.head.interactionId); // kept for reference either way

        m_fake->clearRequests();
        QSignalSpy reanchored(&c, &SessionController::frameReAnchored);
        const Frame e = finish(c, c.edit(imp.id, p("make it night")));
        QCOMPARE(e.status, FrameStatus::Done);
        QVERIFY(e.reAnchored);
        QCOMPARE(e.kind, FrameKind::ReAnchor);
        QVERIFY(e.continuedInteractionId.isEmpty());
        QCOMPARE(e.inputImages, QStringList {imp.image.file});
        QCOMPARE(reanchored.count(), 1);
        QList<QJsonObject> bodies = createBodies(m_fake->requests());
        if (continueChain) {
            QCOMPARE(bodies.size(), 2); // tried the id (404), then sent the pixels
            QCOMPARE(previousId(bodies.at(0)), src.head.interactionId);
            QVERIFY(previousId(bodies.at(1)).isEmpty());
        } else {
            QCOMPARE(bodies.size(), 1); // no id to try
            QVERIFY(previousId(bodies.at(0)).isEmpty());
        }
        // The dead id is dropped from the import frame: the next edit does not try it again.
        const Frame after = c.graph().value(imp.id);
        QVERIFY(after.interactionId.isEmpty());
        QCOMPARE(after.lineage.interactionId, src.head.interactionId);
        m_fake->clearRequests();
        const Frame b = finish(c, c.branchFrom(imp.id, p("make it day")));
        QCOMPARE(b.status, FrameStatus::Done);
        QVERIFY(b.reAnchored);
        bodies = createBodies(m_fake->requests());
        QCOMPARE(bodies.size(), 1);
        QVERIFY(previousId(bodies.first()).isEmpty());
        QVERIFY(test::checkInvariants(sub("target")).isEmpty());
    }

    void fileWithoutRecordImportsPlainly()
    {
        const QString file = test::writeFile(m_tmp->filePath(QStringLiteral("plain.png")), test::pngBytes());
        const Result<Provenance> record = readProvenance(file);
        QVERIFY(!record);
        QCOMPARE(record.error().kind, ErrorKind::InvalidInput);

        SessionController c;
        QVERIFY(openIn(c, sub("target")));
        const Frame imp = finish(c, c.importImage(file, ImportOptions {}));
        QCOMPARE(imp.status, FrameStatus::Done);
        QVERIFY(imp.lineage.isEmpty());
        QVERIFY(imp.interactionId.isEmpty());
        QVERIFY(!imp.toJson().contains(QStringLiteral("lineage")));
        QCOMPARE(imp.title, QStringLiteral("plain.png"));
    }

    void cliImportShowsTheRecordAndLogKeepsIt()
    {
        const Source src = makeSource();
        QVERIFY(!src.file.isEmpty());
        const QString dir = sub("cli");
        const Run imp = runCli(dir, {QStringLiteral("import"), src.file});
        QVERIFY2(imp.code == 0, imp.err.constData());
        const QString out = QString::fromUtf8(imp.out);
        QVERIFY2(out.contains(QStringLiteral("lineage record:")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("Interaction id: ") + src.head.interactionId), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("Frame id: ") + src.head.id), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("add a lantern")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("continue interaction ") + src.head.interactionId), qPrintable(out));

        const Run log = runCli(dir, {QStringLiteral("log"), QStringLiteral("--json")});
        QCOMPARE(log.code, 0);
        const QJsonArray frames = QJsonDocument::fromJson(log.out).object().value(QStringLiteral("frames")).toArray();
        QCOMPARE(frames.size(), 1);
        const QJsonObject lineage = frames.first().toObject().value(QStringLiteral("lineage")).toObject();
        QCOMPARE(lineage.value(QStringLiteral("interaction")).toString(), src.head.interactionId);
        QCOMPARE(lineage.value(QStringLiteral("frame")).toString(), src.head.id);

        // The CLI edit of the imported frame continues the recorded interaction.
        m_fake->clearRequests();
        const Run edit = runCli(dir, {QStringLiteral("edit"), QStringLiteral("head"), QStringLiteral("make it night")});
        QVERIFY2(edit.code == 0, edit.err.constData());
        const QList<QJsonObject> bodies = createBodies(m_fake->requests());
        QCOMPARE(bodies.size(), 1);
        QCOMPARE(previousId(bodies.first()), src.head.interactionId);

        // A file without a record: said so, imported plainly.
        const QString plain = test::writeFile(m_tmp->filePath(QStringLiteral("plain.png")), test::pngBytes());
        const Run p2 = runCli(dir, {QStringLiteral("import"), plain, QStringLiteral("--no-continue")});
        QCOMPARE(p2.code, 0);
        QVERIFY2(p2.out.contains("no lineage record"), p2.out.constData());
    }
};

QTEST_GUILESS_MAIN(tst_ProvenanceImport)
#include "tst_provenanceimport.moc"
