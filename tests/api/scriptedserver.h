#pragma once

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QString>

#include <memory>

/**
 * A tiny HTTP(S) server on 127.0.0.1:<ephemeral> for the client tests: it answers each
 * request with the next scripted Reply (or the default one) and records what it received.
 * Independent of core/fakeapi on purpose, so that client tests pin the wire format
 * themselves. Replies can hang until released, trickle their body or cut it short.
 */
class ScriptedServer
{
public:
    struct Reply {
        int status = 200;
        QByteArray contentType = "application/json";
        QByteArray body;
        QMap<QByteArray, QByteArray> headers;
        int delayMs = 0;                 // before answering
        bool hang = false;               // never answer (until the server is destroyed or released)
        int chunkSize = 0;               // >0: send the body chunked, chunkSize bytes at a time ...
        int chunkDelayMs = 0;            // ... with this pause between chunks
        bool cutAfterFirstChunk = false; // then drop the connection mid-body
    };
    struct Recorded {
        QByteArray method;
        QByteArray target; // path with query, as received
        QByteArray body;
        QMap<QByteArray, QByteArray> headers; // names lower-cased
    };

    /** Plain http; with certificate and key paths an https server. */
    explicit ScriptedServer(const QString &certPath = {}, const QString &keyPath = {});
    ~ScriptedServer();

    bool isValid() const;
    int port() const;
    QString baseUrl() const; // http(s)://127.0.0.1:PORT

    void enqueue(const Reply &reply);
    void setDefaultReply(const Reply &reply);
    QList<Recorded> requests() const;
    int requestCount() const;
    /** Lets hanging replies finish (they answer 503). */
    void releaseHangs();

    static Reply json(int status, const QByteArray &body);

private:
    struct Private;
    std::unique_ptr<Private> d;
};
