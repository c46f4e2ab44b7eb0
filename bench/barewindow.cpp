// nb2lite-bench-window: the baseline for the window-start case. A bare Qt Widgets window of the
// app's size, started the same way as nb2lite-studio; prints the time its first paint begins
// ("first_paint_us <microseconds since the epoch>") and the time that paint pass is over
// ("first_frame_done_us"), and quits. With --label it shows one line of
// text in a layout, so it loads the fonts before its first paint as any window with text must
// (the bare window shows none); the benchmark reports that ratio too, without a target.
#include <QApplication>
#include <QLabel>
#include <QTimer>
#include <QVBoxLayout>
#include <QWidget>

#include <chrono>
#include <cstdio>

namespace {

qint64 nowUs()
{
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

class Window : public QWidget
{
protected:
    void paintEvent(QPaintEvent *) override
    {
        if (m_done)
            return;
        m_done = true;
        std::printf("first_paint_us %lld\n", static_cast<long long>(nowUs()));
        std::fflush(stdout);
        // Queued behind the rest of this paint pass (the label, the flush): the frame is complete.
        QTimer::singleShot(0, qApp, [] {
            std::printf("first_frame_done_us %lld\n", static_cast<long long>(nowUs()));
            std::fflush(stdout);
            QCoreApplication::quit();
        });
    }

private:
    bool m_done = false;
};

} // namespace

int main(int argc, char *argv[])
{
    QApplication app(argc, argv);
    Window w;
    if (app.arguments().contains(QStringLiteral("--label")))
        (new QVBoxLayout(&w))->addWidget(new QLabel(QStringLiteral("NB2Lite Studio"), &w));
    w.resize(1280, 800);
    w.show();
    return app.exec();
}
