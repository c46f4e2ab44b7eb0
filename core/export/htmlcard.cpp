#include "core/export/htmlcard.h"

#include "core/export/htmlexporter.h"
#include "core/session/pricetable.h"

#include <QCoreApplication>

namespace nb2 {

namespace {

// Text::tr() with the context "nb2::HtmlCard": a struct, not a free function, so that lupdate files the
// texts under the context they are looked up in (the field table's QT_TRANSLATE_NOOPs use it too).
struct Text {
    Q_DECLARE_TR_FUNCTIONS(nb2::HtmlCard)
};

QString timeText(const QDateTime &t)
{
    return t.isValid() ? t.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'")) : QString();
}

QString durationText(const QDateTime &a, const QDateTime &b)
{
    if (!a.isValid() || !b.isValid())
        return {};
    const qint64 ms = a.msecsTo(b);
    if (ms < 0)
        return {};
    return ms < 60000 ? Text::tr("%1 s").arg(double(ms) / 1000.0, 0, 'f', 1)
                      : Text::tr("%1 min %2 s").arg(ms / 60000).arg((ms / 1000) % 60);
}

// QT_TRANSLATE_NOOP is spelled out so lupdate finds the labels in the table.
const QList<CardFieldSpec> kFields {
    {CardField::Kind, "kind", QT_TRANSLATE_NOOP("nb2::HtmlCard", "Kind"), CardPlace::Head, CardStrip::Never},
    {CardField::Created, "created", QT_TRANSLATE_NOOP("nb2::HtmlCard", "Created"), CardPlace::Head, CardStrip::Never},
    {CardField::Duration, "duration", QT_TRANSLATE_NOOP("nb2::HtmlCard", "Took"), CardPlace::Head, CardStrip::Never},
    {CardField::Status, "status", QT_TRANSLATE_NOOP("nb2::HtmlCard", "Status"), CardPlace::Head, CardStrip::Never},
    {CardField::Prompt, "prompt", QT_TRANSLATE_NOOP("nb2::HtmlCard", "Prompt"), CardPlace::Text,
        CardStrip::StripPrompts},
    {CardField::ModelText, "model_text", QT_TRANSLATE_NOOP("nb2::HtmlCard", "Model text"), CardPlace::Text,
        CardStrip::StripPrompts},
    {CardField::Model, "model", QT_TRANSLATE_NOOP("nb2::HtmlCard", "Model"), CardPlace::Parameter, CardStrip::Never},
    {CardField::Parameter, "parameter", QT_TRANSLATE_NOOP("nb2::HtmlCard", "Parameters"), CardPlace::Parameter,
        CardStrip::Never},
    {CardField::FrameId, "frame_id", QT_TRANSLATE_NOOP("nb2::HtmlCard", "Frame id"), CardPlace::Parameter,
        CardStrip::StripIds},
    {CardField::InteractionId, "interaction_id", QT_TRANSLATE_NOOP("nb2::HtmlCard", "Interaction id"),
        CardPlace::Parameter, CardStrip::StripIds},
    {CardField::ReplayOf, "replay_of", QT_TRANSLATE_NOOP("nb2::HtmlCard", "Replays"), CardPlace::Parameter,
        CardStrip::StripIds},
    {CardField::Cost, "cost", QT_TRANSLATE_NOOP("nb2::HtmlCard", "Cost (estimate)"), CardPlace::Parameter,
        CardStrip::StripCost},
    {CardField::ReAnchor, "reanchor", QT_TRANSLATE_NOOP("nb2::HtmlCard", "Re-anchored"), CardPlace::Note,
        CardStrip::Never},
    {CardField::Failure, "failure", QT_TRANSLATE_NOOP("nb2::HtmlCard", "Failed"), CardPlace::Note, CardStrip::Never},
};

} // namespace

const QList<CardFieldSpec> &HtmlCard::fields()
{
    return kFields;
}

const CardFieldSpec &HtmlCard::spec(CardField field)
{
    for (const CardFieldSpec &s : kFields) {
        if (s.field == field)
            return s;
    }
    Q_UNREACHABLE(); // every CardField has a row
}

QString HtmlCard::label(const CardFieldSpec &spec)
{
    return Text::tr(spec.label);
}

bool HtmlCard::isIncluded(const CardFieldSpec &spec, const HtmlExportOptions &options)
{
    switch (spec.strippedBy) {
    case CardStrip::Never:
        return true;
    case CardStrip::StripPrompts:
        return !options.stripPrompts;
    case CardStrip::StripIds:
        return !options.stripIds;
    case CardStrip::StripCost:
        return !options.stripCost;
    }
    return true;
}

QString HtmlCard::strippedPromptText()
{
    return Text::tr("(prompt not exported)");
}

QList<CardRow> HtmlCard::rows(const ExportFrame &f, const HtmlExportOptions &options)
{
    QList<CardRow> rows;
    for (const CardFieldSpec &spec : kFields) {
        if (!isIncluded(spec, options))
            continue;
        auto add = [&](const QString &value, bool placeholder = false) {
            if (!value.isEmpty())
                rows.append({spec.field, spec.place, label(spec), value, placeholder});
        };
        switch (spec.field) {
        case CardField::Kind:
            add(f.kindText());
            break;
        case CardField::Created:
            add(timeText(f.created));
            break;
        case CardField::Duration:
            add(durationText(f.created, f.finished));
            break;
        case CardField::Status:
            if (!f.isFailed() && f.status != QLatin1String("done"))
                add(f.status);
            break;
        case CardField::Prompt:
            if (f.prompt.isEmpty())
                add(Text::tr("(no prompt)"), true);
            else
                add(f.prompt);
            break;
        case CardField::ModelText:
            add(f.modelText);
            break;
        case CardField::Model:
            add(f.model);
            break;
        case CardField::Parameter:
            for (const auto &p : f.parameters) {
                if (!p.second.isEmpty())
                    rows.append({spec.field, spec.place, p.first, p.second, false});
            }
            break;
        case CardField::FrameId:
            add(f.id);
            break;
        case CardField::InteractionId:
            add(f.interactionId);
            break;
        case CardField::ReplayOf:
            add(f.replayOf.isEmpty() ? QString() : Text::tr("frame %1").arg(f.replayOf));
            break;
        case CardField::Cost:
            if (f.costUsd >= 0)
                add(formatUsd(f.costUsd));
            break;
        case CardField::ReAnchor:
            add(f.reanchor);
            break;
        case CardField::Failure:
            if (f.isFailed())
                add(f.error.isEmpty() ? Text::tr("no message") : f.error, f.error.isEmpty());
            break;
        }
    }
    return rows;
}

QString HtmlCard::totalCostText(
    const ExportSession &session, const QList<const ExportFrame *> &frames, const HtmlExportOptions &options)
{
    if (!isIncluded(spec(CardField::Cost), options))
        return {};
    double total = 0;
    int priced = 0;
    for (const ExportFrame *f : frames) {
        if (f->costUsd >= 0) {
            total += f->costUsd;
            ++priced;
        }
    }
    if (priced == 0)
        return {};
    const QString source = session.priceSource.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(session.priceSource);
    return Text::tr(
        "Total cost (estimate): %1 for the frames on this page with known usage (%2 of %3), prices as of %4%5")
        .arg(formatUsd(total), QString::number(priced), QString::number(frames.size()),
            session.priceAsOf.isEmpty() ? Text::tr("an unknown date") : session.priceAsOf, source);
}

} // namespace nb2
