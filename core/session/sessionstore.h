#pragma once

#include "core/api/apierror.h"
#include "core/session/framegraph.h"
#include "core/session/journal.h"

#include <QByteArray>
#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>

class QFileSystemWatcher;
class QLockFile;
class QTimer;

namespace nb2 {

/**
 * One session folder on disk and its frame graph in memory:
 *   manifest.json  versioned schema ("format", "schema_version", "frames", ...); unknown
 *                  top-level and per-frame fields are preserved on rewrite
 *   images/        generated, imported and copied input images (relative paths only)
 *   journal.jsonl  request journal (see Journal)
 *   thumbs/        disposable thumbnail cache
 *   session.lock   lock file serialising writers across processes
 * Every write takes the lock, re-reads the manifest if another process changed it, applies
 * the change to that, and replaces manifest.json atomically (QSaveFile: temp, fsync,
 * rename). A QFileSystemWatcher notices other processes' writes and emits changedExternally()
 * after reloading. Image files are written temp + fsync + rename before any manifest refers
 * to them. Owns the graph, the journal, the lock and the watcher; lives on the GUI thread
 * (the static file helpers are thread-safe).
 */
class SessionStore : public QObject
{
    Q_OBJECT

public:
    static constexpr int kSchemaVersion = 1;
    static constexpr const char *kFormatName = "nb2lite-session";

    explicit SessionStore(QObject *parent = nullptr);
    ~SessionStore() override;

    enum class OpenMode { OpenExisting, CreateIfMissing };

    /**
     * Opens (or creates) the session in dir. On an unreadable manifest returns false with a
     * message naming the file and the problem (e.g. "…/manifest.json: parse error at byte
     * 120: unterminated string"); nothing is changed on disk — call rebuild() to recover.
     */
    bool open(const QString &dir, OpenMode mode = OpenMode::CreateIfMissing, QString *errorMessage = nullptr);
    /**
     * Rebuilds the manifest from the journal and the files in images/ (images no journal
     * record mentions become Import frames). A broken manifest is kept aside as
     * manifest.broken-<unix>.json; nothing is deleted.
     */
    bool rebuild(const QString &dir, QString *errorMessage = nullptr);
    void close();
    bool isOpen() const { return !m_dir.isEmpty(); }

    QString dir() const { return m_dir; }
    QString manifestPath() const;
    QString journalPath() const;
    QString imagesDir() const;
    QString thumbsDir() const;
    QString lockPath() const;
    /** Absolute path of a session-relative file. */
    QString absolutePath(const QString &relativePath) const;

    const FrameGraph &graph() const { return m_graph; }
    Journal &journal() { return m_journal; }
    /** The frame "head" resolves from (the last frame the user worked on); may be empty. */
    QString currentFrameId() const { return m_currentFrameId; }

    void setLockTimeoutMs(int ms) { m_lockTimeoutMs = ms; }

    /**
     * The one write path: under the lock, reload if another process wrote, upsert/remove the
     * given frames, optionally set the current frame, write manifest.json atomically.
     */
    bool commit(const QList<Frame> &upserts, const QStringList &removals = {},
                const QString &newCurrentFrameId = {}, QString *errorMessage = nullptr);
    /** Re-reads the manifest now (normally the watcher does this). Returns true if it changed. */
    bool reload(QString *errorMessage = nullptr);

    /** Thumbnail of a frame's image (cached under thumbs/, made on first call; thread-safe, decodes: never on the GUI thread). */
    QString thumbnailFor(const Frame &frame, int size) const;

    // ---- thread-safe file helpers (used by workers) ----
    /** images/<prefix>_<unix>_<uuid8>.<ext>, ext from the bytes' magic (jpg, png, webp, ...). */
    static QString imageFileName(const QString &prefix, const QDateTime &when, const QString &uuid8, const QByteArray &bytes);
    /** Writes bytes to dir/relativePath via temp + fsync + rename; fills sha256, mime, width/height (header only). */
    static Result<FrameImage> writeImageFile(const QString &sessionDir, const QString &relativePath, const QByteArray &bytes);
    /** Copies a local image into images/ as input_<unix>_<uuid8>.<ext>; returns the relative path. */
    static Result<QString> copyInputImage(const QString &sessionDir, const QString &sourcePath);
    static QString sha256Hex(const QByteArray &bytes);

    /** Unknown top-level manifest fields (preserved). */
    QJsonObject manifestExtra() const { return m_extra; }

signals:
    /** Another process changed the manifest; the graph has been reloaded. Lists are frame ids. */
    void changedExternally(const QStringList &added, const QStringList &changed, const QStringList &removed);

private:
    bool readManifest(const QString &path, FrameGraph *graph, QString *current, QJsonObject *extra,
                      QByteArray *rawOut, QString *errorMessage) const;
    bool writeManifestLocked(QString *errorMessage);
    /** Replaces the in-memory state by what was read; returns the frame-level differences. */
    void adopt(FrameGraph graph, const QString &current, const QJsonObject &extra, const QByteArray &raw,
               QStringList *added, QStringList *changed, QStringList *removed);
    bool mergeJournal(QString *errorMessage);
    bool lock(QString *errorMessage);
    void unlock();
    void watch();
    void onWatcherEvent();

    QString m_dir;
    FrameGraph m_graph;
    QString m_currentFrameId;
    QJsonObject m_extra;
    QByteArray m_lastManifestHash; // sha256 of the manifest bytes we last read or wrote
    Journal m_journal;
    std::unique_ptr<QLockFile> m_lock;
    int m_lockTimeoutMs = 10000;
    QFileSystemWatcher *m_watcher = nullptr;
    QTimer *m_reloadTimer = nullptr;
};

} // namespace nb2
