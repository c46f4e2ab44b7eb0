#include "ui/importcheck.h"

#include "core/api/imageinput.h"
#include "core/api/inputpreparation.h"
#include "core/export/provenance.h"
#include "core/session/sessionstore.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QImageReader>
#include <QSaveFile>
#include <QUuid>

namespace nb2 {

namespace {
// tr() for this file's functions with the context "nb2::ImportCheck": a struct, not a free function, so
// that lupdate files the texts under the context they are looked up in.
struct Text {
    Q_DECLARE_TR_FUNCTIONS(nb2::ImportCheck)
};
} // namespace

ImportCheck checkImportFile(const QString &path, const QString &displayName)
{
    ImportCheck c;
    c.path = path;
    c.displayName = displayName.isEmpty() ? QFileInfo(path).fileName() : displayName;
    const QFileInfo info(path);
    if (!info.exists()) {
        c.error = Text::tr("“%1” does not exist.").arg(c.displayName);
        return c;
    }
    if (info.isDir()) {
        c.error = Text::tr("“%1” is a folder, not an image.").arg(c.displayName);
        return c;
    }
    const Result<ImageInput> input = loadImageInput(path);
    if (!input) {
        c.error = input.error().message.isEmpty() ? Text::tr("“%1” cannot be used as an image.").arg(c.displayName)
                                                  : input.error().message;
        return c;
    }
    // Sniffing proves the header only; decode once to refuse truncated or corrupt files. A
    // picture over the decode bound is "too large" with its size, never "damaged".
    const Result<QImage> decoded = decodeImageBounded(input.value().bytes, c.displayName);
    if (!decoded) {
        const Error &e = decoded.error();
        if (e.kind == ErrorKind::TooLarge) {
            c.tooLarge = true;
            c.error = e.message;
        } else {
            c.error = e.message; // one file's problem: what was imported overall is said by the caller
        }
        return c;
    }
    const QImage &image = decoded.value();
    c.size = image.size();
    // An image exported by NB2Lite carries where it came from; read it here, off the GUI thread.
    if (const Result<Provenance> record = readProvenanceFromBytes(input.value().bytes)) {
        c.lineageJson = record.value().toJson();
        c.lineageRows = Provenance::fieldsToWrite(record.value());
        c.lineageInteractionId = record.value().interactionId;
    }
    c.preview = image.scaled(QSize(160, 160).boundedTo(image.size()), Qt::KeepAspectRatio, Qt::SmoothTransformation);
    return c;
}

ImportCheck checkImportBytes(const QByteArray &bytes, const QString &dir, const QString &displayName)
{
    ImportCheck c;
    c.displayName = displayName;
    const QString mime = sniffImageMimeType(bytes);
    if (mime.isEmpty()) {
        c.error = Text::tr("The dropped data is not an image (PNG, JPEG, WebP, GIF, BMP or TIFF).");
        return c;
    }
    const QString path = dir + QStringLiteral("/pasted-") + QUuid::createUuid().toString(QUuid::Id128).left(8)
        + QLatin1Char('.') + fileExtensionForImageMimeType(mime);
    QSaveFile out(path);
    if (!out.open(QIODevice::WriteOnly) || out.write(bytes) != bytes.size() || !out.commit()) {
        c.error = Text::tr("Could not keep the pasted image: %1").arg(out.errorString());
        return c;
    }
    return checkImportFile(path, displayName);
}

void storeInSession(ImportCheck &check, const QString &sessionDir)
{
    if (!check.ok())
        return;
    QFile file(check.path);
    if (!file.open(QIODevice::ReadOnly)) {
        check.error = Text::tr("“%1” could not be read: %2").arg(check.displayName, file.errorString());
        return;
    }
    const QByteArray bytes = file.readAll();
    check.storedAt = QDateTime::currentDateTimeUtc();
    const QString rel = SessionStore::imageFileName(QStringLiteral("import"), check.storedAt, Frame::newId(), bytes);
    const Result<FrameImage> written = SessionStore::writeImageFile(sessionDir, rel, bytes);
    if (!written) {
        check.error = Text::tr("“%1” was not imported: %2").arg(check.displayName, written.error().message);
        return;
    }
    check.stored = written.value();
    check.storedIn = sessionDir;
}

} // namespace nb2
