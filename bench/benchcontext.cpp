#include "bench/benchcontext.h"

#include "core/api/apikey.h"
#include "core/api/clientconfig.h"
#include "core/api/interactionsclient.h"
#include "core/fakeapi/fakeimagepainter.h"
#include "core/fakeapi/fakeserver.h"
#include "core/session/editfinisher.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QThread>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <deque>

namespace nb2::bench {

const QByteArray &realisticJpeg()
{
    static const QByteArray jpeg = [] {
        QImage img
            = FakeImagePainter::generate(QStringLiteral("a harbour at dusk with boats and lanterns"), QSize(1024, 1024))
                  .convertToFormat(QImage::Format_RGB32);
        // Photographic grain: a camera or model picture compresses to ~1 MB, a flat drawing to 100 KB.
        quint32 seed = 12345;
        for (int y = 0; y < img.height(); ++y) {
            auto *line = reinterpret_cast<QRgb *>(img.scanLine(y));
            for (int x = 0; x < img.width(); ++x) {
                seed = seed * 1664525u + 1013904223u;
                const int n = int((seed >> 24) % 49) - 24;
                const QRgb p = line[x];
                line[x] = qRgb(std::clamp(qRed(p) + n, 0, 255), std::clamp(qGreen(p) + n, 0, 255),
                    std::clamp(qBlue(p) + n, 0, 255));
            }
        }
        // The lowest quality that gives about 1 MB, like a 1024x1024 picture from the service.
        QByteArray bytes;
        for (int quality = 90; quality <= 100 && bytes.size() < 950 * 1024; quality += 1)
            bytes = FakeImagePainter::encodeJpeg(img, quality);
        return bytes;
    }();
    return jpeg;
}

std::unique_ptr<FakeServer> startFake(int latencyMs)
{
    FakeServerOptions o;
    o.latencyMs = latencyMs;
    o.fixedImageJpeg = realisticJpeg();
    auto fake = std::make_unique<FakeServer>(o);
    if (!fake->start(0))
        return nullptr;
    return fake;
}

std::shared_ptr<InteractionsClient> clientFor(const FakeServer &fake)
{
    ClientConfig cfg;
    cfg.baseUrl = fake.baseUrl();
    cfg.apiKey = ApiKey(QStringLiteral("test-key"), QStringLiteral("bench"));
    cfg.maxRetries = 0;
    cfg.readTimeoutMs = 60000;
    return std::make_shared<InteractionsClient>(cfg);
}

QProcessEnvironment cliEnvironment(const FakeServer &fake)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("GEMINI_API_KEY"), QStringLiteral("test-key"));
    env.remove(QStringLiteral("GOOGLE_API_KEY"));
    env.insert(QStringLiteral("GOOGLE_GEMINI_BASE_URL"), fake.baseUrl());
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    return env;
}

bool waitUntil(const std::function<bool()> &done, int timeoutMs)
{
    QElapsedTimer t;
    t.start();
    // Not processEvents(flags, ms): that form drops WaitForMoreEvents and spins a core, which on
    // this 2-core machine took CPU from the very threads being measured. Block; the tick wakes
    // the loop to check done() at least every 5 ms.
    QTimer tick;
    tick.start(5);
    while (!done()) {
        if (t.elapsed() > timeoutMs)
            return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
    }
    return true;
}

