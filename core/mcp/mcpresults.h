#pragma once

#include "core/common/error.h"
#include "core/mcp/mcpimagepreview.h"
#include "core/session/frame.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace nb2 {

class FrameGraph;

/** A finished image turn and what was made of it off the event loop thread (copy, preview). */
struct TurnOutcome {
    Frame frame;
    QString sessionDir;
    QString imagePath;                   // absolute; empty when there is no image
    QString copyPath;                    // the IMAGE_OUTPUT_DIR copy, when one was made
    QString copyProblem;                 // why IMAGE_OUTPUT_DIR has no copy
    std::optional<ImagePreview> preview; // the image block's picture
    QString previewProblem;
    QString note;                  // one more line for the agent (e.g. the aspect ratio picked)
    std::optional<Frame> measured; // the frame with its drift reading (and composite), not yet recorded
    QString driftProblem;          // why an edit has no drift reading
};

/**
 * Tool results (CallToolResult objects) of the bridge: what an agent can act on, as text and as
 * structuredContent with the same fields, plus the image block and a link to the frame's
 * resource. Failures are results with isError, whose text names the fix. Pure functions.
 */
namespace mcp {

/** "nb2lite://frame/<id>". */
QString frameResourceUri(const QString &frameId);
/** The frame id in a frame resource URI; empty when the URI is not one. */
QString frameIdFromResourceUri(const QString &uri);

QJsonObject textContent(const QString &text);
QJsonObject textResult(const QString &text, const QJsonObject &structured = {});
QJsonObject errorResult(const QString &text);

/** A done image turn: text, structuredContent, image block (when preview is set), resource_link (when allowed). */
QJsonObject imageTurnResult(const TurnOutcome &outcome, bool resourceLinks);
/**
 * A turn that ended without an image. error is what the client reported (retry time, server
 * words) when known; the frame's stored error otherwise. `what` starts the text ("Image
 * generation failed").
 */
QJsonObject failedTurnResult(const QString &what, const Frame &frame, const std::optional<Error> &error);
/** The per-frame object of list_frames. */
QJsonObject frameSummary(const Frame &frame, const QString &sessionDir, bool isHead);
/** One line of list_frames' text. */
QString frameLine(const Frame &frame, bool isHead);

} // namespace mcp
} // namespace nb2
