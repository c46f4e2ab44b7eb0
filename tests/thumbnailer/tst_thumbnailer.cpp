// nb2lite-thumbnailer, run as a file manager runs it (`Exec=nb2lite-thumbnailer %i %o %s`):
// a PNG of the requested size for a real bundle; for anything else exit status 1, a message on
// stderr and no output file at all (a file manager must never cache half a thumbnail).
#include "../export/exportfixture.h"
#include "core/export/exportsession.h"
#include "core/export/sessionbundle.h"
#include "tests/testpaths.h"

#include <QImageReader>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace nb2;

class tst_Thumbnailer : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    QString m_bundle;

    struct Run {
        int exitCode = -1;
        QString err;
    };
    static Run run(const QStringList &args)
    {
        QProcess p;
        p.start(nb2test::thumbnailerProgram(), args);
        if (!p.waitForFinished(30000)) {
            p.kill();
            p.waitForFinished();
            return {};
        }
        return {
            p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1, QString::fromUtf8(p.readAllStandardError())};
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        SessionStore store;
        QVERIFY(store.open(m_tmp.filePath(QStringLiteral("session"))));
        testing::buildStandardSession(store, QStringLiteral("a prompt"));
        m_bundle = m_tmp.filePath(QStringLiteral("my session.nb2session"));
        QVERIFY(SessionBundle::write(ExportSession::fromGraph(store.graph(), store.dir()), m_bundle).ok());
    }

    void writesPngOfRequestedSize_data()
    {
        QTest::addColumn<QString>("size");
        QTest::addColumn<int>("longestEdge");
        QTest::newRow("128") << QStringLiteral("128") << 96; // never enlarged: the image is 96 x 64
        QTest::newRow("32") << QStringLiteral("32") << 32;
        QTest::newRow("default") << QString() << 96;
    }
    void writesPngOfRequestedSize()
    {
        QFETCH(QString, size);
        QFETCH(int, longestEdge);
        const QString out = m_tmp.filePath(QStringLiteral("thumb-%1.png").arg(QLatin1String(QTest::currentDataTag())));
        QStringList args {m_bundle, out};
        if (!size.isEmpty())
            args << size;
        const Run r = run(args);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QImageReader reader(out);
        QCOMPARE(reader.format(), QByteArray("png"));
        const QImage image = reader.read();
        QCOMPARE(qMax(image.width(), image.height()), longestEdge);
    }

    void failuresWriteNothing_data()
    {
        QTest::addColumn<QString>("input");
        QTest::addColumn<QStringList>("extraArgs");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("messagePart");
        QTest::newRow("missing input") << QStringLiteral("nope.nb2session") << QStringList() << 1
                                       << QStringLiteral("does not exist");
        QTest::newRow("not a bundle") << QStringLiteral("garbage") << QStringList() << 1
                                      << QStringLiteral("not a readable NB2Lite bundle");
        QTest::newRow("bad size") << QStringLiteral("bundle") << QStringList {QStringLiteral("huge")} << 2
                                  << QStringLiteral("size");
        QTest::newRow("zero size") << QStringLiteral("bundle") << QStringList {QStringLiteral("0")} << 2
                                   << QStringLiteral("size");
        QTest::newRow("too many arguments")
            << QStringLiteral("bundle") << QStringList {QStringLiteral("64"), QStringLiteral("x")} << 2
            << QStringLiteral("INPUT OUTPUT");
    }
    void failuresWriteNothing()
    {
        QFETCH(QString, input);
        QFETCH(QStringList, extraArgs);
        QFETCH(int, exitCode);
        QFETCH(QString, messagePart);
        QString in = input == QLatin1String("bundle") ? m_bundle : m_tmp.filePath(input);
        if (input == QLatin1String("garbage")) {
            QFile f(in);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("PK\x03\x04 but nothing more");
        }
        const QString out = m_tmp.filePath(QStringLiteral("fail-%1.png").arg(QLatin1String(QTest::currentDataTag())));
        const Run r = run(QStringList {in, out} + extraArgs);
        QCOMPARE(r.exitCode, exitCode);
        QVERIFY2(r.err.contains(messagePart), qPrintable(r.err));
        QVERIFY(!QFile::exists(out));
        // No temporary file left beside the output either.
        QCOMPARE(QDir(m_tmp.path()).entryList({QStringLiteral("fail-*")}).size(), 0);
    }

    void refusesToWriteThroughSymlink()
    {
        const QString target = m_tmp.filePath(QStringLiteral("precious.txt"));
        QFile f(target);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("keep me");
        f.close();
        const QString link = m_tmp.filePath(QStringLiteral("link.png"));
        QVERIFY(QFile::link(target, link));
        const Run r = run({m_bundle, link, QStringLiteral("64")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains(QLatin1String("symbolic link")), qPrintable(r.err));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("keep me"));
    }

    void helpAndVersion()
    {
        QProcess p;
        p.start(nb2test::thumbnailerProgram(), {QStringLiteral("--version")});
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(p.readAllStandardOutput().contains(NB2_VERSION));
        p.start(nb2test::thumbnailerProgram(), {QStringLiteral("--help")});
        QVERIFY(p.waitForFinished(10000));
        QCOMPARE(p.exitCode(), 0);
        QVERIFY(p.readAllStandardOutput().contains("Exit status"));
    }
};

QTEST_GUILESS_MAIN(tst_Thumbnailer)
#include "tst_thumbnailer.moc"
