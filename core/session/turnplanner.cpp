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
    in.composited = !f->regionEdit.isEmpty();
    in.compositePending = in.composited && f->isDone() && f->regionEdit.rawFile.isEmpty();
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

    const bool sized = in.imageSize.isValid() && !in.imageSize.isEmpty();
    // A composite has its parent's shape, whatever ratio its crop was sent at.
    p.aspectRatio = in.composited && sized ? nearestAspectRatio(in.imageSize)
        : !in.frameAspect.isEmpty()        ? in.frameAspect
        : sized                            ? nearestAspectRatio(in.imageSize)
                                           : QString();
    if (in.status != FrameStatus::Done) {
        p.kind = TurnMode::Edit;
        p.sendable = false;
        p.aspectLocked = true;
        p.aspectRatio = in.frameAspect;
        const QString why = in.status == FrameStatus::Pending
            ? tr("%1 is still being made; you can edit it when it is done.").arg(in.frameLabel)
            : tr("%1 has no image (%2). Retry it, or select another frame.")
                  .arg(in.frameLabel, frameStatusName(in.status));
        p.reason = QStringLiteral("<i>%1</i>").arg(why.toHtmlEscaped());
        return p;
    }

    if (in.compositePending) {
        p.kind = TurnMode::Edit;
        p.sendable = false;
        p.aspectLocked = true;
        p.reason = QStringLiteral("<i>%1</i>")
                       .arg(tr("%1 is being composited with its parent; you can edit it in a moment.")
                                .arg(in.frameLabel)
                                .toHtmlEscaped());
        return p;
    }

    p.newBranch = in.continuations > 0;
    // An imported picture is sent inline, unless it came with a server id to continue from. A
    // composite is sent inline too (the server holds the raw image, not what the user sees),
    // unless the user asked to continue the raw image by id.
    const bool local = in.kind == FrameKind::Import && !in.hasInteractionId;
    const bool compositeInline = in.composited && (!in.continueFromRaw || !in.hasInteractionId);
    const QString fromComposite = tr("continues from your composited image (sent inline)");
    const QString fromRaw = tr("continues from the server's raw image by id (not the composite you see)");
    const QString lane = tr("on a new lane (shown dashed on the timeline)");
    if (in.styleReference) {
        p.kind = TurnMode::Style;
        p.reason = p.newBranch ? tr("<b>Branch from %1</b> — restyled after the style reference, on a new lane "
                                    "(shown dashed on the timeline).")
                                     .arg(in.frameLabel)
                               : tr("<b>Restyle %1</b> — after the style reference; both pictures are sent with "
                                    "the prompt.")
                                     .arg(in.frameLabel);
        if (in.selection != RegionMode::None)
            p.reason += QLatin1Char(' ') + tr("The selection is not used by a restyle.");
    } else if (in.selection == RegionMode::Region) {
        p.kind = TurnMode::EditLocal;
        p.region = RegionMode::Region;
        p.aspectLocked = true; // the crop's own ratio is sent
        p.reason = p.newBranch
            ? tr("<b>Branch from %1, edit the selected region</b> — the selection and a margin are sent inline and "
                 "pasted back with a feathered edge, %2.")
                  .arg(in.frameLabel, lane)
            : tr("<b>Edit the selected region of %1</b> — the selection and a margin are sent inline and pasted back "
                 "with a feathered edge; the rest stays exactly as it is.")
                  .arg(in.frameLabel);
    } else if (local || compositeInline) {
        p.kind = TurnMode::EditLocal;
        p.compositeInline = compositeInline;
        p.aspectLocked = compositeInline; // a composite continues its chain, at the chain's ratio
        const QString how = compositeInline ? fromComposite : tr("the picture is sent with the prompt (local edit)");
        p.reason = p.newBranch
            ? tr("<b>Branch from %1</b> — it already has a continuation; %2, %3.").arg(in.frameLabel, how, lane)
            : tr("<b>Edit %1</b> — %2.").arg(in.frameLabel, how);
    } else if (p.newBranch) {
        p.kind = TurnMode::Branch;
        p.aspectLocked = true;
        p.reason = in.composited
            ? tr("<b>Branch from %1</b> — it already has a continuation; %2, %3.").arg(in.frameLabel, fromRaw, lane)
            : tr("<b>Branch from %1</b> — it already has a continuation; this starts a new lane "
                 "(shown dashed on the timeline).")
                  .arg(in.frameLabel);
    } else {
        p.kind = TurnMode::Edit;
        p.aspectLocked = true;
        p.reason = in.composited ? tr("<b>Edit %1</b> — %2.").arg(in.frameLabel, fromRaw)
                                 : tr("<b>Edit %1</b> — continues its chain.").arg(in.frameLabel);
    }
    if (in.selection == RegionMode::Protect && p.kind != TurnMode::Style) {
        p.region = RegionMode::Protect;
        p.reason
            += QLatin1Char(' ') + tr("The whole picture is edited; the selected pixels are then restored exactly.");
    }
    return p;
}

FrameKind frameKindOf(TurnMode mode)
{
    switch (mode) {
    case TurnMode::Generate:
        return FrameKind::Generate;
    case TurnMode::EditLocal:
        return FrameKind::EditLocal;
    case TurnMode::Style:
        return FrameKind::StyleEdit;
    case TurnMode::Edit:
    case TurnMode::Branch:
        break;
    }
    return FrameKind::Edit;
}

} // namespace nb2
