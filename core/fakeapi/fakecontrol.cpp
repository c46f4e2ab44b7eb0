// The fake server's test-control endpoints: the request log, faults, latency and the other knobs tests turn.
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
// Control endpoint for the standalone binary (and any out-of-process test)

Reply FakeServer::Private::requestLog() const
{
    QList<FakeRequest> copy;
    QString apiKey;
    {
        std::lock_guard<std::mutex> lock(mutex);
        copy = log;
        apiKey = opts.apiKey;
    }
    json arr = json::array();
    for (const FakeRequest &r : copy) {
        json e = json::object();
        e["method"] = s(r.method);
        e["path"] = s(r.path);
        e["query"] = s(r.query);
        json headers = json::object();
        for (auto it = r.headers.cbegin(); it != r.headers.cend(); ++it) {
            if (it.key() == QLatin1String("x-goog-api-key"))
                headers[s(it.key())] = it.value() == apiKey ? "[redacted; matches the configured key]"
                                                            : "[redacted; does not match the configured key]";
            else
                headers[s(it.key())] = s(it.value());
        }
        e["headers"] = headers;
        if (r.body.isEmpty()) {
            e["body"] = nullptr;
        } else {
            json parsed = json::parse(r.body.toStdString(), nullptr, false);
            if (parsed.is_discarded()) {
                e["body"] = nullptr;
                e["body_text"] = s(QString::fromUtf8(r.body.left(4096)));
            } else {
                e["body"] = parsed;
            }
        }
        e["body_size"] = r.body.size();
        arr.push_back(e);
    }
    return jsonReply(200, arr);
}

Reply FakeServer::Private::control(const httplib::Request &req, const std::string &path)
{
    if (path == "/_fake/requests" && req.method == "GET")
        return requestLog();
    if (path == "/_fake/requests" && req.method == "DELETE") {
        std::lock_guard<std::mutex> lock(mutex);
        log.clear();
        logBytes = 0;
        return jsonReply(200, json {{"ok", true}});
    }
    auto state = [this] {
        std::lock_guard<std::mutex> lock(mutex);
        json st = json::object();
        st["ok"] = true;
        st["interactions"] = store.size();
        st["pending_faults"] = faults.size();
        st["latency_ms"] = opts.latencyMs;
        json levels = json::array();
        for (const QString &l : opts.thinkingLevels)
            levels.push_back(s(l));
        st["thinking_levels"] = levels;
        st["require_key"] = opts.requireKey;
        st["thinking_error"] = opts.thinkingError == FakeServerOptions::ThinkingError::AllowedValues ? "allowed_values"
                                                                                                     : "not_supported";
        return st;
    };
    if (path == "/_fake/state" && req.method == "GET")
        return jsonReply(200, state());
    if (path != "/_fake/control" || req.method != "POST")
        return googleError(404, "NOT_FOUND", QStringLiteral("Unknown control endpoint."));

    const json body = json::parse(req.body, nullptr, false);
    if (!body.is_object())
        return nativeError(400, "invalid_request", QStringLiteral("control: body must be a JSON object."));
    static const QSet<QString> known {QStringLiteral("fault"), QStringLiteral("count"), QStringLiteral("retry_after"),
        QStringLiteral("retry_after_ms"), QStringLiteral("trickle_ms"), QStringLiteral("latency_ms"),
        QStringLiteral("forget"), QStringLiteral("thinking_levels"), QStringLiteral("clear_faults"),
        QStringLiteral("clear_requests"), QStringLiteral("require_key"), QStringLiteral("thinking_error"),
        QStringLiteral("status")};
    for (const auto &[k, v] : body.items()) {
        if (!known.contains(q(k)))
            return nativeError(400, "invalid_request", QStringLiteral("control: unknown field \"%1\".").arg(q(k)));
    }
    auto intField = [&](const char *k, int def) {
        return body.contains(k) && body[k].is_number_integer() ? body[k].get<int>() : def;
    };
    std::optional<FakeFault> fault;
    if (body.contains("fault")) {
        const auto kind
            = body["fault"].is_string() ? fakeFaultKindFromName(q(body["fault"].get<std::string>())) : std::nullopt;
        if (!kind)
            return nativeError(400, "invalid_request",
                QStringLiteral("control: unknown fault; use one of rate_limit, server_error, unavailable_html, "
                               "connection_reset, truncated_json, slow_trickle, text_only, invalid_key, "
                               "reset_before_first_byte."));
        FakeFault f;
        f.kind = *kind;
        f.retryAfterSeconds = intField("retry_after", 1);
        f.retryAfterMs = intField("retry_after_ms", -1);
        f.trickleMs = intField("trickle_ms", 2000);
        f.status = intField("status", 0);
        fault = f;
    }
    std::optional<FakeServerOptions::ThinkingError> wording;
    if (body.contains("thinking_error")) {
        if (body["thinking_error"] == "allowed_values")
            wording = FakeServerOptions::ThinkingError::AllowedValues;
        else if (body["thinking_error"] == "not_supported")
            wording = FakeServerOptions::ThinkingError::NotSupportedRetry;
        else
            return nativeError(400, "invalid_request",
                QStringLiteral("control: thinking_error must be \"allowed_values\" or \"not_supported\"."));
    }
    QStringList forgotten;
    QStringList levels;
    if (body.contains("thinking_levels")) {
        if (!body["thinking_levels"].is_array())
            return nativeError(
                400, "invalid_request", QStringLiteral("control: thinking_levels must be an array of strings."));
        for (const json &l : body["thinking_levels"]) {
            if (!l.is_string())
                return nativeError(
                    400, "invalid_request", QStringLiteral("control: thinking_levels must be an array of strings."));
            levels << q(l.get<std::string>());
        }
    }
    {
        std::lock_guard<std::mutex> lock(mutex);
        if (body.value("clear_faults", false))
            faults.clear();
        if (body.value("clear_requests", false)) {
            log.clear();
            logBytes = 0;
        }
        if (fault) {
            for (int i = 0; i < std::max(1, intField("count", 1)); ++i)
                faults.push_back(*fault);
        }
        if (body.contains("latency_ms"))
            opts.latencyMs = std::max(0, intField("latency_ms", 0));
        if (body.contains("thinking_levels"))
            opts.thinkingLevels = levels;
        if (wording)
            opts.thinkingError = *wording;
        if (body.contains("require_key") && body["require_key"].is_boolean())
            opts.requireKey = body["require_key"].get<bool>();
        if (body.contains("forget")) {
            const json &f = body["forget"];
            if (f.is_string())
                forgotten << q(f.get<std::string>());
            else if (f.is_array()) {
                for (const json &one : f) {
                    if (one.is_string())
                        forgotten << q(one.get<std::string>());
                }
            }
            for (const QString &id : std::as_const(forgotten))
                store.remove(id);
        }
    }
    for (const QString &id : std::as_const(forgotten))
        unpersist(id);
    return jsonReply(200, state());
}

} // namespace nb2
