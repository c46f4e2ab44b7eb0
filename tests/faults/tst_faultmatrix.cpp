// The fault matrix (issue 11): one scripted session per fault. Each row seeds a session with two
// finished frames (generate, then edit), hashes their image files, sends one more turn into the
// fault, and then checks what a user relies on:
//   - every finished frame is intact (its image bytes still hash to what they did before),
//   - the faulted turn ends in the expected state, and a failure carries a specific message
//     (its own error kind and words that name the problem, not a generic one),
//   - the session folder reopens (and keeps the crash-safety invariants),
//   - a Retry once the fault is gone finishes the turn; how many interactions it paid for is
//     recorded (a Retry that re-POSTs although the interaction id was known pays twice).
// At the end it prints the matrix as a Markdown table (docs/reliability.md keeps a copy). Run
// it by hand with `build/tests/faults/tst_faultmatrix` (add `-o matrix.md,txt` to keep the
// print, or set NB2_FAULT_MATRIX=FILE to write just the table).
//
// Faults are the in-process fake server's (core/fakeapi), the session is the real
// SessionController, and the "kill -9 of a second writer" row runs the real nb2lite binary.
// Disk full and read-only folders are real: a small tmpfs and a read-only bind mount when the
// test runs as root; otherwise disk full is skipped and read-only uses chmod.

#include "../session/sessiontestutil.h"
#include "core/api/interactionsclient.h"
#include "core/fakeapi/fakeserver.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"
#include "tests/testpaths.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTextStream>
#include <QtTest>

#include <sys/mount.h>
#include <unistd.h>

using namespace nb2;

namespace {

const QString kKey = QStringLiteral("nb2-fault-matrix-key-5c1d");

FakeServerOptions optionsWithKey()
{
    FakeServerOptions o;
    o.apiKey = kKey;
    return o;
}

/** One line of the printed matrix. */
struct Outcome {
    QString fault;
    QString turn;     // "failed (rate_limited)", "done (re-anchored)", ...
    QString message;  // the failed turn's message, shortened
    QString requests; // POST/GET the turn made
    QString retry;    // what a Retry did once the fault was gone
    QString frames;   // "intact" or what broke
    QString reopens;  // "yes" or the error
    QString note;
    bool pass = false;
    bool knownDefect = false; // a defect owned by another branch: shown, not failed on
};

QList<Outcome> &rows()
{
    static QList<Outcome> r;
    return r;
}

QString shortened(QString text, int max = 110)
{
    text.replace(QLatin1Char('|'), QLatin1Char('/')).replace(QLatin1Char('\n'), QLatin1Char(' '));
    return text.size() > max ? text.left(max - 1) + QChar(0x2026) : text;
}

/** A tmpfs (or a read-only bind mount) that is unmounted again when it goes. Root only. */
class Mount
{
public:
    ~Mount()
    {
        if (!m_path.isEmpty())
            ::umount2(m_path.toLocal8Bit().constData(), MNT_DETACH);
    }
    bool tmpfs(const QString &path, int sizeKb)
    {
        const QByteArray options = "size=" + QByteArray::number(sizeKb) + "k,mode=0755";
        if (::mount("tmpfs", path.toLocal8Bit().constData(), "tmpfs", MS_NOSUID | MS_NODEV, options.constData()) != 0)
            return false;
        m_path = path;
        return true;
    }
    bool readOnlyView(const QString &source, const QString &path)
    {
        const QByteArray src = source.toLocal8Bit(), dst = path.toLocal8Bit();
        if (::mount(src.constData(), dst.constData(), nullptr, MS_BIND, nullptr) != 0)
            return false;
        m_path = path;
        return ::mount(nullptr, dst.constData(), nullptr, MS_REMOUNT | MS_BIND | MS_RDONLY, nullptr) == 0;
    }

private:
    QString m_path;
};

/** Fills the file system under dir until it is full, then frees keepFreeKb again. */
bool fillDisk(const QString &dir, int keepFreeKb)
{
    QFile filler(dir + QStringLiteral("/zz-filler"));
    if (!filler.open(QIODevice::WriteOnly))
        return false;
    const QByteArray block(64 * 1024, 'x');
    while (filler.write(block) == block.size() && filler.flush()) {}
    filler.close();
    const qint64 size = QFileInfo(filler.fileName()).size();
    return QFile::resize(filler.fileName(), qMax<qint64>(0, size - qint64(keepFreeKb) * 1024));
}

} // namespace

