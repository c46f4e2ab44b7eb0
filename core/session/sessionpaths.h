#pragma once

#include "core/common/error.h"

#include <QHash>
#include <QSet>
#include <QString>
#include <QStringView>

#include <vector>

namespace nb2 {

struct Frame;

/**
 * The one rule for every path a session's own files name (manifest, journal, bundle index,
 * provenance): it must stay inside the session folder. A manifest is data, and data can be
 * crafted: `images/../../etc/passwd`, `/etc/hostname` or a symlink under images/ pointing
 * out would otherwise make an export copy, hard-link or embed any file the user can read.
 * Checked lexically (no empty path, no absolute path, no `..` component, no backslash or NUL)
 * and then on the resolved path (symlinks followed, compared with the canonical session
 * folder), when a session is loaded and again when a file is used. Stateless; thread-safe.
 */
class SessionPaths
{
public:
    /** A resolver for one folder: the folder is made canonical once, for many paths (a manifest's). */
    explicit SessionPaths(const QString &root);
    /** resolveInside() against this resolver's root. */
    Result<QString> resolve(const QString &relative, const QString &entry = {}) const;
    /** The folder as given. */
    QString root() const { return m_root; }
    /** checkFrame() against this resolver's root. */
    Result<void> check(const Frame &frame, const QString &source) const { return checkPaths(frame, source, true); }
    /**
     * check() without its last step for a file directly in a folder ("images/x.jpg"): every
     * path is still checked lexically and every folder named is resolved (a folder that is a
     * link out refuses the frame), but the file itself is not looked at, so a link out or a
     * FIFO in its place is not noticed here. Only for a store whose readers resolve each file
     * as they read it (SessionStore::setFileChecksDeferred()). Reads no folder listing.
     */
    Result<void> checkFolders(const Frame &frame, const QString &source) const
    {
        return checkPaths(frame, source, false);
    }

    /**
     * The canonical absolute path of relative inside root, or an Unsafe error whose message
     * starts with entry (e.g. "manifest entry for frame 3f2a1b0c") and names the path. The
     * file need not exist (the longest existing prefix is resolved); when it exists it must be
     * a regular file (a FIFO or device would block or never end a read).
     */
    static Result<QString> resolveInside(const QString &root, const QString &relative, const QString &entry = {});

    /**
     * folder (a name directly under root, e.g. "images", "thumbs") is a folder of root's own: it
     * exists and resolves inside root (no link that leads out). For folders the app reads every
     * file of (a rebuild) or writes into (the thumbnail cache).
     */
    static bool isOwnFolder(const QString &root, const QString &folder);

    /** The lexical half of resolveInside(): no file system access. */
    static bool isSafeRelative(const QString &relative);

    /**
     * Every path a frame names (its image, its input images) resolves inside root. source says
     * where the frame was read ("manifest", "journal"), so the message names the entry.
     */
    static Result<void> checkFrame(const Frame &frame, const QString &root, const QString &source);

    /**
     * checkFrame() for every frame of a manifest's JSON text (a bundle's, before it is
     * accepted). Frames that do not parse are left to the session's own reader to report.
     */
    static Result<void> checkManifest(const QByteArray &manifestJson, const QString &root);

    /**
     * Walks folder (one level under the root) as resolve() would and reads its listing now
     * instead of after the 256th check() there: for a big manifest, on another thread while
     * the manifest is parsed. Only a folder found inside the root is listed. Call it before
     * any other use of this resolver, or from the one thread using it.
     */
    void readListing(const QString &folder) const;

private:
    QString m_root;
    QString m_canonicalRoot; // empty when the folder does not exist
    // Folders already walked by this resolver ("images" -> its canonical path): a manifest names
    // a thousand files in the same folder, which needs checking once. Not thread-safe.
    mutable QHash<QString, QString> m_folders;
    /**
     * check() only: the regular files of a walked folder, read with one readdir once that
     * folder has been asked about 256 times (a 10,000-frame manifest was 10,000 lstat calls;
     * a journal tail of a few frames is cheaper with lstat than with a 10,000-name listing). A
     * name listed as a regular file is one: it is no link, so it cannot lead out. Anything
     * else (a link, a name not listed) is resolved as before. Not thread-safe.
     */
    bool listedRegular(QStringView folder, QStringView name) const;
    /** folder is walked (now, if not yet): it exists and stays inside the root. */
    bool walkedFolder(QStringView folder) const;
    mutable QString m_lastWalked; // the last folder walkedFolder() found
    /** check() and checkFolders(): fileItself adds the file's own step. */
    Result<void> checkPaths(const Frame &frame, const QString &source, bool fileItself) const;
    /**
     * A folder's regular file names: ASCII names (all an app-written session has) in one block
     * of bytes with an open-addressing index, looked up by a view into the path being checked
     * (no string made, no allocation per name: a 10,000-name listing was ~4 ms of hashing and
     * allocating); other names in a set. Not thread-safe.
     */
    class NameSet
    {
    public:
        void insertAscii(QByteArrayView name);
        void insertOther(const QString &name) { m_other.insert(name); }
        /** Builds the index; call once after the inserts. */
        void seal();
        bool contains(QStringView name) const;

    private:
        struct Slot {
            quint32 offset = 0;
            quint32 size = 0;
            quint32 hash = 0;
            bool used = false;
        };
        QByteArray m_bytes;
        std::vector<Slot> m_names; // in listing order, then the index
        std::vector<Slot> m_index; // a power of two, at least twice the names
        QSet<QString> m_other;
    };
    struct Listing {
        int asked = 0;
        bool read = false;
        NameSet regular;
    };
    mutable QHash<QString, Listing> m_listings;
    /** The regular files of the walked folder canonicalFolder into listing. */
    static void fillListing(Listing &listing, const QString &canonicalFolder);
    /**
     * The last folder listedRegular() found walked (compared as a view) and its entry in
     * m_listings, valid until m_listings gains a folder. A copy starts without it (the pointer
     * is into this object's hash).
     */
    struct LastListing {
        QString folder;
        Listing *listing = nullptr;
        LastListing() = default;
        LastListing(const LastListing &) {}
        LastListing &operator=(const LastListing &)
        {
            folder.clear();
            listing = nullptr;
            return *this;
        }
    };
    mutable LastListing m_last;
};

} // namespace nb2
