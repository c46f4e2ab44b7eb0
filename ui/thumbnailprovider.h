#pragma once

#include <QCache>
#include <QHash>
#include <QObject>
#include <QPixmap>
#include <QSet>
#include <QString>
#include <QThreadPool>

namespace nb2 {

/**
 * Makes and caches frame thumbnails. Decoding and scaling run on a small private thread
 * pool (never the GUI thread, never the API workers' pool); the QImage comes back through
 * a QFutureWatcher and becomes a QPixmap on the GUI thread. Pixmaps are kept in a
 * cost-bounded memory cache; scaled images are also written to the session's thumbs/
 * folder so that reopening a 1,000-frame session does not decode 1,000 full-size images.
 */
class ThumbnailProvider : public QObject
{
    Q_OBJECT
public:
    explicit ThumbnailProvider(QObject *parent = nullptr);
    ~ThumbnailProvider() override;

    /** Folder for the disk cache (the session's thumbs/); empty disables it. */
    void setDiskCacheDir(const QString &dir);
    QString diskCacheDir() const { return m_diskDir; }

    /** Memory bound in kilobytes (default 96 MB). */
    void setMemoryLimitKb(int kb);
    int memoryLimitKb() const;
    int memoryUsedKb() const;

    /**
     * The cached thumbnail whose longer side is `side` device pixels, or a null pixmap while
     * it is being made (thumbnailReady(key) follows). Never blocks.
     */
    QPixmap thumbnail(const QString &key, const QString &imagePath, int side);

    /** True while any thumbnail is being made. */
    bool isBusy() const { return !m_inFlight.isEmpty(); }

    /** Forget a key (its image changed or the frame was deleted). */
    void invalidate(const QString &key);
    void clear();

    /** Blocks until every queued job has finished (tests, shutdown). */
    void waitForDone();

Q_SIGNALS:
    void thumbnailReady(const QString &key);
    void thumbnailFailed(const QString &key, const QString &message);

private:
    static QString cacheKey(const QString &key, int side);

    QString m_diskDir;
    QCache<QString, QPixmap> m_cache;
    QSet<QString> m_inFlight;
    QSet<QString> m_failed;
    QThreadPool m_pool;
    quint64 m_generation = 0; // bumps on clear(): results of older jobs are dropped
};

} // namespace nb2
