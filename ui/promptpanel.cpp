#include "ui/promptpanel.h"
#include "core/session/pricetable.h"

#include "core/api/imageinput.h"
#include "ui/selectionchoice.h"
#include "ui/theme.h"

#include <QComboBox>
#include <QDragEnterEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QImage>
#include <QLabel>
#include <QMimeData>
#include <QMouseEvent>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace nb2 {

PromptPanel::PromptPanel(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("promptPanel"));
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(8, 6, 8, 8);
    outer->setSpacing(6);

    m_context = new QLabel(this);
    m_context->setObjectName(QStringLiteral("promptContext"));
    m_context->setTextFormat(Qt::RichText);
    m_context->setWordWrap(true);
    outer->addWidget(m_context);
    m_selectionChoice = new SelectionChoice(this);
    outer->addWidget(m_selectionChoice);

    m_edit = new QPlainTextEdit(this);
    m_edit->setObjectName(QStringLiteral("promptEdit"));
    m_edit->setTabChangesFocus(true);
    m_edit->setAccessibleName(tr("Prompt"));
    m_edit->setPlaceholderText(tr("Describe the image, or what to change…"));
    m_edit->setToolTip(tr("Describe the image, or what to change. Ctrl+Enter sends."));
    m_edit->setMinimumHeight(72);
    m_edit->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    outer->addWidget(m_edit, 1);

    // Choosers: a two-column grid that fits the narrow side column.
    auto *grid = new QGridLayout;
    grid->setHorizontalSpacing(6);
    grid->setVerticalSpacing(6);
    m_aspectLabel = new QLabel(tr("&Aspect ratio:"), this);
    m_aspect = new QComboBox(this);
    m_aspect->setObjectName(QStringLiteral("aspectCombo"));
    m_aspect->setAccessibleName(tr("Aspect ratio"));
    for (const QString &r : supportedAspectRatios())
        m_aspect->addItem(r, r);
    m_aspectLabel->setBuddy(m_aspect);
    auto *thinkingLabel = new QLabel(tr("&Thinking:"), this);
    m_thinking = new QComboBox(this);
    m_thinking->setObjectName(QStringLiteral("thinkingCombo"));
    m_thinking->setAccessibleName(tr("Thinking level"));
    m_thinking->setToolTip(
        tr("How much the model thinks before drawing. The choices are the levels the server accepts."));
    thinkingLabel->setBuddy(m_thinking);
    grid->addWidget(m_aspectLabel, 0, 0);
    grid->addWidget(m_aspect, 0, 1);
    grid->addWidget(thinkingLabel, 1, 0);
    grid->addWidget(m_thinking, 1, 1);
    grid->setColumnStretch(1, 1);
    m_style = new StyleSlot(this);
    grid->addWidget(m_style, 0, 2, 2, 1, Qt::AlignRight | Qt::AlignVCenter);
    outer->addLayout(grid);

    m_newImage = new QToolButton(this);
    m_newImage->setObjectName(QStringLiteral("newImageButton"));
    m_newImage->setText(tr("New image"));
    m_newImage->setToolTip(tr("Start a fresh image instead of editing the selected frame (Ctrl+Shift+N)"));
    m_newImage->setAccessibleName(tr("New image"));
    // Icon only: the row also holds "Variants: N" and Send, and must stay as narrow as the
    // choosers above it (the window's minimum width); the tooltip and the name say what it does.
    m_newImage->setIcon(themeIcon(QStringLiteral("image")));
    m_newImage->setToolButtonStyle(Qt::ToolButtonIconOnly);
    connect(m_newImage, &QToolButton::clicked, this, &PromptPanel::newImageRequested);

    m_send = new QPushButton(this);
    m_send->setObjectName(QStringLiteral("sendButton"));
    m_send->setDefault(true);
    m_send->setMinimumWidth(150);
    m_send->setMinimumHeight(30);
    QFont bold = m_send->font();
    bold.setBold(true);
    m_send->setFont(bold);
    connect(m_send, &QPushButton::clicked, this, &PromptPanel::submitRequested);

    // Variants: one prompt, N independent turns (siblings), picked from a grid afterwards.
    m_variants = new QSpinBox(this);
    m_variants->setObjectName(QStringLiteral("variantsSpin"));
    m_variants->setRange(1, 8);
    m_variants->setPrefix(tr("Variants: "));
    m_variants->setAccessibleName(tr("Variants"));
    m_variants->setToolTip(tr("Send the prompt as this many independent turns at once, then pick the best "
                              "(the others are folded, never deleted)"));
    connect(m_variants, &QSpinBox::valueChanged, this, [this](int n) {
        updateButton();
        Q_EMIT variantsChanged(n);
    });

    auto *controls = new QHBoxLayout;
    controls->setSpacing(6);
    controls->addWidget(m_newImage);
    controls->addStretch(1);
    controls->addWidget(m_variants);
    controls->addWidget(m_send);
    outer->addLayout(controls);

    connect(m_edit, &QPlainTextEdit::textChanged, this, &PromptPanel::updateButton);
    connect(m_style, &StyleSlot::fileDropped, this, &PromptPanel::styleFileDropped);
    connect(m_style, &StyleSlot::cleared, this, [this] {
        updateButton();
        Q_EMIT styleFileChanged();
    });
    setThinkingLevels({QStringLiteral("low"), QStringLiteral("high")}, QStringLiteral("low"));
    TurnPlan initial;
    initial.aspectRatio = QStringLiteral("1:1");
    setPlan(initial);
    setAspectRatio(initial.aspectRatio);
}

