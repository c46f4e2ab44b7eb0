#include "core/api/clientcall.h"

#include <QFileInfo>
#include <QUrl>

#include <openssl/x509.h>

#include <climits>
#include <cmath>
#include <condition_variable>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <random>
#include <thread>

#ifndef NB2_VERSION
#define NB2_VERSION "0.0.0"
#endif

namespace nb2::apidetail {

namespace {

// State shared between the calling thread and the thread that runs the blocking httplib call.
// The calling thread never blocks inside httplib, so a cancel is seen within one wake-up.
struct Transfer {
    std::mutex mutex;
    std::condition_variable cv;
    std::shared_ptr<httplib::Client> client;
    bool headersReady = false;
    int status = 0;
    httplib::Headers headers;
    std::string pending;
    // Without a chunk handler the body is collected here, on the transfer thread, sized from
    // Content-Length: the calling thread is not woken per 4 KB read and nothing is copied twice.
    bool collectWhole = false;
    QByteArray whole;
    bool finished = false;
    httplib::Error error = httplib::Error::Success;
    long tlsVerifyResult = 0;
    bool cancelled = false;
    bool abandoned = false;
    Clock::time_point lastProgress = Clock::now();
};

// Gives up on a transfer without waiting for it: the blocking call is interrupted by
// stop() (repeated, because stop() before the socket exists is a no-op) and the threads
// clean up on their own once httplib returns.
void abandon(const std::shared_ptr<Transfer> &st, std::thread &worker)
{
    {
        std::lock_guard lock(st->mutex);
        st->abandoned = true;
    }
    worker.detach();
    std::thread([st] {
        std::unique_lock lock(st->mutex);
        while (!st->finished) {
            lock.unlock();
            st->client->stop();
            lock.lock();
            st->cv.wait_for(lock, std::chrono::milliseconds(50), [&] { return st->finished; });
        }
    }).detach();
}

// httplib's error in our words (transport.h), for code that does not link httplib.
TransportError transportError(httplib::Error e)
{
    switch (e) {
    case httplib::Error::Success:
        return TransportError::Success;
    case httplib::Error::Connection:
        return TransportError::Connection;
    case httplib::Error::ConnectionTimeout:
        return TransportError::ConnectionTimeout;
    case httplib::Error::Read:
        return TransportError::Read;
    case httplib::Error::SSLConnection:
        return TransportError::SslConnection;
    case httplib::Error::SSLLoadingCerts:
        return TransportError::SslLoadingCerts;
    case httplib::Error::SSLServerVerification:
        return TransportError::SslServerVerification;
    default:
        return TransportError::Other;
    }
}

} // namespace

AttemptOutcome ClientCall::attempt(const std::string &method, const std::string &path, const std::string &body,
    bool stream, const ChunkHandler &onChunk)
{
    const Endpoint endpoint = parseEndpoint(m_config.baseUrl);
    auto st = std::make_shared<Transfer>();
    st->client = std::make_shared<httplib::Client>(endpoint.schemeHostPort);
    httplib::Client &cli = *st->client;
    int connectMs = std::max(1, m_config.connectTimeoutMs);
    int readMs = std::max(1, m_config.readTimeoutMs);
    if (!m_options.deadline.isForever()) {
        // No single wait may outlast the whole call's limit.
        const int left = int(std::clamp<qint64>(m_options.deadline.remainingTime(), 1, INT_MAX));
        connectMs = std::min(connectMs, left);
        readMs = std::min(readMs, left);
    }
    cli.set_connection_timeout(std::chrono::milliseconds(connectMs));
    cli.set_read_timeout(std::chrono::milliseconds(readMs));
    cli.set_write_timeout(std::chrono::milliseconds(std::max(readMs, 30'000)));
    cli.set_keep_alive(false);
    cli.set_follow_location(false);
    if (endpoint.https) {
        // Debian's bundle by default; elsewhere OpenSSL's default verify paths (httplib's fallback).
        QString ca = m_config.caBundlePath;
        if (ca.isEmpty() && QFileInfo::exists(QString::fromLatin1(kSystemCaBundle)))
            ca = QString::fromLatin1(kSystemCaBundle);
        if (!ca.isEmpty())
            cli.set_ca_cert_path(QFile::encodeName(ca).toStdString());
        cli.enable_server_certificate_verification(true);
    }

    httplib::Request req;
    req.method = method;
    req.path = path;
    req.body = body;
    req.headers.emplace("Content-Type", "application/json");
    req.headers.emplace("Accept", stream ? "text/event-stream" : "application/json");
    if (!m_config.apiKey.isEmpty())
        req.headers.emplace("x-goog-api-key", m_config.apiKey.value().toStdString());
    req.headers.emplace("User-Agent", "nb2lite-studio/" NB2_VERSION);
    st->collectWhole = !onChunk;
    req.response_handler = [st](const httplib::Response &res) {
        std::lock_guard lock(st->mutex);
        if (st->collectWhole && res.has_header("Content-Length")) {
            // Bounded: a header is no reason to reserve more than any real answer needs.
            constexpr qsizetype kMaxReserve = 64 * 1024 * 1024;
            const qsizetype declared = qsizetype(std::min<uint64_t>(
                std::strtoull(res.get_header_value("Content-Length").c_str(), nullptr, 10), kMaxReserve));
            st->whole.reserve(declared);
        }
        st->status = res.status;
        st->headers = res.headers;
        st->headersReady = true;
        st->lastProgress = Clock::now();
        st->cv.notify_all();
        return !st->abandoned;
    };
    req.content_receiver = [st](const char *data, size_t n, uint64_t, uint64_t) {
        std::lock_guard lock(st->mutex);
        if (st->abandoned)
            return false;
        st->lastProgress = Clock::now();
        if (st->collectWhole) {
            st->whole.append(data, qsizetype(n));
            return true;
        }
        // The caller takes everything pending when it wakes: only the first chunk needs to wake it.
        const bool wake = st->pending.empty();
        st->pending.append(data, n);
        if (wake)
            st->cv.notify_all();
        return true;
    };

    if (m_options.cancel) {
        m_options.cancel->setAbortHook([st] {
            std::lock_guard lock(st->mutex);
            st->cancelled = true;
            st->cv.notify_all();
        });
    }

    std::thread worker([st, req = std::move(req)]() mutable {
        httplib::Response res;
        httplib::Error err = httplib::Error::Success;
        const bool ok = st->client->send(req, res, err);
        const long verify = st->client->get_openssl_verify_result();
        std::lock_guard lock(st->mutex);
        st->finished = true;
        st->error = ok ? httplib::Error::Success : err;
        st->tlsVerifyResult = verify;
        if (!st->headersReady && ok) {
            st->status = res.status;
            st->headers = res.headers;
            st->headersReady = true;
        }
        st->cv.notify_all();
    });

    AttemptOutcome out;
    bool headersSeen = false;
    auto absorbHeaders = [&] {
        headersSeen = true;
        out.status = st->status;
        auto header = [&](const char *name) {
            const auto it = st->headers.find(name);
            return it == st->headers.end() ? QString() : QString::fromStdString(it->second);
        };
        out.contentType = header("Content-Type");
        out.retryAfter = header("Retry-After");
        out.retryAfterMs = header("retry-after-ms");
    };
    // Backstop in case the socket timeouts do not fire (e.g. a peer that trickles forever
    // is fine, one that says nothing is not).
    const auto silenceLimit = std::chrono::milliseconds(connectMs + readMs + 1000);

    std::unique_lock lock(st->mutex);
    for (;;) {
        st->cv.wait_for(lock, std::chrono::milliseconds(100), [&] {
            return st->finished || st->cancelled || !st->pending.empty() || (st->headersReady && !headersSeen);
        });
        if (st->cancelled) {
            out.cancelled = true;
            break;
        }
        if (st->headersReady && !headersSeen)
            absorbHeaders();
        if (!st->pending.empty()) {
            const QByteArray chunk = QByteArray::fromStdString(std::exchange(st->pending, {}));
            lock.unlock();
            bool more = true;
            if (onChunk)
                more = onChunk(out.status, out.contentType, chunk);
            else
                out.body.append(chunk);
            lock.lock();
            if (!more) {
                out.stoppedByHandler = true;
                break;
            }
            continue;
        }
        if (st->finished)
            break;
        if (Clock::now() - st->lastProgress > silenceLimit) {
            out.timedOut = true;
            break;
        }
        if (!m_options.deadline.isForever() && m_options.deadline.hasExpired()) {
            out.timedOut = true;
            out.deadlineHit = true;
            break;
        }
    }

    if (st->collectWhole)
        out.body = std::exchange(st->whole, {}); // under the lock: what arrived, however the attempt ended
    const bool finished = st->finished && !out.cancelled && !out.stoppedByHandler && !out.timedOut;
    if (!finished && st->headersReady && !headersSeen)
        absorbHeaders(); // an answer that began counts, even when we stop waiting for the rest
    if (finished) {
        out.error = transportError(st->error);
        if (st->error != httplib::Error::Success)
            out.errorName = QString::fromStdString(httplib::to_string(st->error));
        out.tlsVerifyResult = st->tlsVerifyResult;
        if (st->tlsVerifyResult != 0)
            if (const char *why = X509_verify_cert_error_string(st->tlsVerifyResult))
                out.tlsVerifyReason = QString::fromUtf8(why);
        if (st->error == httplib::Error::Read || st->error == httplib::Error::ConnectionTimeout) {
            // httplib reports a read timeout as a plain read error; the clock tells them apart.
            if (Clock::now() - st->lastProgress >= std::chrono::milliseconds(readMs - readMs / 10)
                || st->error == httplib::Error::ConnectionTimeout)
                out.timedOut = true;
        }
        if (st->error == httplib::Error::Connection && !st->headersReady
            && Clock::now() - st->lastProgress >= std::chrono::milliseconds(connectMs - connectMs / 10))
            out.timedOut = true;
        if (st->headersReady && !headersSeen)
            absorbHeaders();
        // A socket timeout that was shortened to fit the call's limit is that limit passing.
        if (out.timedOut && !m_options.deadline.isForever() && m_options.deadline.remainingTime() < 100)
            out.deadlineHit = true;
        lock.unlock();
        worker.join();
    } else {
        lock.unlock();
        abandon(st, worker);
    }
    if (m_options.cancel)
        m_options.cancel->setAbortHook({});
    if (m_options.cancel && m_options.cancel->isCancelled())
        out.cancelled = true;
    return out;
}

} // namespace nb2::apidetail
