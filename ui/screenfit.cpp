#include "ui/screenfit.h"

#include <QGuiApplication>
#include <QScreen>
#include <QWidget>

namespace nb2 {

void fitToScreen(QWidget *window)
{
    QScreen *screen = window->screen() ? window->screen() : QGuiApplication::primaryScreen();
    if (!screen)
        return;
    const QRect avail = screen->availableGeometry();
    // Leave room for the window frame the window manager adds around the client area.
    const QSize room = (avail.size() - QSize(16, 40)).expandedTo(QSize(200, 150));
    window->setMinimumSize(window->minimumSize().boundedTo(room));
    const QSize size = window->size().boundedTo(room);
    if (size != window->size())
        window->resize(size);
    QRect frame(window->pos(), size);
    if (!avail.contains(frame)) {
        frame.moveLeft(qBound(avail.left(), frame.left(), qMax(avail.left(), avail.right() - frame.width())));
        frame.moveTop(qBound(avail.top(), frame.top(), qMax(avail.top(), avail.bottom() - frame.height())));
        window->move(frame.topLeft());
    }
}

} // namespace nb2
