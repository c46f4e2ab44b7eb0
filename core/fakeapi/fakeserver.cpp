#include "core/fakeapi/fakeserver.h"

#include "core/fakeapi/fakeserverinternal.h"

#include "core/fakeapi/fakeimagepainter.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QHash>
#include <QImage>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSet>
#include <QUrl>

#include <atomic>
#include <chrono>

#ifdef Q_OS_UNIX
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#endif
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

namespace nb2 {

// ---------------------------------------------------------------------------------------
// On-disk store

QString FakeServer::Private::recordPath(const QString &id) const
{
    if (storeDir.isEmpty() || !isStorableId(id))
        return {};
    return QDir(storeDir).filePath(id + QStringLiteral(".json"));
}

void FakeServer::Private::persist(const Stored &st) const
{
    const QString path = recordPath(st.id);
    if (path.isEmpty() || !QDir().mkpath(storeDir))
        return;
    // QSaveFile: a crash never leaves half a record, and a symlink in its place is replaced, not followed.
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return;
    std::string bytes = recordOf(st).dump();
    expandFixedImages(bytes); // the record holds the image itself, not the token
    file.write(bytes.data(), qint64(bytes.size()));
    file.commit(); // a failed write only costs continuity: the next fake answers 404, as for an expired id
}

void FakeServer::Private::unpersist(const QString &id) const
{
    const QString path = recordPath(id);
    if (!path.isEmpty())
        QFile::remove(path);
}

void FakeServer::Private::loadPersisted(const QString &id)
{
    const QString path = recordPath(id);
    if (path.isEmpty())
        return;
    {
        std::lock_guard<std::mutex> lock(mutex);
        if (store.contains(id))
            return;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly) || file.size() > kMaxRecordBytes)
        return; // missing, unreadable or absurdly large: the id is unknown (404)
    std::optional<Stored> st = storedFromRecord(file.readAll(), id);
    if (!st)
        return;
    std::lock_guard<std::mutex> lock(mutex);
    if (!store.contains(id))
        store.insert(id, *st);
}

// ---------------------------------------------------------------------------------------
// Request dispatch

