#pragma once

#include <QHash>
#include <QPointer>
#include <QStringList>
#include <QTimer>
#include <QWidget>

class QGridLayout;
class QLabel;
class QPushButton;

namespace nb2 {

class SessionController;
class ThumbnailProvider;
class VariantCell;

/**
 * The variants of one prompt side by side, filled in as they arrive: a pending one spins, a
 * finished one shows its picture, a failed one says so. "Pick" stars the chosen variant and
 * folds the others (SessionController::pickVariant: one undo step; nothing is deleted, and a
 * folded frame can be unfolded from the timeline). It reads the session and never sends.
 */
class VariantGrid : public QWidget
{
    Q_OBJECT
public:
    VariantGrid(SessionController *session, ThumbnailProvider *thumbs, QWidget *parent = nullptr);

    /** Shows a batch: `frameIds` in the order they were sent; `what` says what they are ("3 new branches from #4"). */
    void setVariants(const QStringList &frameIds, const QString &what);
    QStringList frameIds() const { return m_ids; }
    /** Variants still running. */
    int pendingCount() const;
    /** The cell of a frame (tests and screenshots), or nullptr. */
    QWidget *cell(const QString &frameId) const;
    QPushButton *pickButton(const QString &frameId) const;
    QString pickedId() const { return m_picked; }

public Q_SLOTS:
    /** Stars `frameId` and folds the other variants; false when it is not one of them or not finished. */
    bool pick(const QString &frameId);

Q_SIGNALS:
    void picked(const QString &frameId);

private:
    void refresh(const QString &frameId);
    int cellSide() const;

    QPointer<SessionController> m_session;
    ThumbnailProvider *m_thumbs;
    QStringList m_ids;
    QString m_picked;
    QLabel *m_header = nullptr;
    QGridLayout *m_grid = nullptr;
    QHash<QString, VariantCell *> m_cells;
    QTimer m_spin; // repaints pending cells while anything runs
};

/** One variant: its picture (or a spinner, or the failure), its number and prompt, and Pick. */
class VariantCell : public QWidget
{
    Q_OBJECT
public:
    VariantCell(int number, int side, QWidget *parent = nullptr);

    enum class State { Pending, Done, Failed };
    void setState(State state, const QString &text);
    void setPixmap(const QPixmap &pixmap);
    void setPicked(bool picked);
    State state() const { return m_state; }
    QPushButton *pickButton() const { return m_pick; }
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QRect imageRect() const;

    int m_number;
    int m_side;
    State m_state = State::Pending;
    QString m_text;
    QPixmap m_pixmap;
    bool m_picked = false;
    QPushButton *m_pick = nullptr;
};

} // namespace nb2
