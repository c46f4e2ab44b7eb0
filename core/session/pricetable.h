#pragma once

#include "core/common/error.h"

#include <QJsonObject>
#include <QList>
#include <QString>

namespace nb2 {

/** What one model costs, in US dollars per million tokens. */
struct ModelPrice {
    QString model;
    double inputPerMTok = 0;       // text and image input
    double outputPerMTok = 0;      // text output and thinking
    double imageOutputPerMTok = 0; // image output

    bool operator==(const ModelPrice &other) const = default;
};

/**
 * The price list cost figures are computed from: one row per model, the date the prices were
 * read ("as of") and where from. It is an estimate, never a bill: the default is Google's
 * public paid-tier list as of its date, and the user can edit it (Settings). It is kept with
 * the application's settings (appprefs::priceTable), never in a session, so a shared session
 * carries no prices and an edited table applies to every session.
 */
struct PriceTable {
    QList<ModelPrice> models;
    QString asOf;   // "2026-06-30": when the prices were read
    QString source; // where from, said to the user beside every total

    /** The built-in table (Google's public list as of its date), labelled an estimate. */
    static PriceTable defaults();

    /** The row of exactly this model, or nullptr. */
    const ModelPrice *find(const QString &model) const;
    /**
     * The row to price `model` with: its own row, else the first row (the default model's),
     * with *exact false so the caller can say the price is a guess. A table without rows
     * prices everything at zero.
     */
    ModelPrice priceFor(const QString &model, bool *exact = nullptr) const;

    QJsonObject toJson() const;
    /** Corrupt naming the field when a rate is missing, negative or absurd (> 10000 $/1M), or a model is unnamed or repeated. */
    static Result<PriceTable> fromJson(const QJsonObject &object);
    /** Compact JSON text, the form the settings file stores. */
    QString toText() const;
    static Result<PriceTable> fromText(const QString &text);

    bool operator==(const PriceTable &other) const = default;
};

/** "$0.0345": dollars with enough digits for a single turn (4 decimals below $1, 2 above). */
QString formatUsd(double usd);

} // namespace nb2
