#include "ui/compareview.h"

#include "ui/canvasview.h"
#include "ui/theme.h"

#include <QButtonGroup>
#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QStackedWidget>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

#include <algorithm>
#include <cstdlib>
#include <functional>

namespace nb2 {

/**
 * The swipe mode's canvas: the left image left of a divider, the right image right of
 * it, in one zoomable, pannable frame. Dragging near the divider moves it; anywhere else
 * pans. Left/Right keys move it by 5 % (Shift: 1 %).
 */
class SwipeCanvas : public CanvasView
{
public:
    explicit SwipeCanvas(QWidget *parent) : CanvasView(parent)
    {
        setAccessibleName(CompareView::tr("Swipe comparison"));
        setAccessibleDescription(
            CompareView::tr("Drag the divider, or press Left and Right, to reveal one image over the other."));
    }

    void setRightImage(const QImage &image)
    {
        m_right = image.isNull() ? QPixmap() : QPixmap::fromImage(image);
        update();
    }
    void setLabels(const QString &left, const QString &right)
    {
        m_leftLabel = left;
        m_rightLabel = right;
        update();
    }
    double position() const { return m_position; }
    void setPosition(double position)
    {
        position = std::clamp(position, 0.0, 1.0);
        if (position == m_position)
            return;
        m_position = position;
        update();
        if (onPositionChanged)
            onPositionChanged(m_position);
    }
    double dividerX() const
    {
        const QRectF r = imageRect();
        return r.left() + m_position * r.width();
    }
    QPointF handleCenter() const
    {
        const QRectF visible = imageRect().intersected(QRectF(rect()));
        return QPointF(dividerX(), visible.center().y());
    }

    std::function<void(double)> onPositionChanged;

protected:
    void drawImage(QPainter &painter, const QRectF &target) override
    {
        const double x = dividerX();
        painter.save();
        painter.setClipRect(QRectF(QPointF(target.left(), target.top()), QPointF(x, target.bottom())));
        CanvasView::drawImage(painter, target);
        painter.restore();
        if (!m_right.isNull()) {
            painter.save();
            painter.setClipRect(QRectF(QPointF(x, target.top()), QPointF(target.right(), target.bottom())));
            // The right image is drawn into the left's frame, so differing sizes still line up.
            drawPixmapScaled(painter, target, m_right, QPixmap());
            painter.restore();
        }
        drawDivider(painter, target, x);
    }

    void mousePressEvent(QMouseEvent *event) override
    {
        if (event->button() == Qt::LeftButton && hasImage() && std::abs(event->position().x() - dividerX()) <= kGrab) {
            m_dragging = true;
            event->accept();
            return;
        }
        CanvasView::mousePressEvent(event);
    }
    void mouseMoveEvent(QMouseEvent *event) override
    {
        if (m_dragging) {
            const QRectF r = imageRect();
            if (r.width() > 0)
                setPosition((event->position().x() - r.left()) / r.width());
            event->accept();
            return;
        }
        if (!isPanning() && hasImage())
            setCursor(std::abs(event->position().x() - dividerX()) <= kGrab ? Qt::SplitHCursor
                    : canPan()                                              ? Qt::OpenHandCursor
                                                                            : Qt::ArrowCursor);
        CanvasView::mouseMoveEvent(event);
    }
    void mouseReleaseEvent(QMouseEvent *event) override
    {
        if (m_dragging && event->button() == Qt::LeftButton) {
            m_dragging = false;
            event->accept();
            return;
        }
        CanvasView::mouseReleaseEvent(event);
    }
    void mouseDoubleClickEvent(QMouseEvent *event) override
    {
        if (std::abs(event->position().x() - dividerX()) <= kGrab) {
            setPosition(0.5);
            event->accept();
            return;
        }
        CanvasView::mouseDoubleClickEvent(event);
    }
    void keyPressEvent(QKeyEvent *event) override
    {
        const double step = (event->modifiers() & Qt::ShiftModifier) ? 0.01 : 0.05;
        if (event->key() == Qt::Key_Left) {
            setPosition(m_position - step);
        } else if (event->key() == Qt::Key_Right) {
            setPosition(m_position + step);
        } else {
            CanvasView::keyPressEvent(event);
            return;
        }
        event->accept();
    }

private:
    static constexpr double kGrab = 10.0;

