#include "ui/thumbnailprovider.h"

#include "core/common/threadpriority.h"
#include "core/session/sessionstore.h"

#include <QDir>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QImage>
#include <QImageReader>
#include <QImageWriter>
#include <QSaveFile>
#include <QtConcurrent/QtConcurrentRun>

namespace nb2 {

namespace {

struct ThumbResult {
    QImage image;
    QString error;
};

// Worker side: disk cache first, then a scaled decode (QImageReader scales while decoding
// JPEGs, so a 4K image costs little), then write the disk cache atomically.
ThumbResult makeThumbnail(const QString &imagePath, const QString &diskPath, int side)
{
    ThumbResult r;
    const QFileInfo source(imagePath);
    if (!diskPath.isEmpty()) {
        const QFileInfo cached(diskPath);
        // Only a plain file of our own (a FIFO would block this worker; a link is not ours).
        if (cached.isFile() && !cached.isSymLink() && cached.lastModified() >= source.lastModified()) {
            QImageReader reader(diskPath);
            r.image = reader.read();
            if (!r.image.isNull())
                return r;
        }
    }
    QImageReader reader(imagePath);
    reader.setAutoTransform(true);
    const QSize full = reader.size();
    if (full.isValid() && (full.width() > side || full.height() > side))
        reader.setScaledSize(full.scaled(side, side, Qt::KeepAspectRatio));
    QImage image = reader.read();
    if (image.isNull()) {
        r.error = reader.errorString();
        return r;
    }
    if (image.width() > side || image.height() > side)
        image = image.scaled(side, side, Qt::KeepAspectRatio, Qt::SmoothTransformation);
    r.image = image;
    if (!diskPath.isEmpty()) {
        QDir().mkpath(QFileInfo(diskPath).absolutePath());
        QSaveFile out(diskPath);
        if (out.open(QIODevice::WriteOnly)) {
            QImageWriter writer(&out, "png");
            if (writer.write(image))
                out.commit();
            else
                out.cancelWriting();
        }
    }
    return r;
}

} // namespace

ThumbnailProvider::ThumbnailProvider(QObject *parent) : QObject(parent)
{
    m_pool.setMaxThreadCount(2);
    m_cache.setMaxCost(96 * 1024);
}

ThumbnailProvider::~ThumbnailProvider()
{
    m_pool.clear();
    m_pool.waitForDone();
}

void ThumbnailProvider::setDiskCacheDir(const QString &dir)
{
    if (dir == m_diskDir)
        return;
    m_diskDir = dir;
    clear();
}

void ThumbnailProvider::setMemoryLimitKb(int kb)
{
    m_cache.setMaxCost(qMax(1, kb));
}
int ThumbnailProvider::memoryLimitKb() const
{
    return int(m_cache.maxCost());
}
int ThumbnailProvider::memoryUsedKb() const
{
    return int(m_cache.totalCost());
}

QString ThumbnailProvider::cacheKey(const QString &key, int side)
{
    return key + QLatin1Char('@') + QString::number(side);
}

QPixmap ThumbnailProvider::thumbnail(const QString &key, const QString &imagePath, int side)
{
    if (imagePath.isEmpty() || side <= 0)
        return {};
    const QString ck = cacheKey(key, side);
    if (QPixmap *p = m_cache.object(ck))
        return *p;
    if (m_inFlight.contains(ck) || m_failed.contains(ck))
        return {};
    m_inFlight.insert(ck);

    QString diskPath;
    if (!m_diskDir.isEmpty()) {
        diskPath = m_diskDir + QLatin1Char('/') + SessionStore::thumbnailPrefix(key) + QString::number(side)
            + QStringLiteral(".png");
    }
    const quint64 generation = m_generation;
    auto *watcher = new QFutureWatcher<ThumbResult>(this);
    connect(watcher, &QFutureWatcher<ThumbResult>::finished, this, [this, watcher, ck, key, generation] {
        watcher->deleteLater();
        if (generation != m_generation)
            return;
        m_inFlight.remove(ck);
        const ThumbResult r = watcher->result();
        if (r.image.isNull()) {
            m_failed.insert(ck);
            Q_EMIT thumbnailFailed(key, r.error);
            return;
        }
        auto *pixmap = new QPixmap(QPixmap::fromImage(r.image));
        const int cost = qMax(1, int(qint64(pixmap->width()) * pixmap->height() * 4 / 1024));
        m_cache.insert(ck, pixmap, cost);
        Q_EMIT thumbnailReady(key);
    });
    watcher->setFuture(QtConcurrent::run(&m_pool, [imagePath, diskPath, side] {
        // Decoding a 1 MB JPEG takes ~10 ms of a core; below the GUI thread's priority it never
        // makes the window wait for a CPU while it lays out and paints (two cores, two workers).
        lowerThisThreadPriority();
        return makeThumbnail(imagePath, diskPath, side);
    }));
    return {};
}

void ThumbnailProvider::invalidate(const QString &key)
{
    const QString prefix = key + QLatin1Char('@');
    const QList<QString> keys = m_cache.keys();
    for (const QString &k : keys) {
        if (k.startsWith(prefix))
            m_cache.remove(k);
    }
    for (auto it = m_failed.begin(); it != m_failed.end();) {
        if (it->startsWith(prefix))
            it = m_failed.erase(it);
        else
            ++it;
    }
}

void ThumbnailProvider::clear()
{
    ++m_generation;
    m_cache.clear();
    m_inFlight.clear();
    m_failed.clear();
}

void ThumbnailProvider::waitForDone()
{
    m_pool.waitForDone();
}

} // namespace nb2
