#include "core/session/sessionpaths.h"

#include "core/session/frame.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

#include <dirent.h>
#include <sys/stat.h>

namespace nb2 {

namespace {

bool isInside(const QString &canonical, const QString &canonicalRoot)
{
    if (canonical == canonicalRoot)
        return true;
    const QString prefix = canonicalRoot.endsWith(QLatin1Char('/')) ? canonicalRoot : canonicalRoot + QLatin1Char('/');
    return canonical.startsWith(prefix);
}

Error unsafe(const QString &entry, const QString &relative, const QString &why)
{
    const QString who = entry.isEmpty() ? QStringLiteral("a session entry") : entry;
    return Error::make(ErrorKind::Unsafe,
        QStringLiteral("%1 names '%2', %3. Nothing was read from it: the session is damaged or was made "
                       "to reach other files; correct or remove that entry, or restore the session "
                       "from a copy you trust.")
            .arg(who, relative, why));
}

} // namespace

bool SessionPaths::isSafeRelative(const QString &relative)
{
    // Called for every path of every frame read (10,000s at open): no string is made here, and
    // the characters are looked at once (NUL, backslash and ".." segments in one pass).
    if (relative.isEmpty() || relative.size() > 4096)
        return false;
    if (relative.startsWith(QLatin1Char('/')))
        return false;
#ifdef Q_OS_UNIX
    // QDir::isAbsolutePath() builds a QFileInfo; on Unix only "/" (refused above) and Qt's
    // resource prefix ":" make a path absolute, so only those need asking.
    if (relative.startsWith(QLatin1Char(':')) && QDir::isAbsolutePath(relative))
        return false;
#else
    if (QDir::isAbsolutePath(relative))
        return false;
#endif
    const QChar *p = relative.constData();
    const qsizetype n = relative.size();
    qsizetype segment = 0; // where the current segment starts
    for (qsizetype i = 0; i <= n; ++i) {
        const char16_t c = i < n ? p[i].unicode() : u'/'; // the end closes the last segment
        if (c == 0 || c == u'\\')
            return false;
        if (c == u'/') {
            if (i - segment == 2 && p[segment] == QLatin1Char('.') && p[segment + 1] == QLatin1Char('.'))
                return false;
            segment = i + 1;
        }
    }
    return true;
}

bool SessionPaths::isOwnFolder(const QString &root, const QString &folder)
{
    const QFileInfo info(QDir(root).filePath(folder));
    const QString canonicalRoot = QFileInfo(root).canonicalFilePath();
    const QString canonical = info.canonicalFilePath();
    return info.isDir() && !canonicalRoot.isEmpty() && canonical != canonicalRoot && isInside(canonical, canonicalRoot);
}

SessionPaths::SessionPaths(const QString &root) : m_root(root), m_canonicalRoot(QFileInfo(root).canonicalFilePath()) {}

Result<QString> SessionPaths::resolveInside(const QString &root, const QString &relative, const QString &entry)
{
    return SessionPaths(root).resolve(relative, entry);
}

Result<QString> SessionPaths::resolve(const QString &relative, const QString &entry) const
{
    if (relative.isEmpty())
        return unsafe(entry, relative, QStringLiteral("an empty path"));
    if (relative.startsWith(QLatin1Char('/')) || QDir::isAbsolutePath(relative))
        return unsafe(entry, relative, QStringLiteral("an absolute path outside the session folder"));
    if (!isSafeRelative(relative))
        return unsafe(entry, relative, QStringLiteral("outside the session folder"));
    if (m_canonicalRoot.isEmpty())
        return Error::make(ErrorKind::Io,
            QStringLiteral("The session folder %1 does not exist.").arg(QDir::toNativeSeparators(m_root)));

    // Walk the existing part one component at a time (lstat each), so that a symlink anywhere
    // on the way (images/ itself, or the file) is judged by where it really leads. Without a
    // link (and without "..", refused above) a path cannot leave the canonical root.
    QStringList parts = relative.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    parts.removeAll(QStringLiteral("."));
    QString current = m_canonicalRoot;
    qsizetype i = 0;
    mode_t lastMode = 0;
    // The folder part, when this resolver has walked it before (only existing folders are remembered).
    const QString folder = parts.size() > 1 ? parts.mid(0, parts.size() - 1).join(QLatin1Char('/')) : QString();
    if (const auto known = m_folders.constFind(folder); !folder.isEmpty() && known != m_folders.cend()) {
        current = known.value();
        i = parts.size() - 1;
    }
    for (; i < parts.size(); ++i) {
        if (i == parts.size() - 1 && !folder.isEmpty() && !m_folders.contains(folder))
            m_folders.insert(folder, current); // every component before the file exists and stays inside
        const QString next = current + QLatin1Char('/') + parts.at(i);
        struct stat st {
        };
        if (::lstat(QFile::encodeName(next).constData(), &st) != 0)
            break; // the rest does not exist yet: nothing on it can lead anywhere
        if (S_ISLNK(st.st_mode)) {
            const QString canonical = QFileInfo(next).canonicalFilePath();
            if (canonical.isEmpty())
                return unsafe(entry, relative, QStringLiteral("a link that leads nowhere"));
            if (!isInside(canonical, m_canonicalRoot))
                return unsafe(entry, relative,
                    QStringLiteral("a link that leads outside the session folder (to %1)")
                        .arg(QDir::toNativeSeparators(canonical)));
            current = canonical;
            lastMode = ::stat(QFile::encodeName(canonical).constData(), &st) == 0 ? st.st_mode : 0;
        } else {
            current = next;
            lastMode = st.st_mode;
        }
    }
    if (i == parts.size()) {
        if (current == m_canonicalRoot || !S_ISREG(lastMode))
            return unsafe(entry, relative, QStringLiteral("which is not a regular file"));
        return current;
    }
    return current + QLatin1Char('/') + parts.mid(i).join(QLatin1Char('/'));
}

Result<void> SessionPaths::checkFrame(const Frame &frame, const QString &root, const QString &source)
{
    return SessionPaths(root).check(frame, source);
}

bool SessionPaths::listedRegular(QStringView folder, QStringView name) const
{
    if (!m_last.listing || m_last.folder != folder) {
        const QString key = folder.toString();
        if (!m_folders.contains(key))
            return false; // not walked (and so not known to be inside) yet
        m_last.folder = key;
        m_last.listing = &m_listings[key]; // one hash lookup per folder, not per path
    }
    Listing &listing = *m_last.listing;
    if (!listing.read) {
        if (++listing.asked < 256)
            return false; // a few hundred files (a journal tail): lstat each, as resolve() does
        listing.read = true;
        fillListing(listing, m_folders.value(m_last.folder));
    }
    return listing.regular.contains(name);
}

namespace {
/** FNV-1a over the name's characters (bytes of an ASCII name, or its UTF-16 units below 0x80). */
inline quint32 nameHash(quint32 h, uint c)
{
    return (h ^ c) * 16777619u;
}
} // namespace

void SessionPaths::NameSet::insertAscii(QByteArrayView name)
{
    Slot s;
    s.offset = quint32(m_bytes.size());
    s.size = quint32(name.size());
    s.hash = 2166136261u;
    for (const char c : name)
        s.hash = nameHash(s.hash, uchar(c));
    s.used = true;
    m_bytes.append(name.data(), name.size());
    m_names.push_back(s);
}

void SessionPaths::NameSet::seal()
{
    size_t size = 16;
    while (size < m_names.size() * 2)
        size *= 2;
    m_index.assign(size, Slot());
    for (const Slot &s : m_names) {
        size_t i = s.hash & (size - 1);
        while (m_index[i].used)
            i = (i + 1) & (size - 1);
        m_index[i] = s;
    }
    m_names.clear();
    m_names.shrink_to_fit();
}

bool SessionPaths::NameSet::contains(QStringView name) const
{
    quint32 h = 2166136261u;
    for (const QChar c : name) {
        if (c.unicode() >= 0x80)
            return m_other.contains(name.toString());
        h = nameHash(h, c.unicode());
    }
    if (m_index.empty())
        return false;
    const size_t mask = m_index.size() - 1;
    for (size_t i = h & mask; m_index[i].used; i = (i + 1) & mask) {
        const Slot &s = m_index[i];
        if (s.hash != h || qsizetype(s.size) != name.size())
            continue;
        const char *b = m_bytes.constData() + s.offset;
        bool same = true;
        for (qsizetype k = 0; same && k < name.size(); ++k)
            same = uchar(b[k]) == name[k].unicode();
        if (same)
            return true;
    }
    return false;
}

void SessionPaths::fillListing(Listing &listing, const QString &canonicalFolder)
{
    DIR *d = ::opendir(QFile::encodeName(canonicalFolder).constData());
    if (!d)
        return;
    while (const dirent *e = ::readdir(d)) {
        if (e->d_type != DT_REG)
            continue;
        const QByteArrayView bytes(e->d_name);
        bool ascii = true;
        for (const char c : bytes)
            ascii = ascii && uchar(c) < 0x80;
        if (ascii) { // the usual name: ASCII decodes exactly
            listing.regular.insertAscii(bytes);
            continue;
        }
        // Only names that decode exactly: a name that is not valid UTF-8 must not
        // stand for the (perhaps linked) file its lossy decoding would name.
        const QString decoded = QFile::decodeName(e->d_name);
        if (QFile::encodeName(decoded) == bytes)
            listing.regular.insertOther(decoded);
    }
    ::closedir(d);
    listing.regular.seal();
}

void SessionPaths::readListing(const QString &folder) const
{
    if (folder.isEmpty() || folder.contains(QLatin1Char('/')) || !isSafeRelative(folder))
        return;
    // A file in it resolved as any would be: the folder is remembered only if it exists and
    // leads nowhere outside (a link out is refused there, and nothing is listed).
    (void)resolve(folder + QStringLiteral("/.nb2-listing"));
    const auto walked = m_folders.constFind(folder);
    if (walked == m_folders.cend())
        return;
    m_last = {}; // a new folder may move the others' listings in m_listings
    Listing &listing = m_listings[folder];
    if (!listing.read) {
        listing.read = true;
        fillListing(listing, walked.value());
    }
}

Result<void> SessionPaths::checkPaths(const Frame &frame, const QString &source, bool fileItself) const
{
    auto inside = [&](const QString &relative) -> Result<void> {
        // The common case, "images/<name>" in a folder already walked: the lexical rule, then
        // the folder's listing (no link, a regular file), or with fileItself false the folder
        // alone; anything else resolved in full (which walks the folder for the next ones).
        const qsizetype slash = relative.indexOf(QLatin1Char('/'));
        if (slash > 0 && relative.indexOf(QLatin1Char('/'), slash + 1) < 0 && isSafeRelative(relative)) {
            const QStringView folder = QStringView(relative).first(slash);
            const QStringView name = QStringView(relative).sliced(slash + 1);
            if (!name.isEmpty() && name != QLatin1String(".")
                && (fileItself ? listedRegular(folder, name) : walkedFolder(folder)))
                return {};
        }
        const QString entry = QStringLiteral("%1 entry for frame %2").arg(source, frame.id);
        if (const Result<QString> r = resolve(relative, entry); !r && r.error().kind == ErrorKind::Unsafe)
            return r.error();
        return {};
    };
    if (!frame.image.isNull()) {
        if (const Result<void> r = inside(frame.image.file); !r)
            return r;
    }
    for (const QString &input : frame.inputImages) {
        if (input.isEmpty())
            continue; // names no file at all
        if (const Result<void> r = inside(input); !r)
            return r;
    }
    return {};
}

bool SessionPaths::walkedFolder(QStringView folder) const
{
    if (m_lastWalked == folder)
        return true; // a manifest names its files folder by folder: no string made per path
    const QString key = folder.toString();
    if (!m_folders.contains(key)) {
        // Walked as resolve() walks a file's folder (with a name no session writes): it is
        // remembered only if it exists and stays inside the root. The file in it is not looked at.
        (void)resolve(key + QStringLiteral("/.nb2-walk"));
        if (!m_folders.contains(key))
            return false;
    }
    m_lastWalked = key;
    return true;
}

Result<void> SessionPaths::checkManifest(const QByteArray &manifestJson, const QString &root)
{
    const SessionPaths paths(root);
    const QJsonArray frames = QJsonDocument::fromJson(manifestJson).object().value(QLatin1String("frames")).toArray();
    for (const QJsonValue &value : frames) {
        const Result<Frame> frame = Frame::fromJson(value.toObject());
        if (!frame)
            continue;
        if (const Result<void> inside = paths.check(frame.value(), QStringLiteral("manifest")); !inside)
            return inside;
    }
    return {};
}

} // namespace nb2