void FakeServer::Private::handle(const httplib::Request &req, httplib::Response &res)
{
    const std::string &target = req.target.empty() ? req.path : req.target;
    const size_t qpos = target.find('?');
    const std::string rawPath = target.substr(0, qpos);
    const std::string rawQuery = qpos == std::string::npos ? std::string() : target.substr(qpos + 1);

    if (rawPath.rfind("/_fake/", 0) == 0) {
        deliver(control(req, rawPath), std::nullopt, res);
        return;
    }

    {
        FakeRequest r;
        r.method = q(req.method);
        r.path = q(rawPath);
        r.query = q(rawQuery);
        r.body = QByteArray::fromStdString(req.body);
        for (const auto &[k, v] : req.headers)
            r.headers.insert(q(k).toLower(), q(v));
        std::lock_guard<std::mutex> lock(mutex);
        logBytes += r.body.size();
        log.append(r);
        while (log.size() > kMaxLoggedRequests || (log.size() > 1 && logBytes > kMaxLoggedBytes)) {
            logBytes -= log.first().body.size();
            log.removeFirst();
        }
    }

    static const QRegularExpression createRe(QStringLiteral("^(.*)/(v1|v1beta)/interactions/?$"));
    static const QRegularExpression cancelRe(QStringLiteral("^(.*)/(v1|v1beta)/interactions/([^/]+)/cancel$"));
    static const QRegularExpression itemRe(QStringLiteral("^(.*)/(v1|v1beta)/interactions/([^/]+)$"));
    const QString path = q(rawPath);
    enum class Op { None, Create, Get, Delete, Cancel } op = Op::None;
    QString id;
    if (createRe.match(path).hasMatch()) {
        if (req.method == "POST")
            op = Op::Create;
    } else if (auto m = cancelRe.match(path); m.hasMatch()) {
        id = QUrl::fromPercentEncoding(m.captured(3).toUtf8());
        if (req.method == "POST")
            op = Op::Cancel;
    } else if (auto m2 = itemRe.match(path); m2.hasMatch()) {
        id = QUrl::fromPercentEncoding(m2.captured(3).toUtf8());
        if (req.method == "GET")
            op = Op::Get;
        else if (req.method == "DELETE")
            op = Op::Delete;
    }
    if (!id.isEmpty())
        loadPersisted(id);
    if (op == Op::None) {
        deliver(googleError(404, "NOT_FOUND", QStringLiteral("Method not found: %1 %2").arg(q(req.method), path)),
            std::nullopt, res);
        return;
    }

    // Counted while the "model" works on it: until the latency has passed (for a stream, its
    // last delay), never while the answer is on its way, so a client that has read an answer
    // never sees it still counted.
    std::shared_ptr<InFlight> inFlightGuard;
    if (op == Op::Create || op == Op::Get) {
        const int now = ++inFlight;
        for (int peak = peakInFlight.load(); now > peak && !peakInFlight.compare_exchange_weak(peak, now);) {}
        inFlightGuard = std::make_shared<InFlight>(&inFlight);
    }

    std::optional<FakeFault> fault;
    int latency = 0;
    {
        std::lock_guard<std::mutex> lock(mutex);
        if ((op == Op::Create || op == Op::Get) && !faults.empty()) {
            fault = faults.front();
            faults.pop_front();
        }
        latency = opts.latencyMs;
    }

    if (fault) {
        switch (fault->kind) {
        case FakeFault::Kind::RateLimit: {
            json e = json::object();
            e["message"] = "Resource has been exhausted (e.g. check quota).";
            e["code"] = "resource_exhausted";
            if (fault->retryAfterSeconds >= 0) // "without Retry-After": no delay anywhere, header or body
                e["details"] = json::array({json {{"retryDelay", std::to_string(fault->retryAfterSeconds) + "s"}}});
            Reply r = jsonReply(429, json {{"error", e}});
            if (fault->retryAfterSeconds >= 0)
                r.headers.emplace_back("Retry-After", std::to_string(fault->retryAfterSeconds));
            if (fault->retryAfterMs >= 0)
                r.headers.emplace_back("retry-after-ms", std::to_string(fault->retryAfterMs));
            deliver(r, std::nullopt, res);
            return;
        }
        case FakeFault::Kind::ServerErrorJson:
            if (fault->status == 503)
                deliver(
                    nativeError(503, "unavailable", QStringLiteral("The model is overloaded. Please try again later.")),
                    std::nullopt, res);
            else
                deliver(nativeError(fault->status > 0 ? fault->status : 500, "internal",
                            QStringLiteral("An internal error has occurred. Please retry or report in "
                                           "https://developers.generativeai.google/guide/troubleshooting")),
                    std::nullopt, res);
            return;
        case FakeFault::Kind::ResetBeforeFirstByte:
            if (shutDownConnection(req)) {
                res.status = 500; // never reaches the peer: the socket is already shut
                return;
            }
            break;
        case FakeFault::Kind::ServiceUnavailableHtml: {
            Reply r;
            r.status = fault->status > 0 ? fault->status : 503;
            r.contentType = "text/html; charset=UTF-8";
            const std::string code = std::to_string(r.status);
            const std::string reason = r.status == 503 ? "Service Unavailable"
                : r.status == 502                      ? "Bad Gateway"
                                                       : "Server Error";
            r.body = "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>"
                     "<title>Error "
                + code + " (" + reason + ")!!1</title></head>\n<body><p><b>" + code
                + ".</b> "
                  "<ins>That\xE2\x80\x99s an error.</ins></p><p>The service is temporarily unavailable. "
                  "Please try again later. <ins>That\xE2\x80\x99s all we know.</ins></p></body></html>\n";
            deliver(r, std::nullopt, res);
            return;
        }
        case FakeFault::Kind::InvalidKey:
            deliver(keyError(), std::nullopt, res);
            return;
        default:
            break; // delivery faults are applied to the normal answer below
        }
    }

    bool requireKey;
    QString apiKey;
    {
        std::lock_guard<std::mutex> lock(mutex);
        requireKey = opts.requireKey;
        apiKey = opts.apiKey;
    }
    if (requireKey) {
        std::string key = req.get_header_value("x-goog-api-key");
        if (key.empty() && req.has_param("key"))
            key = req.get_param_value("key");
        if (key.empty() || q(key) != apiKey) {
            deliver(keyError(), std::nullopt, res);
            return;
        }
    }

    bool streaming = false;
    if (op == Op::Create && req.body.size() <= kMaxRequestBytes) {
        // Streams carry their latency between events so the id arrives early.
        const auto body = json::parse(req.body, nullptr, false);
        streaming
            = body.is_object() && body.contains("stream") && body["stream"].is_boolean() && body["stream"].get<bool>();
    } else if (op == Op::Get) {
        streaming = req.get_param_value("stream") == "true";
    }
    if (!streaming && op != Op::Delete && !sleepMs(latency)) {
        deliver(
            googleError(503, "UNAVAILABLE", QStringLiteral("The fake server is shutting down.")), std::nullopt, res);
        return;
    }

    Reply reply;
    switch (op) {
    case Op::Create:
        reply = create(req, fault);
        break;
    case Op::Get:
        reply = get(req, id);
        break;
    case Op::Delete:
        reply = remove(id);
        break;
    case Op::Cancel:
        reply = cancel(id);
        break;
    case Op::None:
        break;
    }
    if (fault && fault->kind == FakeFault::Kind::TextOnlyRefusal)
        fault.reset(); // already applied by create()/get()
    reply.inFlight = std::move(inFlightGuard);
    deliver(std::move(reply), fault, res);
}