void PromptPanel::setPlan(const TurnPlan &plan)
{
    const Mode previous = m_mode;
    m_plan = plan;
    m_mode = plan.newBranch ? Mode::Branch : plan.kind;
    setVariantsNote(m_variantsNote); // the reason line, with the variants note under it; reserves its height
    // Generate keeps whatever ratio the user picked; coming back from an edit restores the
    // ratio last chosen for Generate instead of the chain's.
    if (!plan.aspectRatio.isEmpty() && (plan.kind != TurnMode::Generate || previous != Mode::Generate))
        setAspectRatio(plan.aspectRatio);
    m_aspect->setEnabled(!plan.aspectLocked);
    m_aspect->setToolTip(plan.aspectLocked ? tr("Edits keep the chain's aspect ratio") : tr("Shape of the new image"));
    m_newImage->setVisible(plan.kind != TurnMode::Generate);
    updateButton();
}

int PromptPanel::variants() const
{
    return m_variants->value();
}
void PromptPanel::setVariants(int count)
{
    m_variants->setValue(count);
}

void PromptPanel::setVariantsNote(const QString &richText)
{
    m_variantsNote = richText;
    QString text = m_plan.reason;
    if (variants() > 1 && !richText.isEmpty())
        text += (text.isEmpty() ? QString() : QStringLiteral("<br>")) + richText;
    m_context->setText(text);
    m_context->setVisible(!text.isEmpty());
    reserveContextHeight();
}

void PromptPanel::reserveContextHeight()
{
    // A dock does not lay out by height-for-width: without this the wrapped reason line is
    // given one line's height and, in a short window (800×600), the prompt box is pushed over
    // the ratio row and the style slot. Reserving its wrapped height makes the dock keep room.
    const int width = m_context->width() > 0 ? m_context->width() : m_context->sizeHint().width();
    m_context->setMinimumHeight(
        m_context->isVisible() || !m_context->text().isEmpty() ? m_context->heightForWidth(width) : 0);
}

void PromptPanel::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    reserveContextHeight();
}

QString PromptPanel::contextText() const
{
    return m_context->text();
}

