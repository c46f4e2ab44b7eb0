#include "ui/shortcutsdialog.h"

#include <QDialogButtonBox>
#include <QHeaderView>
#include <QLineEdit>
#include <QTableWidget>
#include <QVBoxLayout>

namespace nb2 {

ShortcutsDialog::ShortcutsDialog(const QList<QPair<QString, QString>> &rows, QWidget *parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("shortcutsDialog"));
    setWindowTitle(tr("Keyboard Shortcuts"));
    auto *v = new QVBoxLayout(this);
    auto *filter = new QLineEdit(this);
    filter->setObjectName(QStringLiteral("shortcutFilter"));
    filter->setPlaceholderText(tr("Filter…"));
    filter->setAccessibleName(tr("Filter shortcuts"));
    filter->setClearButtonEnabled(true);
    v->addWidget(filter);
    m_table = new QTableWidget(int(rows.size()), 2, this);
    m_table->setObjectName(QStringLiteral("shortcutTable"));
    m_table->setHorizontalHeaderLabels({tr("Command"), tr("Shortcut")});
    m_table->setAccessibleName(tr("Keyboard shortcuts"));
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    for (int r = 0; r < rows.size(); ++r) {
        m_table->setItem(r, 0, new QTableWidgetItem(rows[r].first));
        m_table->setItem(r, 1, new QTableWidgetItem(rows[r].second));
    }
    v->addWidget(m_table, 1);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    v->addWidget(buttons);
    connect(filter, &QLineEdit::textChanged, this, [this](const QString &text) {
        for (int r = 0; r < m_table->rowCount(); ++r) {
            const bool match = text.isEmpty() || m_table->item(r, 0)->text().contains(text, Qt::CaseInsensitive)
                || m_table->item(r, 1)->text().contains(text, Qt::CaseInsensitive);
            m_table->setRowHidden(r, !match);
        }
    });
    resize(460, 520);
}

int ShortcutsDialog::rowCount() const
{
    return m_table->rowCount();
}

} // namespace nb2
