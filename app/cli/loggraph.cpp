#include "app/cli/loggraph.h"

#include "app/cli/clitext.h"

#include <QSet>

#include <algorithm>
#include <utility>

namespace nb2::cli {

namespace {

QString columns(int depth)
{
    return QStringLiteral("| ").repeated(depth);
}

} // namespace

QStringList logGraphLines(
    const FrameGraph &graph, FrameGraph::Visibility visibility, const std::function<QString(const Frame &)> &describe)
{
    struct Step {
        QString id;
        int depth;
        bool opensFork; // the first frame of a side branch: draw the fork line above it
    };
    QStringList lines;
    QSet<QString> drawn; // a damaged graph must not loop
    const QStringList roots = graph.roots(visibility);
    const QHash<QString, QStringList> childrenOf = graph.childrenById(visibility);
    for (const QString &root : roots) {
        if (!lines.isEmpty())
            lines << QString();
        // An explicit stack: a chain of thousands of frames must not recurse thousands deep.
        QList<Step> stack {{root, 0, false}};
        while (!stack.isEmpty()) {
            const Step step = stack.takeLast();
            const Frame *frame = graph.frame(step.id);
            if (!frame || drawn.contains(step.id))
                continue;
            drawn.insert(step.id);
            if (step.opensFork)
                lines << columns(step.depth - 1) + QStringLiteral("|\\");
            lines << columns(step.depth) + QStringLiteral("* ") + describe(*frame);

            // The first child continues this column; every later child is a side branch one
            // column to the right, drawn first (so pushed last), in creation order.
            const QStringList children = childrenOf.value(step.id);
            if (children.isEmpty())
                continue;
            stack.append({children.first(), step.depth, false});
            for (qsizetype i = children.size() - 1; i >= 1; --i)
                stack.append({children.at(i), step.depth + 1, true});
        }
    }
    return lines;
}

std::optional<Ancestry::Place> Ancestry::place(const QString &id)
{
    // Up to the first frame already placed (or a root, or a parent the graph lacks), then down
    // again placing each: every chain is walked once however many of its frames are asked for.
    QStringList chain; // id first, then its ancestors
    Place above;
    bool placed = false;
    qsizetype stepsLeft = m_graph.size();
    for (QString cur = id; !cur.isEmpty();) {
        if (const auto known = m_places.constFind(cur); known != m_places.cend()) {
            above = *known;
            placed = true;
            break;
        }
        const Frame *f = m_graph.frame(cur);
        if (!f)
            break; // unknown parent: the path starts at the last known frame
        if (stepsLeft-- == 0)
            return std::nullopt; // the parents loop: no path
        chain.append(cur);
        cur = f->parentId;
    }
    if (chain.isEmpty())
        return placed ? std::optional<Place>(above) : std::nullopt;
    if (!placed)
        above = Place {-1, chain.last()}; // chain.last() is the root: 0 ancestors once placed below
    for (auto it = chain.crbegin(); it != chain.crend(); ++it) {
        above = Place {above.ancestors + 1, above.root};
        m_places.insert(*it, above);
    }
    return above;
}

QString Ancestry::ancestorsText(const QString &id)
{
    const std::optional<Place> here = place(id);
    if (!here || here->ancestors == 0)
        return {};
    const int shown = here->ancestors <= kShownInFull ? here->ancestors : kNearest;
    QStringList nearest; // nearest first
    QString cur = m_graph.parent(id);
    for (int i = 0; i < shown; ++i) {
        nearest.append(cur);
        cur = m_graph.parent(cur);
    }
    std::reverse(nearest.begin(), nearest.end());
    if (here->ancestors <= kShownInFull)
        return nearest.join(QStringLiteral(" > "));
    const int between = here->ancestors - 1 - kNearest;
    return here->root + QStringLiteral(" > ") + CliText::tr("… %n frame(s) …", nullptr, between) + QStringLiteral(" > ")
        + nearest.join(QStringLiteral(" > "));
}

} // namespace nb2::cli
