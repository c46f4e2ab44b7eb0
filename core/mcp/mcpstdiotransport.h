#pragma once

#include <QByteArray>
#include <QObject>

#include <atomic>
#include <thread>

namespace nb2 {

/**
 * The stdio side of `nb2lite mcp`: newline-delimited messages from a file descriptor (stdin)
 * and to another (the protocol's copy of stdout). A reader thread does the blocking reads,
 * splits lines and hands each one to the object's thread by queued signal; a line longer than
 * the limit is not kept (only its first and last bytes, for the error answer), so a client
 * cannot make the server hold more than the limit. Writes are whole lines from the object's
 * thread. Owns the reader thread and a wake-up pipe that stops it.
 */
class McpStdioTransport : public QObject
{
    Q_OBJECT

public:
    McpStdioTransport(int inputFd, int outputFd, qsizetype maxLineBytes, QObject *parent = nullptr);
    ~McpStdioTransport() override; // stops the reader

    /** Starts reading. */
    void start();
    /** Stops reading (the reader thread ends; no more signals). */
    void stop();
    /** Writes one message and a newline, all of it; false when the other side is gone. */
    bool send(const QByteArray &line);

Q_SIGNALS:
    void lineReceived(const QByteArray &line);
    void oversizedLineReceived(const QByteArray &head, const QByteArray &tail, qint64 size);
    void endOfInput();
    /** Reading or writing failed (not end of input). */
    void transportError(const QString &message);

private:
    void readLoop();

    int m_inputFd;
    int m_outputFd;
    qsizetype m_maxLine;
    int m_wakeFds[2] = {-1, -1};
    std::thread m_reader;
    std::atomic<bool> m_stopping {false};
};

} // namespace nb2
