#pragma once

#include "core/export/exportsession.h"

#include <QList>
#include <QString>

namespace nb2 {

struct HtmlExportOptions;

/** One kind of text on a frame's card in the HTML history. */
enum class CardField {
    Kind,     // "edit", "style-edit", ...
    Created,  // when the turn started (UTC)
    Duration, // how long the turn took
    Status,   // only when neither done nor failed ("pending", "cancelled", ...)
    Prompt,
    ModelText, // the model's own words
    Model,
    Parameter, // one row per ExportFrame::parameters entry, labelled with its own name
    FrameId,
    InteractionId,
    ReplayOf, // a replayed step: the frame it replays
    Cost,     // the turn's estimated cost (price table), when the session was exported with prices
    ReAnchor, // why stored pixels were sent instead of the server id
    Failure,  // a failed turn's message
};

/** Where a field sits on the card; the HTML exporter renders each place its own way. */
enum class CardPlace {
    Head,      // the card's top line, after the turn number
    Text,      // a paragraph of its own
    Parameter, // a name/value pair in the card's parameter list
    Note,      // a coloured line under the parameters
};

/** The export option that leaves a field out of the page. */
enum class CardStrip { Never, StripPrompts, StripIds, StripCost };

/** One row of the card's field table. */
struct CardFieldSpec {
    CardField field;
    const char *name;  // stable snake_case, for tests and tools: "prompt", "frame_id"
    const char *label; // for people: translate with cardFieldLabel()
    CardPlace place;
    CardStrip strippedBy;
};

/** One field as a given frame's card shows it. */
struct CardRow {
    CardField field;
    CardPlace place;
    QString label;            // translated (a Parameter row: the parameter's own name)
    QString value;            // the text, exactly as the page shows it (before HTML escaping)
    bool placeholder = false; // the value stands for missing data ("(no prompt)")

    bool operator==(const CardRow &) const = default;
};

/**
 * The HTML history's frame card as data: the one table of fields (page order, label,
 * place, the option that strips it) that HtmlExporter renders and the Export dialog
 * previews, so the preview cannot drift from the page. With default HtmlExportOptions
 * every field is included; a field with nothing to say for a frame (no model text, no
 * re-anchor) is left out of that frame's rows. Structure — turn number, fork link, branch
 * tags, thumbnail — is the tree's, not a field, and stays in the exporter.
 */
class HtmlCard
{
public:
    /** Every field, in page order. */
    static const QList<CardFieldSpec> &fields();
    static const CardFieldSpec &spec(CardField field);
    /** The label, translated in the "nb2::HtmlCard" context. */
    static QString label(const CardFieldSpec &spec);
    /** Whether `options` keep the field on the page (every field, with the defaults). */
    static bool isIncluded(const CardFieldSpec &spec, const HtmlExportOptions &options);
    /** The rows this frame's card shows with these options, in page order. */
    static QList<CardRow> rows(const ExportFrame &frame, const HtmlExportOptions &options);
    /** The page's placeholder where stripped prompts would be. */
    static QString strippedPromptText();
    /**
     * The page's total line when the cost field is kept and any shown frame has a cost:
     * "Total cost (estimate): $0.1234 for the frames on this page with known usage (5 of 6), prices as of 2026-06-30 (source)". Empty otherwise.
     */
    static QString totalCostText(
        const ExportSession &session, const QList<const ExportFrame *> &frames, const HtmlExportOptions &options);
};

} // namespace nb2