void PromptPanel::updateButton()
{
    QString text;
    QString tip;
    switch (m_mode) {
    case Mode::Generate:
        text = tr("Generate");
        tip = tr("Create a new image from the prompt (Ctrl+Enter)");
        break;
    case Mode::Edit:
    case Mode::EditLocal:
    case Mode::Style:
        text = tr("Edit this frame");
        tip = tr("Change the selected frame as the prompt says (Ctrl+Enter)");
        break;
    case Mode::Branch:
        text = tr("Branch from here");
        tip = tr("The selected frame already has a continuation: this starts a new branch from it (Ctrl+Enter)");
        break;
    }
    if (!m_style->file().isEmpty() && m_mode != Mode::Generate)
        tip += QLatin1Char('\n') + tr("The style reference image is sent too.");
    if (const int n = variants(); n > 1) {
        text = tr("Send %n variants", nullptr, n);
        tip = m_mode == Mode::Generate
            ? tr("Send the prompt as %n independent new images at once (Ctrl+Enter)", nullptr, n)
            : tr("Send the prompt as %n sibling branches of the selected frame at once: "
                 "an explicit fork (Ctrl+Enter)",
                nullptr, n);
    }
    if (m_plan.region != RegionMode::None) // issue 13: one region/protect edit is sent, variants or not
        text = m_plan.region == RegionMode::Region ? tr("Edit region") : tr("Edit, protect selection");
    m_send->setText(text);
    m_send->setIcon(
        themeIcon(m_mode == Mode::Branch || (variants() > 1 && m_mode != Mode::Generate) ? QStringLiteral("branch")
                : m_mode == Mode::Generate                                               ? QStringLiteral("generate")
                                                                                         : QStringLiteral("edit")));
    if (m_costPerTurn >= 0) {
        // Issue 14: what pressing the button will cost, before anything is sent.
        const int turns = m_plan.region != RegionMode::None ? 1 : variants();
        tip += QLatin1Char('\n')
            + (turns > 1 ? tr("Estimated cost: %1 for %n turn(s) (%2)", nullptr, turns)
                               .arg(formatUsd(m_costPerTurn * turns), m_costBasis)
                         : tr("Estimated cost: %1 (%2)").arg(formatUsd(m_costPerTurn), m_costBasis));
        if (!m_budgetLine.isEmpty())
            tip += QLatin1Char('\n') + m_budgetLine;
    }
    m_send->setToolTip(tip);
    m_send->setAccessibleName(text);
    m_send->setEnabled(m_plan.sendable && !m_edit->toPlainText().trimmed().isEmpty());
}

void PromptPanel::setThinkingLevels(const QStringList &levels, const QString &preferred)
{
    const QString current = m_thinking->currentData().toString();
    m_thinking->clear();
    for (const QString &l : levels)
        m_thinking->addItem(l, l);
    const QString want = levels.contains(current) ? current : preferred;
    const int i = m_thinking->findData(want);
    m_thinking->setCurrentIndex(i >= 0 ? i : 0);
}

QStringList PromptPanel::thinkingLevels() const
{
    QStringList out;
    for (int i = 0; i < m_thinking->count(); ++i)
        out << m_thinking->itemData(i).toString();
    return out;
}

QString PromptPanel::prompt() const
{
    return m_edit->toPlainText().trimmed();
}
void PromptPanel::setPrompt(const QString &text)
{
    m_edit->setPlainText(text);
}
void PromptPanel::clearPrompt()
{
    m_edit->clear();
}
QString PromptPanel::aspectRatio() const
{
    return m_aspect->currentData().toString();
}

void PromptPanel::setAspectRatio(const QString &ratio)
{
    const int i = m_aspect->findData(ratio);
    if (i >= 0)
        m_aspect->setCurrentIndex(i);
}

QString PromptPanel::thinkingLevel() const
{
    return m_thinking->currentData().toString();
}

void PromptPanel::setThinkingLevel(const QString &level)
{
    const int i = m_thinking->findData(level);
    if (i >= 0)
        m_thinking->setCurrentIndex(i);
}

QString PromptPanel::styleFile() const
{
    return m_style->file();
}

void PromptPanel::setStyleFile(const QString &path, const QImage &preview)
{
    if (path.isEmpty())
        m_style->clear();
    else
        m_style->setFile(path, preview);
    updateButton();
    Q_EMIT styleFileChanged();
}

void PromptPanel::setCostEstimate(double usdPerTurn, const QString &basis, const QString &budgetLine)
{
    m_costPerTurn = usdPerTurn;
    m_costBasis = basis;
    m_budgetLine = budgetLine;
    updateButton();
}

void PromptPanel::setBusyText(const QString &text)
{
    m_send->setToolTip(text);
}
void PromptPanel::focusPrompt()
{
    m_edit->setFocus(Qt::ShortcutFocusReason);
}

