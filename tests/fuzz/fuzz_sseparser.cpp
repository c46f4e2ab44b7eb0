// libFuzzer harness: the streaming path. SseParser frames the bytes (fed in chunks whose sizes
// come from the input's first bytes) and must give the same events however the stream is cut;
// StreamAssembler rebuilds the interaction from those events, and the JSON it ends with must
// be readable by the unary parser, as the client does after a stream.

#include "core/api/responseparser.h"
#include "core/api/sseparser.h"
#include "core/api/streamassembler.h"
#include "tests/fuzz/fuzzsupport.h"

using namespace nb2;

namespace {

bool sameEvents(const QList<SseEvent> &a, const QList<SseEvent> &b)
{
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (a[i].event != b[i].event || a[i].data != b[i].data || a[i].id != b[i].id)
            return false;
    }
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 4)
        return 0;
    // Four chunk sizes (1..64 bytes), used round-robin, then the stream itself.
    const uint8_t cuts[4] = {data[0], data[1], data[2], data[3]};
    const QByteArray stream = fuzz::view(data + 4, size - 4);

    SseParser whole;
    QList<SseEvent> expected = whole.feed(stream);
    expected += whole.finish();

    SseParser pieces;
    QList<SseEvent> events;
    qsizetype at = 0;
    for (int i = 0; at < stream.size(); ++i) {
        const qsizetype n = 1 + cuts[i % 4] % 64;
        events += pieces.feed(stream.mid(at, n));
        at += n;
    }
    events += pieces.finish();
    fuzz::check(sameEvents(expected, events), "chunking changed the events");

    StreamAssembler assembler;
    for (const SseEvent &event : std::as_const(events)) {
        const QList<StreamEvent> told = assembler.feed(event);
        for (const StreamEvent &e : told) {
            if (e.type == StreamEvent::Type::ImageReceived || e.type == StreamEvent::Type::Draft)
                fuzz::check(!e.image.isNull() && !e.image.mimeType.isEmpty(), "an image event without an image");
        }
        if (assembler.isDone())
            break;
    }
    if (assembler.error()) {
        fuzz::check(!assembler.error()->message.isEmpty(), "a stream error without a message");
        return 0;
    }
    const QByteArray json = assembler.interactionJson();
    const Result<Interaction> parsed = ResponseParser::parseInteraction(json, !assembler.isCompleted());
    if (!parsed)
        fuzz::check(!parsed.error().message.isEmpty(), "an error without a message");
    return 0;
}