class tst_FaultMatrix : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<FakeServer> m_fake;
    QString m_sessionDir;
    QHash<QString, QString> m_seeded; // frame id -> sha256 of its image bytes before the fault

    std::shared_ptr<InteractionsClient> client(int readTimeoutMs = 20000, const QString &key = kKey) const
    {
        ClientConfig cfg;
        cfg.baseUrl = m_fake->baseUrl();
        cfg.apiKey = ApiKey(key, QStringLiteral("test"));
        cfg.maxRetries = 2; // the client's own retries are part of what the matrix shows
        cfg.backoffBaseMs = 50;
        cfg.backoffCapMs = 200;
        cfg.connectTimeoutMs = 3000;
        cfg.readTimeoutMs = readTimeoutMs;
        cfg.maxRateLimitWaitMs = 5000;
        return std::make_shared<InteractionsClient>(cfg);
    }

    int count(const QString &method) const
    {
        int n = 0;
        for (const FakeRequest &r : m_fake->requests())
            n += r.method == method && r.path.contains(QLatin1String("/interactions"));
        return n;
    }
    QString requestCounts(int storedBefore = -1) const
    {
        QString text = QStringLiteral("%1 / %2").arg(count(QStringLiteral("POST"))).arg(count(QStringLiteral("GET")));
        if (storedBefore >= 0)
            text += QStringLiteral(" / %1").arg(m_fake->interactionCount() - storedBefore);
        return text;
    }

    /** Two finished frames (generate, edit); remembers the hash of each image file. */
    bool seed(SessionController &c)
    {
        const Result<QString> g = c.generate({QStringLiteral("a lighthouse at dusk"), {}, {}, false});
        if (!g || !c.waitForIdle(30000) || !c.graph().value(g.value()).isDone())
            return false;
        const Result<QString> e = c.edit(g.value(), {QStringLiteral("add a lantern"), {}, {}, false});
        if (!e || !c.waitForIdle(30000) || !c.graph().value(e.value()).isDone())
            return false;
        m_seeded.clear();
        for (const QString &id : {g.value(), e.value()}) {
            const Frame f = c.graph().value(id);
            m_seeded.insert(id, SessionStore::sha256Hex(test::readFile(c.store()->absolutePath(f.image.file))));
        }
        return true;
    }

    /** "intact", or which finished frame changed or went missing. */
    QString framesIntact(const QString &dir) const
    {
        SessionStore store;
        if (const Result<void> opened = store.open(dir, SessionStore::OpenMode::OpenExisting); !opened)
            return QStringLiteral("cannot check: %1").arg(opened.error().message);
        QStringList broken;
        for (auto it = m_seeded.cbegin(); it != m_seeded.cend(); ++it) {
            const Frame f = store.graph().value(it.key());
            const QString onDisk = SessionStore::sha256Hex(test::readFile(store.absolutePath(f.image.file)));
            if (!f.isDone() || onDisk != it.value() || f.image.sha256 != it.value())
                broken.append(it.key());
        }
        store.close();
        const QStringList invariants = test::checkInvariants(dir);
        if (!broken.isEmpty())
            return QStringLiteral("CHANGED: %1").arg(broken.join(QStringLiteral(", ")));
        if (!invariants.isEmpty())
            return QStringLiteral("invariant: %1").arg(invariants.join(QStringLiteral("; ")));
        return QStringLiteral("intact");
    }

    static QString reopens(const QString &dir)
    {
        SessionController c;
        SessionSettings s;
        s.recoverOnOpen = false; // a plain reopen: the folder and its manifest
        c.setSettings(s);
        const Result<void> opened = c.open(dir);
        return opened ? QStringLiteral("yes") : QStringLiteral("NO: %1").arg(opened.error().message);
    }

    static QString turnState(const Frame &f)
    {
        QString s = frameStatusName(f.status);
        if (!f.error.kind.isEmpty())
            s += QStringLiteral(" (%1)").arg(f.error.kind);
        else if (f.isDone() && f.reAnchored)
            s += QStringLiteral(" (re-anchored)");
        return s;
    }

    /**
     * After the fault is gone: Retry the frame and say what it cost. knownId is the interaction
     * id the failed frame already had: paying for a new one then is the double charge of issue 11.
     */
    QString retryAfterFault(SessionController &c, const QString &frameId, QString *note)
    {
        const Frame before = c.graph().value(frameId);
        if (before.isDone())
            return QStringLiteral("—");
        m_fake->clearFaults();
        m_fake->setLatencyMs(0);
        const int posts = count(QStringLiteral("POST")), gets = count(QStringLiteral("GET"));
        const Result<QString> r = c.retry(frameId);
        if (!r)
            return QStringLiteral("refused: %1").arg(shortened(r.error().message, 60));
        c.waitForIdle(30000);
        const Frame after = c.graph().value(frameId);
        const int newPosts = count(QStringLiteral("POST")) - posts, newGets = count(QStringLiteral("GET")) - gets;
        if (!before.interactionId.isEmpty() && newPosts > 0 && note)
            *note = QStringLiteral("Retry sent a new POST although interaction %1 was known: the first one is "
                                   "orphaned and a second paid for (sec, items 5-6)")
                        .arg(before.interactionId.left(12) + QChar(0x2026));
        return QStringLiteral("%1, %2 POST / %3 GET").arg(frameStatusName(after.status)).arg(newPosts).arg(newGets);
    }

    void record(Outcome o) { rows().append(std::move(o)); }