Result<QString> ensureSession(Context &ctx, int frames)
{
    // "drift-": sessions made since every edit gets its drift reading here too (an older cache's
    // sessions, without them, are left alone and not used).
    const QString dir = QStringLiteral("%1/drift-session-%2").arg(ctx.cacheDir).arg(frames);
    const QString marker = dir + QStringLiteral(".complete");
    if (QFileInfo::exists(marker))
        return dir;
    QDir(dir).removeRecursively();
    QDir().mkpath(ctx.cacheDir);
    std::fprintf(stderr, "  making a %d-frame session in %s (once; later runs reuse it)\n", frames, qPrintable(dir));
    std::unique_ptr<FakeServer> fake = startFake();
    if (!fake)
        return Error::make(ErrorKind::Io, QStringLiteral("the fake server did not start"));
    QElapsedTimer t;
    t.start();
    {
        SessionController c;
        c.setClient(clientFor(*fake));
        SessionSettings s;
        s.recoverOnOpen = false;
        c.setSettings(s);
        if (const Result<void> opened = c.open(dir); !opened)
            return opened.error();
        // Four lanes grow at once (the turns of different lanes overlap, as an agent's would);
        // each lane is a chain with a fork every 10 frames.
        constexpr int kLanes = 4;
        QList<QStringList> lanes(kLanes);
        std::deque<QString> serverIds; // the fake keeps ~2.5 MB per interaction: forget old ones
        int made = 0;
        while (made < frames) {
            QHash<QString, int> started; // frame id -> lane
            for (int lane = 0; lane < kLanes && made + started.size() < frames; ++lane) {
                const QStringList &ids = lanes.at(lane);
                const int i = int(ids.size());
                TurnParams p;
                p.prompt = QStringLiteral(
                    "lane %1 step %2: make the lantern a little brighter and add a gull over the water")
                               .arg(lane)
                               .arg(i);
                Result<QString> r = Error::make(ErrorKind::Io, QString());
                if (i == 0) {
                    p.aspectRatio = QStringLiteral("1:1");
                    r = c.generate(p);
                } else if (i % 10 == 0 && i >= 5) {
                    r = c.branchFrom(ids.at(i - 5), p); // a fork every 10 frames
                } else {
                    r = c.edit(ids.at(i - 1), p);
                }
                if (!r)
                    return r.error();
                started.insert(r.value(), lane);
            }
            if (!c.waitForIdle(120000))
                return Error::make(ErrorKind::Timeout, QStringLiteral("turns did not finish within 120 s"));
            for (auto it = started.cbegin(); it != started.cend(); ++it) {
                const Frame *f = c.graph().frame(it.key());
                if (!f || !f->isDone())
                    return Error::make(ErrorKind::Io,
                        QStringLiteral("turn %1 did not finish done: %2")
                            .arg(it.key(), f ? f->error.message : QStringLiteral("gone")));
                lanes[it.value()].append(it.key());
                serverIds.push_back(f->interactionId);
            }
            // Every edit gets its drift reading (and heatmap), as the window, the CLI and the agent
            // bridge record it (EditFinisher): a real session has one on every edit, and the
            // cases must read, check and copy what a real session holds. Measured on the pool.
            QList<QFuture<Result<Frame>>> measuring;
            for (auto it = started.cbegin(); it != started.cend(); ++it) {
                const Frame child = c.graph().value(it.key());
                const Frame parent = c.graph().value(child.parentId);
                if (EditFinisher::needsFinishing(child, parent))
                    measuring.append(
                        QtConcurrent::run([dir, parent, child] { return EditFinisher::compute(dir, parent, child); }));
            }
            for (QFuture<Result<Frame>> &m : measuring) {
                const Result<Frame> measured = m.result();
                if (!measured)
                    return measured.error();
                if (const Result<void> recorded = c.recordDerived(measured.value()); !recorded)
                    return recorded.error();
            }
            while (serverIds.size() > 12 * kLanes) {
                fake->forget(serverIds.front());
                serverIds.pop_front();
            }
            const int before = made;
            made += int(started.size());
            if (made / 100 != before / 100) {
                fake->clearRequests();
                std::fprintf(stderr, "  ... %d/%d frames, %.0f s\n", made, frames, t.elapsed() / 1000.0);
            }
        }
        c.close();
    }
    QFile m(marker);
    m.open(QIODevice::WriteOnly);
    m.write(QByteArray::number(frames));
    std::fprintf(stderr, "  made the %d-frame session in %.0f s\n", frames, t.elapsed() / 1000.0);
    return dir;
}

