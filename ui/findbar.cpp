#include "ui/findbar.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>

namespace nb2 {

FindBar::FindBar(QWidget *parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("findBar"));
    auto *row = new QHBoxLayout(this);
    row->setContentsMargins(4, 2, 4, 2);
    m_text = new QLineEdit(this);
    m_text->setObjectName(QStringLiteral("findText"));
    m_text->setPlaceholderText(tr("Find in prompts and titles (Ctrl+F)"));
    m_text->setClearButtonEnabled(true);
    m_text->setAccessibleName(tr("Find frames"));
    m_starred = new QToolButton(this);
    m_starred->setObjectName(QStringLiteral("findStarred"));
    m_starred->setCheckable(true);
    m_starred->setText(QStringLiteral("★"));
    m_starred->setToolTip(tr("Only starred frames"));
    m_starred->setAccessibleName(tr("Only starred frames"));
    m_status = new QComboBox(this);
    m_status->setObjectName(QStringLiteral("findStatus"));
    m_status->setAccessibleName(tr("Status"));
    m_status->addItem(tr("Any status"));
    for (FrameStatus s : {FrameStatus::Done, FrameStatus::Pending, FrameStatus::Failed, FrameStatus::Cancelled,
             FrameStatus::Interrupted})
        m_status->addItem(frameStatusName(s), int(s));
    m_kind = new QComboBox(this);
    m_kind->setObjectName(QStringLiteral("findKind"));
    m_kind->setAccessibleName(tr("Kind"));
    m_kind->addItem(tr("Any kind"));
    for (FrameKind k : {FrameKind::Generate, FrameKind::Edit, FrameKind::EditLocal, FrameKind::StyleEdit,
             FrameKind::Import, FrameKind::ReAnchor})
        m_kind->addItem(frameKindName(k), int(k));
    m_count = new QLabel(this);
    m_count->setObjectName(QStringLiteral("findCount"));
    row->addWidget(m_text, 1);
    row->addWidget(m_starred);
    row->addWidget(m_status);
    row->addWidget(m_kind);
    row->addWidget(m_count);

    const auto changed = [this] { Q_EMIT filterChanged(filter()); };
    connect(m_text, &QLineEdit::textChanged, this, changed);
    connect(m_starred, &QToolButton::toggled, this, changed);
    connect(m_status, &QComboBox::currentIndexChanged, this, changed);
    connect(m_kind, &QComboBox::currentIndexChanged, this, changed);
}

FrameFilter FindBar::filter() const
{
    FrameFilter f;
    f.text = m_text->text();
    f.starredOnly = m_starred->isChecked();
    if (m_status->currentIndex() > 0)
        f.status = FrameStatus(m_status->currentData().toInt());
    if (m_kind->currentIndex() > 0)
        f.kind = FrameKind(m_kind->currentData().toInt());
    return f;
}

void FindBar::setMatchCount(int matches, int total)
{
    m_count->setText(filter().isEmpty() ? QString() : tr("%1 of %n frame(s)", nullptr, total).arg(matches));
}

void FindBar::focusText()
{
    m_text->setFocus(Qt::ShortcutFocusReason);
    m_text->selectAll();
}

void FindBar::clearFilter()
{
    m_text->clear();
    m_starred->setChecked(false);
    m_status->setCurrentIndex(0);
    m_kind->setCurrentIndex(0);
}

} // namespace nb2
