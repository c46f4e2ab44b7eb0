#include "ui/keeplistwidget.h"

#include "core/session/keeplist.h"
#include "core/session/sessioncontroller.h"
#include "ui/elidedlabel.h"
#include "ui/frameselection.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace nb2 {

KeepListWidget::KeepListWidget(SessionController *session, FrameSelection *selection, QWidget *parent)
    : QWidget(parent), m_session(session), m_selection(selection)
{
    setObjectName(QStringLiteral("keepList"));
    auto *v = new QVBoxLayout(this);
    v->setContentsMargins(6, 4, 6, 2);
    v->setSpacing(3);

    auto *header = new QHBoxLayout;
    header->setSpacing(6);
    m_title = new QLabel(tr("Keep-list"), this);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    m_title->setToolTip(tr("Constraints sent with every edit of this branch, below your prompt. Branches forked "
                           "from here inherit them."));
    header->addWidget(m_title);
    // Ends in "…" in a narrow dock (the tooltip has all of it) instead of being cut mid-word.
    m_source = new ElidedLabel(Qt::ElideRight, this);
    m_source->setObjectName(QStringLiteral("keepListSource"));
    QPalette dim = m_source->palette();
    dim.setColor(QPalette::WindowText, dim.color(QPalette::PlaceholderText));
    m_source->setPalette(dim);
    header->addWidget(m_source, 1);
    m_inherit = new QToolButton(this);
    m_inherit->setObjectName(QStringLiteral("keepListInherit"));
    m_inherit->setText(tr("Inherit"));
    m_inherit->setToolTip(tr("Drop this frame's own keep-list and use the one of the frames before it"));
    m_inherit->setAutoRaise(true);
    connect(m_inherit, &QToolButton::clicked, this, &KeepListWidget::inherit);
    header->addWidget(m_inherit);
    m_remove = new QToolButton(this);
    m_remove->setObjectName(QStringLiteral("keepListRemove"));
    m_remove->setText(QStringLiteral("×"));
    m_remove->setToolTip(tr("Remove the selected constraint (Delete)"));
    m_remove->setAccessibleName(tr("Remove the selected constraint"));
    m_remove->setAutoRaise(true);
    connect(m_remove, &QToolButton::clicked, this, [this] { removeItem(m_list ? m_list->currentRow() : -1); });
    header->addWidget(m_remove);
    v->addLayout(header);

    m_add = new QLineEdit(this);
    m_add->setObjectName(QStringLiteral("keepListAdd"));
    m_add->setPlaceholderText(tr("Add a constraint: keep the face, same framing… (Enter)"));
    m_add->setAccessibleName(tr("Add to the keep-list"));
    m_add->setMaxLength(KeepList::kMaxItemLength);
    m_add->setClearButtonEnabled(true);
    connect(m_add, &QLineEdit::returnPressed, this, [this] {
        addItem(m_add->text());
        m_add->clear();
    });
    v->addWidget(m_add);

    connect(selection, &FrameSelection::currentChanged, this, &KeepListWidget::refresh);
    connect(session, &SessionController::framesChanged, this, &KeepListWidget::refresh);
    connect(session, &SessionController::opened, this, &KeepListWidget::refresh);
    refresh();
}

void KeepListWidget::ensureList()
{
    if (m_list)
        return;
    m_list = new QListWidget(this);
    m_list->setObjectName(QStringLiteral("keepListItems"));
    m_list->setAccessibleName(tr("Keep-list"));
    m_list->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    m_list->setUniformItemSizes(true);
    m_list->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    m_list->installEventFilter(this);
    connect(m_list, &QListWidget::itemChanged, this, &KeepListWidget::onItemChanged);
    connect(m_list, &QListWidget::currentRowChanged, this, [this](int row) { m_remove->setEnabled(row >= 0); });
    static_cast<QVBoxLayout *>(layout())->insertWidget(1, m_list); // under the header, above the line edit
    // Made later than its neighbours: back between the remove button and the line edit for Tab.
    QWidget::setTabOrder(m_remove, m_list);
}

QStringList KeepListWidget::items() const
{
    QStringList out;
    for (int i = 0; m_list && i < m_list->count(); ++i)
        out.append(m_list->item(i)->text());
    return out;
}

QString KeepListWidget::sourceText() const
{
    return m_source->text();
}

void KeepListWidget::refresh()
{
    m_frameId = m_session->isOpen() && !m_selection->isNewImageRequested() ? m_selection->currentId() : QString();
    const EffectiveKeepList keep
        = m_frameId.isEmpty() ? EffectiveKeepList() : KeepList::effective(m_session->graph(), m_frameId);
    // The list is made for the first keep-list shown (hidden while empty: a start-up never
    // shows it, and a QListWidget is ~0.5 M instructions of the GUI thread before the first frame).
    if (!keep.items.isEmpty())
        ensureList();
    if (m_list) {
        m_filling = true;
        m_list->clear();
        for (const QString &item : keep.items) {
            auto *it = new QListWidgetItem(item, m_list);
            it->setFlags(it->flags() | Qt::ItemIsEditable);
        }
        m_filling = false;
        // Up to four rows tall, and one row's height when empty so the panel does not jump much.
        const int row = m_list->sizeHintForRow(0) > 0 ? m_list->sizeHintForRow(0) : fontMetrics().height() + 4;
        m_list->setFixedHeight(row * qBound(1, int(keep.items.size()), 4) + 2 * m_list->frameWidth() + 2);
        m_list->setVisible(!keep.items.isEmpty());
    }

    const bool editable = !m_frameId.isEmpty();
    m_add->setEnabled(editable && keep.items.size() < KeepList::kMaxItems);
    m_remove->setEnabled(editable && m_list && m_list->currentRow() >= 0);
    m_remove->setVisible(!keep.items.isEmpty());
    const bool ownList = editable && keep.setOn == m_frameId;
    const bool ancestorHasOne = ownList
        && !KeepList::effective(m_session->graph(), m_session->graph().value(m_frameId).parentId).setOn.isEmpty();
    m_inherit->setVisible(ancestorHasOne);
    if (!editable)
        m_source->setText(tr("applies to edits: select a frame"));
    else if (keep.setOn.isEmpty())
        m_source->setText(tr("none: add what every edit of this branch must keep"));
    else if (ownList)
        m_source->setText(tr("set on %1, for it and what follows").arg(m_selection->label(m_frameId)));
    else
        m_source->setText(tr("inherited from %1").arg(m_selection->label(keep.setOn)));
}

void KeepListWidget::store(const QStringList &items)
{
    if (m_frameId.isEmpty())
        return;
    m_session->setKeepList(m_frameId, items); // framesChanged -> refresh()
}

void KeepListWidget::addItem(const QString &text)
{
    if (text.simplified().isEmpty())
        return;
    store(items() << text);
}

void KeepListWidget::removeItem(int row)
{
    QStringList list = items();
    if (row < 0 || row >= list.size())
        return;
    list.removeAt(row);
    store(list);
}

void KeepListWidget::inherit()
{
    if (!m_frameId.isEmpty())
        m_session->setKeepList(m_frameId, {}, false);
}

void KeepListWidget::onItemChanged(QListWidgetItem *)
{
    if (!m_filling)
        store(items()); // a reworded item; an emptied one is dropped by KeepList::cleaned
}

bool KeepListWidget::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_list && event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        if ((key->key() == Qt::Key_Delete || key->key() == Qt::Key_Backspace)) {
            removeItem(m_list->currentRow());
            return true;
        }
    }
    return QWidget::eventFilter(watched, event);
}

} // namespace nb2
