// nb2-render-icons: renders the app's SVG icon into the hicolor PNG sizes at build time.
// A build tool only (never installed): desktops, menus and AppStream tools that want bitmaps
// get them from the same source as the scalable icon, so the two can never disagree.
//
//   nb2-render-icons --name ID SVG OUTDIR SIZE...   ->  OUTDIR/<SIZE>x<SIZE>/apps/ID.png
#include <QCommandLineParser>
#include <QDir>
#include <QGuiApplication>
#include <QImage>
#include <QPainter>
#include <QSaveFile>
#include <QSvgRenderer>

#include <cstdio>

namespace {

int fail(const QString &message)
{
    std::fprintf(stderr, "nb2-render-icons: %s\n", qPrintable(message));
    return 1;
}

QImage render(QSvgRenderer &svg, int size)
{
    QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    QPainter painter(&image);
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::SmoothPixmapTransform);
    // Keep the drawing's proportions and centre it, whatever the SVG's own size says.
    QSizeF box = svg.viewBoxF().size();
    if (box.isEmpty())
        box = QSizeF(svg.defaultSize());
    box.scale(size, size, Qt::KeepAspectRatio);
    const QRectF target((size - box.width()) / 2, (size - box.height()) / 2, box.width(), box.height());
    svg.render(&painter, target);
    painter.end();
    return image.convertToFormat(QImage::Format_ARGB32);
}

} // namespace

int main(int argc, char *argv[])
{
    // No window is ever shown; the offscreen platform works on a build machine without a display.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QGuiApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral("Renders an SVG icon into hicolor PNG sizes."));
    parser.addHelpOption();
    const QCommandLineOption nameOption(
        QStringLiteral("name"), QStringLiteral("Icon name (file name without .png)."), QStringLiteral("id"));
    parser.addOption(nameOption);
    parser.addPositionalArgument(QStringLiteral("svg"), QStringLiteral("The scalable source icon."));
    parser.addPositionalArgument(QStringLiteral("outdir"), QStringLiteral("Where <size>x<size>/apps/<id>.png go."));
    parser.addPositionalArgument(
        QStringLiteral("sizes"), QStringLiteral("Edge lengths in pixels."), QStringLiteral("size..."));
    parser.process(app);

    const QStringList args = parser.positionalArguments();
    const QString name = parser.value(nameOption);
    if (args.size() < 3 || name.isEmpty())
        return fail(QStringLiteral("usage: nb2-render-icons --name ID SVG OUTDIR SIZE..."));

    QSvgRenderer svg(args.at(0));
    if (!svg.isValid())
        return fail(QStringLiteral("%1 is not a valid SVG").arg(args.at(0)));

    for (const QString &sizeText : args.mid(2)) {
        bool ok = false;
        const int size = sizeText.toInt(&ok);
        if (!ok || size < 8 || size > 1024)
            return fail(QStringLiteral("invalid size \"%1\" (8 to 1024)").arg(sizeText));
        const QString dir = QStringLiteral("%1/%2x%2/apps").arg(args.at(1)).arg(size);
        if (!QDir().mkpath(dir))
            return fail(QStringLiteral("cannot create %1").arg(dir));
        QSaveFile out(QStringLiteral("%1/%2.png").arg(dir, name));
        if (!out.open(QIODevice::WriteOnly) || !render(svg, size).save(&out, "PNG") || !out.commit())
            return fail(QStringLiteral("cannot write %1: %2").arg(out.fileName(), out.errorString()));
    }
    return 0;
}
