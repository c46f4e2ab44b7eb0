#pragma once

#include "core/session/replayplan.h"

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QListWidget;
class QRadioButton;

namespace nb2 {

class SessionController;

/**
 * "Replay onto…": where the chosen range's prompts go — a frame of the session (a new branch
 * there; the selected frame by default) or pictures and folders (each a new root) — with the
 * plan's numbers before anything is sent: how many turns, the estimated cost, and whether the
 * session budget allows it. It only builds the plan; the replay panel runs it.
 *
 * The model is the one set in Settings (shown, not chosen here: the app has one client per
 * session). The thinking level can be kept as each source step had it, or set for every step,
 * as the CLI's --thinking does.
 */
class ReplayDialog : public QDialog
{
    Q_OBJECT
public:
    ReplayDialog(SessionController *session, const QString &fromId, const QString &toId, const QString &ontoId,
        QWidget *parent = nullptr);

    /** The plan as it stands (an Error saying what is missing when it cannot run). */
    Result<ReplayPlan> plan() const;
    /** Adds pictures or folders to the list and switches to "Onto pictures" (drops, tests). */
    void addPaths(const QStringList &paths);
    /** The level every step is sent with; empty: each step keeps its source frame's level. */
    QString thinkingLevel() const;

private:
    void refresh();
    void addFiles();
    void addFolder();

    SessionController *m_session;
    QString m_from;
    QString m_to;
    QRadioButton *m_ontoFrame = nullptr;
    QRadioButton *m_ontoPhotos = nullptr;
    QLineEdit *m_frameRef = nullptr;
    QListWidget *m_photos = nullptr;
    QComboBox *m_thinking = nullptr;
    QLabel *m_summary = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace nb2