private Q_SLOTS:
    void init()
    {
        m_fake = std::make_unique<FakeServer>(optionsWithKey());
        QVERIFY(m_fake->start(0));
    }
    void cleanup() { m_fake.reset(); }

    void apiFault_data();
    void apiFault();
    void diskFull();
    void readOnlyFolder();
    void killNineOfSecondWriter();

    void cleanupTestCase();
};

void tst_FaultMatrix::apiFault_data()
{
    QTest::addColumn<QString>("fault");
    QTest::addColumn<int>("count"); // how many create/get requests get it (3 = every attempt)
    QTest::addColumn<bool>("stream");
    QTest::addColumn<QString>("wantStatus");
    QTest::addColumn<QString>("wantKind");
    QTest::addColumn<QString>("wantMessage"); // regex the failed turn's message must match

    auto row = [](const char *tag, const char *fault, int n, bool stream, const char *status, const char *kind,
                   const char *message) {
        QTest::newRow(tag) << QString::fromLatin1(fault) << n << stream << QString::fromLatin1(status)
                           << QString::fromLatin1(kind) << QString::fromUtf8(message);
    };
    // Every attempt faulted: the turn fails and says why.
    row("429 with Retry-After", "rate_limit", 3, true, "failed", "rate_limited", "(?i)quota|exhausted|rate");
    row("429 without Retry-After", "rate_limit_no_header", 3, true, "failed", "rate_limited",
        "(?i)quota|exhausted|rate");
    row("429 once (then fine)", "rate_limit", 1, true, "done", "", "");
    row("500 JSON", "server_error", 3, true, "failed", "server", "(?i)internal error");
    row("500 HTML", "html_500", 3, true, "failed", "server", "(?i)500");
    row("503 JSON", "json_503", 3, true, "failed", "server", "(?i)overloaded|unavailable|503");
    row("503 HTML", "unavailable_html", 3, true, "failed", "server", "(?i)503|unavailable");
    row("503 HTML once (then fine)", "unavailable_html", 1, true, "done", "", "");
    row("reset before the first byte", "reset_before_first_byte", 3, true, "failed", "network",
        "(?i)connect|closed|reset|network");
    row("reset before the first byte, once", "reset_before_first_byte", 1, true, "done", "", "");
    // The stream had already named the interaction: the client fetches it with a get (no second POST).
    row("reset after the first byte (stream)", "connection_reset", 1, true, "done", "", "");
    // Today the client retries this one by itself (and pays twice; see the note in the matrix).
    row("reset after the first byte (no stream)", "connection_reset", 1, false, "", "", "");
    row("truncated JSON (no stream)", "truncated_json", 3, false, "failed", "malformed_response",
        "(?i)json|incomplete|truncat|understand");
    row("truncated stream", "truncated_json", 1, true, "done", "", ""); // fetched by its known id
    row("trickle past the read timeout", "slow_trickle", 1, true, "done", "", "");
    row("text-only refusal", "text_only", 1, true, "failed", "no_image", "(?i)without an image|no image|text");
    row("expired parent id", "expired_id", 0, true, "done", "", "");
    row("wrong key", "wrong_key", 0, true, "failed", "auth", "(?i)key");
}

