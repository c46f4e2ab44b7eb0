#pragma once

#include <QDateTime>
#include <QTimer>
#include <QWidget>

class QLabel;

namespace nb2 {

/**
 * The status-bar summary of work in flight: a small spinner and "2 running · 1 queued ·
 * 12 s", or a rate-limit countdown ("rate limited, retrying in 4 s (attempt 2 of 5)"). Hidden when nothing runs. It paints only while visible
 * and ticks at most every 80 ms.
 */
class PendingIndicator : public QWidget
{
    Q_OBJECT
public:
    explicit PendingIndicator(QWidget *parent = nullptr);

    /** running/queued counts and the start of the oldest running request. */
    void setWork(int running, int queued, const QDateTime &oldestStart);
    /** When the next automatic retry goes out (invalid clears the countdown), and which attempt of how many it is (0: unknown). */
    void setRetryCountdown(const QDateTime &retryAt, int attempt = 0, int maxAttempts = 0);
    QString text() const;
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    void refresh();

    int m_running = 0;
    int m_queued = 0;
    QDateTime m_oldest;
    QDateTime m_retryAt;
    int m_attempt = 0;
    int m_maxAttempts = 0;
    QTimer m_timer;
    QLabel *m_label = nullptr;
};

} // namespace nb2
