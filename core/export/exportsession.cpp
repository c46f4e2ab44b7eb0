#include "core/export/exportsession.h"

#include "core/export/exportfiles.h"

#include "core/session/costledger.h"
#include "core/session/framegraph.h"
#include "core/session/sessionpaths.h"

#include <QCoreApplication>
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QHash>
#include <QSet>

#include <vector>

namespace nb2 {

namespace {

// tr() for this file's functions with the context "nb2::Export": a struct, not a free function, so
// that lupdate files the texts under the context they are looked up in.
struct Text {
    Q_DECLARE_TR_FUNCTIONS(nb2::Export)
};

Error invalid(const QString &message)
{
    return Error::make(ErrorKind::InvalidInput, message);
}

/**
 * The parameter names, translated once per export model rather than five times per frame
 * (QCoreApplication::translate walks the installed translators each time; at 10,000 frames
 * that was a visible part of building the model on the GUI thread).
 */
struct Labels {
    QString title = Text::tr("title");
    QString aspect = Text::tr("aspect");
    QString thinking = Text::tr("thinking");
    QString size = Text::tr("size");
    QString tokens = Text::tr("tokens");
    QString attempts = Text::tr("attempts");
    QString starred = Text::tr("starred");
    QString note = Text::tr("note");
    QString reanchor
        = Text::tr("the parent's server id was gone, so its stored pixels were sent instead; continuity may differ");
};

ExportFrame fromFrame(const Frame &f, const QDir &dir, const Labels &l)
{
    ExportFrame e;
    e.id = f.id;
    e.parentId = f.parentId;
    e.kind = frameKindName(f.kind);
    e.status = frameStatusName(f.status);
    e.prompt = f.prompt;
    e.modelText = f.modelText;
    e.model = f.model;
    e.interactionId = f.interactionId;
    if (!f.title.isEmpty())
        e.parameters.append({l.title, f.title});
    if (!f.aspectRatio.isEmpty())
        e.parameters.append({l.aspect, f.aspectRatio});
    if (!f.thinkingLevel.isEmpty())
        e.parameters.append({l.thinking, f.thinkingLevel});
    if (!f.image.isNull() && f.image.width > 0)
        e.parameters.append({l.size, QStringLiteral("%1\u00d7%2").arg(f.image.width).arg(f.image.height)});
    if (f.usage.totalTokens >= 0)
        e.parameters.append({l.tokens, QString::number(f.usage.totalTokens)});
    if (f.attempts > 1)
        e.parameters.append({l.attempts, QString::number(f.attempts)});
    if (f.starred)
        e.parameters.append({l.starred, QStringLiteral("\u2605")});
    if (!f.note.isEmpty())
        e.parameters.append({l.note, f.note});
    e.created = f.requestedAt;
    e.finished = f.finishedAt;
    e.replayOf = f.replayOf;
    if (f.reAnchored || f.kind == FrameKind::ReAnchor)
        e.reanchor = l.reanchor;
    if (!f.error.isEmpty()) {
        e.error = f.error.message;
        if (!f.error.serverMessage.isEmpty() && !e.error.contains(f.error.serverMessage))
            e.error += QLatin1String(" (") + f.error.serverMessage + QLatin1Char(')');
    }
    if (!f.image.isNull()) {
        e.imageRelPath = f.image.file;
        e.imageSha256 = f.image.sha256;
        e.imagePath = dir.filePath(f.image.file);
    }
    e.inputRelPaths = f.inputImages;
    return e;
}

} // namespace

ExportSession ExportSession::fromGraph(const FrameGraph &graph, const QString &sessionDir)
{
    ExportSession s;
    const QDir dir(sessionDir);
    s.sessionDir = dir.absolutePath();
    s.title = dir.dirName();
    const Labels labels;
    s.frames.reserve(graph.size());
    for (const Frame &f : graph.frames()) {
        if (!f.isTrashed()) {
            s.frames.append(fromFrame(f, dir, labels));
            s.frames.last().turn = int(s.frames.size());
        }
    }
    s.rowOfId.reserve(s.frames.size());
    for (qsizetype i = 0; i < s.frames.size(); ++i)
        s.rowOfId.insert(s.frames.at(i).id, i);
    // The branches as FrameGraph::branches() numbers them (one per head, in creation order,
    // none for a head whose ancestry loops), without building every root-to-head path: at
    // 10,000 frames and a fork every 10 that was ~1,000 paths of hundreds of frames each.
    QHash<QString, bool> acyclic; // frame id -> its ancestry ends (true) or loops (false)
    auto ends = [&graph, &acyclic](const QString &head) {
        QStringList chain;
        QSet<QString> onChain;
        QString cur = head;
        bool result = true;
        while (!cur.isEmpty()) {
            if (const auto known = acyclic.constFind(cur); known != acyclic.cend()) {
                result = *known;
                break;
            }
            const Frame *f = graph.frame(cur);
            if (!f)
                break; // unknown parent: the path starts at the last known frame
            if (onChain.contains(cur)) {
                result = false;
                break;
            }
            onChain.insert(cur);
            chain.append(cur);
            cur = f->parentId;
        }
        for (const QString &id : std::as_const(chain))
            acyclic.insert(id, result);
        return result;
    };
    int branch = 0;
    for (const QString &head : graph.heads())
        if (ends(head))
            s.branches.append({QString::number(++branch), head});

    // The bundle carries the record (manifest, journal) and every file a frame refers to,
    // trashed frames included, so that an opened bundle can still restore from the trash.
    for (const QString &name : {QStringLiteral("manifest.json"), QStringLiteral("journal.jsonl")}) {
        if (QFileInfo::exists(dir.filePath(name)))
            s.sessionFiles.append(name);
    }
    // Which files exist: one listing of images/ instead of a stat per frame (10,000 of them on
    // the GUI thread when the export dialog opens); files elsewhere are asked one by one.
    // (Unsorted: QDir::entryList sorted the 10,000 names, half of this function's time.)
    QSet<QString> inImages;
    for (QDirIterator it(dir.filePath(QStringLiteral("images")), QDir::Files | QDir::Hidden); it.hasNext();)
        inImages.insert(it.nextFileInfo().fileName());
    auto exists = [&dir, &inImages](const QString &rel) {
        static const QLatin1String kImages("images/");
        if (rel.startsWith(kImages) && rel.indexOf(QLatin1Char('/'), kImages.size()) < 0
            && !rel.contains(QLatin1String("..")))
            return inImages.contains(rel.mid(kImages.size()));
        return QFileInfo::exists(dir.filePath(rel));
    };
    QSet<QString> seen;
    for (const Frame &f : graph.frames()) {
        QStringList files = f.inputImages;
        if (!f.image.isNull())
            files.prepend(f.image.file);
        for (const QString &rel : files) {
            if (!rel.isEmpty() && !seen.contains(rel) && exists(rel)) {
                seen.insert(rel);
                s.sessionFiles.append(rel);
            }
        }
    }
    return s;
}

ExportSession ExportSession::fromGraph(const FrameGraph &graph, const QString &sessionDir, const PriceTable &prices)
{
    ExportSession s = fromGraph(graph, sessionDir);
    s.priceAsOf = prices.asOf;
    s.priceSource = prices.source;
    for (ExportFrame &f : s.frames) {
        const Frame *frame = graph.frame(f.id);
        const FrameCost c = frame ? frameCost(*frame, prices) : FrameCost {};
        f.costUsd = c.hasUsage ? c.usd : -1;
    }
    return s;
}

Result<QString> ExportSession::imageFileIn(const SessionPaths &paths, const ExportFrame &f)
{
    if (f.imagePath.isEmpty())
        return Error::make(ErrorKind::InvalidInput, QStringLiteral("Frame %1 has no image.").arg(f.id));
    // Name the path as the manifest wrote it when imagePath is simply that path in the folder.
    const QDir dir(paths.root());
    QString rel = f.imageRelPath;
    if (rel.isEmpty() || QDir::cleanPath(dir.filePath(rel)) != QDir::cleanPath(f.imagePath))
        rel = QDir::isAbsolutePath(f.imagePath) ? dir.relativeFilePath(f.imagePath) : f.imagePath;
    return paths.resolve(rel, QStringLiteral("the image of frame %1").arg(f.id));
}

const ExportFrame *ExportSession::frame(const QString &id) const
{
    // The index is fromGraph()'s; frames may have been edited since (a test, an importer), so
    // a hit is checked and anything else is looked for the slow way.
    if (const qsizetype row = rowOfId.value(id, -1); row >= 0 && row < frames.size() && frames.at(row).id == id)
        return &frames.at(row);
    for (const ExportFrame &f : frames) {
        if (f.id == id)
            return &f;
    }
    return nullptr;
}

QList<const ExportFrame *> ExportSession::children(const QString &id) const
{
    QList<const ExportFrame *> out;
    for (const ExportFrame &f : frames) {
        if (f.parentId == id && !id.isEmpty())
            out.append(&f);
    }
    return out;
}

QList<const ExportFrame *> ExportSession::roots() const
{
    QSet<QString> ids;
    ids.reserve(frames.size());
    for (const ExportFrame &f : frames)
        ids.insert(f.id);
    QList<const ExportFrame *> out;
    // A frame whose parent is missing is treated as a root so that nothing is silently dropped.
    for (const ExportFrame &f : frames) {
        if (f.parentId.isEmpty() || !ids.contains(f.parentId))
            out.append(&f);
    }
    return out;
}

QList<const ExportFrame *> ExportSession::pathTo(const QString &id) const
{
    QHash<QString, const ExportFrame *> byId;
    for (const ExportFrame &f : frames)
        byId.insert(f.id, &f);
    QList<const ExportFrame *> path;
    QSet<QString> seen; // a corrupt manifest with a cycle must not hang the export
    const ExportFrame *f = byId.value(id);
    while (f && !seen.contains(f->id)) {
        seen.insert(f->id);
        path.prepend(f);
        f = f->parentId.isEmpty() ? nullptr : byId.value(f->parentId);
    }
    return path;
}

QList<const ExportFrame *> ExportSession::treeOrder() const
{
    // By position, not by id: one hash of the ids, then integer work only. The Export dialog
    // walks the tree for its scope counts on the GUI thread, at 10,000 frames too.
    const qsizetype n = frames.size();
    QHash<QString, qsizetype> position;
    position.reserve(n);
    for (qsizetype i = 0; i < n; ++i)
        position.insert(frames.at(i).id, i); // a duplicate id: the last one, as a lookup by id would not see the first
    // Children of each frame in creation order, as one flat list (counting sort by parent).
    std::vector<qsizetype> parentOf(n, -1);
    std::vector<qsizetype> childStart(n + 1, 0);
    for (qsizetype i = 0; i < n; ++i) {
        const QString &p = frames.at(i).parentId;
        if (p.isEmpty())
            continue;
        if (const auto it = position.constFind(p); it != position.cend()) {
            parentOf[i] = *it;
            ++childStart[*it + 1];
        }
    }
    for (qsizetype i = 0; i < n; ++i)
        childStart[i + 1] += childStart[i];
    std::vector<qsizetype> childList(childStart[n]);
    std::vector<qsizetype> fill(childStart.begin(), childStart.end() - 1);
    for (qsizetype i = 0; i < n; ++i) {
        if (parentOf[i] >= 0)
            childList[fill[parentOf[i]]++] = i;
    }
    QList<const ExportFrame *> out;
    out.reserve(n);
    std::vector<bool> seen(n, false);
    // Iterative DFS: a 1,000-frame linear chain must not recurse 1,000 deep. Roots are the
    // frames whose parent is missing or empty, in creation order.
    std::vector<qsizetype> stack;
    for (qsizetype i = n - 1; i >= 0; --i) {
        if (parentOf[i] < 0)
            stack.push_back(i);
    }
    while (!stack.empty()) {
        const qsizetype i = stack.back();
        stack.pop_back();
        // Frames sharing an id count once, as the walk by id did.
        const qsizetype canonical = position.value(frames.at(i).id, i);
        if (seen[canonical])
            continue;
        seen[canonical] = true;
        out.append(&frames.at(i));
        for (qsizetype c = childStart[canonical + 1] - 1; c >= childStart[canonical]; --c)
            stack.push_back(childList[c]);
    }
    return out;
}

Result<QList<const ExportFrame *>> ExportSession::select(const ExportScope &scope, bool includeFailed) const
{
    const bool walks = scope.kind != ExportScope::Kind::Branch;
    return select(scope, includeFailed, walks ? treeOrder() : QList<const ExportFrame *>());
}

Result<QList<const ExportFrame *>> ExportSession::select(
    const ExportScope &scope, bool includeFailed, const QList<const ExportFrame *> &inTreeOrder) const
{
    QList<const ExportFrame *> chosen;
    switch (scope.kind) {
    case ExportScope::Kind::Session:
        chosen = inTreeOrder;
        break;
    case ExportScope::Kind::Branch: {
        QString head;
        for (const ExportBranch &b : branches) {
            if (b.name == scope.branch)
                head = b.headId;
        }
        if (head.isEmpty() && frame(scope.branch))
            head = scope.branch;
        if (head.isEmpty()) {
            QStringList names;
            for (const ExportBranch &b : branches)
                names.append(b.name);
            return invalid(
                QCoreApplication::translate(
                    "nb2::Export", "No branch or frame named \"%1\" in this session. Branches: %2.")
                    .arg(scope.branch, names.isEmpty() ? QStringLiteral("(none)") : names.join(QStringLiteral(", "))));
        }
        chosen = pathTo(head);
        break;
    }
    case ExportScope::Kind::Frames: {
        if (scope.frameIds.isEmpty())
            return invalid(QCoreApplication::translate("nb2::Export", "No frames were selected."));
        QSet<QString> wanted;
        for (const QString &id : scope.frameIds) {
            if (!frame(id))
                return invalid(
                    QCoreApplication::translate("nb2::Export", "No frame with id \"%1\" in this session.").arg(id));
            wanted.insert(id);
        }
        for (const ExportFrame *f : inTreeOrder) {
            if (wanted.contains(f->id))
                chosen.append(f);
        }
        // Explicitly chosen frames are exported even when failed: the user asked for them.
        return chosen;
    }
    }
    if (!includeFailed) {
        chosen.removeIf([](const ExportFrame *f) { return f->isFailed(); });
    }
    return chosen;
}

} // namespace nb2
