#include "app/studio/benchprobe.h"

#include "ui/bannerwidget.h"
#include "ui/mainwindow.h"
#include "ui/sessionmanager.h"
#include "ui/timelineview.h"

#include <QAbstractItemModel>
#include <QApplication>
#include <QElapsedTimer>
#include <QEvent>
#include <QFile>
#include <QScrollBar>
#include <QTimer>

#include <chrono>
#include <cstdio>
#include <ctime>

namespace nb2 {

namespace {

/** Microseconds since the epoch: the clock nb2lite-bench reads the launch time from. */
long long epochUs()
{
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

double rssMb()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QList<QByteArray> lines = f.readAll().split('\n');
    for (const QByteArray &l : lines)
        if (l.startsWith("VmRSS:"))
            return l.mid(6).trimmed().split(' ').first().toDouble() / 1024.0;
    return 0;
}

/** 1 when a library whose file name contains `name` is mapped into this process. */
int isMapped(const char *name)
{
    QFile f(QStringLiteral("/proc/self/maps"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    return f.readAll().contains(name) ? 1 : 0;
}

/** Reports the first paint of any widget in the window, once. */
class FirstPaintFilter : public QObject
{
public:
    explicit FirstPaintFilter(QWidget *window) : QObject(window), m_window(window) {}

    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (!m_done && event->type() == QEvent::Paint && watched->isWidgetType()
            && static_cast<QWidget *>(watched)->window() == m_window) {
            m_done = true;
            const long long us = epochUs();
            // What the first frame held (tests/ui/tst_windowstart.cpp checks these lines): the
            // session still closed (start-up opens it after the first paint), the demo banner
            // already shown when the demo backend is used (the frame is the real window).
            const auto *window = static_cast<MainWindow *>(m_window);
            // The GUI thread's CPU time from exec() to here (dynamic linking included): unlike
            // the wall time, it hardly moves with the machine's load, so start-up work can be
            // compared on a busy machine.
            timespec cpu {};
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
            // The HTTP code (libnb2net.so, cpp-httplib, OpenSSL) loads after the first frame.
            std::printf(
                "first_paint_us %lld\nfirst_paint_gui_cpu_us %lld\nsession_open_at_first_paint %d\n"
                "demo_banner_at_first_paint %d\nnet_module_at_first_paint %d\nlibssl_at_first_paint %d\n"
                "libcrypto_at_first_paint %d\ntimeline_opening_at_first_paint %d\nwindow_icon_at_first_paint %d\n",
                us, static_cast<long long>(cpu.tv_sec * 1000000LL + cpu.tv_nsec / 1000),
                window->sessions()->dir().isEmpty() ? 0 : 1, window->demoBanner()->isVisible() ? 1 : 0,
                isMapped("libnb2net.so"), isMapped("libssl.so"), isMapped("libcrypto.so"),
                window->timelineView()->isOpening() ? 1 : 0, window->windowIcon().isNull() ? 0 : 1);
            std::fflush(stdout);
            // Queued behind the rest of this paint pass (every widget of the window, the flush):
            // the first frame is complete. nb2lite-bench reports it beside the start, without a target.
            QTimer::singleShot(0, this, [] {
                std::printf("first_frame_done_us %lld\n", epochUs());
                std::fflush(stdout);
            });
            if (qEnvironmentVariableIntValue("NB2_BENCH_FIRST_PAINT") >= 2)
                waitForSession(); // the session opens after the first paint (its checkpoint parsed on a worker)
            else
                QTimer::singleShot(0, qApp, &QCoreApplication::quit);
        }
        return false;
    }

private:
    /** Prints session_open_us once the window has a session open and has painted it, then quits. */
    void waitForSession()
    {
        auto *poll = new QTimer(this);
        poll->start(1);
        connect(poll, &QTimer::timeout, this, [this, poll] {
            const auto *window = static_cast<MainWindow *>(m_window);
            if (window->sessions()->dir().isEmpty())
                return;
            poll->stop();
            m_window->repaint(); // what the user sees with the session in it
            const long long us = epochUs();
            // The address the session's client talks to (the demo server's, once it listens).
            std::printf("session_open_us %lld\nsession_backend %s\ntimeline_opening_at_session_open %d\n"
                        "window_icon_at_session_open %d\n",
                us, qPrintable(window->clientConfig().baseUrl),
                window->timelineView()->isOpening() ? 1 : 0, window->windowIcon().isNull() ? 0 : 1);
            std::fflush(stdout);
            QTimer::singleShot(0, qApp, &QCoreApplication::quit);
        });
    }

    QWidget *m_window;
    bool m_done = false;
};

void settle(int ms)
{
    // processEvents(flags, ms) never waits (it spins a core); block, woken by a 5 ms tick.
    QTimer tick;
    tick.start(5);
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms)
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents);
}

void scrollProbe(MainWindow *window)
{
    TimelineView *view = window->timelineView();
    QElapsedTimer wait;
    wait.start();
    QTimer tick;
    tick.start(5);
    while ((!view->model() || view->model()->rowCount() == 0) && wait.elapsed() < 30000)
        QCoreApplication::processEvents(QEventLoop::AllEvents | QEventLoop::WaitForMoreEvents); // the session opens
    tick.stop();
    settle(300); // the rows are laid out and the first thumbnails requested
    const double open = rssMb();
    QElapsedTimer t;
    t.start();
    for (QScrollBar *bar : {view->verticalScrollBar(), view->horizontalScrollBar()}) {
        if (bar->maximum() <= bar->minimum())
            continue;
        for (int v = bar->minimum(); v <= bar->maximum(); v += qMax(1, bar->pageStep())) {
            bar->setValue(v);
            view->viewport()->repaint(); // paint now: the delegate asks for the visible thumbnails
            QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
        }
        bar->setValue(bar->maximum());
        view->viewport()->repaint();
    }
    const double scrollMs = t.nsecsElapsed() / 1e6;
    settle(1500); // the last thumbnails arrive and are cached
    const int rows = view->model() ? view->model()->rowCount() : 0;
    std::printf("{\"rss_open_mb\": %.1f, \"rss_scrolled_mb\": %.1f, \"scroll_ms\": %.0f, \"rows\": %d}\n", open,
        rssMb(), scrollMs, rows);
    std::fflush(stdout);
    QTimer::singleShot(0, qApp, &QCoreApplication::quit);
}

} // namespace

void installBenchProbe(MainWindow *window)
{
    if (qEnvironmentVariableIntValue("NB2_BENCH_FIRST_PAINT") > 0)
        qApp->installEventFilter(new FirstPaintFilter(window));
    if (qEnvironmentVariable("NB2_BENCH_PROBE") == QLatin1String("scroll"))
        QTimer::singleShot(0, window, [window] { scrollProbe(window); });
}

} // namespace nb2