Result<QString> copySession(const QString &from, const QString &to)
{
    QDir(to).removeRecursively();
    if (!QDir().mkpath(to + QStringLiteral("/images")))
        return Error::make(ErrorKind::NotWritable, QStringLiteral("%1: cannot create").arg(to));
    const QFileInfoList top = QDir(from).entryInfoList(QDir::Files | QDir::Hidden);
    for (const QFileInfo &fi : top) {
        if (fi.fileName() == QLatin1String("session.lock"))
            continue;
        if (!QFile::copy(fi.absoluteFilePath(), to + QLatin1Char('/') + fi.fileName()))
            return Error::make(ErrorKind::Io, QStringLiteral("cannot copy %1").arg(fi.absoluteFilePath()));
    }
    const QFileInfoList images = QDir(from + QStringLiteral("/images")).entryInfoList(QDir::Files);
    for (const QFileInfo &fi : images) {
        const QByteArray src = QFile::encodeName(fi.absoluteFilePath());
        const QByteArray dst = QFile::encodeName(to + QStringLiteral("/images/") + fi.fileName());
        if (::link(src.constData(), dst.constData()) != 0
            && !QFile::copy(fi.absoluteFilePath(), QString::fromLocal8Bit(dst)))
            return Error::make(ErrorKind::Io, QStringLiteral("cannot link %1").arg(fi.absoluteFilePath()));
    }
    return to;
}

double runProcess(const QString &program, const QStringList &args, const QProcessEnvironment &env, int timeoutMs,
    QString *error, QByteArray *stdoutBytes)
{
    QProcess p;
    p.setProcessEnvironment(env);
    QElapsedTimer t;
    t.start();
    p.start(program, args);
    if (!p.waitForStarted(timeoutMs)) {
        if (error)
            *error = QStringLiteral("%1 did not start: %2").arg(program, p.errorString());
        return -1;
    }
    // Spin the event loop while waiting: an in-process fake server or timers must keep running.
    const bool finished = waitUntil([&p] { return p.state() == QProcess::NotRunning; }, timeoutMs);
    const double ms = t.nsecsElapsed() / 1e6;
    if (!finished) {
        p.kill();
        p.waitForFinished(2000);
        if (error)
            *error = QStringLiteral("%1 timed out").arg(program);
        return -1;
    }
    if (stdoutBytes)
        *stdoutBytes = p.readAllStandardOutput();
    if (p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
        if (error)
            *error = QStringLiteral("%1 %2 failed (%3): %4")
                         .arg(program, args.join(QLatin1Char(' ')))
                         .arg(p.exitCode())
                         .arg(QString::fromLocal8Bit(p.readAllStandardError()).trimmed().left(400));
        return -1;
    }
    return ms;
}

double rssMb(qint64 pid)
{
    QFile f(pid ? QStringLiteral("/proc/%1/status").arg(pid) : QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> lines = f.readAll().split('\n');
    for (const QByteArray &l : lines)
        if (l.startsWith("VmRSS:"))
            return l.mid(6).trimmed().split(' ').first().toDouble() / 1024.0;
    return 0;
}

qint64 diskBytes(const QString &dir, const QStringList &skipSubdirs)
{
    qint64 total = 0;
    QDirIterator it(dir, QDir::Files | QDir::Hidden | QDir::NoSymLinks, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        const QString rel = QDir(dir).relativeFilePath(path);
        bool skip = false;
        for (const QString &s : skipSubdirs)
            skip = skip || rel.startsWith(s + QLatin1Char('/'));
        if (skip)
            continue;
        struct stat st {
        };
        if (::stat(QFile::encodeName(path).constData(), &st) == 0)
            total += qint64(st.st_blocks) * 512;
    }
    return total;
}

} // namespace nb2::bench
