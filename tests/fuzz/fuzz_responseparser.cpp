// libFuzzer harness: the Interaction body parser (ResponseParser::parseInteraction) and the
// small value parsers beside it (base64, Retry-After, protobuf durations). Whatever the server
// sends, the parser returns a value or an Error, and a parsed interaction is self-consistent.

#include "core/api/responsedocument.h"
#include "core/api/responseparser.h"
#include "tests/api/base64reference.h"
#include "tests/fuzz/fuzzsupport.h"

#include <QDateTime>

using namespace nb2;

namespace {

using nb2test::qtDecode;

} // namespace

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

    // The fast paths against the plain ones: parseJson gives json::parse's tree, and the
    // interaction read with the image data left in the text is the one the plain tree gives.
    const nlohmann::json plain = nlohmann::json::parse(body.constBegin(), body.constEnd(), nullptr, false);
    const nlohmann::json fast = apidetail::parseJson(body.constBegin(), body.constEnd());
    fuzz::check(plain.is_discarded() == fast.is_discarded() && (plain.is_discarded() || plain == fast),
        "parseJson differs from json::parse");
    if (!plain.is_discarded() && plain.is_object()) {
        for (const bool allowUnfinished : {false, true}) {
            const Result<Interaction> got = ResponseParser::parseInteraction(body, allowUnfinished);
            const Result<Interaction> want = apidetail::parseInteractionDocument(plain, allowUnfinished);
            fuzz::check(got.ok() == want.ok(), "kept image data changes success");
            if (got.ok() && want.ok())
                fuzz::check(got.value().image.bytes == want.value().image.bytes
                        && got.value().drafts.size() == want.value().drafts.size(),
                    "kept image data changes the image");
            else if (!got.ok() && !want.ok())
                fuzz::check(got.error().message == want.error().message, "kept image data changes the error");
        }
    }

    bool ok = false;
    const QByteArray decoded = ResponseParser::decodeBase64(body, &ok);
    bool qtOk = false;
    const QByteArray qtDecoded = qtDecode(body, &qtOk);
    fuzz::check(ok == qtOk && decoded == qtDecoded, "base64 decodes differently from Qt");
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