    void drawDivider(QPainter &painter, const QRectF &target, double x)
    {
        const QRectF visible = target.intersected(QRectF(rect()));
        if (visible.isEmpty())
            return;
        painter.save();
        painter.setRenderHint(QPainter::Antialiasing);
        painter.setPen(QPen(QColor(0, 0, 0, 90), 3));
        painter.drawLine(QPointF(x, visible.top()), QPointF(x, visible.bottom()));
        painter.setPen(QPen(Qt::white, 1.5));
        painter.drawLine(QPointF(x, visible.top()), QPointF(x, visible.bottom()));

        const QPointF c(x, visible.center().y());
        painter.setPen(QPen(QColor(0, 0, 0, 60), 1));
        painter.setBrush(Qt::white);
        painter.drawEllipse(c, 14, 14);
        painter.setPen(QPen(QColor(0x30, 0x30, 0x30), 1.6, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        painter.setBrush(Qt::NoBrush);
        const QPolygonF leftArrow({c + QPointF(-3, -4.5), c + QPointF(-7.5, 0), c + QPointF(-3, 4.5)});
        const QPolygonF rightArrow({c + QPointF(3, -4.5), c + QPointF(7.5, 0), c + QPointF(3, 4.5)});
        painter.drawPolyline(leftArrow);
        painter.drawPolyline(rightArrow);

        // Captions in the corners of each side, so it is always clear which is which.
        const QFontMetrics fm(font());
        auto pill = [&](const QString &text, bool leftSide) {
            if (text.isEmpty())
                return;
            const QString shown = fm.elidedText(text, Qt::ElideMiddle, std::max(60, int(visible.width() / 2) - 40));
            const double w = fm.horizontalAdvance(shown) + 20;
            const double h = fm.height() + 8;
            const QRectF r(leftSide ? visible.left() + 10 : visible.right() - 10 - w, visible.top() + 10, w, h);
            painter.setPen(Qt::NoPen);
            painter.setBrush(QColor(0, 0, 0, 150));
            painter.drawRoundedRect(r, h / 2, h / 2);
            painter.setPen(QColor(0xf2, 0xf2, 0xf2));
            painter.drawText(r, Qt::AlignCenter, shown);
        };
        pill(m_leftLabel, true);
        pill(m_rightLabel, false);
        painter.restore();
    }

    QPixmap m_right;
    QString m_leftLabel;
    QString m_rightLabel;
    double m_position = 0.5;
    bool m_dragging = false;
};

namespace {

QLabel *makeCaption(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setTextFormat(Qt::PlainText);
    label->setAlignment(Qt::AlignCenter);
    label->setContentsMargins(4, 2, 4, 2);
    label->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Fixed);
    return label;
}

} // namespace

CompareView::CompareView(QWidget *parent) : QWidget(parent)
{
    setAccessibleName(tr("Compare view"));

    // Mode switch: a segmented row of checkable buttons.
    m_modeGroup = new QButtonGroup(this);
    m_modeGroup->setExclusive(true);
    auto *bar = new QHBoxLayout;
    bar->setSpacing(0);
    auto addMode = [&](Mode mode, const QString &icon, const QString &text, const QString &tip) {
        auto *b = new QToolButton(this);
        b->setIcon(themeIcon(icon));
        b->setText(text);
        b->setToolTip(tip);
        b->setAccessibleName(text);
        b->setCheckable(true);
        b->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        b->setAutoRaise(false);
        m_modeGroup->addButton(b, int(mode));
        bar->addWidget(b);
    };
    addMode(Mode::SideBySide, QStringLiteral("side-by-side"), tr("Side by Side"),
        tr("Show both images next to each other, zoomed and panned together"));
    addMode(Mode::Swipe, QStringLiteral("swipe"), tr("Swipe"),
        tr("Lay one image over the other and drag the divider between them"));
    addMode(Mode::Difference, QStringLiteral("difference"), tr("Difference"),
        tr("Show where the images differ: black is identical, bright is changed"));
    m_modeGroup->button(int(Mode::SideBySide))->setChecked(true);
    connect(m_modeGroup, &QButtonGroup::idClicked, this, [this](int id) { setMode(Mode(id)); });

    bar->addSpacing(ThemeMetrics::kSectionSpacing);
    m_gainButton = new QToolButton(this);
    m_gainButton->setText(tr("Amplify ×4"));
    m_gainButton->setCheckable(true);
    m_gainButton->setChecked(true);
    m_gainButton->setToolTip(tr("Multiply differences by four so that small changes become visible"));
    m_gainButton->setAccessibleName(tr("Amplify differences"));
    connect(m_gainButton, &QToolButton::toggled, this, [this](bool on) { setDifferenceGain(on ? 4 : 1); });
    bar->addWidget(m_gainButton);

    // Shown where the gain button is not (Difference shows no child to lay it over): no extra width.
    m_heatButton = new QToolButton(this);
    m_heatButton->setObjectName(QStringLiteral("heatmapToggle"));
    m_heatButton->setText(tr("Heatmap"));
    m_heatButton->setCheckable(true);
    m_heatButton->setAccessibleName(tr("Show the drift heatmap"));
    m_heatButton->setEnabled(false);
    m_heatButton->hide();
    m_heatButton->setToolTip(tr("No drift heatmap: it is measured for an edit against its parent"));
    connect(m_heatButton, &QToolButton::toggled, this, &CompareView::setHeatmapShown);
    bar->addWidget(m_heatButton);
    m_rawButton = new QToolButton(this);
    m_rawButton->setObjectName(QStringLiteral("rawCompareToggle"));
    m_rawButton->setText(tr("Raw ↔ composite"));
    m_rawButton->setCheckable(true);
    m_rawButton->setToolTip(
        tr("Compare the image the server sent with the composite the app stored (your protected pixels put back)"));
    m_rawButton->setAccessibleName(tr("Compare the raw server image with the composite"));
    m_rawButton->hide();
    connect(m_rawButton, &QToolButton::toggled, this, &CompareView::rawCompareToggled);
    bar->addWidget(m_rawButton);
    styleSegments();

    bar->addSpacing(ThemeMetrics::kSectionSpacing);
    m_summary = new QLabel(this);
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    bar->addWidget(m_summary, 1);

    // Pages.
    m_stack = new QStackedWidget(this);

    auto *sideBySide = new QWidget(m_stack);
    auto *sbsLayout = new QHBoxLayout(sideBySide);
    sbsLayout->setContentsMargins(0, 0, 0, 0);
    sbsLayout->setSpacing(2);
    auto addColumn = [&](QLabel *&caption, CanvasView *&view, const QString &name) {
        auto *column = new QVBoxLayout;
        column->setSpacing(0);
        caption = makeCaption(sideBySide);
        view = new CanvasView(sideBySide);
        view->setAccessibleName(name);
        column->addWidget(caption);
        column->addWidget(view, 1);
        sbsLayout->addLayout(column, 1);
    };
    addColumn(m_leftCaption, m_leftView, tr("Left image"));
    addColumn(m_rightCaption, m_rightView, tr("Right image"));
    m_stack->addWidget(sideBySide);

    m_swipeView = new SwipeCanvas(m_stack);
    m_swipeView->onPositionChanged = [this](double p) { Q_EMIT swipePositionChanged(p); };
    m_stack->addWidget(m_swipeView);

    m_diffView = new CanvasView(m_stack);
    m_diffView->setAccessibleName(tr("Difference image"));
    m_diffView->setEmptyText(tr("Computing the difference…"));
    m_stack->addWidget(m_diffView);

    for (CanvasView *v : {m_leftView, m_rightView, static_cast<CanvasView *>(m_swipeView), m_diffView}) {
        v->setEmptyText(v == m_diffView ? m_diffView->emptyText() : tr("Choose two frames to compare"));
        connect(v, &CanvasView::viewChanged, this, [this, v] { syncFrom(v); });
    }

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(ThemeMetrics::kSpacing / 2);
    auto *barHost = new QWidget(this);
    bar->setContentsMargins(ThemeMetrics::kSpacing, ThemeMetrics::kSpacing / 2, ThemeMetrics::kSpacing, 0);
    barHost->setLayout(bar);
    layout->addWidget(barHost);
    layout->addWidget(m_stack, 1);

    connect(&m_diffWatcher, &QFutureWatcher<DifferenceResult>::finished, this, [this] {
        DifferenceResult result = m_diffWatcher.result();
        const bool current = m_diffPendingGeneration == m_diffGeneration;
        if (current) {
            m_difference = std::move(result);
            m_diffDirty = false;
            m_diffView->setImage(m_difference.image);
            updateDifferenceSummary();
            Q_EMIT differenceReady();
        } else if (m_mode == Mode::Difference) {
            startDifference(); // inputs changed while we worked
        }
    });

    setMode(Mode::SideBySide);
}

CompareView::~CompareView()
{
    // The worker only holds copies of the images; nothing to wait for beyond its return.
    m_diffWatcher.disconnect(this);
}

CanvasView *CompareView::swipeView() const
{
    return m_swipeView;
}

void CompareView::styleSegments()
{
    // One segmented control instead of three loose buttons; the chosen mode (and the amplify
    // toggle when on) in the accent colour.
    const QPalette pal = palette();
    const int r = ThemeMetrics::kRadius - 2;
    auto sheet = [&](int left, int right, bool joinLeft) {
        return QStringLiteral(
            "QToolButton { border: 1px solid %1; border-top-left-radius: %2px; border-bottom-left-radius: %2px;"
            " border-top-right-radius: %3px; border-bottom-right-radius: %3px; background: %4; color: %5;"
            " padding: 3px 10px; margin: 0px; %6 }"
            "QToolButton:hover { background: %7; }"
            "QToolButton:checked { background: %8; color: %9; border-color: %8; }")
            .arg(pal.color(QPalette::Mid).name())
            .arg(left)
            .arg(right)
            .arg(pal.color(QPalette::Button).name(), pal.color(QPalette::ButtonText).name(),
                joinLeft ? QStringLiteral("border-left: none;") : QString(),
                pal.color(QPalette::Button).lighter(115).name(), pal.color(QPalette::Highlight).name(),
                pal.color(QPalette::HighlightedText).name());
    };
    const QList<QAbstractButton *> buttons = m_modeGroup->buttons();
    for (int i = 0; i < buttons.size(); ++i) {
        const bool first = i == 0;
        const bool last = i == buttons.size() - 1;
        buttons[i]->setStyleSheet(sheet(first ? r : 0, last ? r : 0, !first));
    }
    m_gainButton->setStyleSheet(sheet(r, r, false));
    m_heatButton->setStyleSheet(sheet(r, 0, false));
    m_rawButton->setStyleSheet(sheet(0, r, true));
}

void CompareView::changeEvent(QEvent *event)
{
    if (event->type() == QEvent::PaletteChange)
        styleSegments();
    QWidget::changeEvent(event);
}

void CompareView::setImages(const QImage &left, const QImage &right)
{
    m_left = left;
    m_right = right;
    m_rightShown = right;
    m_leftView->setImage(left);
    m_rightView->setImage(right);
    m_swipeView->setImage(left);
    m_swipeView->setRightImage(right);
    if (m_heatShown && !m_heatmap.isNull())
        applyRightImage();
    ++m_diffGeneration;
    m_diffDirty = true;
    m_difference = {};
    m_diffView->clear();
    m_diffView->setEmptyText(
        left.isNull() || right.isNull() ? tr("Choose two frames to compare") : tr("Computing the difference…"));
    updateDifferenceSummary();
    if (m_mode == Mode::Difference)
        startDifference();
}

void CompareView::setHeatmap(const QImage &heatmap)
{
    m_heatmap = heatmap;
    m_heatButton->setEnabled(!heatmap.isNull());
    m_heatButton->setVisible(
        m_mode != Mode::Difference && !heatmap.isNull()); // only takes room when it has something to show
    m_heatButton->setToolTip(heatmap.isNull()
            ? tr("No drift heatmap: it is measured for an edit against its parent")
            : tr("Lay the drift heatmap over the edited image: red to yellow is where the edit changed it"));
    applyRightImage();
}

void CompareView::setHeatmapShown(bool shown)
{
    if (shown == m_heatShown)
        return;
    m_heatShown = shown;
    {
        const QSignalBlocker block(m_heatButton);
        m_heatButton->setChecked(shown);
    }
    applyRightImage();
    Q_EMIT heatmapShownChanged(shown);
}

void CompareView::setRawCompareAvailable(bool available)
{
    m_rawButton->setVisible(available);
    if (!available) {
        const QSignalBlocker block(m_rawButton);
        m_rawButton->setChecked(false);
    }
}

bool CompareView::isRawCompareAvailable() const
{
    return !m_rawButton->isHidden();
}
bool CompareView::isRawCompare() const
{
    return m_rawButton->isChecked();
}
void CompareView::setRawCompare(bool on)
{
    m_rawButton->setChecked(on);
}

void CompareView::applyRightImage()
{
    const quint64 generation = ++m_heatGeneration;
    if (!m_heatShown || m_heatmap.isNull() || m_right.isNull()) {
        m_rightShown = m_right;
        m_rightView->setImage(m_right);
        m_swipeView->setRightImage(m_right);
        Q_EMIT heatmapApplied();
        return;
    }
    // Scaling and blending a full-size picture: on a worker, like the difference image.
    auto *watcher = new QFutureWatcher<QImage>(this);
    connect(watcher, &QFutureWatcher<QImage>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != m_heatGeneration)
            return;
        m_rightShown = watcher->result();
        m_rightView->setImage(m_rightShown);
        m_swipeView->setRightImage(m_rightShown);
        Q_EMIT heatmapApplied();
    });
    const QImage child = m_right;
    const QImage heat = m_heatmap;
    watcher->setFuture(QtConcurrent::run([child, heat] { return overlayHeatmap(child, heat); }));
}

