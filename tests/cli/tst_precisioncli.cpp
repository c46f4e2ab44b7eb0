// `nb2lite --session DIR edit REF PROMPT --region|--mask [--feather] [--mode]`, in-process
// through the whole command line, against the fake server (whose request log shows what was
// sent: the crop inline or the parent's interaction id) and against the --demo backend.

#include "core/edit/editmask.h"
#include "core/fakeapi/fakeserver.h"
#include "core/session/sessionstore.h"
#include "tests/cli/inprocesscli.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QPainter>
#include <QTemporaryDir>
#include <QTest>

using namespace nb2;

class tst_PrecisionCli : public QObject
{
    Q_OBJECT

    QTemporaryDir m_tmp;
    FakeServer m_fake {[] {
        FakeServerOptions o;
        o.apiKey = QStringLiteral("precision-test-key");
        return o;
    }()};

    using Run = test::CliRun;

    Run run(const QString &session, const QStringList &args, bool demo = false)
    {
        QStringList words {QStringLiteral("--session"), session};
        if (args.value(0) != QLatin1String("log"))
            words << QStringLiteral("--no-stream");
        if (demo)
            words << QStringLiteral("--demo");
        else
            words << QStringLiteral("--base-url") << m_fake.baseUrl();
        return test::runCli(words + args);
    }

    static Frame frameOf(const QString &session, const QString &id)
    {
        SessionStore store;
        if (!store.open(session))
            return {};
        return store.graph().value(id);
    }

    static QString lastId(const QString &session)
    {
        SessionStore store;
        if (!store.open(session))
            return {};
        return store.currentFrameId();
    }

    static QJsonObject lastCreateBody(const QList<FakeRequest> &requests)
    {
        for (qsizetype i = requests.size() - 1; i >= 0; --i)
            if (requests[i].method == QLatin1String("POST"))
                return QJsonDocument::fromJson(requests[i].body).object();
        return {};
    }

    // Every pixel whose feathered weight is 0 is the parent's decoded pixel.
    static bool protectedPixelsExact(const QString &session, const Frame &parent, const Frame &child, QString *why)
    {
        const QImage p = QImage(QDir(session).filePath(parent.image.file)).convertToFormat(QImage::Format_ARGB32);
        const QImage c = QImage(QDir(session).filePath(child.image.file)).convertToFormat(QImage::Format_ARGB32);
        const QImage maskImage(QDir(session).filePath(child.regionEdit.maskFile));
        if (p.isNull() || c.isNull() || maskImage.isNull() || p.size() != c.size()) {
            *why = QStringLiteral("missing or mismatched images");
            return false;
        }
        const QImage weight = EditMask(maskImage).feathered(child.regionEdit.feather);
        for (int y = 0; y < p.height(); ++y)
            for (int x = 0; x < p.width(); ++x)
                if (weight.constScanLine(y)[x] == 0 && p.pixel(x, y) != c.pixel(x, y)) {
                    *why = QStringLiteral("pixel %1,%2 differs").arg(x).arg(y);
                    return false;
                }
        return true;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        test::isolateCliEnvironment(m_tmp.filePath(QStringLiteral("home")), "precision-test-key");
        QVERIFY(m_fake.start(0));
    }

    void regionEditSendsTheCropInline()
    {
        const QString session = m_tmp.filePath(QStringLiteral("region"));
        QCOMPARE(run(session, {QStringLiteral("generate"), QStringLiteral("a harbour at noon")}).status, 0);
        const QString root = lastId(session);
        const Frame parent = frameOf(session, root);
        QVERIFY(!parent.interactionId.isEmpty());
        m_fake.clearRequests();

        const Run r = run(session,
            {QStringLiteral("edit"), root, QStringLiteral("a red boat"), QStringLiteral("--region"),
                QStringLiteral("100,120,200,150"), QStringLiteral("--feather"), QStringLiteral("3")});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QJsonObject body = lastCreateBody(m_fake.requests());
        QVERIFY2(!body.contains(QLatin1String("previous_interaction_id")), "a region edit sends the crop, not the id");
        const QByteArray raw = QJsonDocument(body).toJson(QJsonDocument::Compact);
        QVERIFY(raw.contains("\"data\""));

        const Frame child = frameOf(session, lastId(session));
        QCOMPARE(child.parentId, root);
        QCOMPARE(child.kind, FrameKind::EditLocal);
        QCOMPARE(child.regionEdit.mode, RegionMode::Region);
        QCOMPARE(child.regionEdit.feather, 3);
        QVERIFY(child.regionEdit.crop.contains(QRect(100, 120, 200, 150)));
        QVERIFY(raw.contains(child.regionEdit.cropAspect.toUtf8()));
        QCOMPARE(child.image.mimeType, QStringLiteral("image/png"));
        QVERIFY(QFileInfo::exists(QDir(session).filePath(child.regionEdit.rawFile)));
        QVERIFY(QFileInfo::exists(QDir(session).filePath(child.regionEdit.maskFile)));
        QVERIFY(QFileInfo::exists(QDir(session).filePath(child.drift.heatmapFile)));
        QString why;
        QVERIFY2(protectedPixelsExact(session, parent, child, &why), qPrintable(why));
        QVERIFY2(
            child.drift.changed > 0 && child.drift.changed < 0.3, qPrintable(QString::number(child.drift.changed)));
        QVERIFY(child.drift.outsideChanged >= 0);

        // log --json shows it.
        const Run log = run(session, {QStringLiteral("log"), QStringLiteral("--json")});
        QCOMPARE(log.status, 0);
        QVERIFY(log.out.contains(QLatin1String("\"region_edit\"")));
        QVERIFY(log.out.contains(QLatin1String("\"drift\"")));
        QVERIFY(log.out.contains(child.regionEdit.rawFile));
    }

