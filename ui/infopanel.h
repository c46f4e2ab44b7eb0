#pragma once

#include <QHash>
#include <QWidget>

class QGridLayout;
class QScrollArea;
class QVBoxLayout;
class QLabel;
class QToolButton;

namespace nb2 {

class ElidedLabel;
struct Frame;

/**
 * Everything the session knows about the selected frame, read-only and selectable: prompt,
 * kind, status, star, aspect ratio, thinking level, model, interaction id (elided, with a copy
 * button), parent (a link that selects it), the model's text, usage, timestamps, attempts and
 * the image file (with "show in folder"). Rows without a value are hidden; long values wrap
 * (ids and file names break anywhere) instead of being clipped. A long server id is shown once,
 * in its own row; the error row names it shortly and quotes the server once. A cancel is the
 * user's own doing and reads as a status, not as a red error.
 */
class InfoPanel : public QWidget
{
    Q_OBJECT
public:
    explicit InfoPanel(QWidget *parent = nullptr);

    /** number: the frame's number on the timeline; parentNumber 0 = root. absoluteFile: the image. */
    void setFrame(const Frame &frame, int number, int parentNumber, const QString &absoluteFile);
    void clear();
    /**
     * Makes the rows now, still hidden (else the first setFrame() makes them), and loads the
     * id's font: for when a frame is about to follow (a session is opening), so that the pass
     * that shows it is shorter.
     */
    void prepare();
    /** Whether the rows are made (tests). */
    bool isPrepared() const { return m_body != nullptr; }
    /** The "Cost:" row: the frame's estimated cost and what re-running its branch would cost (empty: hidden). */
    void setCost(const QString &text);
    QString interactionId() const { return m_interactionId; }
    /** The text of a row by its object name ("infoStatus", "infoError", "infoStar", ...); empty when hidden. */
    QString rowText(const QString &objectName) const;

Q_SIGNALS:
    void parentActivated(const QString &frameId);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    /**
     * The rows of the details (24 of them, 56 widgets, hidden until a frame is shown) are made
     * when the first frame is shown: the first paint has only the hint (~1.8 M instructions of
     * the GUI thread before it, 3 %).
     */
    void ensureBody();
    void reserveWrappedHeights();
    void reserveHeight(QLabel *label);
    QLabel *addRow(const QString &label, const char *objectName);
    void setRow(QLabel *field, const QString &text);
    void addRowWidget(const QString &label, QWidget *field);
    void setRowShown(QWidget *field, bool shown);
    /** The issue 13 rows: prompt as sent, the keep-list set here, drift, region/protect and the raw image. */
    void setPrecisionRows(const Frame &f);

    QScrollArea *m_scroll = nullptr;
    QVBoxLayout *m_column = nullptr; // the hint, the rows (once made), a stretch
    QGridLayout *m_grid = nullptr;
    QHash<QWidget *, QLabel *> m_captions; // field -> its caption, hidden together
    QWidget *m_idRow = nullptr;
    QWidget *m_fileRow = nullptr;
    QLabel *m_empty = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_prompt = nullptr;
    QLabel *m_promptSent = nullptr;
    QLabel *m_keepList = nullptr;
    QLabel *m_drift = nullptr;
    QLabel *m_region = nullptr;
    QLabel *m_kind = nullptr;
    QLabel *m_status = nullptr;
    QLabel *m_star = nullptr;
    QLabel *m_error = nullptr;
    QLabel *m_aspect = nullptr;
    QLabel *m_thinking = nullptr;
    QLabel *m_model = nullptr;
    ElidedLabel *m_id = nullptr;
    QLabel *m_expires = nullptr;
    QLabel *m_lineage = nullptr;
    QLabel *m_replays = nullptr; // a replayed step: the frame it replays (issue 14)
    QLabel *m_parent = nullptr;
    QLabel *m_text = nullptr;
    QLabel *m_usage = nullptr;
    QLabel *m_cost = nullptr;
    QLabel *m_requested = nullptr;
    QLabel *m_finished = nullptr;
    QLabel *m_attempts = nullptr;
    QLabel *m_file = nullptr;
    QLabel *m_note = nullptr;
    QToolButton *m_copyId = nullptr;
    QToolButton *m_reveal = nullptr;
    QWidget *m_body = nullptr;
    QString m_interactionId;
    QString m_filePath;
    QString m_parentId;
    bool m_reservePending = false;
    QList<QLabel *> m_wrapped;    // the rows that wrap (fixed at construction): what reserveWrappedHeights() measures
    QList<QLabel *> m_selectable; // the values that become selectable text under the mouse
};

} // namespace nb2