void tst_FaultMatrix::apiFault()
{
    QFETCH(QString, fault);
    QFETCH(int, count);
    QFETCH(bool, stream);
    QFETCH(QString, wantStatus);
    QFETCH(QString, wantKind);
    QFETCH(QString, wantMessage);

    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    m_sessionDir = tmp.path() + QStringLiteral("/session");
    const bool trickle = fault == QLatin1String("slow_trickle");
    SessionController c;
    SessionSettings settings;
    settings.streamTurns = stream;
    c.setSettings(settings);
    // The trickle row: a 1 s read timeout, a body spread over 3 s (each chunk well inside it).
    c.setClient(client(trickle ? 1000 : 20000));
    QVERIFY(c.open(m_sessionDir));
    QVERIFY2(seed(c), "the seed turns did not finish");
    const QString head = c.resolveFrameRef(QStringLiteral("head")).value();
    m_fake->clearRequests();

    FakeFault f;
    if (fault == QLatin1String("rate_limit_no_header")) {
        f.kind = FakeFault::Kind::RateLimit;
        f.retryAfterSeconds = -1;
    } else if (fault == QLatin1String("html_500")) {
        f.kind = FakeFault::Kind::ServiceUnavailableHtml;
        f.status = 500;
    } else if (fault == QLatin1String("json_503")) {
        f.kind = FakeFault::Kind::ServerErrorJson;
        f.status = 503;
    } else if (fault == QLatin1String("expired_id")) {
        m_fake->forget(c.graph().value(head).interactionId);
    } else if (fault == QLatin1String("wrong_key")) {
        c.setClient(client(20000, QStringLiteral("not-the-key")));
    } else {
        const auto kind = fakeFaultKindFromName(fault);
        QVERIFY2(kind, qPrintable(fault));
        f.kind = *kind;
        f.retryAfterSeconds = 1;
        f.trickleMs = 3000;
    }
    if (count > 0)
        m_fake->injectFault(f, count);

    const int storedBefore = m_fake->interactionCount();
    QElapsedTimer clock;
    clock.start();
    const Result<QString> turn = c.edit(head, {QStringLiteral("make it winter"), {}, {}, false});
    QVERIFY2(turn, qPrintable(turn.error().message));
    QVERIFY(c.waitForIdle(60000));
    const qint64 ms = clock.elapsed();
    const Frame t = c.graph().value(turn.value());

    Outcome o;
    o.fault = QString::fromUtf8(QTest::currentDataTag());
    o.turn = turnState(t) + QStringLiteral(", %1 s").arg(ms / 1000.0, 0, 'f', 1);
    o.message = t.isDone() ? QStringLiteral("—") : shortened(t.error.message);
    o.requests = requestCounts(storedBefore);
    const int made = m_fake->interactionCount() - storedBefore;
    if (made > 1) {
        // The server made (and bills) an interaction per create it answered: more than one for
        // one turn means the client sent the turn again after the first one already existed.
        o.knownDefect = true;
        o.note = QStringLiteral("the client re-sent the POST after the answer had started arriving: %1 interactions "
                                "made and paid for one turn (sec, items 5-6: get-first recovery)")
                     .arg(made);
    }
    if (fault == QLatin1String("wrong_key"))
        c.setClient(client());
    QString retryNote;
    o.retry = retryAfterFault(c, t.id, &retryNote);
    if (!retryNote.isEmpty() && t.error.kind != QLatin1String("no_image")) { // a refusal is asked again on purpose
        o.note = retryNote;
        o.knownDefect = true;
    }
    c.close();
    o.frames = framesIntact(m_sessionDir);
    o.reopens = reopens(m_sessionDir);
    if (trickle && t.isDone())
        o.note = QStringLiteral("the body kept coming inside the read timeout, so the turn waited for it; an "
                                "overall deadline is --timeout (sec)");

    const bool stateOk = (wantStatus.isEmpty() || frameStatusName(t.status) == wantStatus)
        && (wantKind.isEmpty() || t.error.kind == wantKind);
    const bool messageOk = wantMessage.isEmpty() || QRegularExpression(wantMessage).match(t.error.message).hasMatch();
    o.pass = stateOk && messageOk && o.frames == QLatin1String("intact") && o.reopens == QLatin1String("yes");
    record(o);
    QVERIFY2(o.frames == QLatin1String("intact"), qPrintable(o.frames));
    QVERIFY2(o.reopens == QLatin1String("yes"), qPrintable(o.reopens));
    QVERIFY2(stateOk,
        qPrintable(QStringLiteral("turn %1, want %2 %3; message: %4")
                       .arg(turnState(t), wantStatus, wantKind, t.error.message)));
    QVERIFY2(
        messageOk, qPrintable(QStringLiteral("message \"%1\" does not match %2").arg(t.error.message, wantMessage)));
}

