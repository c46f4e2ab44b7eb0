#include "core/mcp/mcpinputs.h"

#include "core/api/imageinput.h"
#include "core/api/interactionsclient.h"
#include "core/session/sessionstore.h"

#include <QBuffer>
#include <QDir>
#include <QFileInfo>
#include <QImageReader>

namespace nb2 {

namespace {

QString megabytes(qint64 bytes)
{
    return QString::number(double(bytes) / 1e6, 'f', 1) + QStringLiteral(" MB");
}

QSize encodedSize(const QByteArray &bytes)
{
    QBuffer buffer;
    buffer.setData(bytes);
    buffer.open(QIODevice::ReadOnly);
    return QImageReader(&buffer).size();
}

} // namespace

StagedImage stageImageInput(
    const QString &argument, const QString &given, const QString &absolutePath, const QString &sessionDir)
{
    StagedImage s;
    const QString named = given == absolutePath ? QStringLiteral("\"%1\"").arg(given)
                                                : QStringLiteral("\"%1\" (%2)").arg(given, absolutePath);
    const QFileInfo info(absolutePath);
    if (!info.exists()) {
        s.error = Error::make(ErrorKind::InvalidInput, QStringLiteral("%1 %2 does not exist").arg(argument, named));
    } else if (info.isDir()) {
        s.error = Error::make(
            ErrorKind::InvalidInput, QStringLiteral("%1 %2 is a folder, not an image file").arg(argument, named));
    } else if (info.size() > kMaxRequestBytes) {
        // Checked before reading: a 30 MB file is refused without loading it.
        s.error = Error::make(ErrorKind::TooLarge,
            QStringLiteral("%1 %2 is %3; the API takes at most 20 MB per request. Save a smaller copy "
                           "(e.g. a JPEG at most 2048 pixels wide) and pass that")
                .arg(argument, named, megabytes(info.size())));
    }
    if (s.error)
        return s;
    // Reads and sniffs the bytes: not an image, unreadable, too large once encoded.
    const Result<ImageInput> input = loadImageInput(absolutePath);
    if (!input) {
        s.error = input.error();
        s.error->message = QStringLiteral("%1: %2").arg(argument, input.error().message);
        return s;
    }
    const Result<QString> copied = SessionStore::copyInputImage(sessionDir, absolutePath);
    if (!copied) {
        s.error = copied.error();
        return s;
    }
    s.sessionFile = QDir(sessionDir).absoluteFilePath(copied.value());
    s.size = input.value().size;
    return s;
}

InteractionLookup lookUpInteraction(
    InteractionsClient &client, const QString &interactionId, const CancelTokenPtr &cancel)
{
    InteractionLookup lookup;
    CallOptions options;
    options.cancel = cancel;
    const Result<Interaction> got = client.get(interactionId, options);
    if (!got)
        lookup.error = got.error();
    else
        lookup.aspectRatio = nearestAspectRatio(encodedSize(got.value().image.bytes));
    return lookup;
}

} // namespace nb2