QImage CompareView::overlayHeatmap(const QImage &child, const QImage &heatmap)
{
    if (child.isNull() || heatmap.isNull())
        return child;
    QImage out = child.convertToFormat(QImage::Format_RGB32);
    const QImage heat = heatmap.convertToFormat(QImage::Format_RGB32)
                            .scaled(out.size(), Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
    for (int y = 0; y < out.height(); ++y) {
        auto *po = reinterpret_cast<QRgb *>(out.scanLine(y));
        const auto *ph = reinterpret_cast<const QRgb *>(heat.constScanLine(y));
        for (int x = 0; x < out.width(); ++x) {
            // The heatmap is black where nothing changed and dark red at the "changed" threshold:
            // its red channel says how strongly to tint, in full red..yellow so it reads on any picture.
            const int a = std::min(190, qRed(ph[x]) * 3 / 2); // of 255
            if (a == 0)
                continue;
            const auto mixc = [a](int base, int over) { return (base * (255 - a) + over * a) / 255; };
            po[x] = qRgb(mixc(qRed(po[x]), 255), mixc(qGreen(po[x]), qGreen(ph[x])), mixc(qBlue(po[x]), 0));
        }
    }
    return out;
}

void CompareView::setLabels(const QString &left, const QString &right)
{
    m_leftLabel = left;
    m_rightLabel = right;
    updateCaptions();
}

void CompareView::clear()
{
    setImages(QImage(), QImage());
    setLabels(QString(), QString());
}

void CompareView::setMode(Mode mode)
{
    const bool changed = mode != m_mode;
    m_mode = mode;
    if (QAbstractButton *b = m_modeGroup->button(int(mode)))
        b->setChecked(true);
    m_stack->setCurrentIndex(int(mode));
    m_gainButton->setVisible(mode == Mode::Difference);
    m_heatButton->setVisible(mode != Mode::Difference && !m_heatmap.isNull());
    if (mode == Mode::Difference && m_diffDirty)
        startDifference();
    updateDifferenceSummary();
    if (changed)
        Q_EMIT modeChanged(mode);
}

double CompareView::swipePosition() const
{
    return m_swipeView->position();
}

void CompareView::setSwipePosition(double position)
{
    m_swipeView->setPosition(position);
}

QPointF CompareView::swipeHandlePosition() const
{
    return m_swipeView->handleCenter();
}

void CompareView::setDifferenceGain(int gain)
{
    gain = std::clamp(gain, 1, 64);
    if (gain == m_gain)
        return;
    m_gain = gain;
    {
        const QSignalBlocker block(m_gainButton);
        m_gainButton->setChecked(gain > 1);
    }
    ++m_diffGeneration;
    m_diffDirty = true;
    if (m_mode == Mode::Difference)
        startDifference();
}

void CompareView::startDifference()
{
    if (m_left.isNull() || m_right.isNull())
        return;
    if (m_diffWatcher.isRunning())
        return; // the finished handler sees the newer generation and starts again
    m_diffPendingGeneration = m_diffGeneration;
    const QImage a = m_left;
    const QImage b = m_right;
    const int gain = m_gain;
    m_diffWatcher.setFuture(QtConcurrent::run([a, b, gain] { return computeDifference(a, b, gain); }));
}

DifferenceResult CompareView::computeDifference(const QImage &a, const QImage &b, int gain)
{
    DifferenceResult result;
    if (a.isNull() || b.isNull())
        return result;
    const QImage ia = a.convertToFormat(QImage::Format_RGB32);
    QImage ib = b.convertToFormat(QImage::Format_RGB32);
    if (ib.size() != ia.size()) {
        ib = ib.scaled(ia.size(), Qt::IgnoreAspectRatio, Qt::SmoothTransformation);
        result.stats.resized = true;
    }
    QImage out(ia.size(), QImage::Format_RGB32);
    const int w = ia.width();
    const int h = ia.height();
    quint64 sum = 0;
    quint64 changed = 0;
    int maxDiff = 0;
    for (int y = 0; y < h; ++y) {
        const auto *pa = reinterpret_cast<const QRgb *>(ia.constScanLine(y));
        const auto *pb = reinterpret_cast<const QRgb *>(ib.constScanLine(y));
        auto *po = reinterpret_cast<QRgb *>(out.scanLine(y));
        for (int x = 0; x < w; ++x) {
            const int dr = std::abs(qRed(pa[x]) - qRed(pb[x]));
            const int dg = std::abs(qGreen(pa[x]) - qGreen(pb[x]));
            const int db = std::abs(qBlue(pa[x]) - qBlue(pb[x]));
            const int m = std::max({dr, dg, db});
            sum += quint64(dr + dg + db);
            maxDiff = std::max(maxDiff, m);
            if (m > kChangedThreshold)
                ++changed;
            po[x] = qRgb(std::min(255, dr * gain), std::min(255, dg * gain), std::min(255, db * gain));
        }
    }
    const double pixels = double(w) * double(h);
    result.stats.meanDifference = pixels > 0 ? double(sum) / (pixels * 3.0 * 255.0) : 0.0;
    result.stats.changedFraction = pixels > 0 ? double(changed) / pixels : 0.0;
    result.stats.maxDifference = maxDiff;
    result.image = std::move(out);
    return result;
}

void CompareView::syncFrom(CanvasView *source)
{
    if (m_syncing || !source->hasImage())
        return;
    m_syncing = true;
    // Keep the same part of the picture in every view, even when sizes differ.
    const QSizeF srcSize = QSizeF(source->imageSize());
    const QPointF c = source->viewCenter();
    const QPointF rel(c.x() / srcSize.width(), c.y() / srcSize.height());
    for (CanvasView *v : {m_leftView, m_rightView, static_cast<CanvasView *>(m_swipeView), m_diffView}) {
        if (v == source || !v->hasImage())
            continue;
        const QSizeF size = QSizeF(v->imageSize());
        const double zoom = source->zoom() * srcSize.width() / size.width();
        v->setViewState(zoom, source->isFitMode(), QPointF(rel.x() * size.width(), rel.y() * size.height()));
    }
    m_syncing = false;
}

void CompareView::updateCaptions()
{
    m_leftCaption->setText(m_leftLabel);
    m_rightCaption->setText(m_rightLabel);
    m_leftCaption->setToolTip(m_leftLabel);
    m_rightCaption->setToolTip(m_rightLabel);
    m_leftView->setAccessibleName(m_leftLabel.isEmpty() ? tr("Left image") : tr("Left image: %1").arg(m_leftLabel));
    m_rightView->setAccessibleName(
        m_rightLabel.isEmpty() ? tr("Right image") : tr("Right image: %1").arg(m_rightLabel));
    m_swipeView->setLabels(m_leftLabel, m_rightLabel);
}

void CompareView::updateDifferenceSummary()
{
    if (m_mode != Mode::Difference) {
        if (m_mode == Mode::Swipe)
            m_summary->setText(tr("Drag the divider, or use Left and Right"));
        else
            m_summary->clear();
        return;
    }
    if (m_left.isNull() || m_right.isNull()) {
        m_summary->clear();
        return;
    }
    if (m_diffDirty) {
        m_summary->setText(tr("Computing…"));
        return;
    }
    const DifferenceStats &s = m_difference.stats;
    QString text;
    if (s.maxDifference == 0) {
        text = tr("The images are identical");
    } else {
        text = tr("%1 % of pixels changed · mean difference %2 %")
                   .arg(QString::number(s.changedFraction * 100.0, 'f', 1),
                       QString::number(s.meanDifference * 100.0, 'f', 1));
    }
    if (s.resized)
        text += QLatin1String(" · ")
            + tr("sizes differ (%1×%2 vs %3×%4): the right image was scaled to the left's size")
                  .arg(m_left.width())
                  .arg(m_left.height())
                  .arg(m_right.width())
                  .arg(m_right.height());
    m_summary->setText(text);
    m_summary->setToolTip(text);
}

} // namespace nb2
