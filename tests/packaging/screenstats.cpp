// nb2-screen-stats: grabs the whole X screen ($DISPLAY), saves it as PNG and prints how much
// is on it, so a shell test can tell a drawn window from an empty (black) screen.
//
//   nb2-screen-stats OUT.png   ->  "WIDTHxHEIGHT stddev=S colors=N"
#include <QGuiApplication>
#include <QImage>
#include <QPixmap>
#include <QScreen>
#include <QSet>

#include <cmath>
#include <cstdio>

int main(int argc, char *argv[])
{
    QGuiApplication app(argc, argv);
    if (argc != 2) {
        std::fprintf(stderr, "usage: nb2-screen-stats OUT.png\n");
        return 2;
    }
    QScreen *screen = QGuiApplication::primaryScreen();
    if (!screen) {
        std::fprintf(stderr, "nb2-screen-stats: no screen\n");
        return 1;
    }
    const QImage shot = screen->grabWindow(0).toImage().convertToFormat(QImage::Format_RGB32);
    if (shot.isNull() || !shot.save(QString::fromLocal8Bit(argv[1]), "PNG")) {
        std::fprintf(stderr, "nb2-screen-stats: cannot grab or save the screen\n");
        return 1;
    }
    // Standard deviation of the grey level over all pixels, and the number of distinct colours
    // (capped): a blank screen has 0 and 1.
    double sum = 0, sumSq = 0;
    QSet<QRgb> colours;
    for (int y = 0; y < shot.height(); ++y) {
        const auto *line = reinterpret_cast<const QRgb *>(shot.constScanLine(y));
        for (int x = 0; x < shot.width(); ++x) {
            const double g = qGray(line[x]);
            sum += g;
            sumSq += g * g;
            if (colours.size() < 100000)
                colours.insert(line[x] & 0xffffff);
        }
    }
    const double n = double(shot.width()) * shot.height();
    const double mean = sum / n;
    const double stddev = std::sqrt(std::max(0.0, sumSq / n - mean * mean));
    std::printf("%dx%d stddev=%.2f colors=%lld\n", shot.width(), shot.height(), stddev, qlonglong(colours.size()));
    return 0;
}
