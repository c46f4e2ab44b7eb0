#include "ui/firstpaint.h"

#include <QApplication>
#include <QEvent>
#include <QPointer>
#include <QTimer>
#include <QWidget>

namespace nb2 {

namespace {

/**
 * Watches the application's paint events (the first one may go to any child: QWidget paints
 * the tree top-down, but a top level with WA_NoSystemBackground may not get one) until one
 * belongs to the window, then queues `then` and removes itself.
 */
class FirstPaintGate : public QObject
{
public:
    FirstPaintGate(QWidget *window, std::function<void()> then, int fallbackMs)
        : QObject(window), m_window(window), m_then(std::move(then))
    {
        qApp->installEventFilter(this);
        QTimer::singleShot(fallbackMs, this, [this] { fire(); });
    }

    bool eventFilter(QObject *watched, QEvent *event) override
    {
        if (event->type() == QEvent::Paint && watched->isWidgetType()
            && static_cast<QWidget *>(watched)->window() == m_window)
            fire();
        return false;
    }

private:
    void fire()
    {
        if (m_fired)
            return;
        m_fired = true;
        qApp->removeEventFilter(this);
        // Queued: the paint that is being delivered completes and is flushed first.
        QTimer::singleShot(0, m_window, [then = std::move(m_then)] { then(); });
        deleteLater();
    }

    QWidget *m_window;
    std::function<void()> m_then;
    bool m_fired = false;
};

} // namespace

void afterFirstPaint(QWidget *window, std::function<void()> then, int fallbackMs)
{
    new FirstPaintGate(window, std::move(then), fallbackMs);
}

} // namespace nb2