void tst_FaultMatrix::diskFull()
{
    if (::geteuid() != 0)
        QSKIP("disk full needs a small tmpfs, which needs root");
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    Mount mount;
    QVERIFY2(mount.tmpfs(tmp.path(), 8 * 1024), strerror(errno));
    m_sessionDir = tmp.path() + QStringLiteral("/session");
    Outcome o;
    o.fault = QStringLiteral("disk full (8 MB tmpfs, image does not fit)");
    QString turnId;
    int retryPosts = -1, retryGets = -1, madeAfterRetry = -1;
    Frame retried;
    {
        SessionController c;
        QStringList errors;
        connect(&c, &SessionController::errorOccurred, this, [&errors](const QString &m) { errors.append(m); });
        c.setClient(client());
        QVERIFY(c.open(m_sessionDir));
        QVERIFY(seed(c));
        m_fake->clearRequests();
        // Room for the manifest and journal records, not for another image.
        QVERIFY(fillDisk(tmp.path(), 48));
        const int storedBefore = m_fake->interactionCount();
        const Result<QString> turn = c.edit(
            c.resolveFrameRef(QStringLiteral("head")).value(), {QStringLiteral("make it winter"), {}, {}, false});
        QVERIFY2(turn, qPrintable(turn.error().message));
        QVERIFY(c.waitForIdle(60000));
        const Frame t = c.graph().value(turn.value());
        turnId = t.id;
        o.turn = turnState(t);
        o.message = shortened(t.error.message);
        o.requests = requestCounts(storedBefore);
        QVERIFY2(
            t.error.kind == QLatin1String("disk_full"), qPrintable(turnState(t) + QLatin1Char(' ') + t.error.message));
        QVERIFY2(t.error.message.contains(QStringLiteral("space"), Qt::CaseInsensitive), qPrintable(t.error.message));
        o.frames = framesIntact(m_sessionDir);
        const QString whileFull = reopens(m_sessionDir);
        // The server made the picture (1 POST, 1 interaction); only storing it failed. The id is
        // known, so Retry must get it (1 GET) and never send a new, billed POST.
        QCOMPARE(count(QStringLiteral("POST")), 1);
        QCOMPARE(m_fake->interactionCount() - storedBefore, 1);
        QVERIFY2(!t.interactionId.isEmpty(), "the failed turn forgot the interaction id the server gave it");
        QFile::remove(tmp.path() + QStringLiteral("/zz-filler"));
        retryPosts = count(QStringLiteral("POST"));
        retryGets = count(QStringLiteral("GET"));
        o.retry = retryAfterFault(c, t.id, &o.note);
        retryPosts = count(QStringLiteral("POST")) - retryPosts;
        retryGets = count(QStringLiteral("GET")) - retryGets;
        retried = c.graph().value(t.id);
        madeAfterRetry = m_fake->interactionCount() - storedBefore;
        c.close();
        o.reopens = whileFull == QLatin1String("yes")
            ? QStringLiteral("yes (also while full)")
            : QStringLiteral("after freeing space; while full: %1").arg(whileFull);
        if (!errors.isEmpty() && o.note.isEmpty())
            o.note = shortened(errors.constFirst(), 90);
    }
    const QString afterwards = framesIntact(m_sessionDir);
    const bool retryGot = retried.isDone() && retryPosts == 0 && retryGets >= 1 && madeAfterRetry == 1;
    o.pass = retryGot && o.frames == QLatin1String("intact") && afterwards == QLatin1String("intact")
        && reopens(m_sessionDir) == QLatin1String("yes");
    record(o);
    QVERIFY2(retryGot,
        qPrintable(QStringLiteral("Retry after disk full: %1 (interactions made: %2); want done by GET, "
                                  "no POST")
                       .arg(o.retry, QString::number(madeAfterRetry))));
    QVERIFY2(!retried.image.file.isEmpty(), "the retried frame has no image");
    QVERIFY2(o.frames == QLatin1String("intact"), qPrintable(o.frames));
    QVERIFY2(afterwards == QLatin1String("intact"), qPrintable(afterwards));
    QCOMPARE(reopens(m_sessionDir), QStringLiteral("yes"));
}