// ---- StyleSlot ----

StyleSlot::StyleSlot(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("styleSlot"));
    setAcceptDrops(true);
    setAccessibleName(tr("Style reference"));
    setToolTip(tr("Optional style reference: drop an image here (or click to choose one). "
                  "The next edit restyles the frame after it."));
    setCursor(Qt::PointingHandCursor);
    m_clear = new QToolButton(this);
    m_clear->setText(QStringLiteral("\u2715"));
    m_clear->setAutoRaise(true);
    m_clear->setToolTip(tr("Remove the style reference"));
    m_clear->setAccessibleName(tr("Remove style reference"));
    m_clear->setFixedSize(18, 18);
    m_clear->hide();
    connect(m_clear, &QToolButton::clicked, this, [this] {
        clear();
        Q_EMIT cleared();
    });
}

QSize StyleSlot::sizeHint() const
{
    return {76, 58};
}

void StyleSlot::setFile(const QString &path, const QImage &preview)
{
    m_file = path;
    const qreal dpr = devicePixelRatioF();
    m_preview = preview.isNull()
        ? QPixmap()
        : QPixmap::fromImage(preview.scaled(QSize(72, 54) * dpr, Qt::KeepAspectRatio, Qt::SmoothTransformation));
    m_preview.setDevicePixelRatio(dpr);
    m_clear->move(width() - m_clear->width() - 2, 2);
    m_clear->setVisible(!path.isEmpty());
    setToolTip(path.isEmpty() ? QString() : tr("Style reference: %1").arg(QFileInfo(path).fileName()));
    update();
}

void StyleSlot::clear()
{
    m_file.clear();
    m_preview = QPixmap();
    m_clear->hide();
    setToolTip(tr("Optional style reference: drop an image here (or click to choose one)."));
    update();
}

void StyleSlot::paintEvent(QPaintEvent *)
{
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QRectF r = QRectF(rect()).adjusted(1, 1, -1, -1);
    const QColor accent = palette().color(QPalette::Highlight);
    QColor line = palette().color(QPalette::Mid);
    if (m_dragOver)
        line = accent;
    p.setPen(QPen(line, m_dragOver ? 2 : 1, m_file.isEmpty() ? Qt::DashLine : Qt::SolidLine));
    p.setBrush(m_dragOver ? QColor(accent.red(), accent.green(), accent.blue(), 30) : palette().color(QPalette::Base));
    p.drawRoundedRect(r, 5, 5);
    if (!m_preview.isNull()) {
        const QSizeF s = QSizeF(m_preview.size()) / m_preview.devicePixelRatio();
        p.drawPixmap(QPointF((width() - s.width()) / 2, (height() - s.height()) / 2), m_preview);
        return;
    }
    QFont f = font();
    f.setPixelSize(11);
    p.setFont(f);
    p.setPen(palette().color(QPalette::PlaceholderText));
    p.drawText(rect().adjusted(4, 4, -4, -4), Qt::AlignCenter | Qt::TextWordWrap, tr("Style\nreference"));
}

void StyleSlot::dragEnterEvent(QDragEnterEvent *event)
{
    if (event->mimeData()->hasUrls()) {
        m_dragOver = true;
        update();
        event->acceptProposedAction();
    }
}

void StyleSlot::dragLeaveEvent(QDragLeaveEvent *)
{
    m_dragOver = false;
    update();
}

void StyleSlot::dropEvent(QDropEvent *event)
{
    m_dragOver = false;
    update();
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.isEmpty() || !urls.first().isLocalFile())
        return;
    event->acceptProposedAction();
    Q_EMIT fileDropped(urls.first().toLocalFile());
}

void StyleSlot::mousePressEvent(QMouseEvent *event)
{
    if (event->button() != Qt::LeftButton)
        return;
    const QString path = QFileDialog::getOpenFileName(
        this, tr("Choose a Style Reference"), {}, tr("Images (*.png *.jpg *.jpeg *.webp *.gif *.bmp)"));
    if (!path.isEmpty())
        Q_EMIT fileDropped(path);
}

} // namespace nb2
