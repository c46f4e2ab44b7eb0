// libFuzzer harness: the provenance reader (PNG iTXt / JPEG XMP or COM, readProvenanceFromBytes)
// and the record's JSON form (Provenance::fromJson), plus the writer on the same bytes: when
// embedProvenance() accepts a file, the record reads back exactly from what it produced.

#include "core/export/provenance.h"
#include "tests/fuzz/fuzzsupport.h"

using namespace nb2;

namespace {

Provenance sampleRecord()
{
    Provenance p;
    p.app = QStringLiteral("nb2lite fuzz");
    p.frameId = QStringLiteral("f-0001");
    p.parentSha256 = QString(64, QLatin1Char('a'));
    p.model = QStringLiteral("gemini-3.1-flash-lite-image");
    p.interactionId = QStringLiteral("v1_fuzz");
    p.kind = QStringLiteral("edit");
    p.promptChain = {QStringLiteral("a fox <in> \"snow\" & ]]> --"), QStringLiteral("make it night \u00e9\u4e2d")};
    p.promptChainTotal = 2;
    return p;
}

bool same(const Provenance &a, const Provenance &b)
{
    return a.schema == b.schema && a.app == b.app && a.frameId == b.frameId && a.parentSha256 == b.parentSha256
        && a.model == b.model && a.interactionId == b.interactionId && a.kind == b.kind
        && a.promptChain == b.promptChain && a.promptChainTotal == b.promptChainTotal;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray bytes = fuzz::view(data, size);
    const Result<Provenance> read = readProvenanceFromBytes(bytes);
    if (!read)
        fuzz::check(!read.error().message.isEmpty(), "an error without a message");

    const Result<Provenance> fromJson = Provenance::fromJson(bytes);
    if (fromJson) {
        // A record that was read is written back to the same record.
        const Result<Provenance> again = Provenance::fromJson(fromJson.value().toJson());
        fuzz::check(again && same(again.value(), fromJson.value()), "the JSON form does not round-trip",
            fromJson.value().toJson());
    }

    const Provenance record = sampleRecord();
    const Result<QByteArray> embedded = embedProvenance(bytes, record);
    fuzz::check(bool(embedded) == canEmbedProvenance(bytes) || !embedded, "canEmbedProvenance() promised too much");
    if (embedded) {
        const Result<Provenance> back = readProvenanceFromBytes(embedded.value());
        fuzz::check(back && same(back.value(), record), "an embedded record does not read back",
            back ? back.value().toJson() : back.error().message.toUtf8());
    }
    return 0;
}