void tst_FaultMatrix::readOnlyFolder()
{
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    m_sessionDir = tmp.path() + QStringLiteral("/session");
    {
        SessionController c;
        c.setClient(client());
        QVERIFY(c.open(m_sessionDir));
        QVERIFY(seed(c));
    }
    m_fake->clearRequests();
    // Root ignores file modes: a read-only bind mount is the real thing. Others: chmod.
    const bool root = ::geteuid() == 0;
    Mount view;
    QString readOnly = m_sessionDir;
    if (root) {
        readOnly = tmp.path() + QStringLiteral("/ro-view"); // no words of the expected message in the path
        QVERIFY(QDir().mkpath(readOnly));
        QVERIFY2(view.readOnlyView(m_sessionDir, readOnly), strerror(errno));
    } else {
        QVERIFY(QFile::setPermissions(m_sessionDir, QFile::ReadOwner | QFile::ExeOwner));
    }
    Outcome o;
    o.fault = QStringLiteral("read-only folder (%1)")
                  .arg(root ? QStringLiteral("read-only mount") : QStringLiteral("chmod 555"));
    SessionController c;
    c.setClient(client());
    const Result<void> opened = c.open(readOnly);
    QString message, kind;
    if (!opened) {
        o.turn = QStringLiteral("not started: open failed (%1)").arg(errorKindName(opened.error().kind));
        message = opened.error().message;
        kind = errorKindName(opened.error().kind);
    } else {
        const Result<QString> turn = c.edit(
            c.resolveFrameRef(QStringLiteral("head")).value(), {QStringLiteral("make it winter"), {}, {}, false});
        if (!turn) {
            o.turn = QStringLiteral("refused (%1)").arg(errorKindName(turn.error().kind));
            message = turn.error().message;
            kind = errorKindName(turn.error().kind);
        } else {
            QElapsedTimer clock;
            clock.start();
            c.waitForIdle(30000);
            const Frame t = c.graph().value(turn.value());
            o.turn = turnState(t) + QStringLiteral(", %1 s").arg(clock.elapsed() / 1000.0, 0, 'f', 1);
            message = t.error.message;
            kind = t.error.kind;
        }
    }
    c.close();
    o.message = shortened(message);
    o.requests = requestCounts();
    o.retry = QStringLiteral("—");
    o.frames = framesIntact(m_sessionDir);
    o.reopens = reopens(m_sessionDir);
    if (!root)
        QFile::setPermissions(m_sessionDir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    const bool specific = kind == QLatin1String("not_writable")
        && QRegularExpression(QStringLiteral("(?i)read-only|not writable")).match(message).hasMatch();
    o.pass = specific && o.frames == QLatin1String("intact") && o.reopens == QLatin1String("yes")
        && count(QStringLiteral("POST")) == 0;
    record(o);
    QVERIFY2(specific, qPrintable(kind + QLatin1Char(' ') + message));
    QCOMPARE(count(QStringLiteral("POST")), 0); // nothing is paid for that could not be kept
    QVERIFY2(o.frames == QLatin1String("intact"), qPrintable(o.frames));
    QCOMPARE(o.reopens, QStringLiteral("yes"));
}

void tst_FaultMatrix::killNineOfSecondWriter()
{
    const QString cli = nb2test::cliProgram();
    QVERIFY2(QFileInfo::exists(cli), "build the nb2lite target");
    QTemporaryDir tmp;
    QVERIFY(tmp.isValid());
    m_sessionDir = tmp.path() + QStringLiteral("/session");
    {
        SessionController c;
        c.setClient(client());
        QVERIFY(c.open(m_sessionDir));
        QVERIFY(seed(c));
    }
    m_fake->clearRequests();
    m_fake->setLatencyMs(6000);
    const int storedBefore = m_fake->interactionCount();

    // The second writer: nb2lite in the same session, killed while the server is drawing.
    QProcess writer;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("GEMINI_API_KEY"), kKey);
    env.insert(QStringLiteral("HOME"), tmp.path());
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), tmp.path() + QStringLiteral("/config"));
    env.insert(QStringLiteral("XDG_CACHE_HOME"), tmp.path() + QStringLiteral("/cache"));
    writer.setProcessEnvironment(env);
    writer.start(cli,
        {QStringLiteral("--session"), m_sessionDir, QStringLiteral("--base-url"), m_fake->baseUrl(),
            QStringLiteral("edit"), QStringLiteral("head"), QStringLiteral("make it winter")});
    QVERIFY(writer.waitForStarted(10000));
    // Kill once the manifest lists the pending turn with the id the stream revealed.
    QString pendingId;
    QTRY_VERIFY_WITH_TIMEOUT(([&] {
        SessionStore peek;
        if (!peek.open(m_sessionDir, SessionStore::OpenMode::OpenExisting))
            return false;
        for (const Frame &f : peek.graph().frames())
            if (f.isPending() && !f.interactionId.isEmpty())
                pendingId = f.id;
        return !pendingId.isEmpty();
    }()),
        20000);
    writer.kill();
    QVERIFY(writer.waitForFinished(5000));
    m_fake->setLatencyMs(0);

    Outcome o;
    o.fault = QStringLiteral("kill -9 of a second writer (nb2lite, mid-turn)");
    SessionController c;
    c.setClient(client());
    QSignalSpy recovered(&c, &SessionController::recoveryFinished);
    QVERIFY(c.open(m_sessionDir));
    QVERIFY(c.waitForIdle(30000));
    const Frame t = c.graph().value(pendingId);
    o.turn = turnState(t) + (recovered.isEmpty() ? QString() : QStringLiteral(", recovered by get on open"));
    o.message = t.isDone() ? QStringLiteral("—") : shortened(t.error.message);
    o.requests = requestCounts(storedBefore);
    o.retry = retryAfterFault(c, t.id, &o.note);
    c.close();
    o.frames = framesIntact(m_sessionDir);
    o.reopens = reopens(m_sessionDir);
    o.pass = t.isDone() && count(QStringLiteral("POST")) == 1 && o.frames == QLatin1String("intact")
        && o.reopens == QLatin1String("yes");
    record(o);
    QVERIFY2(t.isDone(), qPrintable(turnState(t) + QLatin1Char(' ') + t.error.message));
    QCOMPARE(count(QStringLiteral("POST")), 1); // fetched, not paid for twice
    QVERIFY2(o.frames == QLatin1String("intact"), qPrintable(o.frames));
    QCOMPARE(o.reopens, QStringLiteral("yes"));
}

