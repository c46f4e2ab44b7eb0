#include "app/cli/loggraph.h"

#include <QSet>

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

} // namespace nb2::cli
