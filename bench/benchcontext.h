#pragma once

#include "bench/benchreport.h"
#include "core/common/error.h"

#include <QByteArray>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <memory>

namespace nb2 {
class FakeServer;
class InteractionsClient;
class SessionController;
} // namespace nb2

namespace nb2::bench {

/**
 * What every case shares: the options of the run, where the programs under test are, the
 * cache of big sessions (made once, reused by later runs), a scratch folder removed at exit,
 * and the report the figures go to.
 */
struct Context {
    bool quick = false;
    QString cacheDir;       // big sessions, kept between runs ($NB2_BENCH_CACHE or /tmp/nb2lite-bench-cache)
    QString scratchDir;     // this run's temporary files
    QString cliPath;        // nb2lite
    QString studioPath;     // nb2lite-studio
    QString bareWindowPath; // nb2lite-bench-window (the bare Qt Widgets window)
    QString nodeDir;        // bench/node (script + node_modules)
    Report *report = nullptr;
    QList<int> sizes; // --sizes: overrides the big session sizes

    /** Runs for a timed figure: fewer in --quick. */
    int runs(int full, int quick = 1) const { return this->quick ? quick : full; }
    /** The big session sizes: 1,000 and 10,000 frames (200 in --quick). */
    QList<int> bigSizes() const
    {
        return !sizes.isEmpty() ? sizes : quick ? QList<int> {200} : QList<int> {1000, 10000};
    }
};

/** A 1024x1024 JPEG of about 1 MB (a painted picture with photographic grain), made once. */
const QByteArray &realisticJpeg();

/** A fake server on 127.0.0.1 answering every image request with realisticJpeg(). */
std::unique_ptr<FakeServer> startFake(int latencyMs = 0);
/** A client for fake, no retries. */
std::shared_ptr<InteractionsClient> clientFor(const FakeServer &fake);
/** The environment a child nb2lite process needs to talk to fake (key in the environment only). */
QProcessEnvironment cliEnvironment(const FakeServer &fake);

/**
 * The cached session of `frames` frames, made through SessionController against the fake
 * (realistic 1 MB images; four chains grown at once, each with a fork every 10 frames); made on
 * first use, then reused.
 */
Result<QString> ensureSession(Context &ctx, int frames);
/**
 * A private copy of a session the case may change: manifest, journal and small files copied,
 * images hard-linked (same bytes, no disk cost).
 */
Result<QString> copySession(const QString &from, const QString &to);

/** Wall time of one child process in ms; < 0 when it failed (its stderr is in *error). */
double runProcess(const QString &program, const QStringList &args, const QProcessEnvironment &env,
    int timeoutMs = 120000, QString *error = nullptr, QByteArray *stdoutBytes = nullptr);

/** Resident set size of a process in MB (from /proc), 0 when unknown. */
double rssMb(qint64 pid = 0);
/** Bytes used on disk by the files under dir (allocated blocks), optionally skipping sub-folders. */
qint64 diskBytes(const QString &dir, const QStringList &skipSubdirs = {});

/** Spins the event loop until done() or the timeout; returns done(). */
bool waitUntil(const std::function<bool()> &done, int timeoutMs);

} // namespace nb2::bench