void FakeServer::Private::deliver(Reply reply, std::optional<FakeFault> fault, httplib::Response &res)
{
    res.status = reply.status;
    for (const auto &[k, v] : reply.headers)
        res.set_header(k.c_str(), v);

    const auto kind = fault ? std::optional<FakeFault::Kind>(fault->kind) : std::nullopt;
    const int trickleMs = fault ? std::max(0, fault->trickleMs) : 0;

    if (reply.sse) {
        auto events = std::make_shared<std::vector<std::pair<int, std::string>>>(std::move(reply.events));
        res.set_header("Cache-Control", "no-cache");
        res.set_chunked_content_provider(
            kSseType, [this, events, kind, trickleMs, held = reply.inFlight](size_t, httplib::DataSink &sink) {
                const size_t n = events->size();
                const int perEvent = n ? trickleMs / int(n) : 0;
                const int extra = kind == FakeFault::Kind::SlowTrickle ? perEvent : 0;
                size_t lastWait = n; // the last event written after a delay; n: none
                for (size_t i = 0; i < n; ++i) {
                    if ((*events)[i].first + extra > 0)
                        lastWait = i;
                }
                if (held && lastWait == n)
                    held->release();
                for (size_t i = 0; i < n; ++i) {
                    const auto &[delay, frameText] = (*events)[i];
                    if (!sleepMs(delay + extra))
                        return false;
                    if (held && i == lastWait)
                        held->release();
                    const bool isImageDelta = frameText.find("\"type\":\"image\"") != std::string::npos
                        && frameText.find("step.delta") != std::string::npos;
                    if (kind == FakeFault::Kind::ConnectionReset && i >= n / 2) {
                        sink.write(frameText.data(), frameText.size() / 2);
                        return false; // drop the connection mid-event
                    }
                    if (kind == FakeFault::Kind::TruncatedJson && (isImageDelta || i + 2 == n)) {
                        const std::string cut = frameText.substr(0, frameText.size() / 2) + "\n\n";
                        sink.write(cut.data(), cut.size());
                        sink.done(); // a clean end of a stream that never completed
                        return true;
                    }
                    if (!sink.is_writable() || !sink.write(frameText.data(), frameText.size()))
                        return false;
                }
                sink.done();
                return true;
            });
        return;
    }

    const bool faultOnBody = kind == FakeFault::Kind::TruncatedJson || kind == FakeFault::Kind::ConnectionReset
        || kind == FakeFault::Kind::SlowTrickle;
    if (!reply.pieces.empty() && faultOnBody) {
        std::string whole;
        for (const TextPiece &p : reply.pieces)
            whole.append(p.text ? *p.text : reply.body, p.at, p.size);
        reply.body = std::move(whole);
        reply.pieces.clear();
    }
    if (!reply.pieces.empty()) {
        // The ~1.4 MB of base64 is written from the server's one copy: building the joined
        // text cost a 1.4 MB allocation and copy on every answer.
        size_t size = 0;
        for (const TextPiece &p : reply.pieces)
            size += p.size;
        auto text = std::make_shared<std::string>(std::move(reply.body));
        res.set_content_provider(size, reply.contentType,
            [text, pieces = std::move(reply.pieces)](size_t offset, size_t, httplib::DataSink &sink) {
                size_t start = 0; // of the current piece in the whole answer
                for (const TextPiece &p : pieces) {
                    if (offset < start + p.size) {
                        const std::string &from = p.text ? *p.text : *text;
                        const size_t skip = offset - start;
                        if (!sink.write(from.data() + p.at + skip, p.size - skip))
                            return false;
                        offset += p.size - skip;
                    }
                    start += p.size;
                }
                return true;
            });
        return;
    }
    auto body = std::make_shared<std::string>(std::move(reply.body));
    if (kind == FakeFault::Kind::TruncatedJson) {
        body->resize(body->size() / 2);
        res.set_content(*body, reply.contentType.c_str());
        return;
    }
    if (kind == FakeFault::Kind::ConnectionReset || kind == FakeFault::Kind::SlowTrickle) {
        const bool reset = kind == FakeFault::Kind::ConnectionReset;
        res.set_content_provider(body->size(), reply.contentType.c_str(),
            [this, body, reset, trickleMs](size_t offset, size_t, httplib::DataSink &sink) {
                if (reset) {
                    // Declared length, half the bytes, then the socket closes: a reset mid-body.
                    const size_t half = body->size() / 2;
                    if (offset < half)
                        sink.write(body->data() + offset, half - offset);
                    return false;
                }
                const int chunks = 20;
                const size_t chunk = std::max<size_t>(1, (body->size() + chunks - 1) / chunks);
                size_t pos = offset;
                while (pos < body->size()) {
                    if (!sleepMs(trickleMs / chunks))
                        return false;
                    const size_t len = std::min(chunk, body->size() - pos);
                    if (!sink.write(body->data() + pos, len))
                        return false;
                    pos += len;
                }
                return true;
            });
        return;
    }
    // Moved, not copied (Response::set_content copies): the answer is ~1.4 MB on every turn.
    res.body = std::move(*body);
    res.headers.erase("Content-Type");
    res.set_header("Content-Type", reply.contentType);
}

