#include "ui/bannerwidget.h"

#include "ui/theme.h"
#include "ui/wraplabel.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QToolButton>

namespace nb2 {

namespace {

QColor kindColor(BannerWidget::Kind kind)
{
    switch (kind) {
    case BannerWidget::Kind::Info:
        return themeColor(ThemeColor::Info);
    case BannerWidget::Kind::Warning:
        return themeColor(ThemeColor::Warning);
    case BannerWidget::Kind::Error:
        return themeColor(ThemeColor::Error);
    case BannerWidget::Kind::Success:
        return themeColor(ThemeColor::Success);
    }
    return themeColor(ThemeColor::Info);
}

QString kindIcon(BannerWidget::Kind kind)
{
    switch (kind) {
    case BannerWidget::Kind::Info:
        return QStringLiteral("info");
    case BannerWidget::Kind::Warning:
        return QStringLiteral("warning");
    case BannerWidget::Kind::Error:
        return QStringLiteral("error");
    case BannerWidget::Kind::Success:
        return QStringLiteral("info");
    }
    return QStringLiteral("info");
}

} // namespace

BannerWidget::BannerWidget(QWidget *parent) : QWidget(parent)
{
    setAttribute(Qt::WA_StyledBackground, false);
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    setAccessibleName(tr("Message"));

    m_icon = new QLabel(this);
    m_icon->setFixedSize(22, 22);

    m_label = new WrapLabel(this); // laid out once per width (the demo banner is in the first frame)
    m_label->setTextInteractionFlags(Qt::TextBrowserInteraction);
    m_label->setOpenExternalLinks(false);
    m_label->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    connect(m_label, &QLabel::linkActivated, this, &BannerWidget::linkActivated);

    m_action = new QPushButton(this);
    m_action->hide();
    connect(m_action, &QPushButton::clicked, this, &BannerWidget::actionTriggered);

    m_close = new QToolButton(this);
    m_close->setAutoRaise(true);
    m_close->setIconSize(QSize(16, 16));
    m_close->setToolTip(tr("Dismiss this message"));
    m_close->setAccessibleName(tr("Dismiss message"));
    connect(m_close, &QToolButton::clicked, this, [this] {
        hide();
        Q_EMIT closed();
    });

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(ThemeMetrics::kMargin, 6, 6, 6);
    layout->setSpacing(ThemeMetrics::kSpacing + 2);
    layout->addWidget(m_icon, 0, Qt::AlignVCenter);
    layout->addWidget(m_label, 1);
    layout->addWidget(m_action, 0, Qt::AlignVCenter);
    layout->addWidget(m_close, 0, Qt::AlignVCenter);

    updateStyle();
    hide();
}

void BannerWidget::setMessage(Kind kind, const QString &text)
{
    setKind(kind);
    setText(text);
    show();
}

void BannerWidget::setKind(Kind kind)
{
    m_kind = kind;
    updateStyle();
}

void BannerWidget::setText(const QString &text)
{
    m_label->setText(text);
    // Screen readers announce the banner as one message.
    setAccessibleDescription(m_label->text());
}

QString BannerWidget::text() const
{
    return m_label->text();
}

void BannerWidget::setActionText(const QString &text, const QString &toolTip)
{
    m_action->setText(text);
    m_action->setToolTip(toolTip.isEmpty() ? text : toolTip);
    m_action->setAccessibleName(text);
    m_action->setVisible(!text.isEmpty());
}

QString BannerWidget::actionText() const
{
    return m_action->text();
}

void BannerWidget::setCloseButtonVisible(bool visible)
{
    m_close->setVisible(visible);
}

bool BannerWidget::isCloseButtonVisible() const
{
    return !m_close->isHidden();
}

void BannerWidget::paintEvent(QPaintEvent *)
{
    // A soft tint of the kind's colour with a solid stripe on the left: visible without shouting.
    const QColor c = kindColor(m_kind);
    QColor fill = c;
    fill.setAlphaF(isDarkTheme() ? 0.18 : 0.12);
    QColor border = c;
    border.setAlphaF(0.55);

    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QRectF r = QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5);
    p.setPen(QPen(border, 1));
    p.setBrush(fill);
    p.drawRoundedRect(r, ThemeMetrics::kRadius, ThemeMetrics::kRadius);
    p.setPen(Qt::NoPen);
    p.setBrush(c);
    p.setClipRect(QRectF(r.left(), r.top(), 4, r.height()));
    p.drawRoundedRect(r, ThemeMetrics::kRadius, ThemeMetrics::kRadius);
}

void BannerWidget::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange)
        updateStyle();
    QWidget::changeEvent(event);
}

void BannerWidget::updateStyle()
{
    const QColor c = kindColor(m_kind);
    m_icon->setPixmap(themeIcon(kindIcon(m_kind), c).pixmap(QSize(22, 22), devicePixelRatioF()));
    m_close->setIcon(themeIcon(QStringLiteral("close")));
    update();
}

} // namespace nb2
