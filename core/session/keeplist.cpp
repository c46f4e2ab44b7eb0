#include "core/session/keeplist.h"

#include "core/session/framegraph.h"

namespace nb2 {

QStringList KeepList::cleaned(const QStringList &items)
{
    QStringList out;
    for (const QString &item : items) {
        const QString line = item.simplified().left(kMaxItemLength); // one line: the block stays a list
        if (line.isEmpty() || out.contains(line, Qt::CaseInsensitive))
            continue;
        out.append(line);
        if (out.size() == kMaxItems)
            break;
    }
    return out;
}

EffectiveKeepList KeepList::effective(const FrameGraph &graph, const QString &frameId)
{
    // No frame sets one (the common case): nothing to walk, however deep the chain.
    if (graph.keepListCount() == 0)
        return {};
    // Bounded by the number of frames: a damaged manifest with a parent cycle cannot loop forever.
    qsizetype steps = graph.frames().size() + 1;
    for (QString id = frameId; !id.isEmpty() && steps-- > 0;) {
        const Frame *f = graph.frame(id);
        if (!f)
            break;
        if (f->keepListSet)
            return {f->keepList, f->id};
        id = f->parentId;
    }
    return {};
}

QString KeepList::promptToSend(const QString &prompt, const QStringList &items)
{
    if (items.isEmpty())
        return prompt;
    QString out = prompt.trimmed();
    out += QStringLiteral("\n\nKeep-list (respect in this edit):");
    for (const QString &item : items)
        out += QStringLiteral("\n- ") + item;
    return out;
}

} // namespace nb2