// ---------------------------------------------------------------------------------------
// Public API

std::optional<FakeFault::Kind> fakeFaultKindFromName(const QString &name)
{
    static const struct {
        const char *name;
        FakeFault::Kind kind;
    } names[] = {
        {"rate_limit", FakeFault::Kind::RateLimit},
        {"server_error", FakeFault::Kind::ServerErrorJson},
        {"unavailable_html", FakeFault::Kind::ServiceUnavailableHtml},
        {"connection_reset", FakeFault::Kind::ConnectionReset},
        {"truncated_json", FakeFault::Kind::TruncatedJson},
        {"slow_trickle", FakeFault::Kind::SlowTrickle},
        {"text_only", FakeFault::Kind::TextOnlyRefusal},
        {"invalid_key", FakeFault::Kind::InvalidKey},
        {"reset_before_first_byte", FakeFault::Kind::ResetBeforeFirstByte},
    };
    const QString n = name.trimmed().toLower().replace(QLatin1Char('-'), QLatin1Char('_'));
    for (const auto &e : names) {
        if (n == QLatin1String(e.name))
            return e.kind;
    }
    return std::nullopt;
}

QString fakeFaultKindName(FakeFault::Kind kind)
{
    switch (kind) {
    case FakeFault::Kind::RateLimit:
        return QStringLiteral("rate_limit");
    case FakeFault::Kind::ServerErrorJson:
        return QStringLiteral("server_error");
    case FakeFault::Kind::ServiceUnavailableHtml:
        return QStringLiteral("unavailable_html");
    case FakeFault::Kind::ConnectionReset:
        return QStringLiteral("connection_reset");
    case FakeFault::Kind::TruncatedJson:
        return QStringLiteral("truncated_json");
    case FakeFault::Kind::SlowTrickle:
        return QStringLiteral("slow_trickle");
    case FakeFault::Kind::TextOnlyRefusal:
        return QStringLiteral("text_only");
    case FakeFault::Kind::InvalidKey:
        return QStringLiteral("invalid_key");
    case FakeFault::Kind::ResetBeforeFirstByte:
        return QStringLiteral("reset_before_first_byte");
    }
    return {};
}

