#include "ui/timelinedelegate.h"

#include "ui/theme.h"
#include "ui/thumbnailprovider.h"
#include "ui/timelineroles.h"

#include <QApplication>
#include <QDateTime>
#include <QImage>
#include <QPainter>
#include <QPainterPath>
#include <QtMath>

namespace nb2 {

namespace {
constexpr int kCardW = 112;
constexpr int kCardH = 100;
constexpr int kCaptionH = 20;
constexpr int kPad = 4;

bool isDark(const QPalette &p)
{
    return p.color(QPalette::Window).lightnessF() < 0.5;
}

QString kindLabel(const QString &kind)
{
    if (kind == QLatin1String("generate"))
        return TimelineDelegate::tr("generate");
    if (kind == QLatin1String("edit"))
        return TimelineDelegate::tr("edit");
    if (kind == QLatin1String("edit_local"))
        return TimelineDelegate::tr("local edit");
    if (kind == QLatin1String("style_edit"))
        return TimelineDelegate::tr("style");
    if (kind == QLatin1String("import"))
        return TimelineDelegate::tr("import");
    if (kind == QLatin1String("re_anchor"))
        return TimelineDelegate::tr("re-anchor");
    return kind;
}

QPainterPath starPath(const QPointF &c, qreal r)
{
    QPainterPath path;
    for (int i = 0; i < 10; ++i) {
        const qreal rr = (i % 2) ? r * 0.45 : r;
        const qreal a = -M_PI / 2 + i * M_PI / 5;
        const QPointF p(c.x() + rr * qCos(a), c.y() + rr * qSin(a));
        if (i == 0)
            path.moveTo(p);
        else
            path.lineTo(p);
    }
    path.closeSubpath();
    return path;
}
} // namespace

TimelineDelegate::TimelineDelegate(QObject *parent) : QStyledItemDelegate(parent) {}

QSize TimelineDelegate::cardSize()
{
    return {kCardW, kCardH};
}

QRect TimelineDelegate::imageRect(const QRect &card)
{
    return card.adjusted(kPad, kPad, -kPad, -kCaptionH);
}

QRect TimelineDelegate::actionButtonRect(const QRect &card)
{
    const QRect img = imageRect(card);
    return QRect(img.right() - 22, img.top() + 3, 20, 20);
}

TimelineDelegate::Action TimelineDelegate::actionFor(const QModelIndex &index)
{
    switch (TimelineState(index.data(TimelineRole::State).toInt())) {
    case TimelineState::Pending:
        return Action::Cancel;
    case TimelineState::Failed:
    case TimelineState::Interrupted:
    case TimelineState::Cancelled:
        return Action::Retry;
    case TimelineState::Done:
        break;
    }
    return Action::None;
}

QSize TimelineDelegate::sizeHint(const QStyleOptionViewItem &, const QModelIndex &) const
{
    return cardSize();
}

QColor TimelineDelegate::laneColor(int lane, const QPalette &palette)
{
    static const int hues[] = {210, 145, 30, 280, 350, 180, 55, 250};
    const int hue = hues[qAbs(lane) % int(std::size(hues))];
    return isDark(palette) ? QColor::fromHsl(hue, 150, 150) : QColor::fromHsl(hue, 160, 105);
}

void TimelineDelegate::paint(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    // Find: matches stay bright, the path to a match stays readable, everything else fades.
    const auto find = FindState(index.data(TimelineRole::FindState).toInt());
    const qreal opacity = find == FindState::Dimmed ? 0.28 : find == FindState::OnPath ? 0.7 : 1.0;
    painter->save();
    painter->setOpacity(painter->opacity() * opacity);
    paintFrame(painter, option, index, false, false);
    painter->restore();
}

void TimelineDelegate::paintBadge(
    QPainter *painter, const QPoint &center, const QColor &fill, const QString &glyph, const QColor &glyphColor) const
{
    const QRect r(center.x() - 9, center.y() - 9, 18, 18);
    painter->setPen(QPen(QColor(0, 0, 0, 90), 1));
    painter->setBrush(fill);
    painter->drawEllipse(r);
    QFont f = painter->font();
    f.setBold(true);
    f.setPixelSize(12);
    painter->setFont(f);
    painter->setPen(glyphColor);
    painter->drawText(r, Qt::AlignCenter, glyph);
}

void TimelineDelegate::paintIconBadge(
    QPainter *painter, const QPoint &center, const QColor &fill, const QString &iconName) const
{
    const QRect r(center.x() - 9, center.y() - 9, 18, 18);
    painter->setPen(QPen(QColor(0, 0, 0, 90), 1));
    painter->setBrush(fill);
    painter->drawEllipse(r);
    const QIcon icon = themeIcon(iconName, Qt::white);
    if (!icon.isNull())
        icon.paint(painter, r.adjusted(3, 3, -3, -3));
}

void TimelineDelegate::paintAgentMark(QPainter *painter, const QRect &image, const QFont &font) const
{
    // A small pill in the image's bottom-right corner: this frame came from an agent (nb2lite mcp).
    QFont f = font;
    f.setPixelSize(9);
    f.setBold(true);
    const QString text = tr("agent");
    const QFontMetrics fm(f);
    const QRect pill(
        image.right() - fm.horizontalAdvance(text) - 10, image.bottom() - 15, fm.horizontalAdvance(text) + 8, 13);
    painter->setPen(QPen(QColor(0, 0, 0, 90), 1));
    painter->setBrush(QColor(0x6a, 0x4c, 0xc8));
    painter->drawRoundedRect(QRectF(pill).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
    painter->setFont(f);
    painter->setPen(Qt::white);
    painter->drawText(pill, Qt::AlignCenter, text);
}

QString TimelineDelegate::driftBadgeText(double changed)
{
    if (changed < 0)
        return {};
    // Whole percent; a visible change below 0.5 % still says 1 %, so "0 %" means nothing changed.
    int percent = qRound(changed * 100.0);
    if (percent == 0 && changed > 0)
        percent = 1;
    return tr("%n % changed", "drift badge on a timeline card: share of the picture the edit changed", percent);
}

void TimelineDelegate::paintDriftBadge(
    QPainter *painter, const QRect &image, const QFont &font, double changed, bool warning) const
{
    // A pill in the image's top-right corner (done frames show no action button there).
    QFont f = font;
    f.setPixelSize(9);
    f.setBold(warning);
    const QFontMetrics fm(f);
    const QString text = fm.elidedText(driftBadgeText(changed), Qt::ElideRight, image.width() - 24);
    const int w = fm.horizontalAdvance(text) + 10;
    const QRect pill(image.right() - w - 2, image.top() + 3, w, 14);
    painter->setPen(QPen(QColor(0, 0, 0, 90), 1));
    painter->setBrush(warning ? QColor(0xd9, 0x8a, 0x1c) : QColor(0, 0, 0, 150));
    painter->drawRoundedRect(QRectF(pill).adjusted(0.5, 0.5, -0.5, -0.5), 7, 7);
    painter->setFont(f);
    painter->setPen(Qt::white);
    painter->drawText(pill, Qt::AlignCenter, text);
}

void TimelineDelegate::paintSpinner(QPainter *painter, const QRect &area, const QColor &color) const
{
    const qint64 ms = QDateTime::currentMSecsSinceEpoch();
    const int startAngle = -int((ms % 1200) * 360 / 1200) * 16;
    const int side = qMin(area.width(), area.height());
    const QRect r(area.center().x() - side / 2, area.center().y() - side / 2, side, side);
    QPen track(QColor(color.red(), color.green(), color.blue(), 60), 3.5);
    painter->setPen(track);
    painter->setBrush(Qt::NoBrush);
    painter->drawEllipse(r);
    QPen arc(color, 3.5, Qt::SolidLine, Qt::RoundCap);
    painter->setPen(arc);
    painter->drawArc(r, startAngle, 100 * 16);
}

void TimelineDelegate::paintFrame(QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index,
    bool onSelectedPath, bool actionHovered) const
{
    const QPalette &pal = option.palette;
    const QRect card = option.rect.adjusted(0, 0, -1, -1);
    const bool selected = option.state & QStyle::State_Selected;
    const bool hovered = option.state & QStyle::State_MouseOver;
    const bool focused = option.state & QStyle::State_HasFocus;
    const auto state = TimelineState(index.data(TimelineRole::State).toInt());
    const int lane = index.data(TimelineRole::Lane).toInt();
    const QColor laneCol = laneColor(lane, pal);
    const QColor highlight = pal.color(QPalette::Highlight);
    if (index.data(TimelineRole::Folded).toBool()) {
        paintFolded(painter, option, index);
        return;
    }

    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, true);

    // Card body.
    QColor body = pal.color(QPalette::Base);
    if (onSelectedPath && !selected)
        body = mixColors(body, highlight, 0.10);
    if (selected)
        body = mixColors(body, highlight, 0.22);
    else if (hovered)
        body = mixColors(body, pal.color(QPalette::Text), 0.05);
    QColor border = mixColors(pal.color(QPalette::Base), pal.color(QPalette::Text), 0.22);
    qreal borderW = 1.0;
    if (selected) {
        border = highlight;
        borderW = 2.0;
    } else if (onSelectedPath) {
        border = mixColors(border, highlight, 0.6);
        borderW = 1.5;
    }
    if (state == TimelineState::Failed)
        border = selected ? border : QColor(0xd0, 0x3a, 0x3a);
    painter->setPen(QPen(border, borderW));
    painter->setBrush(body);
    painter->drawRoundedRect(QRectF(card).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);

    // Lane accent along the card's top edge: which branch this frame belongs to.
    {
        QPainterPath clip;
        clip.addRoundedRect(QRectF(card).adjusted(1, 1, -1, -1), 5.5, 5.5);
        painter->save();
        painter->setClipPath(clip);
        painter->fillRect(QRect(card.left(), card.top(), card.width(), 3), laneCol);
        painter->restore();
    }

    // Image: final thumbnail, or the streaming draft, or a placeholder.
    const QRect img = imageRect(card);
    const qreal dpr = painter->device() ? painter->device()->devicePixelRatioF() : 1.0;
    QPixmap pix;
    const QString path = index.data(TimelineRole::ImagePath).toString();
    if (m_thumbs && !path.isEmpty()) {
        const int side = int(qMax(img.width(), img.height()) * dpr);
        pix = m_thumbs->thumbnail(path, path, side); // file names are unique per image: the path is the key
    }
    if (pix.isNull()) {
        const QImage draft = index.data(TimelineRole::Draft).value<QImage>();
        if (!draft.isNull())
            pix = QPixmap::fromImage(draft.scaled(img.size() * dpr, Qt::KeepAspectRatio, Qt::FastTransformation));
    }
    const QColor well = mixColors(pal.color(QPalette::Base), pal.color(QPalette::Text), isDark(pal) ? 0.08 : 0.06);
    painter->setPen(Qt::NoPen);
    painter->setBrush(well);
    painter->drawRoundedRect(img, 3, 3);
    if (!pix.isNull()) {
        pix.setDevicePixelRatio(dpr);
        const QSizeF logical = QSizeF(pix.size()) / dpr;
        const QSizeF fitted = logical.scaled(QSizeF(img.size()), Qt::KeepAspectRatio);
        const QRectF target(img.left() + (img.width() - fitted.width()) / 2.0,
            img.top() + (img.height() - fitted.height()) / 2.0, fitted.width(), fitted.height());
        painter->setRenderHint(QPainter::SmoothPixmapTransform, true);
        painter->drawPixmap(target, pix, QRectF(pix.rect()));
    }

    // State overlays.
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QFont small = option.font;
    small.setPixelSize(11);
    if (state == TimelineState::Pending) {
        painter->setPen(Qt::NoPen);
        painter->setBrush(QColor(0, 0, 0, pix.isNull() ? 0 : 110));
        painter->drawRoundedRect(img, 3, 3);
        const QColor fg = pix.isNull() ? pal.color(QPalette::Text) : QColor(Qt::white);
        paintSpinner(
            painter, QRect(img.center().x() - 11, img.center().y() - 18, 22, 22), pix.isNull() ? highlight : fg);
        const QDateTime retryAt = index.data(TimelineRole::RetryAt).toDateTime();
        QString text;
        if (retryAt.isValid() && retryAt > now)
            text = tr("retry in %1 s").arg(qMax<qint64>(1, (now.msecsTo(retryAt) + 999) / 1000));
        else {
            const QDateTime started = index.data(TimelineRole::StartedAt).toDateTime();
            const qint64 secs = started.isValid() ? qMax<qint64>(0, started.secsTo(now)) : 0;
            text = tr("%1 s").arg(secs);
        }
        painter->setFont(small);
        painter->setPen(fg);
        painter->drawText(QRect(img.left(), img.center().y() + 7, img.width(), 16), Qt::AlignCenter, text);
    } else if (state == TimelineState::Failed || state == TimelineState::Interrupted
        || state == TimelineState::Cancelled) {
        const bool failed = state == TimelineState::Failed;
        if (!pix.isNull()) {
            painter->setPen(Qt::NoPen);
            painter->setBrush(QColor(0, 0, 0, 90));
            painter->drawRoundedRect(img, 3, 3);
        }
        const QColor badge = failed ? QColor(0xd0, 0x3a, 0x3a) : QColor(0xd9, 0x8a, 0x1c);
        if (failed)
            paintBadge(painter, QPoint(img.center().x(), img.center().y() - 9), badge, QStringLiteral("!"), Qt::white);
        else
            paintIconBadge(painter, QPoint(img.center().x(), img.center().y() - 9), badge,
                state == TimelineState::Interrupted ? QStringLiteral("warning") : QStringLiteral("cancel"));
        painter->setFont(small);
        painter->setPen(pix.isNull() ? pal.color(QPalette::Text) : QColor(Qt::white));
        QString text = failed                     ? tr("failed")
            : state == TimelineState::Interrupted ? tr("interrupted")
                                                  : tr("cancelled");
        const QDateTime retryAt = index.data(TimelineRole::RetryAt).toDateTime();
        if (retryAt.isValid() && retryAt > now)
            text = tr("retry in %1 s").arg(qMax<qint64>(1, (now.msecsTo(retryAt) + 999) / 1000));
        painter->drawText(QRect(img.left(), img.center().y() + 4, img.width(), 16), Qt::AlignCenter, text);
    }

    // Cancel / retry button.
    const Action action = actionFor(index);
    if (action != Action::None) {
        const QRect b = actionButtonRect(card);
        QColor bfill
            = actionHovered ? highlight : mixColors(pal.color(QPalette::Button), pal.color(QPalette::Base), 0.3);
        painter->setPen(QPen(mixColors(bfill, pal.color(QPalette::Text), 0.35), 1));
        painter->setBrush(bfill);
        painter->drawEllipse(QRectF(b).adjusted(0.5, 0.5, -0.5, -0.5));
        const QColor glyph = actionHovered ? pal.color(QPalette::HighlightedText) : pal.color(QPalette::ButtonText);
        painter->setPen(QPen(glyph, 1.8, Qt::SolidLine, Qt::RoundCap));
        painter->setBrush(Qt::NoBrush);
        const QRectF g = QRectF(b).adjusted(6, 6, -6, -6);
        if (action == Action::Cancel) {
            painter->drawLine(g.topLeft(), g.bottomRight());
            painter->drawLine(g.topRight(), g.bottomLeft());
        } else {
            painter->drawArc(g, 60 * 16, 280 * 16);
            const QPointF tip(g.center().x() + g.width() / 2 * qCos(qDegreesToRadians(60.0)),
                g.center().y() - g.height() / 2 * qSin(qDegreesToRadians(60.0)));
            painter->setBrush(glyph);
            painter->setPen(Qt::NoPen);
            QPolygonF head;
            head << tip + QPointF(-3.5, -1.5) << tip + QPointF(2.5, -2.5) << tip + QPointF(1.0, 3.0);
            painter->drawPolygon(head);
        }
    }

    // Small status marks on the image's corners.
    int markX = img.left() + 11;
    const int markY = img.bottom() - 10;
    if (index.data(TimelineRole::Starred).toBool()) {
        painter->setPen(QPen(QColor(0x80, 0x60, 0x00), 1));
        painter->setBrush(QColor(0xf5, 0xc2, 0x11));
        painter->drawPath(starPath(QPointF(img.left() + 11, img.top() + 11), 8));
    }
    if (index.data(TimelineRole::ReAnchored).toBool()) {
        paintIconBadge(painter, QPoint(markX, markY), QColor(0x3a, 0x7b, 0xd5), QStringLiteral("reanchor"));
        markX += 20;
    }
    if (index.data(TimelineRole::MadeByAgent).toBool())
        paintAgentMark(painter, img, small);
    const double changed = index.data(TimelineRole::DriftChanged).toDouble();
    if (state == TimelineState::Done && changed >= 0 && action == Action::None
        && index.data(TimelineRole::DriftChanged).isValid())
        paintDriftBadge(painter, img, small, changed, index.data(TimelineRole::DriftWarning).toBool());
    const QDateTime expires = index.data(TimelineRole::ExpiresAt).toDateTime();
    if (state == TimelineState::Done && expires.isValid() && now.secsTo(expires) < 48 * 3600) {
        const bool gone = expires <= now;
        paintIconBadge(painter, QPoint(markX, markY), gone ? QColor(0x88, 0x88, 0x88) : QColor(0xe0, 0x8a, 0x00),
            QStringLiteral("expiring"));
    }

    // Caption: number and kind on the left, aspect ratio on the right.
    const QRect caption(card.left() + kPad + 1, img.bottom() + 2, card.width() - 2 * kPad - 2, kCaptionH - 3);
    painter->setFont(small);
    painter->setPen(
        selected ? pal.color(QPalette::Text) : mixColors(pal.color(QPalette::Text), pal.color(QPalette::Base), 0.25));
    const int number = index.data(TimelineRole::Number).toInt();
    const QString left = tr("#%1 %2").arg(number).arg(kindLabel(index.data(TimelineRole::Kind).toString()));
    const QString ratio = index.data(TimelineRole::AspectRatio).toString();
    const int ratioW = ratio.isEmpty() ? 0 : QFontMetrics(small).horizontalAdvance(ratio) + 4;
    painter->drawText(caption.adjusted(0, 0, -ratioW, 0), Qt::AlignLeft | Qt::AlignVCenter,
        QFontMetrics(small).elidedText(left, Qt::ElideRight, caption.width() - ratioW));
    if (!ratio.isEmpty()) {
        painter->setPen(mixColors(pal.color(QPalette::Text), pal.color(QPalette::Base), 0.5));
        painter->drawText(caption, Qt::AlignRight | Qt::AlignVCenter, ratio);
    }

    if (focused) {
        // The keyboard's place, also on the selected card (the usual case): a solid inner ring
        // that a tinted selection alone does not give.
        painter->setPen(QPen(highlight, 2, selected ? Qt::SolidLine : Qt::DotLine));
        painter->setBrush(Qt::NoBrush);
        painter->drawRoundedRect(QRectF(card).adjusted(3, 3, -3, -3), 5, 5);
    }
    painter->restore();
}

// ---- folded variants and lane headers (issue 14) ----

void TimelineDelegate::paintFolded(
    QPainter *painter, const QStyleOptionViewItem &option, const QModelIndex &index) const
{
    const QPalette &pal = option.palette;
    const QRect card = option.rect.adjusted(0, 0, -1, -1);
    const bool selected = option.state & QStyle::State_Selected;
    const QColor highlight = pal.color(QPalette::Highlight);
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, true);
    // A dashed, faint outline: the frame is there (and selectable) but set aside.
    painter->setPen(QPen(selected ? highlight : mixColors(pal.color(QPalette::Base), pal.color(QPalette::Text), 0.35),
        selected ? 2.0 : 1.0, Qt::DashLine));
    painter->setBrush(mixColors(pal.color(QPalette::Window), pal.color(QPalette::Base), selected ? 0.8 : 0.4));
    painter->drawRoundedRect(QRectF(card).adjusted(0.5, 0.5, -0.5, -0.5), 6, 6);
    painter->fillRect(QRect(card.left() + 6, card.top() + 1, card.width() - 12, 2),
        laneColor(index.data(TimelineRole::Lane).toInt(), pal));
    // The picture collapsed to a small, dimmed thumbnail.
    const QRect img = imageRect(card);
    const QRect small(img.center().x() - img.width() / 4, img.top() + 6, img.width() / 2, img.height() / 2);
    const QString path = index.data(TimelineRole::ImagePath).toString();
    if (m_thumbs && !path.isEmpty()) {
        const qreal dpr = painter->device() ? painter->device()->devicePixelRatioF() : 1.0;
        const int side = int(qMax(img.width(), img.height()) * dpr);
        QPixmap pix = m_thumbs->thumbnail(path, path, side);
        if (!pix.isNull()) {
            const QSizeF fitted = (QSizeF(pix.size()) / dpr).scaled(QSizeF(small.size()), Qt::KeepAspectRatio);
            painter->setOpacity(painter->opacity() * 0.45);
            painter->drawPixmap(QRectF(small.center().x() - fitted.width() / 2,
                                    small.center().y() - fitted.height() / 2, fitted.width(), fitted.height()),
                pix, QRectF(pix.rect()));
            painter->setOpacity(painter->opacity() / 0.45);
        }
    }
    QFont f = option.font;
    f.setPixelSize(11);
    painter->setFont(f);
    painter->setPen(mixColors(pal.color(QPalette::Text), pal.color(QPalette::Base), 0.35));
    const int number = index.data(TimelineRole::Number).toInt();
    const QRect text(
        card.left() + kPad, small.bottom() + 4, card.width() - 2 * kPad, card.bottom() - small.bottom() - 6);
    painter->drawText(text, Qt::AlignCenter | Qt::TextWordWrap, tr("#%1 folded").arg(number));
    if (option.state & QStyle::State_HasFocus) {
        painter->setPen(QPen(highlight, 2, selected ? Qt::SolidLine : Qt::DotLine));
        painter->setBrush(Qt::NoBrush);
        painter->drawRoundedRect(QRectF(card).adjusted(3, 3, -3, -3), 5, 5);
    }
    painter->restore();
}

int TimelineDelegate::laneHeaderWidth()
{
    return 70;
}

void TimelineDelegate::paintLaneHeader(
    QPainter *painter, const QRect &rect, const QString &text, const QColor &laneColor, const QPalette &palette)
{
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, true);
    painter->setPen(Qt::NoPen);
    painter->setBrush(laneColor);
    painter->drawRoundedRect(QRectF(rect.left() + 4, rect.top() + 6, 4, rect.height() - 12), 2, 2);
    if (!text.isEmpty()) {
        QFont f = QApplication::font();
        f.setPixelSize(11);
        painter->setFont(f);
        painter->setPen(palette.color(QPalette::WindowText));
        const QRect area = rect.adjusted(12, 0, -3, 0);
        painter->drawText(
            area, Qt::AlignLeft | Qt::AlignVCenter, QFontMetrics(f).elidedText(text, Qt::ElideRight, area.width()));
    }
    painter->restore();
}

} // namespace nb2
