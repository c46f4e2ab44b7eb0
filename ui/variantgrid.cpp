#include "ui/variantgrid.h"

#include "core/session/costledger.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"
#include "ui/thumbnailprovider.h"

#include <QDateTime>
#include <QGridLayout>
#include <QGuiApplication>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QScreen>
#include <QVBoxLayout>

namespace nb2 {

namespace {
constexpr int kMaxColumns = 4;

QColor blend(const QColor &a, const QColor &b, qreal t)
{
    return QColor::fromRgbF(
        a.redF() * (1 - t) + b.redF() * t, a.greenF() * (1 - t) + b.greenF() * t, a.blueF() * (1 - t) + b.blueF() * t);
}
} // namespace

VariantGrid::VariantGrid(SessionController *session, ThumbnailProvider *thumbs, QWidget *parent)
    : QWidget(parent), m_session(session), m_thumbs(thumbs)
{
    setObjectName(QStringLiteral("variantGrid"));
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(10, 10, 10, 10);
    outer->setSpacing(8);
    m_header = new QLabel(this);
    m_header->setObjectName(QStringLiteral("variantGridHeader"));
    m_header->setWordWrap(true);
    m_header->setTextFormat(Qt::RichText);
    outer->addWidget(m_header);
    m_grid = new QGridLayout;
    m_grid->setSpacing(10);
    outer->addLayout(m_grid);
    outer->addStretch(1);

    auto refreshListed = [this](const QStringList &ids) {
        for (const QString &id : ids)
            refresh(id); // only the grid's own cells do anything
    };
    connect(session, &SessionController::framesChanged, this, refreshListed);
    connect(session, &SessionController::turnFinished, this, &VariantGrid::refresh);
    connect(session, &SessionController::framesRemoved, this, refreshListed);
    if (m_thumbs) {
        connect(m_thumbs, &ThumbnailProvider::thumbnailReady, this, [this] {
            for (const QString &id : std::as_const(m_ids))
                refresh(id);
        });
    }
    m_spin.setInterval(60);
    connect(&m_spin, &QTimer::timeout, this, [this] {
        for (VariantCell *c : std::as_const(m_cells))
            if (c->state() == VariantCell::State::Pending)
                c->update();
    });
}

int VariantGrid::cellSide() const
{
    // As large as fits: up to four columns on the screen the window is on, 120..240 px each.
    const QScreen *screen = this->screen() ? this->screen() : QGuiApplication::primaryScreen();
    const int width = screen ? screen->availableGeometry().width() : 1024;
    const int columns = qMin(kMaxColumns, qMax(1, int(m_ids.size())));
    return qBound(120, (width * 8 / 10) / columns - 24, 240);
}

void VariantGrid::setVariants(const QStringList &frameIds, const QString &what)
{
    qDeleteAll(m_cells);
    m_cells.clear();
    m_ids = frameIds;
    m_picked.clear();
    m_header->setText(tr("<b>%n variants</b> — %1. Pick one: it is starred, the others are folded "
                         "(kept in the session; unfold them from the timeline).",
        nullptr, int(frameIds.size()))
                          .arg(what.toHtmlEscaped()));
    const int side = cellSide();
    const int columns = qMin(kMaxColumns, qMax(1, int(frameIds.size())));
    for (int i = 0; i < frameIds.size(); ++i) {
        const QString id = frameIds.at(i);
        auto *cell = new VariantCell(i + 1, side, this);
        cell->setObjectName(QStringLiteral("variantCell_") + id);
        connect(cell->pickButton(), &QPushButton::clicked, this, [this, id] { pick(id); });
        m_cells.insert(id, cell);
        m_grid->addWidget(cell, i / columns, i % columns);
        refresh(id);
    }
    m_spin.start();
}

int VariantGrid::pendingCount() const
{
    int n = 0;
    for (const VariantCell *c : m_cells)
        n += c->state() == VariantCell::State::Pending ? 1 : 0;
    return n;
}

QWidget *VariantGrid::cell(const QString &frameId) const
{
    return m_cells.value(frameId);
}

QPushButton *VariantGrid::pickButton(const QString &frameId) const
{
    VariantCell *c = m_cells.value(frameId);
    return c ? c->pickButton() : nullptr;
}

void VariantGrid::refresh(const QString &frameId)
{
    VariantCell *cell = m_cells.value(frameId);
    if (!cell || !m_session)
        return;
    const Frame f = m_session->graph().value(frameId);
    if (!m_session->graph().contains(frameId) || f.isTrashed()) {
        cell->setState(VariantCell::State::Failed, tr("deleted"));
    } else if (f.isPending()) {
        cell->setState(VariantCell::State::Pending, tr("running…"));
    } else if (f.isDone()) {
        // Its cost beside the state: variants are a choice between paid turns.
        const FrameCost cost = frameCost(f, m_session->priceTable());
        QStringList words;
        if (f.starred)
            words << tr("picked");
        else if (f.folded)
            words << tr("folded");
        if (cost.hasUsage)
            words << formatUsd(cost.usd);
        cell->setState(VariantCell::State::Done, words.join(QStringLiteral(" · ")));
        if (m_thumbs && !f.image.isNull()) {
            const QString path = m_session->store()->absolutePath(f.image.file);
            const QPixmap pix = m_thumbs->thumbnail(path, path, int(cell->sizeHint().width() * devicePixelRatioF()));
            if (!pix.isNull())
                cell->setPixmap(pix);
        }
    } else {
        cell->setState(VariantCell::State::Failed,
            tr("failed: %1").arg(f.error.message.isEmpty() ? f.statusText() : f.error.message));
    }
    cell->setPicked(frameId == m_picked || (m_picked.isEmpty() && f.starred));
    if (pendingCount() == 0)
        m_spin.stop();
}

bool VariantGrid::pick(const QString &frameId)
{
    if (!m_session || !m_ids.contains(frameId) || !m_session->graph().value(frameId).isDone())
        return false;
    QStringList others = m_ids;
    others.removeAll(frameId);
    if (!m_session->pickVariant(frameId, others))
        return false;
    m_picked = frameId;
    for (const QString &id : std::as_const(m_ids))
        refresh(id);
    Q_EMIT picked(frameId);
    return true;
}

// ---- VariantCell ----

VariantCell::VariantCell(int number, int side, QWidget *parent) : QWidget(parent), m_number(number), m_side(side)
{
    m_pick = new QPushButton(tr("Pick #%1").arg(number), this);
    m_pick->setObjectName(QStringLiteral("variantPick"));
    m_pick->setToolTip(tr("Keep this variant: it is starred and the others are folded"));
    m_pick->setEnabled(false);
    auto *v = new QVBoxLayout(this);
    v->setContentsMargins(6, 6, 6, 6);
    v->addStretch(1);
    v->addWidget(m_pick);
    setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
}

QSize VariantCell::sizeHint() const
{
    return {m_side + 12, m_side + 12 + 22 + m_pick->sizeHint().height()};
}

QRect VariantCell::imageRect() const
{
    return QRect(6, 6, m_side, m_side);
}

void VariantCell::setState(State state, const QString &text)
{
    m_state = state;
    m_text = text;
    m_pick->setEnabled(state == State::Done);
    setAccessibleName(tr("Variant %1: %2").arg(QString::number(m_number), text));
    setToolTip(text); // the caption is elided; a failure's whole message is here
    update();
}

void VariantCell::setPixmap(const QPixmap &pixmap)
{
    m_pixmap = pixmap;
    update();
}

void VariantCell::setPicked(bool picked)
{
    m_picked = picked;
    update();
}

void VariantCell::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing, true);
    const QPalette &pal = palette();
    const QColor highlight = pal.color(QPalette::Highlight);
    p.setPen(QPen(m_picked ? highlight : blend(pal.color(QPalette::Base), pal.color(QPalette::Text), 0.22),
        m_picked ? 2.5 : 1.0));
    p.setBrush(pal.color(QPalette::Base));
    p.drawRoundedRect(QRectF(rect()).adjusted(1, 1, -1, -1), 6, 6);
    const QRect img = imageRect();
    p.setPen(Qt::NoPen);
    p.setBrush(blend(pal.color(QPalette::Base), pal.color(QPalette::Text), 0.07));
    p.drawRoundedRect(img, 4, 4);
    if (!m_pixmap.isNull() && m_state == State::Done) {
        const QSizeF fitted
            = (QSizeF(m_pixmap.size()) / m_pixmap.devicePixelRatio()).scaled(QSizeF(img.size()), Qt::KeepAspectRatio);
        const QRectF target(img.left() + (img.width() - fitted.width()) / 2,
            img.top() + (img.height() - fitted.height()) / 2, fitted.width(), fitted.height());
        p.setRenderHint(QPainter::SmoothPixmapTransform, true);
        p.drawPixmap(target, m_pixmap, QRectF(m_pixmap.rect()));
    }
    if (m_state == State::Pending) {
        // The same spinner as a pending timeline card.
        const qint64 ms = QDateTime::currentMSecsSinceEpoch();
        const QRect r(img.center().x() - 16, img.center().y() - 16, 32, 32);
        p.setPen(QPen(QColor(highlight.red(), highlight.green(), highlight.blue(), 60), 4));
        p.setBrush(Qt::NoBrush);
        p.drawEllipse(r);
        p.setPen(QPen(highlight, 4, Qt::SolidLine, Qt::RoundCap));
        p.drawArc(r, -int((ms % 1200) * 360 / 1200) * 16, 100 * 16);
    }
    // Number, and the state in words (never colour alone).
    QFont f = font();
    f.setBold(true);
    p.setFont(f);
    const QRect caption(img.left(), img.bottom() + 2, img.width(), 20);
    p.setPen(pal.color(QPalette::Text));
    const QString &state = m_text;
    const QString line = state.isEmpty() ? QStringLiteral("#%1").arg(m_number)
                                         : QStringLiteral("#%1  %2").arg(QString::number(m_number), state);
    p.drawText(
        caption, Qt::AlignLeft | Qt::AlignVCenter, fontMetrics().elidedText(line, Qt::ElideRight, caption.width()));
}

} // namespace nb2
