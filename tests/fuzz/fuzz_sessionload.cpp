// libFuzzer harness: what opening a session folder reads — manifest.json and journal.jsonl
// (SessionStore::open, the journal merge, Journal::replay) and, for a manifest that does not
// read, SessionStore::rebuild from the journal. Input: the manifest, then a line
// "%%journal%%", then the journal. The single-pass manifest reader must give exactly what the
// QJsonDocument reader gives (frames, top-level fields, error), and so must its reading for
// frames on demand (nodes, each frame built later from its bytes). Each input gets a fresh
// folder (images/ holds one small PNG, images/a.png, for manifests to point at).

#include "core/session/journal.h"
#include "core/session/manifestparse.h"
#include "core/session/sessionstore.h"
#include "tests/fuzz/fuzzsupport.h"

#include <QDir>

using namespace nb2;

namespace {

const QByteArray kPng = QByteArray::fromBase64(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==");

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz::ensureApp();
    const QList<QByteArray> parts = fuzz::split(fuzz::view(data, size), QByteArrayLiteral("\n%%journal%%\n"));
    const QString dir = fuzz::scratchDir() + QStringLiteral("/session");
    QDir(dir).removeRecursively();
    fuzz::writeFile(dir + QStringLiteral("/manifest.json"), parts.value(0));
    fuzz::writeFile(dir + QStringLiteral("/journal.jsonl"), parts.value(1));
    fuzz::writeFile(dir + QStringLiteral("/images/a.png"), kPng);

    {
        const Result<ParsedManifest> fast = parseManifest(parts.value(0));
        const Result<ParsedManifest> dom = parseManifestDom(parts.value(0));
        fuzz::check(bool(fast) == bool(dom), "the manifest readers disagree on whether the text reads");
        if (!dom) {
            fuzz::check(fast.error().message == dom.error().message, "the manifest readers give different errors");
        } else {
            const ParsedManifest &a = fast.value(), &b = dom.value();
            fuzz::check(a.root == b.root && a.framesIsArray == b.framesIsArray && a.badFrame == b.badFrame
                    && a.badFrameMessage == b.badFrameMessage && a.frames.size() == b.frames.size(),
                "the manifest readers read different top-level fields or frame lists");
            for (qsizetype i = 0; i < a.frames.size() && i < b.frames.size(); ++i)
                fuzz::check(a.frames.at(i).toJson() == b.frames.at(i).toJson(),
                    "the manifest readers read a frame differently", a.frames.at(i).id.toUtf8());
        }
    }

    {
        // Frames on demand (a CLI turn's open): the same reading, and each node's frame, built
        // later from its bytes, is the frame the reference reads.
        const Result<ParsedManifest> nodes = parseManifest(parts.value(0), FrameDepth::Nodes);
        const Result<ParsedManifest> dom = parseManifestDom(parts.value(0));
        fuzz::check(bool(nodes) == bool(dom), "the node reading and the reference disagree on whether the text reads");
        if (dom && nodes.value().nodesOnly) {
            const ParsedManifest &a = nodes.value(), &b = dom.value();
            fuzz::check(a.root == b.root && a.badFrame == b.badFrame && a.badFrameMessage == b.badFrameMessage
                    && a.nodes.size() == b.frames.size(),
                "the node reading and the reference read different top-level fields or frame lists");
            const FrameSource source(parts.value(0));
            qsizetype held = 0;
            for (qsizetype i = 0; i < a.nodes.size() && i < b.frames.size(); ++i) {
                const FrameNode &node = a.nodes.at(i);
                const Frame built = node.offset < 0 ? a.frames.value(held++) : source.build(node);
                const FrameNode want = FrameNode::of(b.frames.at(i));
                fuzz::check(built.toJson() == b.frames.at(i).toJson() && node.id == want.id
                        && node.parentId == want.parentId && node.imageFile == want.imageFile
                        && node.model == want.model && node.usage == want.usage && node.ownerPid == want.ownerPid
                        && node.status == want.status && node.kind == want.kind && node.trashed == want.trashed
                        && node.keepListSet == want.keepListSet,
                    "a node or the frame built from it differs from the reference", want.id.toUtf8());
            }
            fuzz::check(held == a.frames.size(), "a frame held built belongs to no node");
        }
    }

    const Journal::Replay replay = Journal::replay(dir + QStringLiteral("/journal.jsonl"));
    fuzz::check(replay.frames.size() <= replay.order.size(), "journal replay lost track of a frame's order");

    {
        SessionStore store;
        store.setLockTimeoutMs(2000);
        const Result<void> opened = store.open(dir, SessionStore::OpenMode::OpenExisting);
        if (opened) {
            // Whatever was read can be written back and read again.
            fuzz::check(bool(store.commit({})), "an opened session cannot be written back");
            const int frames = store.graph().size();
            store.close();
            SessionStore again;
            const Result<void> reopened = again.open(dir, SessionStore::OpenMode::OpenExisting);
            fuzz::check(bool(reopened), "a session we wrote does not open again",
                reopened ? QByteArray() : reopened.error().message.toUtf8());
            fuzz::check(again.graph().size() == frames, "rewriting the manifest changed the frames");
        } else {
            fuzz::check(!opened.error().message.isEmpty(), "an error without a message");
            if (opened.error().kind == ErrorKind::Corrupt) {
                SessionStore rebuilt;
                const Result<void> r = rebuilt.rebuild(dir);
                fuzz::check(bool(r) || !r.error().message.isEmpty(), "an error without a message");
            }
        }
    }
    return 0;
}
