#include "core/session/turnplanner.h"

#include "core/api/imageinput.h"
#include "core/session/framegraph.h"

namespace nb2 {

TurnInput TurnInput::fromGraph(const FrameGraph &graph, const QString &frameId, const QString &frameLabel)
{
    TurnInput in;
    const Frame *f = frameId.isEmpty() ? nullptr : graph.frame(frameId);
    if (!f || f->isTrashed())
        return in;
    in.hasFrame = true;
    in.frameLabel = frameLabel;
    in.status = f->status;
    in.kind = f->kind;
    in.hasInteractionId = !f->interactionId.isEmpty();
    in.frameAspect = f->aspectRatio;
    in.imageSize = QSize(f->image.width, f->image.height);
    in.continuations = TurnPlanner::continuationCount(graph, frameId);
    return in;
}

bool TurnPlanner::countsAsContinuation(const Frame &child)
{
    // Only a child that has, or is about to have, an image continues the parent. A failed or
    // refused turn produced nothing to continue from; counting it would force "Branch from here".
    return !child.isTrashed() && (child.isDone() || child.isPending());
}

int TurnPlanner::continuationCount(const FrameGraph &graph, const QString &frameId)
{
    int n = 0;
    for (const QString &id : graph.children(frameId)) {
        if (const Frame *c = graph.frame(id); c && countsAsContinuation(*c))
            ++n;
    }
    return n;
}

TurnPlan TurnPlanner::plan(const TurnInput &in)
{
    TurnPlan p;
    if (!in.hasFrame || in.newImageRequested) {
        p.kind = TurnMode::Generate;
        p.aspectRatio = in.generateAspect;
        p.styleIgnored = in.styleReference;
        QStringList parts;
        if (in.newImageRequested)
            parts << tr("<b>New image</b> — starts a new chain on its own lane.");
        if (in.styleReference)
            parts << tr("The style reference applies to edits; select a frame to restyle it.");
        p.reason = parts.join(QLatin1Char(' '));
        return p;
    }

    p.aspectRatio = !in.frameAspect.isEmpty() ? in.frameAspect
                    : in.imageSize.isValid() && !in.imageSize.isEmpty() ? nearestAspectRatio(in.imageSize)
                                                                         : QString();
    if (in.status != FrameStatus::Done) {
        p.kind = TurnMode::Edit;
        p.sendable = false;
        p.aspectLocked = true;
        p.aspectRatio = in.frameAspect;
        const QString why = in.status == FrameStatus::Pending
            ? tr("%1 is still being made; you can edit it when it is done.").arg(in.frameLabel)
            : tr("%1 has no image (%2). Retry it, or select another frame.").arg(in.frameLabel, frameStatusName(in.status));
        p.reason = QStringLiteral("<i>%1</i>").arg(why.toHtmlEscaped());
        return p;
    }

    p.newBranch = in.continuations > 0;
    // An imported picture is sent inline, unless it came with a server id to continue from.
    const bool local = in.kind == FrameKind::Import && !in.hasInteractionId;
    if (in.styleReference) {
        p.kind = TurnMode::Style;
        p.reason = p.newBranch ? tr("<b>Branch from %1</b> — restyled after the style reference, on a new lane "
                                    "(shown dashed on the timeline).").arg(in.frameLabel)
                               : tr("<b>Restyle %1</b> — after the style reference; both pictures are sent with "
                                    "the prompt.").arg(in.frameLabel);
    } else if (local) {
        p.kind = TurnMode::EditLocal;
        p.reason = p.newBranch ? tr("<b>Branch from %1</b> — it already has a continuation; the picture is sent "
                                    "with the prompt on a new lane (shown dashed on the timeline).").arg(in.frameLabel)
                               : tr("<b>Edit %1</b> — the picture is sent with the prompt (local edit).").arg(in.frameLabel);
    } else if (p.newBranch) {
        p.kind = TurnMode::Branch;
        p.aspectLocked = true;
        p.reason = tr("<b>Branch from %1</b> — it already has a continuation; this starts a new lane "
                      "(shown dashed on the timeline).").arg(in.frameLabel);
    } else {
        p.kind = TurnMode::Edit;
        p.aspectLocked = true;
        p.reason = tr("<b>Edit %1</b> — continues its chain.").arg(in.frameLabel);
    }
    return p;
}

} // namespace nb2
