#include "core/mcp/mcpframeref.h"

#include "core/session/framegraph.h"

#include <QRegularExpression>

namespace nb2 {

namespace {

constexpr int kMinPrefix = 4;

bool isContinuation(const Frame &f)
{
    return !f.isTrashed() && (f.status == FrameStatus::Done || f.status == FrameStatus::Pending);
}

FrameReference invalid(const QString &problem)
{
    FrameReference r;
    r.problem = problem;
    return r;
}

FrameReference frame(const QString &id)
{
    FrameReference r;
    r.kind = FrameReference::Kind::Frame;
    r.frameId = id;
    return r;
}

} // namespace

FrameReference FrameReference::resolve(const FrameGraph &graph, const QString &refIn)
{
    const QString ref = refIn.trimmed();
    if (ref.isEmpty())
        return invalid(QStringLiteral("the id is empty; pass the interaction_id (or frame_id) of an earlier result"));
    if (const Frame *f = graph.frame(ref)) {
        if (f->isTrashed())
            return invalid(
                QStringLiteral("frame %1 is in the session's trash; restore it in NB2Lite Studio first").arg(ref));
        return frame(ref);
    }

    // The interaction id a frame produced. An import can carry the same id (from its lineage
    // record): prefer the frame that made it, then the newest.
    QString byInteraction;
    bool sawTrashed = false;
    for (const Frame &f : graph.frames()) {
        if (f.interactionId != ref)
            continue;
        if (f.isTrashed()) {
            sawTrashed = true;
            continue;
        }
        const Frame *best = graph.frame(byInteraction);
        if (!best || best->kind == FrameKind::Import || f.kind != FrameKind::Import)
            byInteraction = f.id;
    }
    if (!byInteraction.isEmpty())
        return frame(byInteraction);
    if (sawTrashed)
        return invalid(QStringLiteral("the frame that made interaction %1 is in the session's trash; restore it in "
                                      "NB2Lite Studio first")
                           .arg(ref));

    // Frame ids are 8 lower-case hex characters; a shorter unique prefix is fine.
    static const QRegularExpression frameIdLike(QStringLiteral("^[0-9a-f]{1,8}$"));
    if (frameIdLike.match(ref).hasMatch()) {
        if (ref.size() < kMinPrefix)
            return invalid(
                QStringLiteral("\"%1\" is too short to name a frame: give at least %2 characters of a frame id")
                    .arg(ref)
                    .arg(kMinPrefix));
        const QStringList matches = graph.matchPrefix(ref, FrameGraph::LiveOnly);
        if (matches.size() == 1)
            return frame(matches.constFirst());
        if (matches.size() > 1)
            return invalid(QStringLiteral("\"%1\" matches several frames (%2); give more characters")
                               .arg(ref, matches.join(QStringLiteral(", "))));
        return invalid(QStringLiteral("there is no frame %1 in this session; list_frames shows its frames").arg(ref));
    }
    FrameReference r;
    r.kind = Kind::UnknownInteraction;
    r.interactionId = ref;
    return r;
}

QStringList continuationsOf(const FrameGraph &graph, const QString &frameId)
{
    QStringList ids;
    for (const QString &child : graph.children(frameId))
        if (isContinuation(*graph.frame(child)))
            ids.append(child);
    return ids;
}

QStringList continuationsOfInteraction(const FrameGraph &graph, const QString &interactionId)
{
    QStringList ids;
    for (const Frame &f : graph.frames())
        if (f.parentId.isEmpty() && f.continuedInteractionId == interactionId && isContinuation(f))
            ids.append(f.id);
    return ids;
}

} // namespace nb2
