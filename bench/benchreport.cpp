#include "bench/benchreport.h"

#include <QJsonArray>

#include <algorithm>
#include <cstdio>

namespace nb2::bench {

double median(std::vector<double> values)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

double Figure::median() const
{
    return bench::median(samples);
}
double Figure::min() const
{
    return samples.empty() ? 0 : *std::min_element(samples.begin(), samples.end());
}
double Figure::max() const
{
    return samples.empty() ? 0 : *std::max_element(samples.begin(), samples.end());
}

std::optional<bool> Figure::met() const
{
    if (goal == Goal::None || samples.empty())
        return std::nullopt;
    return goal == Goal::AtMost ? median() <= target : median() >= target;
}

QString Figure::targetText() const
{
    if (goal == Goal::None)
        return QStringLiteral("-");
    return QStringLiteral("%1 %2 %3")
        .arg(goal == Goal::AtMost ? QStringLiteral("<=") : QStringLiteral(">="))
        .arg(target, 0, 'g', 4)
        .arg(unit);
}

QJsonObject Figure::toJson() const
{
    QJsonObject o {{QStringLiteral("case"), caseName}, {QStringLiteral("figure"), name}, {QStringLiteral("unit"), unit},
        {QStringLiteral("runs"), int(samples.size())}, {QStringLiteral("median"), median()},
        {QStringLiteral("min"), min()}, {QStringLiteral("max"), max()}};
    if (goal != Goal::None) {
        o.insert(QStringLiteral("target"), targetText());
        o.insert(QStringLiteral("target_value"), target);
        if (const std::optional<bool> m = met())
            o.insert(QStringLiteral("met"), *m);
    }
    if (!note.isEmpty())
        o.insert(QStringLiteral("note"), note);
    return o;
}

Figure &Report::add(Figure f)
{
    m_figures.append(std::move(f));
    const Figure &last = m_figures.last();
    // Progress on stderr as figures arrive: a full run is long.
    std::fprintf(stderr, "  [%s] %s: %.3g %s\n", qPrintable(last.caseName), qPrintable(last.name), last.median(),
        qPrintable(last.unit));
    return m_figures.last();
}

Figure &Report::addValue(const QString &caseName, const QString &name, const QString &unit, double value, Goal goal,
    double target, const QString &note)
{
    Figure f;
    f.caseName = caseName;
    f.name = name;
    f.unit = unit;
    f.samples = {value};
    f.goal = goal;
    f.target = target;
    f.note = note;
    return add(std::move(f));
}

void Report::addError(const QString &caseName, const QString &message)
{
    m_errors.append(QStringLiteral("%1: %2").arg(caseName, message));
    std::fprintf(stderr, "  [%s] ERROR: %s\n", qPrintable(caseName), qPrintable(message));
}

namespace {
QString number(double v)
{
    if (v == 0)
        return QStringLiteral("0");
    const double a = std::abs(v);
    return QString::number(v, 'f', a >= 100 ? 0 : a >= 10 ? 1 : a >= 1 ? 2 : 3);
}
} // namespace

void Report::printTable() const
{
    std::printf("%-13s %-52s %10s %10s %10s %-14s %s\n", "case", "figure", "median", "min", "max", "target", "met?");
    for (const Figure &f : m_figures) {
        const std::optional<bool> m = f.met();
        const QString name = f.unit.isEmpty() ? f.name : QStringLiteral("%1 (%2)").arg(f.name, f.unit);
        std::printf("%-13s %-52s %10s %10s %10s %-14s %s\n", qPrintable(f.caseName), qPrintable(name),
            qPrintable(number(f.median())), qPrintable(number(f.min())), qPrintable(number(f.max())),
            qPrintable(f.targetText()),
            !m       ? ""
                : *m ? "yes"
                     : "NO");
    }
    for (const QString &e : m_errors)
        std::printf("error: %s\n", qPrintable(e));
}

QJsonObject Report::toJson(const QJsonObject &machine) const
{
    QJsonArray figures;
    int met = 0, missed = 0;
    for (const Figure &f : m_figures) {
        figures.append(f.toJson());
        if (const std::optional<bool> m = f.met())
            (*m ? met : missed) += 1;
    }
    return QJsonObject {{QStringLiteral("format"), QStringLiteral("nb2lite-bench")}, {QStringLiteral("version"), 1},
        {QStringLiteral("machine"), machine}, {QStringLiteral("figures"), figures},
        {QStringLiteral("targets_met"), met}, {QStringLiteral("targets_missed"), missed},
        {QStringLiteral("errors"), QJsonArray::fromStringList(m_errors)}};
}

} // namespace nb2::bench