void tst_FaultMatrix::cleanupTestCase()
{
    QString table;
    QTextStream out(&table);
    out << "| fault | faulted turn | its message | POST / GET / made | Retry once the fault is gone | finished frames "
           "| "
           "reopens | ok |\n";
    out << "|---|---|---|---|---|---|---|---|\n";
    QStringList notes;
    for (const Outcome &o : rows()) {
        QString retry = o.retry;
        if (!o.note.isEmpty()) {
            notes.append(o.note);
            retry += QStringLiteral(" [%1]").arg(notes.size());
        }
        out << "| " << o.fault << " | " << o.turn << " | " << o.message << " | " << o.requests << " | " << retry
            << " | " << o.frames << " | " << o.reopens << " | "
            << (o.knownDefect   ? "**no** (sec)"
                       : o.pass ? "yes"
                                : "**no**")
            << " |\n";
    }
    for (int i = 0; i < notes.size(); ++i)
        out << "\n[" << (i + 1) << "] " << notes.at(i);
    out << '\n';
    out.flush();
    // qInfo, not stdout: QtTest owns stdout when -o is used.
    for (const QString &line : table.split(QLatin1Char('\n')))
        qInfo().noquote() << line;
    if (const QString file = qEnvironmentVariable("NB2_FAULT_MATRIX"); !file.isEmpty()) {
        QFile f(file);
        if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
            f.write(table.toUtf8());
    }
}

QTEST_GUILESS_MAIN(tst_FaultMatrix)
#include "tst_faultmatrix.moc"
