#pragma once

#include "core/session/frame.h"
#include "core/session/frameedit.h"

#include <QCoreApplication>
#include <QSize>
#include <QString>

namespace nb2 {

class FrameGraph;

/** The request one press of Send makes (the prompt panel's button says which). */
enum class TurnMode {
    Generate,  // a new root from the prompt
    Edit,      // continues the selected frame's server interaction
    Branch,    // Edit from a frame that already has a continuation: a new lane
    EditLocal, // the selected frame's pixels are sent inline (an import without a server id)
    Style,     // restyle the selected frame after the style reference
};

/** The kind of frame a turn of this mode makes (what the cost estimate and the budget price). */
FrameKind frameKindOf(TurnMode mode);

/** What the planner looks at: the selection and what is waiting in the prompt panel. */
struct TurnInput {
    bool hasFrame = false;          // a frame is selected (false also after "New image")
    bool newImageRequested = false; // the user pressed New Image: generate even if a frame was selected
    QString frameLabel;             // "#3", for the reason text
    FrameStatus status = FrameStatus::Done;
    FrameKind kind = FrameKind::Generate;
    bool hasInteractionId = false; // the frame has a server id to continue from
    QString frameAspect;           // the frame's recorded ratio (empty: none recorded)
    QSize imageSize;               // its picture, for the nearest ratio when none is recorded
    int continuations = 0;         // children that continue it (see countsAsContinuation)
    bool styleReference = false;   // the style slot holds a checked picture
    QString generateAspect;        // the ratio last chosen for Generate
    /** A selection on the frame and how the prompt panel says to use it (None: no selection). */
    RegionMode selection = RegionMode::None;
    bool composited = false;       // the frame's picture is a composite (region/protect edit): the server holds another
    bool compositePending = false; // ... whose composite is still being made on a worker
    bool continueFromRaw = false;  // the user chose to continue the server's raw image by id instead

    /** The input for `frameId` in `graph` (no frame: Generate). */
    static TurnInput fromGraph(const FrameGraph &graph, const QString &frameId, const QString &frameLabel);
};

/** The planner's answer: what Send does and what the panel shows. */
struct TurnPlan {
    TurnMode kind = TurnMode::Generate;
    bool newBranch = false;    // the parent already has a continuation: fork on purpose
    bool sendable = true;      // false: the selected frame has no finished image yet
    QString aspectRatio;       // the ratio to show (and send when locked)
    bool aspectLocked = false; // chains keep their ratio: shown, not editable
    bool styleIgnored = false; // a style reference is waiting but Generate does not use it
    QString reason;            // one line of rich text: what Send continues from, or why it cannot
    /** Region: the selection's crop is sent inline and pasted back; Protect: the selection is restored after. */
    RegionMode region = RegionMode::None;
    /** The frame is a composite and its pixels are sent inline (kind EditLocal) rather than its server id. */
    bool compositeInline = false;

    bool operator==(const TurnPlan &other) const = default;
};

/**
 * The rules of a turn, in one place and in one order, with no widget and no session: from
 * the selection (its status, whether it is a local picture, how many continuations it has)
 * and the style slot, it decides the kind of request, whether it forks a new branch, the
 * aspect ratio and whether it is locked, and the sentence that explains it. The prompt panel
 * shows the plan and the turn dispatcher sends exactly it, so what the button says is what
 * happens. Order: nothing selected → Generate; not finished (or its composite not yet made)
 * → not sendable; style reference → Style; a selection in Region mode → EditLocal of the
 * crop (region); local picture, or a composite (unless continueFromRaw) → EditLocal;
 * otherwise Edit, or Branch when it already continues. A selection in Protect mode keeps
 * the kind the rest of the rules give and adds region = Protect.
 *
 * Continuation after a composite (issue 13): what the user sees (the composite) is not what
 * the server holds (its raw image), so by default the next edit sends the composite inline
 * ("continues from your composited image (sent inline)"); continueFromRaw continues the
 * server's raw image by id.
 */
class TurnPlanner
{
    Q_DECLARE_TR_FUNCTIONS(nb2::TurnPlanner)
public:
    static TurnPlan plan(const TurnInput &input);

    /**
     * Whether a child continues its parent. Failed, refused (no image), cancelled and trashed
     * turns do not: the user rephrases from the parent without being pushed into a branch.
     */
    static bool countsAsContinuation(const Frame &child);
    static int continuationCount(const FrameGraph &graph, const QString &frameId);
};

} // namespace nb2
