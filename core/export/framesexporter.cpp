#include "core/export/framesexporter.h"

#include <QCoreApplication>
#include <QDir>

namespace nb2 {

QString FramesExporter::fileName(int position, int total, const ExportFrame &frame, const QString &extension)
{
    const int digits = qMax(2, int(QString::number(total).size()));
    QString slug = exportfiles::slugify(frame.prompt);
    if (slug.isEmpty())
        slug = exportfiles::slugify(frame.kind);
    if (slug.isEmpty())
        slug = QStringLiteral("frame");
    return QStringLiteral("%1-%2.%3").arg(position, digits, 10, QLatin1Char('0')).arg(slug, extension);
}

Result<ExportReport> FramesExporter::write(const ExportSession &session, const QList<const ExportFrame *> &frames,
    const QString &outDir, const FramesExportOptions &options)
{
    ExportReport report;
    report.output = outDir;
    QList<const ExportFrame *> withImages;
    for (const ExportFrame *f : frames) {
        if (f->hasImage())
            withImages.append(f);
    }
    if (withImages.isEmpty()) {
        return Error::make(ErrorKind::InvalidInput,
            QCoreApplication::translate("nb2::FramesExporter", "None of the chosen frames has an image."));
    }
    auto ready = exportfiles::prepareEmptyDir(outDir);
    if (!ready)
        return ready.error();
    const QDir dir(outDir);
    const SessionPaths paths(session.sessionDir);
    for (int i = 0; i < withImages.size(); ++i) {
        const ExportFrame &f = *withImages.at(i);
        const Result<QString> file = ExportSession::imageFileIn(paths, f); // checked at use, not only at load
        if (!file)
            return file.error();
        auto bytes = exportfiles::readFile(file.value());
        if (!bytes)
            return bytes.error();
        QByteArray out = bytes.value();
        if (options.embedProvenance) {
            if (canEmbedProvenance(out)) {
                auto embedded = embedProvenance(out, Provenance::forFrame(session, f.id, options.provenance));
                if (!embedded)
                    return embedded.error();
                out = embedded.value();
            } else {
                report.warnings.append(QCoreApplication::translate("nb2::FramesExporter",
                    "Frame #%1 is neither PNG nor JPEG; it was copied without a provenance record.")
                                           .arg(i + 1));
            }
        }
        const QString name = fileName(i + 1, int(withImages.size()), f, exportfiles::imageExtension(out));
        auto written = exportfiles::writeFile(dir.filePath(name), out);
        if (!written)
            return written.error();
        report.bytesWritten += written.value();
        report.files.append(name);
        ++report.imagesCopied;
    }
    report.frames = int(withImages.size());
    return report;
}

} // namespace nb2
