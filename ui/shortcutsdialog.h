#pragma once

#include <QDialog>
#include <QList>
#include <QPair>

class QTableWidget;

namespace nb2 {

/** Help → Keyboard Shortcuts: every action that has a shortcut, in menu order, filterable by typing. */
class ShortcutsDialog : public QDialog
{
    Q_OBJECT
public:
    /** rows: (command, shortcut text) as ActionManager::shortcutTable() gives them. */
    explicit ShortcutsDialog(const QList<QPair<QString, QString>> &rows, QWidget *parent = nullptr);
    int rowCount() const;

private:
    QTableWidget *m_table;
};

} // namespace nb2
