#include "ui/noticepresenter.h"

#include "core/common/error.h"
#include "ui/bannerwidget.h"

#include <QMainWindow>
#include <QRegularExpression>
#include <QStatusBar>

namespace nb2 {

namespace {
BannerWidget::Kind bannerKind(NoticeKind kind)
{
    switch (kind) {
    case NoticeKind::Info:
        return BannerWidget::Kind::Info;
    case NoticeKind::Warning:
        return BannerWidget::Kind::Warning;
    case NoticeKind::Error:
        return BannerWidget::Kind::Error;
    case NoticeKind::Success:
        return BannerWidget::Kind::Success;
    }
    return BannerWidget::Kind::Info;
}

QString withoutFinalDot(QString s)
{
    s = s.trimmed();
    while (s.endsWith(QLatin1Char('.')))
        s.chop(1);
    return s;
}
} // namespace

NoticePresenter::NoticePresenter(BannerWidget *banner, QMainWindow *window, QObject *parent)
    : QObject(parent), m_banner(banner), m_window(window)
{
    connect(m_banner, &BannerWidget::actionTriggered, this, [this] {
        auto action = m_action;
        m_banner->hide();
        if (action)
            action();
    });
}

void NoticePresenter::show(
    NoticeKind kind, const QString &text, const QString &actionText, std::function<void()> action)
{
    m_lastMessage = text;
    m_lastKind = kind;
    m_action = std::move(action);
    m_banner->setMessage(bannerKind(kind), text);
    m_banner->setActionText(m_action ? actionText : QString());
    m_banner->show();
}

void NoticePresenter::clear()
{
    m_action = {};
    m_banner->hide();
}

void NoticePresenter::status(const QString &text, int timeoutMs)
{
    m_window->statusBar()->showMessage(text, timeoutMs);
}
void NoticePresenter::clearStatus()
{
    m_window->statusBar()->clearMessage();
}
QString NoticePresenter::lastStatus() const
{
    return m_window->statusBar()->currentMessage();
}
QString NoticePresenter::actionText() const
{
    return m_banner->actionText();
}
bool NoticePresenter::isShown() const
{
    return m_banner->isVisible();
}

QString NoticePresenter::shortenIds(const QString &text)
{
    // Interaction ids are ~60 characters of base64url; hashes 64 hex. Both are noise in a sentence.
    static const QRegularExpression longId(QStringLiteral("[A-Za-z0-9_\\-]{28,}"));
    QString out = text;
    QRegularExpressionMatchIterator it = longId.globalMatch(text);
    QList<QRegularExpressionMatch> matches;
    while (it.hasNext())
        matches.prepend(it.next()); // replace from the end so offsets stay valid
    for (const QRegularExpressionMatch &m : std::as_const(matches))
        out.replace(m.capturedStart(), m.capturedLength(), m.captured().left(10) + QStringLiteral("…"));
    return out;
}

QString NoticePresenter::describe(const Error &error)
{
    QString text = error.message.trimmed();
    const QString server = withoutFinalDot(error.api.serverMessage);
    if (!server.isEmpty() && !text.contains(server, Qt::CaseInsensitive))
        text += QLatin1Char(' ') + tr("The server said: “%1”.").arg(server);
    return shortenIds(text);
}

} // namespace nb2
