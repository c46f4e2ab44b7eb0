#include "core/export/exportfiles.h"

#include "core/api/imageinput.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <unistd.h>

namespace nb2::exportfiles {

namespace {

// Text::tr() for this file's functions with the context "nb2::Export": a struct, not a free function, so
// that lupdate files the texts under the context they are looked up in.
struct Text {
    Q_DECLARE_TR_FUNCTIONS(nb2::Export)
};

Error ioError(const QString &message)
{
    return Error::make(ErrorKind::Io, message);
}

} // namespace

Result<qint64> writeAtomically(const QString &path, const QByteArray &bytes, ExistingTarget existing)
{
    return OutputFile::writeAll(path, bytes, existing, true);
}

Result<qint64> writeFile(const QString &path, const QByteArray &bytes)
{
    return OutputFile::writeAll(path, bytes, ExistingTarget::Refuse, false);
}

Result<bool> linkOrCopy(const QString &src, const QString &dst, bool allowLink)
{
    if (allowLink && ::link(QFile::encodeName(src).constData(), QFile::encodeName(dst).constData()) == 0)
        return true;
    // Cross-device, unsupported file system or links not wanted: a plain byte copy. (Not
    // QFile::copy: it is several times slower per small file, which shows at 1,000 frames.)
    auto bytes = readFile(src);
    if (!bytes)
        return bytes.error();
    auto written = writeFile(dst, bytes.value());
    if (!written)
        return written.error();
    return false;
}

Result<void> prepareEmptyDir(const QString &dir)
{
    QFileInfo fi(dir);
    if (fi.isSymLink())
        return Error::make(ErrorKind::Unsafe,
            Text::tr("%1 is a symbolic link; an export never writes through a link. Choose a "
                     "new or empty folder.")
                .arg(QDir::toNativeSeparators(dir)));
    if (fi.exists()) {
        if (!fi.isDir())
            return Error::make(
                ErrorKind::Conflict, Text::tr("%1 exists and is not a folder.").arg(QDir::toNativeSeparators(dir)));
        if (!QDir(dir).isEmpty(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System))
            return Error::make(ErrorKind::Conflict,
                Text::tr(
                    "The folder %1 is not empty; choose a new or empty folder so that nothing in it is overwritten.")
                    .arg(QDir::toNativeSeparators(dir)));
        return {};
    }
    if (!QDir().mkpath(dir))
        return Error::make(
            writeFailureKind(dir), Text::tr("Cannot create the folder %1.").arg(QDir::toNativeSeparators(dir)));
    return {};
}

QString slugify(const QString &text, int maxLen)
{
    // Decompose so that "café" becomes "cafe" rather than "caf".
    const QString d = text.normalized(QString::NormalizationForm_KD);
    QString out;
    bool dash = false;
    for (QChar c : d) {
        if (c.unicode() < 128 && c.isLetterOrNumber()) {
            if (dash && !out.isEmpty())
                out += QLatin1Char('-');
            dash = false;
            out += c.toLower();
        } else if (c.category() != QChar::Mark_NonSpacing) {
            dash = true;
        }
    }
    if (out.size() > maxLen) {
        // Cut at a word boundary when there is one in the second half.
        const qsizetype dash = out.lastIndexOf(QLatin1Char('-'), maxLen);
        out.truncate(dash > maxLen / 2 ? dash : maxLen);
    }
    while (out.endsWith(QLatin1Char('-')))
        out.chop(1);
    return out;
}

QString safeName(const QString &id)
{
    QString out;
    out.reserve(id.size());
    for (QChar c : id) {
        const bool ok = c.unicode() < 128 && (c.isLetterOrNumber() || c == QLatin1Char('-') || c == QLatin1Char('_'));
        out += ok ? c : QLatin1Char('_');
    }
    return out.isEmpty() ? QStringLiteral("_") : out;
}

QString htmlEscape(const QString &text)
{
    QString out;
    out.reserve(text.size() + text.size() / 8);
    for (QChar c : text) {
        switch (c.unicode()) {
        case '&':
            out += QLatin1String("&amp;");
            break;
        case '<':
            out += QLatin1String("&lt;");
            break;
        case '>':
            out += QLatin1String("&gt;");
            break;
        case '"':
            out += QLatin1String("&quot;");
            break;
        case '\'':
            out += QLatin1String("&#39;");
            break;
        default:
            out += c;
        }
    }
    return out;
}

QString imageMimeType(const QByteArray &bytes)
{
    const QString m = sniffImageMimeType(bytes);
    return m.isEmpty() ? QStringLiteral("application/octet-stream") : m;
}

QString imageExtension(const QByteArray &bytes)
{
    const QString m = sniffImageMimeType(bytes);
    if (m == QLatin1String("image/jpeg"))
        return QStringLiteral("jpg");
    if (m.startsWith(QLatin1String("image/")))
        return m.mid(6);
    return QStringLiteral("bin");
}

Result<QByteArray> readFile(const QString &path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return ioError(Text::tr("Cannot read %1: %2").arg(QDir::toNativeSeparators(path), f.errorString()));
    return f.readAll();
}

} // namespace nb2::exportfiles
