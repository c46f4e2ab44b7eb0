#pragma once

#include "core/api/clientconfig.h"

#include <QObject>

class QWidget;

namespace nb2 {

class ActionManager;
class FrameSelection;
class KeyStore;
class NoticePresenter;
class SessionManager;
class ThinkingLevels;

/**
 * Opens the window's dialogs — Settings, Diagnostics, Export, About and Keyboard Shortcuts —
 * with what each needs, non-modal where the user may keep working, and each one fitted to
 * the screen. After Settings saves, the session's settings are re-read (a new key tier also
 * re-dates the open session's server ids) and settingsSaved() tells the app to re-resolve the
 * key and backend.
 */
class WindowDialogs : public QObject
{
    Q_OBJECT
public:
    WindowDialogs(SessionManager *sessions, FrameSelection *selection, NoticePresenter *notices, ActionManager *actions,
        ThinkingLevels *levels, QWidget *window);

    void setBackend(const ClientConfig &config, bool demo);

public Q_SLOTS:
    void showSettings();
    void showDiagnostics();
    void showExport();
    void showAbout();
    void showShortcuts();

Q_SIGNALS:
    void settingsSaved(bool keyChanged);

private:
    /** After Settings saved: a new key tier recomputes the open session's id expiries. */
    void applyKeyTier(int retentionDaysBefore);

    SessionManager *m_sessions;
    FrameSelection *m_selection;
    NoticePresenter *m_notices;
    ActionManager *m_actions;
    ThinkingLevels *m_levels;
    QWidget *m_window;
    KeyStore *m_keyStore;
    ClientConfig m_config;
    bool m_demo = false;
    bool m_exportPreparing = false; // the export model is being made on a worker
};

} // namespace nb2