    void protectEditContinuesById()
    {
        const QString session = m_tmp.filePath(QStringLiteral("protect"));
        QCOMPARE(run(session, {QStringLiteral("generate"), QStringLiteral("a meadow")}).status, 0);
        const QString root = lastId(session);
        const Frame parent = frameOf(session, root);
        // A mask of another size: the left half may change.
        QImage mask(40, 40, QImage::Format_Grayscale8);
        mask.fill(0);
        QPainter(&mask).fillRect(QRect(0, 0, 20, 40), Qt::white);
        const QString maskPath = m_tmp.filePath(QStringLiteral("left.png"));
        QVERIFY(mask.save(maskPath));
        m_fake.clearRequests();
        const Run r = run(session,
            {QStringLiteral("edit"), root, QStringLiteral("make it night"), QStringLiteral("--mask"), maskPath,
                QStringLiteral("--mode"), QStringLiteral("protect")});
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const QJsonObject body = lastCreateBody(m_fake.requests());
        QCOMPARE(body.value(QLatin1String("previous_interaction_id")).toString(), parent.interactionId);

        const Frame child = frameOf(session, lastId(session));
        QCOMPARE(child.kind, FrameKind::Edit);
        QCOMPARE(child.regionEdit.mode, RegionMode::Protect);
        QCOMPARE(QImage(QDir(session).filePath(child.regionEdit.maskFile)).size(),
            QSize(parent.image.width, parent.image.height));
        QString why;
        QVERIFY2(protectedPixelsExact(session, parent, child, &why), qPrintable(why));
        QVERIFY(child.drift.changed <= 0.55);
    }

    void plainEditGetsDrift()
    {
        const QString session = m_tmp.filePath(QStringLiteral("plain"));
        QCOMPARE(run(session, {QStringLiteral("generate"), QStringLiteral("a fox")}).status, 0);
        const QString root = lastId(session);
        QCOMPARE(run(session, {QStringLiteral("edit"), root, QStringLiteral("a hat")}).status, 0);
        const Frame child = frameOf(session, lastId(session));
        QVERIFY(child.regionEdit.isEmpty());
        QVERIFY(!child.drift.isEmpty());
        QCOMPARE(child.drift.outsideChanged, -1.0);
        QVERIFY(child.drift.changed >= 0 && child.drift.changed <= 1);
    }

    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::newRow("both") << QStringList {
            QStringLiteral("--region"), QStringLiteral("1,1,5,5"), QStringLiteral("--mask"), QStringLiteral("m.png")};
        QTest::newRow("bad region") << QStringList {QStringLiteral("--region"), QStringLiteral("1,1,0,5")};
        QTest::newRow("bad mode") << QStringList {
            QStringLiteral("--region"), QStringLiteral("1,1,5,5"), QStringLiteral("--mode"), QStringLiteral("blur")};
        QTest::newRow("feather alone") << QStringList {QStringLiteral("--feather"), QStringLiteral("3")};
    }

    void usageErrors()
    {
        QFETCH(QStringList, args);
        const Run r = run(m_tmp.filePath(QStringLiteral("usage")),
            QStringList {QStringLiteral("edit"), QStringLiteral("head"), QStringLiteral("x")} + args);
        QCOMPARE(r.status, 2);
    }

    void demoBackendRegionEdit()
    {
        const QString session = m_tmp.filePath(QStringLiteral("demo"));
        QCOMPARE(run(session, {QStringLiteral("generate"), QStringLiteral("a castle")}, true).status, 0);
        const QString root = lastId(session);
        const Run r = run(session,
            {QStringLiteral("edit"), root, QStringLiteral("a flag"), QStringLiteral("--region"),
                QStringLiteral("0,0,300,200")},
            true);
        QVERIFY2(r.status == 0, qPrintable(r.err));
        const Frame child = frameOf(session, lastId(session));
        QCOMPARE(child.regionEdit.mode, RegionMode::Region);
        QString why;
        QVERIFY2(protectedPixelsExact(session, frameOf(session, root), child, &why), qPrintable(why));
        QVERIFY(child.drift.changed > 0);
    }
};

QTEST_GUILESS_MAIN(tst_PrecisionCli)
#include "tst_precisioncli.moc"
