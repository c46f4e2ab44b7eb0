#include "ui/exportdialog.h"

// The export dialog's preview: which frame it shows, and the exact text each format will write
// for it (provenance fields, the page's card rows, the sheet's caption), with what is left out.

#include "core/export/contactsheet.h"
#include "core/export/htmlcard.h"
#include "core/export/provenance.h"

#include <QLabel>
#include <QTableWidget>

namespace nb2 {

QString ExportDialog::previewFrameId() const
{
    const ExportRequest r = request();
    const auto frames = selectFrames(r.scope, false);
    if (!frames)
        return {};
    // The scope's latest frame with an image: usually the one with the longest story.
    const ExportFrame *best = nullptr;
    for (const ExportFrame *f : frames.value()) {
        if (f->hasImage() && (!best || f->turn >= best->turn))
            best = f;
    }
    return best ? best->id : QString();
}

QString ExportDialog::previewHeading() const
{
    if (choice() == Choice::Bundle) // names no frame: nothing to walk for
        return previewHeadingFor(nullptr);
    return previewHeadingFor(m_session.frame(previewFrameId()));
}

QString ExportDialog::previewHeadingFor(const ExportFrame *f) const
{
    const QString which = f ? tr("frame #%1").arg(f->turn > 0 ? f->turn : 1) : QString();
    switch (choice()) {
    case Choice::Frames:
        return f ? tr("Provenance record written into each image, shown for %1:").arg(which)
                 : tr("Provenance record written into each image:");
    case Choice::HtmlPage:
    case Choice::HtmlSingleFile:
        return f ? tr("Text the page shows for each frame, shown for %1:").arg(which)
                 : tr("Text the page shows for each frame:");
    case Choice::ContactSheet:
        return f ? tr("Caption under each picture, shown for %1:").arg(which) : tr("Caption under each picture:");
    case Choice::Bundle:
        return tr("Everything in the session, exactly as stored:");
    }
    return {};
}

QList<QPair<QString, QString>> ExportDialog::previewFields() const
{
    QList<QPair<QString, QString>> rows;
    const ExportRequest r = request();
    const Choice c = choice();
    if (c == Choice::Bundle) {
        int images = 0, inputs = 0;
        for (const QString &file : m_session.sessionFiles) {
            if (file.startsWith(QLatin1String("images/input_")))
                ++inputs;
            else if (file.startsWith(QLatin1String("images/")))
                ++images;
        }
        rows.append({tr("Manifest and journal"), tr("all frames, prompts, ids and parameters")});
        rows.append({tr("Images"), tr("%1 files, byte-identical").arg(images)});
        if (inputs > 0)
            rows.append({tr("Imported inputs"), tr("%1 files, byte-identical").arg(inputs)});
        return rows;
    }
    const QString id = previewFrameId();
    const ExportFrame *f = m_session.frame(id);
    if (!f)
        return rows;
    switch (c) {
    case Choice::Frames: {
        ProvenanceOptions o;
        o.stripPrompts = r.stripPrompts;
        o.stripIds = r.stripIds;
        return Provenance::fieldsToWrite(Provenance::forFrame(m_session, id, o));
    }
    case Choice::HtmlPage:
    case Choice::HtmlSingleFile:
        // The exporter's own card rows, with the options it will be given: the page's text, unabridged.
        for (const CardRow &row : HtmlCard::rows(*f, Exporter::htmlOptions(r)))
            rows.append({row.label, row.value});
        return rows;
    case Choice::ContactSheet: {
        const auto frames = selectFrames(r.scope, r.includeFailed);
        int n = 1;
        if (frames) {
            const qsizetype at = frames.value().indexOf(f);
            n = at < 0 ? 1 : int(at) + 1;
        }
        rows.append({tr("Caption"), ContactSheet::caption(n, *f, r.stripPrompts)});
        return rows;
    }
    case Choice::Bundle:
        break;
    }
    return rows;
}

void ExportDialog::updatePreview()
{
    const Choice c = choice();
    const ExportRequest r = request();
    if (!m_scopesReady && c != Choice::Bundle) {
        // The scopes are being walked on a worker (startScopeWalk): the preview shows its frame
        // when they are in, instead of walking 10,000 frames here before the dialog can paint.
        m_previewHeading->setText(previewHeadingFor(nullptr));
        updatePreviewNote(c, r);
        return;
    }
    m_previewHeading->setText(previewHeading());
    const auto rows = previewFields();
    // Laying out the table's text is what costs here (~3 ms): most changes of a control (the
    // output path, copy or link) leave the rows as they were.
    if (m_previewShown && rows == m_previewRows)
        return updatePreviewNote(c, r);
    m_previewShown = true;
    m_previewRows = rows;
    m_preview->clearContents();
    m_preview->setRowCount(int(rows.size()));
    for (int i = 0; i < rows.size(); ++i) {
        auto *field = new QTableWidgetItem(rows.at(i).first);
        field->setTextAlignment(Qt::AlignLeft | Qt::AlignTop);
        QFont bold = field->font();
        bold.setWeight(QFont::DemiBold);
        field->setFont(bold);
        auto *value = new QTableWidgetItem(rows.at(i).second);
        value->setTextAlignment(Qt::AlignLeft | Qt::AlignTop);
        value->setToolTip(rows.at(i).second);
        m_preview->setItem(i, 0, field);
        m_preview->setItem(i, 1, value);
    }
    if (rows.isEmpty()) {
        m_preview->setRowCount(1);
        m_preview->setItem(0, 0, new QTableWidgetItem(tr("(no frame with an image in this scope)")));
    }
    m_preview->resizeRowsToContents();
    updatePreviewNote(c, r);
}

void ExportDialog::updatePreviewNote(Choice c, const ExportRequest &r)
{
    QStringList left;
    if (r.stripPrompts)
        left << (c == Choice::Frames ? tr("prompt chain") : tr("prompts and model text"));
    if (r.stripIds)
        left << (c == Choice::Frames ? tr("frame id, interaction id, parent image hash")
                                     : tr("frame and interaction ids"));
    if (r.stripCost)
        left << tr("cost");
    QString note;
    switch (c) {
    case Choice::Frames:
        note = tr("Written as a PNG iTXt chunk or JPEG XMP packet. Never the API key or a path on this computer.");
        break;
    case Choice::HtmlPage:
    case Choice::HtmlSingleFile:
        note = tr("The images are exported exactly as stored, without an added provenance record.");
        break;
    case Choice::ContactSheet:
        note = tr("The sheet is a new PNG without a provenance record.");
        break;
    case Choice::Bundle:
        note = tr("A bundle is lossless, so nothing can be stripped. Never the API key.");
        break;
    }
    if (!left.isEmpty())
        note = tr("Left out: %1.").arg(left.join(QStringLiteral("; "))) + QLatin1Char(' ') + note;
    m_previewNote->setText(note);
}

} // namespace nb2
