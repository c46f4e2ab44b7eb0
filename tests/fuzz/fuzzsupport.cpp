#include "tests/fuzz/fuzzsupport.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>

#include <cstdio>
#include <cstdlib>
#include <memory>

namespace nb2::fuzz {

namespace {

void quiet(QtMsgType type, const QMessageLogContext &, const QString &message)
{
    if (type == QtFatalMsg) {
        std::fprintf(stderr, "qFatal: %s\n", qPrintable(message));
        std::abort();
    }
}

} // namespace

void ensureApp()
{
    if (QCoreApplication::instance())
        return;
    qInstallMessageHandler(quiet);
    static int argc = 1;
    static char name[] = "nb2fuzz";
    static char *argv[] = {name, nullptr};
    // Lives for the whole process: libFuzzer never returns from its loop normally.
    static auto *app = new QCoreApplication(argc, argv);
    Q_UNUSED(app);
}

QString scratchDir()
{
    static std::unique_ptr<QTemporaryDir> dir;
    if (!dir) {
        // run-fuzzers.sh names a folder it removes itself: a crash (abort, no destructors)
        // then leaves nothing behind either.
        QString base = qEnvironmentVariable("NB2_FUZZ_SCRATCH");
        if (base.isEmpty())
            base = QFileInfo(QStringLiteral("/dev/shm")).isWritable() ? QStringLiteral("/dev/shm") : QDir::tempPath();
        dir = std::make_unique<QTemporaryDir>(base + QStringLiteral("/nb2fuzz-XXXXXX"));
        if (!dir->isValid())
            fail("cannot create the scratch folder");
        // libFuzzer ends the process with exit(), which runs this destructor: no litter.
    }
    return dir->path();
}

void writeFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(bytes) != bytes.size())
        fail("cannot write a scratch file", path.toUtf8());
}

void fail(const char *what, const QByteArray &detail)
{
    std::fprintf(stderr, "nb2fuzz: property violated: %s\n", what);
    if (!detail.isEmpty())
        std::fprintf(stderr, "  detail: %.2000s\n", detail.constData());
    std::abort();
}

QList<QByteArray> split(const QByteArray &input, const QByteArray &separator)
{
    QList<QByteArray> parts;
    qsizetype from = 0;
    for (;;) {
        const qsizetype at = input.indexOf(separator, from);
        if (at < 0) {
            parts.append(input.mid(from));
            return parts;
        }
        parts.append(input.mid(from, at - from));
        from = at + separator.size();
    }
}

} // namespace nb2::fuzz
