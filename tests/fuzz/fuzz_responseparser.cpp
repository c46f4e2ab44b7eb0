// libFuzzer harness: the Interaction body parser (ResponseParser::parseInteraction) and the
// small value parsers beside it (base64, Retry-After, protobuf durations). Whatever the server
// sends, the parser returns a value or an Error, and a parsed interaction is self-consistent.

#include "core/api/responseparser.h"
#include "tests/fuzz/fuzzsupport.h"

#include <QDateTime>

using namespace nb2;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray body = fuzz::view(data, size);
    for (const bool allowUnfinished : {false, true}) {
        const Result<Interaction> parsed = ResponseParser::parseInteraction(body, allowUnfinished);
        if (parsed) {
            // An accepted image always comes with the type its bytes were checked against.
            fuzz::check(
                parsed.value().image.isNull() || !parsed.value().image.mimeType.isEmpty(), "image without a MIME type");
            for (const ImageData &draft : parsed.value().drafts)
                fuzz::check(!draft.isNull(), "empty draft image");
        } else {
            fuzz::check(!parsed.error().message.isEmpty(), "an error without a message");
        }
    }

    bool ok = false;
    const QByteArray decoded = ResponseParser::decodeBase64(body, &ok);
    if (ok) {
        // What was accepted decodes the same way again from its canonical encoding.
        bool again = false;
        fuzz::check(
            ResponseParser::decodeBase64(decoded.toBase64(), &again) == decoded && again, "base64 does not round-trip");
    }
    const QString text = QString::fromUtf8(body.left(256));
    fuzz::check(ResponseParser::parseDurationMs(text) >= -1, "negative duration");
    const QDateTime now = QDateTime::fromSecsSinceEpoch(1760000000, Qt::UTC);
    fuzz::check(ResponseParser::parseRetryAfter(text, QString(), now) >= -1, "negative Retry-After");
    fuzz::check(ResponseParser::parseRetryAfter(QString(), text, now) >= -1, "negative retry-after-ms");
    fuzz::check(!ResponseParser::withoutFinalDot(text).endsWith(QLatin1Char('.')), "final dot kept");
    return 0;
}