FakeServer::FakeServer(FakeServerOptions options) : d(std::make_unique<Private>(std::move(options))) {}

FakeServer::~FakeServer()
{
    stop();
}

bool FakeServer::start(quint16 port)
{
    if (d->http)
        return true;
    d->stopping = false;
    auto http = std::make_unique<httplib::Server>();
    // Enough workers that slow answers (latency, trickle) never starve other requests.
    http->new_task_queue = [] { return new httplib::ThreadPool(24); };
    // Idle keep-alive connections hold a worker until this timeout; keep it short so
    // stop() is prompt. Clients see "Keep-Alive: timeout=1" and reconnect.
    http->set_keep_alive_timeout(1);
    http->set_read_timeout(2, 0); // bounds how long a stalled upload can delay stop()
    http->set_write_timeout(5, 0);
    http->set_payload_max_length(kHardBodyCap);
    // httplib's default adds SO_REUSEPORT, which would let a second server share our port
    // silently; a port clash must be an error instead.
    http->set_socket_options([](socket_t sock) {
        int yes = 1;
        ::setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
    });
    Private *p = d.get();
    auto handler = [p](const httplib::Request &req, httplib::Response &res) { p->handle(req, res); };
    http->Get(".*", handler);
    http->Post(".*", handler);
    http->Delete(".*", handler);
    http->set_error_handler(httplib::Server::HandlerWithResponse([](const httplib::Request &, httplib::Response &res) {
        if (!res.body.empty() || res.content_provider_)
            return httplib::Server::HandlerResponse::Unhandled; // our own error body stands
        std::string message = res.status == 413
            ? "Request payload size exceeds the limit: 20971520 bytes."
            : "The request could not be handled (HTTP " + std::to_string(res.status) + ").";
        json e = json::object();
        e["code"] = res.status;
        e["message"] = message;
        e["status"] = res.status == 404 ? "NOT_FOUND" : "INVALID_ARGUMENT";
        res.set_content(json {{"error", e}}.dump(), kJsonType);
        return httplib::Server::HandlerResponse::Handled;
    }));
    http->set_exception_handler([](const httplib::Request &, httplib::Response &res, std::exception_ptr) {
        res.status = 500;
        res.set_content(R"({"error":{"message":"fake server: unexpected exception","code":"internal"}})", kJsonType);
    });

    int bound = -1;
    if (port == 0)
        bound = http->bind_to_any_port("127.0.0.1");
    else if (http->bind_to_port("127.0.0.1", port))
        bound = port;
    if (bound <= 0) {
        std::lock_guard<std::mutex> lock(d->mutex);
        d->error = QStringLiteral("cannot listen on 127.0.0.1:%1 (port in use or not permitted)").arg(port);
        return false;
    }
    d->port = quint16(bound);
    httplib::Server *raw = http.get();
    d->http = std::move(http);
    d->thread = std::thread([raw] { raw->listen_after_bind(); });
    // httplib's stop() is a no-op until the accept loop runs, so a stop() right after
    // start() would hang; wait for the loop (normally well under a millisecond).
    for (int i = 0; i < 5000 && !raw->is_running(); ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    {
        std::lock_guard<std::mutex> lock(d->mutex);
        d->error.clear();
    }
    return true;
}

void FakeServer::stop()
{
    if (!d->http)
        return;
    {
        std::lock_guard<std::mutex> lock(d->stopMutex);
        d->stopping = true;
    }
    d->stopCv.notify_all();
    d->http->stop();
    if (d->thread.joinable())
        d->thread.join();
    d->http.reset();
    d->port = 0;
}

bool FakeServer::isRunning() const
{
    return d->http != nullptr;
}
quint16 FakeServer::port() const
{
    return d->port;
}
QString FakeServer::baseUrl() const
{
    return QStringLiteral("http://127.0.0.1:%1").arg(d->port);
}

QString FakeServer::errorString() const
{
    std::lock_guard<std::mutex> lock(d->mutex);
    return d->error;
}

void FakeServer::setLatencyMs(int ms)
{
    std::lock_guard<std::mutex> lock(d->mutex);
    d->opts.latencyMs = std::max(0, ms);
}

int FakeServer::latencyMs() const
{
    std::lock_guard<std::mutex> lock(d->mutex);
    return d->opts.latencyMs;
}

void FakeServer::setThinkingLevels(const QStringList &levels)
{
    std::lock_guard<std::mutex> lock(d->mutex);
    d->opts.thinkingLevels = levels;
}

QStringList FakeServer::thinkingLevels() const
{
    std::lock_guard<std::mutex> lock(d->mutex);
    return d->opts.thinkingLevels;
}

void FakeServer::setRequireKey(bool require)
{
    std::lock_guard<std::mutex> lock(d->mutex);
    d->opts.requireKey = require;
}

void FakeServer::setThinkingErrorWording(FakeServerOptions::ThinkingError wording)
{
    std::lock_guard<std::mutex> lock(d->mutex);
    d->opts.thinkingError = wording;
}

void FakeServer::injectFault(const FakeFault &fault, int count)
{
    std::lock_guard<std::mutex> lock(d->mutex);
    for (int i = 0; i < count; ++i)
        d->faults.push_back(fault);
}

void FakeServer::clearFaults()
{
    std::lock_guard<std::mutex> lock(d->mutex);
    d->faults.clear();
}

int FakeServer::pendingFaults() const
{
    std::lock_guard<std::mutex> lock(d->mutex);
    return int(d->faults.size());
}

void FakeServer::forget(const QString &interactionId)
{
    {
        std::lock_guard<std::mutex> lock(d->mutex);
        d->store.remove(interactionId);
    }
    d->unpersist(interactionId);
}

QList<FakeRequest> FakeServer::requests() const
{
    std::lock_guard<std::mutex> lock(d->mutex);
    return d->log;
}

void FakeServer::clearRequests()
{
    std::lock_guard<std::mutex> lock(d->mutex);
    d->log.clear();
    d->logBytes = 0;
}

int FakeServer::peakConcurrentRequests() const
{
    return d->peakInFlight.load();
}

void FakeServer::resetPeakConcurrentRequests()
{
    d->peakInFlight.store(d->inFlight.load());
}

int FakeServer::interactionCount() const
{
    std::lock_guard<std::mutex> lock(d->mutex);
    return int(d->store.size());
}

} // namespace nb2
