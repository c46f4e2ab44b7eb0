#include "ui/selectionchoice.h"

#include "core/session/precisionedit.h"

#include <QButtonGroup>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QRadioButton>
#include <QResizeEvent>
#include <QSpinBox>
#include <QVBoxLayout>

namespace nb2 {

SelectionChoice::SelectionChoice(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("selectionChoice"));
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(2);

    m_selectionRow = new QWidget(this);
    auto *rows = new QVBoxLayout(m_selectionRow);
    rows->setContentsMargins(0, 0, 0, 0);
    rows->setSpacing(2);
    auto *choice = new QHBoxLayout;
    choice->setSpacing(8);
    m_region = new QRadioButton(tr("Edit re&gion"), m_selectionRow);
    m_region->setObjectName(QStringLiteral("regionModeButton"));
    m_region->setToolTip(tr("Only the selection changes: it is sent with a margin at full resolution and pasted back "
                            "with a feathered edge."));
    m_protect = new QRadioButton(tr("P&rotect"), m_selectionRow);
    m_protect->setObjectName(QStringLiteral("protectModeButton"));
    m_protect->setToolTip(tr("The whole picture is edited as usual; the selected pixels are then put back exactly."));
    auto *group = new QButtonGroup(this);
    group->addButton(m_region);
    group->addButton(m_protect);
    m_region->setChecked(true);
    m_feather = new QSpinBox(m_selectionRow);
    m_feather->setObjectName(QStringLiteral("featherBox"));
    m_feather->setRange(0, 64);
    m_feather->setValue(PrecisionEdit::kDefaultFeather);
    m_feather->setPrefix(tr("Feather "));
    m_feather->setSuffix(tr(" px"));
    m_feather->setAccessibleName(tr("Feather"));
    m_feather->setToolTip(tr("Width of the soft edge where the edit meets the untouched picture"));
    choice->addWidget(m_region);
    choice->addWidget(m_protect);
    choice->addStretch(1);
    choice->addWidget(m_feather);
    rows->addLayout(choice);
    m_explain = new QLabel(m_selectionRow);
    m_explain->setObjectName(QStringLiteral("selectionExplain"));
    m_explain->setWordWrap(true);
    m_explain->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    QFont small = m_explain->font();
    small.setPointSizeF(small.pointSizeF() * 0.92);
    m_explain->setFont(small);
    m_explain->setForegroundRole(QPalette::PlaceholderText);
    rows->addWidget(m_explain);
    outer->addWidget(m_selectionRow);

    m_fromRaw = new QCheckBox(tr("Continue from the server's ra&w image (by id)"), this);
    m_fromRaw->setObjectName(QStringLiteral("continueFromRawBox"));
    m_fromRaw->setToolTip(tr("This frame is a composite, which the server has never seen. By default the next edit "
                             "sends it inline; checked, the edit continues the server's own (raw) image by its id."));
    outer->addWidget(m_fromRaw);

    const auto update = [this] {
        m_explain->setText(m_protect->isChecked()
                ? tr("Protect: the whole picture is edited; the selection stays exactly as it is.")
                : tr("Edit region: only the selection changes; the rest stays exactly as it is."));
        reserveExplainHeight();
        Q_EMIT choiceChanged();
    };
    connect(m_region, &QRadioButton::toggled, this, update);
    connect(m_feather, &QSpinBox::valueChanged, this, &SelectionChoice::choiceChanged);
    connect(m_fromRaw, &QCheckBox::toggled, this, &SelectionChoice::choiceChanged);
    setState(false, false); // hidden until there is a selection: its explanation is measured when shown
    update();
}

void SelectionChoice::setState(bool hasSelection, bool composited)
{
    m_hasSelection = hasSelection;
    m_composited = composited;
    // The row appears (maybe inside a panel already shown, which gets no showEvent()): measure it.
    const bool rowAppears = hasSelection && m_selectionRow->isHidden();
    m_selectionRow->setVisible(hasSelection);
    m_fromRaw->setVisible(composited);
    setVisible(hasSelection || composited);
    if (rowAppears)
        reserveExplainHeight();
}

void SelectionChoice::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    reserveExplainHeight();
}

void SelectionChoice::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    reserveExplainHeight();
}

void SelectionChoice::reserveExplainHeight()
{
    // Not while hidden (the panel at start-up, before any selection): wrapping the text costs
    // a text layout and a font engine of its own (0.92 of the font), ~1.8 M instructions that
    // the window's first frame does not show. showEvent() and setState() measure it when shown.
    if (isHidden() || m_selectionRow->isHidden())
        return;
    // The label spans the whole row (no margins), so the panel's width is its width.
    const int w = width() > 0 ? width() : m_explain->sizeHint().width();
    m_explain->setMinimumHeight(0); // heightForWidth() would answer at least the old minimum
    m_explain->setMinimumHeight(m_explain->heightForWidth(w));
}

RegionMode SelectionChoice::mode() const
{
    if (!m_hasSelection)
        return RegionMode::None;
    return m_protect->isChecked() ? RegionMode::Protect : RegionMode::Region;
}

void SelectionChoice::setMode(RegionMode mode)
{
    (mode == RegionMode::Protect ? m_protect : m_region)->setChecked(true);
}

int SelectionChoice::feather() const
{
    return m_feather->value();
}
void SelectionChoice::setFeather(int pixels)
{
    m_feather->setValue(pixels);
}
bool SelectionChoice::continueFromRaw() const
{
    return m_composited && m_fromRaw->isChecked();
}
void SelectionChoice::setContinueFromRaw(bool fromRaw)
{
    m_fromRaw->setChecked(fromRaw);
}

} // namespace nb2
