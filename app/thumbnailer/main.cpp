// nb2lite-thumbnailer: writes a PNG thumbnail of a .nb2session bundle's last frame, for file
// managers (freedesktop thumbnailer protocol: `Exec=nb2lite-thumbnailer %i %o %s`).
#include "core/export/bundlepreview.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QSaveFile>

#include <cstdio>

namespace {

constexpr int kExitOk = 0;
constexpr int kExitFailed = 1; // the input is not a usable bundle, or the output cannot be written
constexpr int kExitUsage = 2;

int failWith(int code, const QString &message)
{
    std::fprintf(stderr, "nb2lite-thumbnailer: %s\n", qPrintable(message));
    return code;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv); // no display: file managers may run this in a sandbox
    QCoreApplication::setApplicationName(QStringLiteral("nb2lite-thumbnailer"));
    QCoreApplication::setApplicationVersion(QStringLiteral(NB2_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(QCoreApplication::translate("main",
        "Writes a PNG thumbnail of an NB2Lite session bundle (.nb2session): the image of its last "
        "finished frame, read from the bundle without unpacking it. File managers run it through "
        "the installed .thumbnailer entry.\n\n"
        "Exit status: 0 on success, 1 when the bundle cannot be previewed or the thumbnail cannot be "
        "written, 2 on a usage error."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        QStringLiteral("input"), QCoreApplication::translate("main", "The .nb2session bundle."));
    parser.addPositionalArgument(
        QStringLiteral("output"), QCoreApplication::translate("main", "The PNG file to write."));
    parser.addPositionalArgument(QStringLiteral("size"),
        QCoreApplication::translate("main", "Longest edge in pixels (default 256; never enlarged)."),
        QStringLiteral("[size]"));
    parser.process(app);

    const QStringList args = parser.positionalArguments();
    if (args.size() < 2 || args.size() > 3)
        return failWith(kExitUsage, QCoreApplication::translate("main", "expected INPUT OUTPUT [SIZE]; see --help"));
    int size = 256;
    if (args.size() == 3) {
        bool ok = false;
        size = args.at(2).toInt(&ok);
        if (!ok || size < 1 || size > 4096)
            return failWith(kExitUsage,
                QCoreApplication::translate("main", "the size must be a number from 1 to 4096, not \"%1\"")
                    .arg(args.at(2)));
    }

    const auto preview = nb2::BundlePreview::read(args.at(0), size);
    if (!preview)
        return failWith(kExitFailed, preview.error().message);

    // Never through a link: the output path is the caller's new file, not a way to overwrite
    // whatever a link points at (QSaveFile would write to the link's target).
    if (QFileInfo(args.at(1)).isSymLink())
        return failWith(kExitFailed,
            QCoreApplication::translate("main", "%1 is a symbolic link; not writing through it")
                .arg(QDir::toNativeSeparators(args.at(1))));
    // Written whole or not at all: a file manager never caches half a thumbnail.
    QSaveFile out(args.at(1));
    if (!out.open(QIODevice::WriteOnly) || !preview.value().image.save(&out, "PNG") || !out.commit())
        return failWith(kExitFailed,
            QCoreApplication::translate("main", "cannot write %1: %2")
                .arg(QDir::toNativeSeparators(args.at(1)), out.errorString()));
    return kExitOk;
}
