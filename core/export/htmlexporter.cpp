#include "core/export/htmlexporter.h"

#include "core/export/htmlcard.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QSet>

#include <algorithm>

#ifndef NB2_VERSION
#define NB2_VERSION "0.0.0"
#endif

namespace nb2 {

namespace {

using exportfiles::htmlEscape;

// tr() for this file's functions with the context "nb2::HtmlExporter": a struct, not a free function, so
// that lupdate files the texts under the context they are looked up in.
struct Text {
    Q_DECLARE_TR_FUNCTIONS(nb2::HtmlExporter)
};

// Plain CSS, no web fonts: system-ui falls back to whatever sans-serif the machine has.
const char kStyle[] = R"css(
:root{--bg:#f6f5f2;--card:#fff;--ink:#1d1d1f;--muted:#6b6b70;--line:#c9c6bf;--accent:#3b6fd8;--bad:#b3261e;--warn:#8a5a00}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif}
header{padding:20px 28px 12px;border-bottom:1px solid var(--line);background:var(--card)}
h1{margin:0 0 4px;font-size:20px;font-weight:600}
.meta{margin:0;color:var(--muted)}
.branches{list-style:none;margin:10px 0 0;padding:0;display:flex;flex-wrap:wrap;gap:6px}
.branches a,.tag{display:inline-block;padding:1px 8px;border-radius:10px;background:#e3ebfb;color:#1f4fa8;text-decoration:none;font-size:12px}
main{padding:18px 28px 40px}
ol.chain{list-style:none;margin:0;padding:0 0 0 22px;position:relative}
ol.chain::before{content:"";position:absolute;left:8px;top:0;bottom:30px;border-left:2px solid var(--line)}
ol.chain>li{position:relative;margin:0 0 12px}
ol.chain>li::before{content:"";position:absolute;left:-19px;top:26px;width:10px;height:10px;border-radius:50%;background:var(--accent);border:2px solid var(--bg)}
ol.chain>li.failed::before{background:var(--bad)}
.forks{margin:10px 0 0 34px}
.forks>ol.chain{margin-bottom:6px}
.forks>ol.chain::after{content:"";position:absolute;left:-24px;top:-10px;width:30px;height:34px;border-left:2px solid var(--line);border-bottom:2px solid var(--line);border-bottom-left-radius:10px}
.frame{display:flex;gap:14px;background:var(--card);border:1px solid #e2dfd8;border-radius:10px;padding:10px;max-width:980px;box-shadow:0 1px 2px rgba(0,0,0,.04)}
.frame:target{outline:2px solid var(--accent)}
.thumb{flex:0 0 auto;width:160px;height:160px;display:flex;align-items:center;justify-content:center;border-radius:6px;overflow:hidden;
 background:repeating-conic-gradient(#eee 0 25%,#fafafa 0 50%) 0 0/16px 16px}
.thumb img{max-width:160px;max-height:160px;display:block;cursor:zoom-in}
.noimage{color:var(--muted);font-size:12px;text-align:center;padding:8px}
.body{min-width:0;flex:1}
.head{display:flex;flex-wrap:wrap;align-items:baseline;gap:8px;color:var(--muted);font-size:12px}
.idx{font-weight:600;color:var(--ink);font-size:13px}
.fork{color:var(--muted);text-decoration:none;border:1px dashed var(--line);border-radius:10px;padding:0 7px}
.kind{text-transform:uppercase;letter-spacing:.04em;font-weight:600;color:var(--accent)}
.prompt{margin:6px 0;font-size:15px;white-space:pre-wrap;overflow-wrap:anywhere}
.prompt.none{color:var(--muted);font-style:italic}
.modeltext{margin:4px 0;color:#3a3a3d;white-space:pre-wrap;overflow-wrap:anywhere;max-height:7.5em;overflow:auto;border-left:3px solid #e6e3dc;padding-left:8px}
dl.params{display:flex;flex-wrap:wrap;gap:2px 14px;margin:6px 0 0;font-size:12px}
dl.params div{display:flex;gap:4px}dl.params dt{color:var(--muted)}dl.params dd{margin:0;overflow-wrap:anywhere}
.reanchor{margin:6px 0 0;color:var(--warn);font-size:12px}
.error{margin:6px 0 0;color:var(--bad);font-size:13px;white-space:pre-wrap}
#lightbox{position:fixed;inset:0;background:rgba(10,10,12,.88);display:flex;align-items:center;justify-content:center;cursor:zoom-out;z-index:10}
#lightbox[hidden]{display:none}
#lightbox img{max-width:96vw;max-height:96vh;box-shadow:0 6px 30px rgba(0,0,0,.5)}
footer{padding:0 28px 24px;color:var(--muted);font-size:12px}
)css";

// Opens the full image in an overlay (the link still works without script) and writes a
// one-line summary of what the browser actually loaded into #selfcheck, which the browser
// test reads through the DOM.
const char kScript[] = R"js(
(function(){
var box=document.getElementById('lightbox'),big=document.getElementById('lightbox-img');
document.addEventListener('click',function(e){
 var a=e.target.closest?e.target.closest('a.thumb'):null;
 if(a){e.preventDefault();big.src=a.querySelector('img').src;big.alt=a.querySelector('img').alt;box.hidden=false;return;}
 if(e.target.closest&&e.target.closest('#lightbox')){box.hidden=true;big.removeAttribute('src');}
});
document.addEventListener('keydown',function(e){if(e.key==='Escape'){box.hidden=true;}});
window.addEventListener('load',function(){
 var imgs=Array.prototype.filter.call(document.images,function(i){return i.id!=='lightbox-img';});
 var ok=imgs.filter(function(i){return i.complete&&i.naturalWidth>0;}).length;
 var frames=document.querySelectorAll('article.frame').length;
 var out=document.getElementById('selfcheck');
 out.textContent='images='+imgs.length+' loaded='+ok+' frames='+frames+' expected='+document.body.getAttribute('data-frames')
  +' scripts='+document.scripts.length+' injected='+(window.nb2Injected?1:0);
});
})();
)js";

QString timeText(const QDateTime &t)
{
    return t.isValid() ? t.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss 'UTC'")) : QString();
}

class PageWriter
{
public:
    PageWriter(const ExportSession &session, const QList<const ExportFrame *> &frames, const HtmlExportOptions &options,
        const QHash<QString, QString> &imageSrc)
        : m_session(session), m_frames(frames), m_options(options), m_src(imageSrc)
    {
        QSet<QString> inScope;
        for (const ExportFrame *f : frames)
            inScope.insert(f->id);
        // In a partial scope a frame hangs under its nearest exported ancestor, so that the
        // page still reads as a tree when frames in between were left out.
        QHash<QString, const ExportFrame *> byId;
        for (const ExportFrame &f : session.frames)
            byId.insert(f.id, &f);
        for (const ExportFrame *f : frames) {
            QString parent = f->parentId;
            QSet<QString> seen;
            while (!parent.isEmpty() && !inScope.contains(parent) && !seen.contains(parent)) {
                seen.insert(parent);
                const ExportFrame *p = byId.value(parent);
                parent = p ? p->parentId : QString();
            }
            if (parent.isEmpty() || !inScope.contains(parent))
                m_roots.append(f);
            else
                m_children[parent].append(f);
        }
        // Numbers are the turn order (creation order), which is how people refer to turns.
        int n = 0;
        for (const ExportFrame &f : session.frames) {
            ++n;
            if (inScope.contains(f.id))
                m_number.insert(f.id, f.turn > 0 ? f.turn : n);
        }
        // The longest line of work continues straight down; shorter ones become forks.
        // frames is in tree order (parents first), so walking it backwards sees children first.
        QHash<QString, int> height;
        for (auto it = frames.crbegin(); it != frames.crend(); ++it) {
            int h = 0;
            for (const ExportFrame *c : m_children.value((*it)->id))
                h = qMax(h, height.value(c->id));
            height.insert((*it)->id, h + 1);
        }
        for (auto it = m_children.begin(); it != m_children.end(); ++it) {
            std::stable_sort(it->begin(), it->end(),
                [&](const ExportFrame *a, const ExportFrame *b) { return height.value(a->id) > height.value(b->id); });
        }
        for (const ExportBranch &b : session.branches)
            m_tags[b.headId].append(b.name);
    }

    QString page() const
    {
        QString h;
        h.reserve(4096 + m_frames.size() * 1200);
        const QString title = m_session.title.isEmpty() ? Text::tr("Session") : m_session.title;
        int failed = 0;
        for (const ExportFrame *f : m_frames)
            failed += f->isFailed() ? 1 : 0;
        h += QLatin1String("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
                           "<meta name=\"generator\" content=\"nb2lite " NB2_VERSION "\">\n<title>");
        h += htmlEscape(title) + QStringLiteral(" \u2014 NB2Lite history</title>\n<style>");
        h += QLatin1String(kStyle);
        h += QLatin1String("</style>\n</head>\n<body data-frames=\"") + QString::number(m_frames.size())
            + QLatin1String("\">\n<header>\n<h1>") + htmlEscape(title) + QLatin1String("</h1>\n<p class=\"meta\">");
        const QString dot = QStringLiteral(" \u00b7 ");
        h += Text::tr("%n frame(s)", nullptr, int(m_frames.size()));
        if (failed)
            h += dot + Text::tr("%n failed turn(s)", nullptr, failed);
        int branches = 0;
        for (const ExportBranch &b : m_session.branches)
            branches += m_number.contains(b.headId) ? 1 : 0;
        if (branches)
            h += dot + Text::tr("%n branch(es)", nullptr, branches);
        h += dot
            + Text::tr("exported %1 with NB2Lite %2")
                  .arg(timeText(QDateTime::currentDateTimeUtc()), QStringLiteral(NB2_VERSION));
        h += QLatin1String("</p>\n");
        if (const QString cost = HtmlCard::totalCostText(m_session, m_frames, m_options); !cost.isEmpty())
            h += QLatin1String("<p class=\"meta cost\" id=\"total-cost\">") + htmlEscape(cost)
                + QLatin1String("</p>\n");
        if (!m_session.branches.isEmpty()) {
            h += QLatin1String("<ul class=\"branches\">");
            for (const ExportBranch &b : m_session.branches) {
                if (!m_number.contains(b.headId))
                    continue;
                h += QLatin1String("<li><a href=\"#") + anchor(b.headId) + QLatin1String("\">")
                    + htmlEscape(Text::tr("branch %1").arg(b.name)) + QStringLiteral(" \u2192 #")
                    + QString::number(m_number.value(b.headId)) + QLatin1String("</a></li>");
            }
            h += QLatin1String("</ul>\n");
        }
        h += QLatin1String("</header>\n<main>\n");
        for (const ExportFrame *root : m_roots)
            chain(h, root, nullptr);
        h += QLatin1String("</main>\n<footer>");
        h += Text::tr("Click a picture to see it full size. Images are the session's original files, unchanged.");
        h += QLatin1String("</footer>\n<div id=\"lightbox\" hidden><img id=\"lightbox-img\" alt=\"\"></div>\n"
                           "<pre id=\"selfcheck\" hidden></pre>\n<script>");
        h += QLatin1String(kScript);
        h += QLatin1String("</script>\n</body>\n</html>\n");
        return h;
    }

private:
    // By position, not frame id: the page must not carry ids when they are stripped.
    QString anchor(const QString &id) const { return QLatin1String("f-") + QString::number(m_number.value(id)); }

    // One line of work: the frame, then its first child continues the same list; other
    // children open indented lists (forks) inside the frame's item. Recursion depth is the
    // number of forks, not the chain length.
    void chain(QString &h, const ExportFrame *start, const ExportFrame *forkedFrom) const
    {
        h += QLatin1String("<ol class=\"chain\">\n");
        for (const ExportFrame *f = start; f;) {
            h += QLatin1String(f->isFailed() ? "<li class=\"failed\">" : "<li>");
            card(h, *f, f == start ? forkedFrom : nullptr);
            const QList<const ExportFrame *> kids = m_children.value(f->id);
            if (kids.size() > 1) {
                h += QLatin1String("<div class=\"forks\">\n");
                for (int i = 1; i < kids.size(); ++i)
                    chain(h, kids.at(i), f);
                h += QLatin1String("</div>\n");
            }
            h += QLatin1String("</li>\n");
            f = kids.isEmpty() ? nullptr : kids.first();
        }
        h += QLatin1String("</ol>\n");
    }

    static void param(QString &h, const QString &name, const QString &value)
    {
        if (value.isEmpty())
            return;
        h += QLatin1String("<div><dt>") + htmlEscape(name) + QLatin1String("</dt><dd>") + htmlEscape(value)
            + QLatin1String("</dd></div>");
    }

    // The card's text comes from HtmlCard's field table (what the Export dialog previews);
    // only the tree's structure (number, fork link, branch tags, thumbnail) is added here.
    void card(QString &h, const ExportFrame &f, const ExportFrame *forkedFrom) const
    {
        const int n = m_number.value(f.id);
        h += QLatin1String("<article class=\"frame\" id=\"") + anchor(f.id) + QLatin1String("\">");
        const QString src = m_src.value(f.id);
        const QString alt = Text::tr("Frame %1").arg(n);
        if (!src.isEmpty()) {
            // In the folder form the link opens the file itself; inline images need the overlay
            // (a data: link is too large to repeat and browsers refuse to navigate to one).
            const bool isData = src.startsWith(QLatin1String("data:"));
            h += QLatin1String("<a class=\"thumb\" href=\"")
                + (isData ? QLatin1String("#") + anchor(f.id) : htmlEscape(src)) + QLatin1String("\"><img src=\"")
                + htmlEscape(src) + QLatin1String("\" alt=\"") + alt + QLatin1String("\"></a>");
        } else {
            h += QLatin1String("<div class=\"thumb\"><div class=\"noimage\">")
                + (f.isFailed() ? Text::tr("failed \u2014 no image") : Text::tr("no image"))
                + QLatin1String("</div></div>");
        }
        const QList<CardRow> rows = HtmlCard::rows(f, m_options);
        h += QLatin1String("<div class=\"body\"><div class=\"head\"><span class=\"idx\">#") + QString::number(n)
            + QLatin1String("</span>");
        for (const CardRow &row : rows) {
            if (row.field == CardField::Kind)
                h += QLatin1String("<span class=\"kind\">") + htmlEscape(row.value) + QLatin1String("</span>");
        }
        if (forkedFrom) {
            h += QLatin1String("<a class=\"fork\" href=\"#") + anchor(forkedFrom->id) + QLatin1String("\">")
                + Text::tr("forks from #%1").arg(m_number.value(forkedFrom->id)) + QLatin1String("</a>");
        }
        for (const QString &tag : m_tags.value(f.id))
            h += QLatin1String("<span class=\"tag\">") + htmlEscape(Text::tr("branch %1").arg(tag))
                + QLatin1String("</span>");
        for (const CardRow &row : rows) {
            if (row.place != CardPlace::Head || row.field == CardField::Kind)
                continue;
            if (row.field == CardField::Created) {
                h += QLatin1String("<time datetime=\"") + f.created.toUTC().toString(Qt::ISODate) + QLatin1String("\">")
                    + htmlEscape(row.value) + QLatin1String("</time>");
            } else if (row.field == CardField::Duration) {
                h += QLatin1String("<span>") + htmlEscape(Text::tr("took %1").arg(row.value))
                    + QLatin1String("</span>");
            } else {
                h += QLatin1String("<span>") + htmlEscape(row.value) + QLatin1String("</span>");
            }
        }
        h += QLatin1String("</div>");
        if (!HtmlCard::isIncluded(HtmlCard::spec(CardField::Prompt), m_options))
            h += QLatin1String("<p class=\"prompt none\">") + htmlEscape(HtmlCard::strippedPromptText())
                + QLatin1String("</p>");
        for (const CardRow &row : rows) {
            if (row.place != CardPlace::Text)
                continue;
            if (row.field == CardField::ModelText)
                h += QLatin1String("<p class=\"modeltext\">");
            else
                h += QLatin1String(row.placeholder ? "<p class=\"prompt none\">" : "<p class=\"prompt\">");
            h += htmlEscape(row.value) + QLatin1String("</p>");
        }
        h += QLatin1String("<dl class=\"params\">");
        for (const CardRow &row : rows) {
            if (row.place == CardPlace::Parameter)
                param(h, row.label, row.value);
        }
        h += QLatin1String("</dl>");
        for (const CardRow &row : rows) {
            if (row.field == CardField::ReAnchor)
                h += QLatin1String("<p class=\"reanchor\">") + htmlEscape(Text::tr("Re-anchored: %1").arg(row.value))
                    + QLatin1String("</p>");
            else if (row.field == CardField::Failure)
                h += QLatin1String("<p class=\"error\">") + htmlEscape(Text::tr("Failed: %1").arg(row.value))
                    + QLatin1String("</p>");
        }
        h += QLatin1String("</div></article>");
    }

    const ExportSession &m_session;
    const QList<const ExportFrame *> &m_frames;
    const HtmlExportOptions &m_options;
    const QHash<QString, QString> &m_src;
    QList<const ExportFrame *> m_roots;
    QHash<QString, QList<const ExportFrame *>> m_children;
    QHash<QString, int> m_number;
    QHash<QString, QStringList> m_tags;
};

} // namespace

Result<ExportReport> HtmlExporter::write(const ExportSession &session, const QList<const ExportFrame *> &frames,
    const QString &out, const HtmlExportOptions &options)
{
    ExportReport report;
    report.output = out;
    report.frames = int(frames.size());
    QHash<QString, QString> src;
    QString pagePath;
    const SessionPaths paths(session.sessionDir); // every image is checked inside it as it is used

    if (options.singleFile) {
        pagePath = out;
        for (const ExportFrame *f : frames) {
            if (!f->hasImage())
                continue;
            const Result<QString> file = ExportSession::imageFileIn(paths, *f);
            if (!file)
                return file.error();
            auto bytes = exportfiles::readFile(file.value());
            if (!bytes)
                return bytes.error();
            src.insert(f->id,
                QLatin1String("data:") + exportfiles::imageMimeType(bytes.value()) + QLatin1String(";base64,")
                    + QString::fromLatin1(bytes.value().toBase64()));
        }
    } else {
        auto ready = exportfiles::prepareEmptyDir(out);
        if (!ready)
            return ready.error();
        const QDir dir(out);
        if (!dir.mkpath(QStringLiteral("images"))) {
            return Error::make(ErrorKind::Io,
                Text::tr("Cannot create the folder %1.")
                    .arg(QDir::toNativeSeparators(dir.filePath(QStringLiteral("images")))));
        }
        pagePath = dir.filePath(QStringLiteral("index.html"));
        for (const ExportFrame *f : frames) {
            if (!f->hasImage())
                continue;
            // Resolved at use (symlinks followed, inside the session): a hard link or copy of
            // anything else would put a file the manifest has no business naming into the export.
            const Result<QString> file = ExportSession::imageFileIn(paths, *f);
            if (!file)
                return file.error();
            const QString suffix = QFileInfo(f->imagePath).suffix().toLower();
            const QString rel = QLatin1String("images/") + exportfiles::safeName(f->id)
                + (suffix.isEmpty() ? QString() : QLatin1Char('.') + exportfiles::safeName(suffix));
            auto linked = exportfiles::linkOrCopy(file.value(), dir.filePath(rel), options.linkImages);
            if (!linked)
                return linked.error();
            (linked.value() ? report.imagesLinked : report.imagesCopied) += 1;
            report.bytesWritten += linked.value() ? 0 : QFileInfo(file.value()).size();
            report.files.append(rel);
            src.insert(f->id, rel);
        }
        report.files.append(QStringLiteral("index.html"));
    }

    const QByteArray html = PageWriter(session, frames, options, src).page().toUtf8();
    // The folder form's page goes into a folder that was new or empty: nothing to replace there.
    auto written
        = exportfiles::writeAtomically(pagePath, html, options.singleFile ? options.existing : ExistingTarget::Refuse);
    if (!written)
        return written.error();
    report.bytesWritten += written.value();
    return report;
}

} // namespace nb2
