#include "core/session/pricetable.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include <cmath>

namespace nb2 {

namespace {

constexpr double kMaxRate = 10000; // $/1M tokens: anything above is a typo, not a price

bool validRate(const QJsonValue &v)
{
    return v.isDouble() && std::isfinite(v.toDouble()) && v.toDouble() >= 0 && v.toDouble() <= kMaxRate;
}

} // namespace

PriceTable PriceTable::defaults()
{
    // Google's public Gemini API price list, paid tier, standard (not batch) requests, read on
    // the date below. The machine that wrote this had no internet access: the rates come from
    // copies of that list (image output $30 per 1M tokens = about $0.034 for a 1K image of
    // 1,120 tokens). Estimates: the user edits them in Settings when Google changes them.
    PriceTable t;
    t.asOf = QStringLiteral("2026-06-30");
    t.source = QStringLiteral("Google Gemini API price list (paid tier), estimate");
    t.models = {
        {QStringLiteral("gemini-3.1-flash-lite-image"), 0.25, 1.50, 30.00},
        {QStringLiteral("gemini-3.1-flash-image-preview"), 0.50, 3.00, 60.00},
        {QStringLiteral("gemini-2.5-flash-image"), 0.30, 2.50, 30.00},
    };
    return t;
}

const ModelPrice *PriceTable::find(const QString &model) const
{
    for (const ModelPrice &p : models) {
        if (p.model == model)
            return &p;
    }
    return nullptr;
}

ModelPrice PriceTable::priceFor(const QString &model, bool *exact) const
{
    const ModelPrice *p = find(model);
    if (exact)
        *exact = p != nullptr;
    if (p)
        return *p;
    if (!models.isEmpty()) {
        ModelPrice fallback = models.first();
        fallback.model = model;
        return fallback;
    }
    return ModelPrice {model, 0, 0, 0};
}

QJsonObject PriceTable::toJson() const
{
    QJsonArray rows;
    for (const ModelPrice &p : models) {
        rows.append(QJsonObject {{QStringLiteral("model"), p.model}, {QStringLiteral("input_per_mtok"), p.inputPerMTok},
            {QStringLiteral("output_per_mtok"), p.outputPerMTok},
            {QStringLiteral("image_output_per_mtok"), p.imageOutputPerMTok}});
    }
    return QJsonObject {{QStringLiteral("currency"), QStringLiteral("USD")}, {QStringLiteral("as_of"), asOf},
        {QStringLiteral("source"), source}, {QStringLiteral("models"), rows}};
}

Result<PriceTable> PriceTable::fromJson(const QJsonObject &object)
{
    const auto corrupt = [](const QString &what) {
        return Error::make(ErrorKind::Corrupt,
            QStringLiteral("The price table is not usable (%1). Fix it in Settings or reset it to the "
                           "defaults.")
                .arg(what));
    };
    if (object.contains(QLatin1String("currency"))
        && object.value(QLatin1String("currency")).toString() != QLatin1String("USD"))
        return corrupt(QStringLiteral("prices must be in USD"));
    PriceTable t;
    t.asOf = object.value(QLatin1String("as_of")).toString();
    t.source = object.value(QLatin1String("source")).toString();
    const QJsonValue rows = object.value(QLatin1String("models"));
    if (!rows.isArray())
        return corrupt(QStringLiteral("no \"models\" list"));
    QSet<QString> seen;
    for (const QJsonValue &v : rows.toArray()) {
        const QJsonObject o = v.toObject();
        ModelPrice p;
        p.model = o.value(QLatin1String("model")).toString().trimmed();
        if (p.model.isEmpty())
            return corrupt(QStringLiteral("a row has no model name"));
        if (seen.contains(p.model))
            return corrupt(QStringLiteral("%1 is listed twice").arg(p.model));
        seen.insert(p.model);
        for (const char *key : {"input_per_mtok", "output_per_mtok", "image_output_per_mtok"}) {
            if (!validRate(o.value(QLatin1String(key))))
                return corrupt(
                    QStringLiteral("%1: %2 must be a number from 0 to 10000").arg(p.model, QLatin1String(key)));
        }
        p.inputPerMTok = o.value(QLatin1String("input_per_mtok")).toDouble();
        p.outputPerMTok = o.value(QLatin1String("output_per_mtok")).toDouble();
        p.imageOutputPerMTok = o.value(QLatin1String("image_output_per_mtok")).toDouble();
        t.models.append(p);
    }
    return t;
}

QString PriceTable::toText() const
{
    return QString::fromUtf8(QJsonDocument(toJson()).toJson(QJsonDocument::Compact));
}

Result<PriceTable> PriceTable::fromText(const QString &text)
{
    const QJsonDocument doc = QJsonDocument::fromJson(text.toUtf8());
    if (!doc.isObject())
        return Error::make(ErrorKind::Corrupt,
            QStringLiteral("The price table is not a JSON object. Reset it to the defaults in Settings."));
    return fromJson(doc.object());
}

QString formatUsd(double usd)
{
    if (!std::isfinite(usd))
        return QStringLiteral("$?");
    return QStringLiteral("$") + QString::number(usd, 'f', std::fabs(usd) < 1 ? 4 : 2);
}

} // namespace nb2
