// Exports never overwrite silently, never write through a symlink and never replace anything
// that is not a regular file (issue 11, item 2): OutputFile itself, every file-writing export
// format, and nb2lite's --force.

#include "app/cli/clirun.h"
#include "app/cli/console.h"
#include "core/export/exporter.h"
#include "core/export/outputfile.h"

#include "tests/export/exportfixture.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <QTextStream>

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

using namespace nb2;
using namespace nb2::testing;

namespace {

QByteArray readAll(const QString &path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeBytes(const QString &path, const QByteArray &bytes)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

mode_t lmode(const QString &path)
{
    struct stat st {
    };
    return ::lstat(QFile::encodeName(path).constData(), &st) == 0 ? st.st_mode : 0;
}

/** Entries in dir other than the ones named: an aborted write must not leave its temp file. */
QStringList leftovers(const QString &dir, const QStringList &expected)
{
    QStringList names = QDir(dir).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System);
    for (const QString &e : expected)
        names.removeAll(e);
    return names;
}

} // namespace

class tst_OutputFile : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    QString m_sessionDir;
    ExportSession m_session;
    int m_n = 0;

    /** A fresh folder per case, so leftovers can be counted. */
    QString caseDir()
    {
        const QString dir = m_tmp.filePath(QStringLiteral("case%1").arg(++m_n));
        QDir().mkpath(dir);
        return dir;
    }

    /**
     * A device node owned by the test, never a real one: the test once replaced /dev/full on
     * this machine when the code was wrong. Needs root (mknod); empty when it cannot be made.
     */
    QString makeDevice(const QString &dir)
    {
        const QString path = dir + QStringLiteral("/device");
        Q_ASSERT(path.startsWith(m_tmp.path()));
        if (::geteuid() != 0 || ::mknod(QFile::encodeName(path).constData(), S_IFCHR | 0600, makedev(1, 3)) != 0)
            return {};
        return path;
    }

    struct Cli {
        int status = -1;
        QString out, err;
    };
    Cli cli(const QStringList &args)
    {
        Cli r;
        QTextStream o(&r.out), e(&r.err);
        cli::Console console(o, e);
        r.status = cli::runCommandLine(QStringList {QStringLiteral("--session"), m_sessionDir} + args, console);
        o.flush();
        e.flush();
        return r;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        m_sessionDir = m_tmp.filePath(QStringLiteral("session"));
        SessionStore store;
        QVERIFY(store.open(m_sessionDir));
        buildStandardSession(store, QStringLiteral("prompt"));
        m_session = ExportSession::fromGraph(store.graph(), store.dir());
    }

    void targets_data()
    {
        QTest::addColumn<QString>("target"); // what is at the output's name before
        QTest::addColumn<bool>("replace");
        QTest::addColumn<int>("kind"); // ErrorKind::None when the write must succeed
        QTest::newRow("nothing") << QStringLiteral("none") << false << int(ErrorKind::None);
        QTest::newRow("file, refuse") << QStringLiteral("file") << false << int(ErrorKind::Conflict);
        QTest::newRow("file, replace") << QStringLiteral("file") << true << int(ErrorKind::None);
        QTest::newRow("symlink, refuse") << QStringLiteral("symlink") << false << int(ErrorKind::Unsafe);
        QTest::newRow("symlink, replace") << QStringLiteral("symlink") << true << int(ErrorKind::Unsafe);
        QTest::newRow("dangling symlink") << QStringLiteral("dangling") << true << int(ErrorKind::Unsafe);
        QTest::newRow("fifo, refuse") << QStringLiteral("fifo") << false << int(ErrorKind::Unsafe);
        QTest::newRow("fifo, replace") << QStringLiteral("fifo") << true << int(ErrorKind::Unsafe);
        QTest::newRow("folder, replace") << QStringLiteral("dir") << true << int(ErrorKind::Conflict);
        QTest::newRow("device, replace") << QStringLiteral("device") << true << int(ErrorKind::Unsafe);
    }

    void targets()
    {
        QFETCH(QString, target);
        QFETCH(bool, replace);
        QFETCH(int, kind);
        const QString dir = caseDir();
        const QString out = dir + QStringLiteral("/out.png");
        const QString victim = dir + QStringLiteral("/victim.txt"); // what a link points to
        QVERIFY(writeBytes(victim, "victim"));
        QStringList expected {QStringLiteral("victim.txt")};
        if (target == QLatin1String("file")) {
            QVERIFY(writeBytes(out, "old"));
        } else if (target == QLatin1String("symlink")) {
            QVERIFY(QFile::link(victim, out));
        } else if (target == QLatin1String("dangling")) {
            QVERIFY(QFile::link(dir + QStringLiteral("/nowhere"), out));
        } else if (target == QLatin1String("fifo")) {
            QCOMPARE(::mkfifo(QFile::encodeName(out).constData(), 0600), 0);
        } else if (target == QLatin1String("dir")) {
            QVERIFY(QDir().mkpath(out));
        } else if (target == QLatin1String("device")) {
            const QString device = makeDevice(dir);
            if (device.isEmpty())
                QSKIP("making a device node needs root (mknod); skipped rather than touching a real device");
            QVERIFY(QFile::rename(device, out));
        }
        if (target != QLatin1String("none"))
            expected.append(QStringLiteral("out.png"));
        const mode_t before = lmode(out);

        QElapsedTimer timer;
        timer.start();
        const Result<qint64> r
            = OutputFile::writeAll(out, "new bytes", replace ? ExistingTarget::Replace : ExistingTarget::Refuse);
        QVERIFY2(timer.elapsed() < 5000, "a FIFO must not block the write"); // opening a FIFO for writing would

        if (kind == int(ErrorKind::None)) {
            QVERIFY2(r.ok(), qPrintable(r ? QString() : r.error().message));
            QCOMPARE(readAll(out), QByteArray("new bytes"));
            QVERIFY(S_ISREG(lmode(out)));
            expected.removeAll(QStringLiteral("out.png"));
            expected.append(QStringLiteral("out.png"));
        } else {
            QVERIFY(!r.ok());
            QCOMPARE(int(r.error().kind), kind);
            QVERIFY(r.error().message.contains(QStringLiteral("out.png")));
            QCOMPARE(lmode(out), before); // still the link / FIFO / device / folder / old file
            if (target == QLatin1String("file"))
                QCOMPARE(readAll(out), QByteArray("old"));
        }
        QCOMPARE(readAll(victim), QByteArray("victim")); // a link's target is never written
        QCOMPARE(leftovers(dir, expected), QStringList());
    }

    void refuseDoesNotClobberWhatAppearsMeanwhile()
    {
        // The name is free at open(); something takes it before commit(): RENAME_NOREPLACE keeps it.
        const QString dir = caseDir();
        const QString out = dir + QStringLiteral("/late.png");
        OutputFile file(out, ExistingTarget::Refuse);
        QVERIFY(file.open());
        QVERIFY(file.write(QByteArray("mine")));
        QVERIFY(writeBytes(out, "theirs"));
        const Result<qint64> r = file.commit();
        QVERIFY(!r.ok());
        QCOMPARE(r.error().kind, ErrorKind::Conflict);
        QCOMPARE(readAll(out), QByteArray("theirs"));
        QCOMPARE(leftovers(dir, {QStringLiteral("late.png")}), QStringList());
    }

    void abandonedWriteLeavesNothing()
    {
        const QString dir = caseDir();
        {
            OutputFile file(dir + QStringLiteral("/never.png"), ExistingTarget::Refuse);
            QVERIFY(file.open());
            QVERIFY(file.write(QByteArray(1000, 'x')));
        } // destroyed before commit(): an error path, a crash of the export
        QCOMPARE(leftovers(dir, {}), QStringList());
    }

    void exportFormats_data()
    {
        QTest::addColumn<int>("format");
        QTest::addColumn<bool>("singleFile");
        QTest::addColumn<QString>("target");
        QTest::addColumn<bool>("replace");
        QTest::addColumn<int>("kind");
        const int sheet = int(ExportFormat::Sheet), bundle = int(ExportFormat::Bundle), html = int(ExportFormat::Html);
        QTest::newRow("sheet onto existing")
            << sheet << false << QStringLiteral("file") << false << int(ErrorKind::Conflict);
        QTest::newRow("sheet onto existing, force")
            << sheet << false << QStringLiteral("file") << true << int(ErrorKind::None);
        QTest::newRow("sheet onto symlink, force")
            << sheet << false << QStringLiteral("symlink") << true << int(ErrorKind::Unsafe);
        QTest::newRow("bundle onto fifo")
            << bundle << false << QStringLiteral("fifo") << false << int(ErrorKind::Unsafe);
        QTest::newRow("bundle onto fifo, force")
            << bundle << false << QStringLiteral("fifo") << true << int(ErrorKind::Unsafe);
        QTest::newRow("bundle onto existing")
            << bundle << false << QStringLiteral("file") << false << int(ErrorKind::Conflict);
        QTest::newRow("bundle onto device, force")
            << bundle << false << QStringLiteral("device") << true << int(ErrorKind::Unsafe);
        QTest::newRow("single-file onto existing")
            << html << true << QStringLiteral("file") << false << int(ErrorKind::Conflict);
        QTest::newRow("single-file onto existing, force")
            << html << true << QStringLiteral("file") << true << int(ErrorKind::None);
        QTest::newRow("html folder onto symlink")
            << html << false << QStringLiteral("dirlink") << true << int(ErrorKind::Unsafe);
        QTest::newRow("frames folder onto symlink")
            << int(ExportFormat::Frames) << false << QStringLiteral("dirlink") << true << int(ErrorKind::Unsafe);
    }

    void exportFormats()
    {
        QFETCH(int, format);
        QFETCH(bool, singleFile);
        QFETCH(QString, target);
        QFETCH(bool, replace);
        QFETCH(int, kind);
        const QString dir = caseDir();
        const QString out = dir + QStringLiteral("/out");
        const QString victim = dir + QStringLiteral("/victim");
        if (target == QLatin1String("dirlink")) {
            QVERIFY(QDir().mkpath(victim));
            QVERIFY(QFile::link(victim, out));
        } else {
            QVERIFY(writeBytes(victim, "victim"));
        }
        if (target == QLatin1String("file")) {
            QVERIFY(writeBytes(out, "old"));
        } else if (target == QLatin1String("symlink")) {
            QVERIFY(QFile::link(victim, out));
        } else if (target == QLatin1String("fifo")) {
            QCOMPARE(::mkfifo(QFile::encodeName(out).constData(), 0600), 0);
        } else if (target == QLatin1String("device")) {
            const QString device = makeDevice(dir);
            if (device.isEmpty())
                QSKIP("making a device node needs root (mknod); skipped rather than touching a real device");
            QVERIFY(QFile::rename(device, out));
        }
        const mode_t before = lmode(out);
        ExportRequest r;
        r.format = ExportFormat(format);
        r.singleFile = singleFile;
        r.output = out;
        r.existing = replace ? ExistingTarget::Replace : ExistingTarget::Refuse;
        const Result<ExportReport> e = Exporter::run(m_session, r);
        if (kind == int(ErrorKind::None)) {
            QVERIFY2(e.ok(), qPrintable(e ? QString() : e.error().message));
            QVERIFY(S_ISREG(lmode(out)));
            QVERIFY(readAll(out) != "old");
        } else {
            QVERIFY2(!e.ok(), "the export went through");
            QCOMPARE(int(e.error().kind), kind);
            QCOMPARE(lmode(out), before);
        }
        if (target == QLatin1String("dirlink"))
            QVERIFY(QDir(victim).isEmpty()); // nothing went through the link
        else
            QCOMPARE(readAll(victim), QByteArray("victim"));
        QStringList expected {QStringLiteral("victim"), QStringLiteral("out")};
        QCOMPARE(leftovers(dir, expected), QStringList());
    }

    void cliForce()
    {
        const QString dir = caseDir();
        const QString sheet = dir + QStringLiteral("/existing.png");
        QVERIFY(writeBytes(sheet, "old"));
        const Cli refused = cli({QStringLiteral("export"), QStringLiteral("--format"), QStringLiteral("sheet"), sheet});
        QVERIFY(refused.status != 0);
        QVERIFY2(
            refused.err.contains(QStringLiteral("already exists")) && refused.err.contains(QStringLiteral("--force")),
            qPrintable(refused.err));
        QCOMPARE(readAll(sheet), QByteArray("old"));

        const Cli forced = cli({QStringLiteral("export"), QStringLiteral("--format"), QStringLiteral("sheet"),
            QStringLiteral("--force"), sheet});
        QVERIFY2(forced.status == 0, qPrintable(forced.err));
        QVERIFY(readAll(sheet).startsWith("\x89PNG"));

        // --force never reaches through a link, even into the session.
        const QString link = dir + QStringLiteral("/link.png");
        QVERIFY(QFile::link(sheet, link));
        const QByteArray sheetBytes = readAll(sheet);
        const Cli viaLink = cli({QStringLiteral("export"), QStringLiteral("--format"), QStringLiteral("sheet"),
            QStringLiteral("--force"), link});
        QVERIFY(viaLink.status != 0);
        QVERIFY2(viaLink.err.contains(QStringLiteral("symbolic link")), qPrintable(viaLink.err));
        QCOMPARE(readAll(sheet), sheetBytes);
    }
};

QTEST_GUILESS_MAIN(tst_OutputFile)
#include "tst_outputfile.moc"
