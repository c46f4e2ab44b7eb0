#pragma once

// A photo that cannot be read until the test says so (tst_replayimport, tst_replaypanel).

#include <QByteArray>
#include <QFile>
#include <QString>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <thread>

namespace nb2::test {

/**
 * A photo that is a FIFO: whoever imports it blocks in open() until feed() writes it. Imported
 * on the GUI thread, start() would hang there; on a worker, the loop turns meanwhile. The
 * writer is a thread of its own (never the import pool) and joins when this goes away.
 */
class FifoPhoto
{
public:
    explicit FifoPhoto(const QString &path) : m_path(path)
    {
        m_made = ::mkfifo(QFile::encodeName(path).constData(), 0600) == 0;
    }
    ~FifoPhoto() { feed(QByteArray("not a picture")); } // a reader still blocked in open() gets unblocked
    bool isMade() const { return m_made; }
    /**
     * Writes the picture once a reader has opened the FIFO (waits up to 20 s for one), after
     * delayMs: a reader stuck on the GUI thread is let go, so that a test fails instead of hanging.
     */
    void feed(const QByteArray &bytes, int delayMs = 0)
    {
        if (!m_made || m_fed)
            return;
        m_fed = true;
        const QByteArray path = QFile::encodeName(m_path);
        m_writer = std::jthread([path, bytes, delayMs] {
            std::this_thread::sleep_for(std::chrono::milliseconds(delayMs));
            int fd = -1;
            for (int i = 0; i < 2000 && fd < 0; ++i) { // no reader yet: ENXIO
                fd = ::open(path.constData(), O_WRONLY | O_NONBLOCK);
                if (fd < 0)
                    std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
            if (fd < 0)
                return;
            ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
            qint64 done = 0;
            while (done < bytes.size()) {
                const ssize_t n = ::write(fd, bytes.constData() + done, size_t(bytes.size() - done));
                if (n <= 0)
                    break;
                done += n;
            }
            ::close(fd);
        });
    }
    void waitFed()
    {
        if (m_writer.joinable())
            m_writer.join();
    }

private:
    QString m_path;
    bool m_made = false;
    bool m_fed = false;
    std::jthread m_writer;
};

} // namespace nb2::test
