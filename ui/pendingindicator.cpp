#include "ui/pendingindicator.h"

#include <QDateTime>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>

namespace nb2 {

PendingIndicator::PendingIndicator(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("pendingIndicator"));
    auto *l = new QHBoxLayout(this);
    l->setContentsMargins(22, 0, 6, 0);
    m_label = new QLabel(this);
    l->addWidget(m_label);
    m_timer.setInterval(80);
    connect(&m_timer, &QTimer::timeout, this, &PendingIndicator::refresh);
    hide();
}

void PendingIndicator::setWork(int running, int queued, const QDateTime &oldestStart)
{
    m_running = running;
    m_queued = queued;
    m_oldest = oldestStart;
    refresh();
}

void PendingIndicator::setRetryCountdown(const QDateTime &retryAt, int attempt, int maxAttempts)
{
    m_retryAt = retryAt;
    m_attempt = attempt;
    m_maxAttempts = maxAttempts;
    refresh();
}

QString PendingIndicator::text() const
{
    return m_label->text();
}

QSize PendingIndicator::sizeHint() const
{
    return QWidget::sizeHint().expandedTo(QSize(160, 18));
}

void PendingIndicator::refresh()
{
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const bool countdown = m_retryAt.isValid() && m_retryAt > now;
    const bool active = m_running > 0 || m_queued > 0 || countdown;
    setVisible(active);
    if (!active) {
        m_timer.stop();
        m_label->clear();
        return;
    }
    QStringList parts;
    if (m_running > 0)
        parts << tr("%n request(s) running", nullptr, m_running);
    if (m_queued > 0)
        parts << tr("%1 queued").arg(m_queued);
    if (m_running > 0 && m_oldest.isValid())
        parts << tr("%1 s").arg(qMax<qint64>(0, m_oldest.secsTo(now)));
    if (countdown) {
        const qint64 secs = (now.msecsTo(m_retryAt) + 999) / 1000;
        parts << (m_attempt > 0 && m_maxAttempts > 0
                ? tr("rate limited, retrying in %1 s (attempt %2 of %3)").arg(secs).arg(m_attempt).arg(m_maxAttempts)
                : tr("rate limited, retrying in %1 s").arg(secs));
    }
    m_label->setText(parts.join(QStringLiteral(" · ")));
    if (!m_timer.isActive())
        m_timer.start();
    update();
}

void PendingIndicator::paintEvent(QPaintEvent *)
{
    if (m_running == 0)
        return;
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const int side = qMin(14, height() - 4);
    const QRectF r(4, (height() - side) / 2.0, side, side);
    const QColor c = palette().color(QPalette::Highlight);
    p.setPen(QPen(QColor(c.red(), c.green(), c.blue(), 60), 2.2));
    p.drawEllipse(r);
    p.setPen(QPen(c, 2.2, Qt::SolidLine, Qt::RoundCap));
    const int start = -int((QDateTime::currentMSecsSinceEpoch() % 1000) * 360 / 1000) * 16;
    p.drawArc(r, start, 110 * 16);
}

} // namespace nb2
