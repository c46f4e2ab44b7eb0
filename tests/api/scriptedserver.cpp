#include "scriptedserver.h"

#include <httplib.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>

struct ScriptedServer::Private {
    std::unique_ptr<httplib::Server> server;
    std::thread thread;
    int port = -1;
    bool https = false;
    mutable std::mutex mutex;
    std::condition_variable cv;
    std::deque<Reply> queue;
    Reply defaultReply;
    QList<Recorded> recorded;
    bool released = false;

    void handle(const httplib::Request &req, httplib::Response &res)
    {
        Reply reply;
        {
            std::lock_guard lock(mutex);
            Recorded r;
            r.method = QByteArray::fromStdString(req.method);
            r.target = QByteArray::fromStdString(req.target);
            r.body = QByteArray::fromStdString(req.body);
            for (const auto &[k, v] : req.headers)
                r.headers.insert(QByteArray::fromStdString(k).toLower(), QByteArray::fromStdString(v));
            recorded.append(r);
            if (!queue.empty()) {
                reply = queue.front();
                queue.pop_front();
            } else {
                reply = defaultReply;
            }
        }
        if (reply.hang) {
            std::unique_lock lock(mutex);
            cv.wait(lock, [&] { return released; });
            res.status = 503;
            res.set_content("{\"error\":{\"message\":\"released\",\"code\":\"unavailable\"}}", "application/json");
            return;
        }
        if (reply.delayMs > 0) {
            std::unique_lock lock(mutex);
            cv.wait_for(lock, std::chrono::milliseconds(reply.delayMs), [&] { return released; });
        }
        res.status = reply.status;
        for (auto it = reply.headers.cbegin(); it != reply.headers.cend(); ++it)
            res.set_header(it.key().toStdString(), it.value().toStdString());
        if (reply.chunkSize <= 0) {
            res.set_content(reply.body.toStdString(), reply.contentType.toStdString());
            return;
        }
        const std::string body = reply.body.toStdString();
        const size_t chunk = size_t(reply.chunkSize);
        const int pause = reply.chunkDelayMs;
        const bool cut = reply.cutAfterFirstChunk;
        if (cut) {
            // Promise the whole length, send one chunk, then drop the connection.
            res.set_content_provider(body.size(), reply.contentType.toStdString(),
                [this, body, chunk](size_t offset, size_t, httplib::DataSink &sink) {
                    if (offset > 0)
                        return false;
                    sink.write(body.data(), std::min(chunk, body.size()));
                    return true;
                });
            return;
        }
        res.set_chunked_content_provider(
            reply.contentType.toStdString(), [this, body, chunk, pause](size_t offset, httplib::DataSink &sink) {
                if (offset >= body.size()) {
                    sink.done();
                    return true;
                }
                if (offset > 0 && pause > 0) {
                    std::unique_lock lock(mutex);
                    if (cv.wait_for(lock, std::chrono::milliseconds(pause), [&] { return released; }))
                        return false;
                }
                const size_t n = std::min(chunk, body.size() - offset);
                return sink.write(body.data() + offset, n);
            });
    }
};

ScriptedServer::ScriptedServer(const QString &certPath, const QString &keyPath) : d(std::make_unique<Private>())
{
    if (!certPath.isEmpty()) {
        d->server = std::make_unique<httplib::SSLServer>(
            certPath.toLocal8Bit().constData(), keyPath.toLocal8Bit().constData());
        d->https = true;
    } else {
        d->server = std::make_unique<httplib::Server>();
    }
    auto handler = [this](const httplib::Request &req, httplib::Response &res) { d->handle(req, res); };
    d->server->Get(".*", handler);
    d->server->Post(".*", handler);
    d->server->Delete(".*", handler);
    d->server->set_keep_alive_max_count(1);
    d->defaultReply = json(500, "{\"error\":{\"message\":\"no scripted reply\",\"code\":\"internal\"}}");
    if (!d->server->is_valid())
        return;
    d->port = d->server->bind_to_any_port("127.0.0.1");
    d->thread = std::thread([this] { d->server->listen_after_bind(); });
    // stop() is a no-op until the accept loop runs, so wait for it before anyone can stop us.
    while (!d->server->is_running())
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

ScriptedServer::~ScriptedServer()
{
    releaseHangs();
    d->server->stop();
    if (d->thread.joinable())
        d->thread.join();
}

bool ScriptedServer::isValid() const
{
    return d->port > 0;
}
int ScriptedServer::port() const
{
    return d->port;
}

QString ScriptedServer::baseUrl() const
{
    return QStringLiteral("%1://127.0.0.1:%2")
        .arg(d->https ? QStringLiteral("https") : QStringLiteral("http"))
        .arg(d->port);
}

void ScriptedServer::enqueue(const Reply &reply)
{
    std::lock_guard lock(d->mutex);
    d->queue.push_back(reply);
}

void ScriptedServer::setDefaultReply(const Reply &reply)
{
    std::lock_guard lock(d->mutex);
    d->defaultReply = reply;
}

QList<ScriptedServer::Recorded> ScriptedServer::requests() const
{
    std::lock_guard lock(d->mutex);
    return d->recorded;
}

int ScriptedServer::requestCount() const
{
    std::lock_guard lock(d->mutex);
    return int(d->recorded.size());
}

void ScriptedServer::releaseHangs()
{
    {
        std::lock_guard lock(d->mutex);
        d->released = true;
    }
    d->cv.notify_all();
}

ScriptedServer::Reply ScriptedServer::json(int status, const QByteArray &body)
{
    Reply r;
    r.status = status;
    r.body = body;
    return r;
}
