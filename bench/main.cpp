// nb2lite-bench: every benchmark in one program. Each case measures figures as medians of
// several runs and, where a target compares us with something else, as ratios taken in the same
// run (absolute times drift on shared machines; ratios do not). Prints a table (case, figure,
// median, min, max, target, met?) and writes the same as JSON. Never fails on a missed target:
// the exit code says only whether every case ran.
//
//   nb2lite-bench [--quick] [--json FILE] [--case NAME]... [--sizes N,N] [--list]

#include "bench/benchcases.h"
#include "bench/benchcontext.h"
#include "core/common/hugepages.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QThread>

#include <cstdio>

using namespace nb2::bench;

namespace {

QJsonObject machine(bool quick)
{
    QString cpu;
    QFile info(QStringLiteral("/proc/cpuinfo"));
    if (info.open(QIODevice::ReadOnly)) {
        const QList<QByteArray> lines = info.readAll().split('\n');
        for (const QByteArray &l : lines)
            if (l.startsWith("model name")) {
                cpu = QString::fromLatin1(l.mid(l.indexOf(':') + 1).trimmed());
                break;
            }
    }
    return QJsonObject {{QStringLiteral("cpu"), cpu}, {QStringLiteral("cores"), QThread::idealThreadCount()},
        {QStringLiteral("kernel"), QSysInfo::kernelVersion()}, {QStringLiteral("os"), QSysInfo::prettyProductName()},
        {QStringLiteral("qt"), QString::fromLatin1(qVersion())},
        {QStringLiteral("date"), QDateTime::currentDateTimeUtc().toString(Qt::ISODate)},
        {QStringLiteral("quick"), quick}};
}

} // namespace

namespace nb2::bench {
int runFloorProcess(const QString &hostPort, const QString &out); // case_overhead.cpp
}

int main(int argc, char *argv[])
{
    // `--floor HOST:PORT OUT`: one floor turn as its own process (the overhead case's process form).
    if (argc == 4 && qstrcmp(argv[1], "--floor") == 0) {
        QCoreApplication core(argc, argv);
        return runFloorProcess(QString::fromLocal8Bit(argv[2]), QString::fromLocal8Bit(argv[3]));
    }
    // The in-process cases stand for the studio (its window, its open): the same heap as its
    // main() gives it. The floor process above keeps glibc's defaults, as a plain program has.
    nb2::preferHugePagesForHeap();
    // Widgets for the responsiveness case's timeline; offscreen unless a display is asked for.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("NB2Lite Studio benchmarks: prints a table and writes JSON."));
    parser.addHelpOption();
    const QCommandLineOption quickOpt(
        QStringLiteral("quick"), QStringLiteral("Few runs, 200-frame sessions (CI: proves it runs)."));
    const QCommandLineOption jsonOpt(
        QStringLiteral("json"), QStringLiteral("Write the figures as JSON to FILE."), QStringLiteral("FILE"));
    const QCommandLineOption caseOpt(
        QStringLiteral("case"), QStringLiteral("Run only this case (repeatable; see --list)."), QStringLiteral("NAME"));
    const QCommandLineOption sizesOpt(QStringLiteral("sizes"),
        QStringLiteral("Big session sizes, comma-separated (default 1000,10000; 200 with --quick)."),
        QStringLiteral("N,N"));
    const QCommandLineOption listOpt(QStringLiteral("list"), QStringLiteral("List the cases."));
    parser.addOptions({quickOpt, jsonOpt, caseOpt, sizesOpt, listOpt});
    parser.process(app);

    if (parser.isSet(listOpt)) {
        for (const Case &c : kCases)
            std::printf("%-12s %s\n", c.name, c.what);
        return 0;
    }
    const QStringList only = parser.values(caseOpt);
    for (const QString &name : only) {
        bool known = false;
        for (const Case &c : kCases)
            known = known || name == QLatin1String(c.name);
        if (!known) {
            std::fprintf(stderr, "nb2lite-bench: no case \"%s\" (see --list)\n", qPrintable(name));
            return 2;
        }
    }

    QTemporaryDir scratch(QDir::tempPath() + QStringLiteral("/nb2lite-bench-XXXXXX"));
    Report report;
    Context ctx;
    ctx.quick = parser.isSet(quickOpt);
    ctx.cacheDir = qEnvironmentVariableIsEmpty("NB2_BENCH_CACHE")
        ? QDir::tempPath() + QStringLiteral("/nb2lite-bench-cache")
        : qEnvironmentVariable("NB2_BENCH_CACHE");
    if (ctx.quick)
        ctx.cacheDir += QStringLiteral("/quick");
    ctx.scratchDir = scratch.path();
    ctx.cliPath = QStringLiteral(NB2_BENCH_CLI);
    ctx.studioPath = QStringLiteral(NB2_BENCH_STUDIO);
    ctx.bareWindowPath = QStringLiteral(NB2_BENCH_WINDOW);
    ctx.nodeDir = QStringLiteral(NB2_BENCH_NODE_DIR);
    ctx.report = &report;
    const QStringList sizes = parser.value(sizesOpt).split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (const QString &n : sizes)
        if (n.toInt() > 0)
            ctx.sizes.append(n.toInt());

    for (const Case &c : kCases) {
        if (!only.isEmpty() && !only.contains(QLatin1String(c.name)))
            continue;
        std::fprintf(stderr, "case %s: %s\n", c.name, c.what);
        c.run(ctx);
    }

    std::printf("\n");
    report.printTable();
    if (parser.isSet(jsonOpt)) {
        QFile out(parser.value(jsonOpt));
        const QByteArray json = QJsonDocument(report.toJson(machine(ctx.quick))).toJson(QJsonDocument::Indented);
        if (!out.open(QIODevice::WriteOnly | QIODevice::Truncate) || out.write(json) != json.size()) {
            std::fprintf(stderr, "nb2lite-bench: cannot write %s\n", qPrintable(parser.value(jsonOpt)));
            return 1;
        }
    }
    return report.errors().isEmpty() ? 0 : 1;
}
