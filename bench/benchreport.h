#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>

#include <functional>
#include <optional>
#include <vector>

namespace nb2::bench {

/** How a figure's median is held against its target. */
enum class Goal { None, AtMost, AtLeast };

/**
 * One measured figure: its samples (several runs; a ratio's samples are per-run ratios taken
 * in the same run, so machine drift cancels) and the target it is held to. Printed as one row
 * of the table (case, figure, median, min, max, target, met?) and written as one JSON object.
 */
struct Figure {
    QString caseName;
    QString name;
    QString unit; // "ms", "x", "MB", "KB", ...
    std::vector<double> samples;
    Goal goal = Goal::None;
    double target = 0;
    QString note; // short context (sizes, counts)

    double median() const;
    double min() const;
    double max() const;
    /** No goal or no samples: empty; otherwise whether the median meets the target. */
    std::optional<bool> met() const;
    QString targetText() const;
    QJsonObject toJson() const;
};

/** Every figure of one run, in the order they were measured; prints the table, writes the JSON. */
class Report
{
public:
    Figure &add(Figure f);
    /** A figure measured once (a size, a count): one sample. */
    Figure &addValue(const QString &caseName, const QString &name, const QString &unit, double value,
        Goal goal = Goal::None, double target = 0, const QString &note = {});
    void addError(const QString &caseName, const QString &message);
    const QList<Figure> &figures() const { return m_figures; }
    const QStringList &errors() const { return m_errors; }

    void printTable() const;
    QJsonObject toJson(const QJsonObject &machine) const;

private:
    QList<Figure> m_figures;
    QStringList m_errors;
};

/** Median of values (upper median for an even count); 0 for none. */
double median(std::vector<double> values);

} // namespace nb2::bench
