#include "core/mcp/mcpstdiotransport.h"

#include <QMetaObject>
#include <QPointer>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <unistd.h>

namespace nb2 {

namespace {

constexpr qsizetype kKeepBytes = 4096; // of an oversized line, for the id of the error answer
constexpr size_t kChunk = 64 * 1024;

} // namespace

McpStdioTransport::McpStdioTransport(int inputFd, int outputFd, qsizetype maxLineBytes, QObject *parent)
    : QObject(parent), m_inputFd(inputFd), m_outputFd(outputFd), m_maxLine(maxLineBytes)
{
    if (::pipe(m_wakeFds) == 0) {
        ::fcntl(m_wakeFds[0], F_SETFD, FD_CLOEXEC);
        ::fcntl(m_wakeFds[1], F_SETFD, FD_CLOEXEC);
    }
}

McpStdioTransport::~McpStdioTransport()
{
    stop();
    for (int fd : m_wakeFds)
        if (fd >= 0)
            ::close(fd);
}

void McpStdioTransport::start()
{
    if (!m_reader.joinable())
        m_reader = std::thread([this] { readLoop(); });
}

void McpStdioTransport::stop()
{
    m_stopping = true;
    if (m_wakeFds[1] >= 0) {
        const char byte = 1;
        [[maybe_unused]] const ssize_t n = ::write(m_wakeFds[1], &byte, 1);
    }
    if (m_reader.joinable())
        m_reader.join();
}

bool McpStdioTransport::send(const QByteArray &lineIn)
{
    QByteArray line = lineIn;
    line.append('\n');
    const char *p = line.constData();
    qsizetype left = line.size();
    while (left > 0) {
        const ssize_t n = ::write(m_outputFd, p, size_t(left));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            Q_EMIT transportError(
                QStringLiteral("writing to stdout failed: %1").arg(QString::fromLocal8Bit(std::strerror(errno))));
            return false;
        }
        p += n;
        left -= n;
    }
    return true;
}

void McpStdioTransport::readLoop()
{
    // Runs on the reader thread: touches no QObject state, only posts to the object's thread.
    QPointer<McpStdioTransport> self(this);
    auto post = [self](auto fn) { QMetaObject::invokeMethod(self.data(), fn, Qt::QueuedConnection); };

    QByteArray line;       // the current line while it is within the limit
    QByteArray head, tail; // an oversized line's first and last bytes
    qint64 oversize = 0;   // > 0 while discarding an oversized line
    std::vector<char> buffer(kChunk);

    auto endLine = [&] {
        if (oversize > 0) {
            post([self, head, tail, oversize] {
                if (self)
                    Q_EMIT self->oversizedLineReceived(head, tail, oversize);
            });
            oversize = 0;
            head.clear();
            tail.clear();
        } else {
            if (line.endsWith('\r'))
                line.chop(1);
            post([self, line] {
                if (self)
                    Q_EMIT self->lineReceived(line);
            });
        }
        line.clear();
    };
    auto append = [&](const char *data, qsizetype n) {
        if (oversize == 0 && line.size() + n <= m_maxLine) {
            line.append(data, n);
            return;
        }
        if (oversize == 0) { // crossing the limit: keep the beginning, drop the rest as it comes
            head = line.left(kKeepBytes);
            if (head.size() < kKeepBytes)
                head.append(data, qMin(n, kKeepBytes - head.size()));
            oversize = line.size();
            tail = line.right(kKeepBytes);
            line.clear();
        }
        oversize += n;
        tail.append(data, n);
        if (tail.size() > kKeepBytes)
            tail = tail.right(kKeepBytes);
    };

    for (;;) {
        pollfd fds[2] = {{m_inputFd, POLLIN, 0}, {m_wakeFds[0], POLLIN, 0}};
        const int ready = ::poll(fds, m_wakeFds[0] >= 0 ? 2 : 1, -1);
        if (m_stopping)
            return;
        if (ready < 0) {
            if (errno == EINTR)
                continue;
            const QString message
                = QStringLiteral("waiting for stdin failed: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
            post([self, message] {
                if (self)
                    Q_EMIT self->transportError(message);
            });
            return;
        }
        const ssize_t n = ::read(m_inputFd, buffer.data(), buffer.size());
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN)
                continue;
            const QString message
                = QStringLiteral("reading stdin failed: %1").arg(QString::fromLocal8Bit(std::strerror(errno)));
            post([self, message] {
                if (self) {
                    Q_EMIT self->transportError(message);
                    Q_EMIT self->endOfInput();
                }
            });
            return;
        }
        if (n == 0) {
            // A last line without a newline still counts.
            if (!line.isEmpty() || oversize > 0)
                endLine();
            post([self] {
                if (self)
                    Q_EMIT self->endOfInput();
            });
            return;
        }
        const char *p = buffer.data();
        const char *end = p + n;
        while (p < end) {
            const char *nl = static_cast<const char *>(std::memchr(p, '\n', size_t(end - p)));
            if (!nl) {
                append(p, end - p);
                break;
            }
            append(p, nl - p);
            endLine();
            p = nl + 1;
        }
    }
}

} // namespace nb2
