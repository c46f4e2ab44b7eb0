#include "ui/windowdialogs.h"

#include "core/api/buildinfo.h"
#include "core/api/thinkinglevels.h"
#include "core/session/sessioncontroller.h"
#include "ui/actionmanager.h"
#include "ui/diagnosticsdialog.h"
#include "ui/exportdialog.h"
#include "ui/frameselection.h"
#include "ui/keystore.h"
#include "ui/noticepresenter.h"
#include "ui/screenfit.h"
#include "ui/sessionmanager.h"
#include "ui/settingsdialog.h"
#include "ui/shortcutsdialog.h"
#include "ui/windowpreferences.h"

#include <QCoreApplication>
#include <QFutureWatcher>
#include <QMessageBox>
#include <QTimer>

namespace nb2 {

namespace {
/** After the dialog has laid itself out: bound it by the screen (its minimum size too). */
void openFitted(QDialog *dialog)
{
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
    fitToScreen(dialog);
}
} // namespace

WindowDialogs::WindowDialogs(SessionManager *sessions, FrameSelection *selection, NoticePresenter *notices,
    ActionManager *actions, ThinkingLevels *levels, QWidget *window)
    : QObject(window)
    , m_sessions(sessions)
    , m_selection(selection)
    , m_notices(notices)
    , m_actions(actions)
    , m_levels(levels)
    , m_window(window)
    ,
    // App-wide, not the window's child: a pending QtKeychain (libsecret) job must outlive a
    // closed window, or its late answer lands on a deleted object.
    m_keyStore(new KeyStore(QCoreApplication::instance()))
{}

void WindowDialogs::setBackend(const ClientConfig &config, bool demo)
{
    m_config = config;
    m_demo = demo;
}

void WindowDialogs::showSettings()
{
    if (auto *open = m_window->findChild<SettingsDialog *>()) {
        open->raise();
        open->activateWindow();
        return;
    }
    auto *dialog = new SettingsDialog(m_keyStore, QProcessEnvironment::systemEnvironment(), m_window);
    dialog->setThinkingLevels(m_levels->allowed(m_config.model));
    connect(dialog, &SettingsDialog::settingsSaved, this, [this](bool keyChanged) {
        const AppSettings studio = WindowPreferences::studio();
        SessionController *session = m_sessions->session();
        const int retentionBefore = session->settings().retentionDays();
        session->setSettings(studio.session);
        session->setPriceTable(studio.prices);
        applyKeyTier(retentionBefore);
        Q_EMIT settingsSaved(keyChanged);
    });
    openFitted(dialog);
}

void WindowDialogs::applyKeyTier(int retentionDaysBefore)
{
    // The key tier says how long the server keeps this key's interactions, those already made
    // included (the person corrects what we assumed). Left as they were, the open session's
    // frames would keep the old expiry: after "free" -> "paid", edits from a two-day-old frame
    // would be re-anchored (sent as pixels, server context lost) although the server still has
    // its id. Other sessions keep what they recorded until the tier changes while they are open.
    SessionController *session = m_sessions->session();
    const int days = session->settings().retentionDays();
    if (days == retentionDaysBefore || !session->isOpen())
        return;
    if (session->applyRetentionToExistingFrames())
        m_notices->status(
            tr("Key tier changed: this session's ids now expire %n day(s) after each frame.", nullptr, days),
            8000);
}

void WindowDialogs::showDiagnostics()
{
    DiagnosticsInfo info = DiagnosticsInfo::fromConfig(m_config);
    info.demoBackend = m_demo;
    info.opensslVersion = opensslVersion();
    info.thinkingLevels = m_levels->allowed(m_config.model);
    info.thinkingLevelsLearned = m_levels->isLearned(m_config.model);
    info.sessionsFolder = WindowPreferences::sessionsFolder();
    auto *dialog = new DiagnosticsDialog(info, m_window);
    dialog->setConnectionCheck(DiagnosticsDialog::clientCheck(m_config));
    openFitted(dialog);
}

void WindowDialogs::showExport()
{
    if (!m_sessions->session()->isOpen())
        return;
    // The dialog works on a copy of the graph and exports on a worker thread; a bundle also
    // reads manifest.json, so the store's queued writes go to disk first.
    if (const Result<void> flushed = m_sessions->flush(); !flushed) {
        m_notices->show(
            NoticeKind::Error, tr("The session could not be saved before exporting: %1").arg(flushed.error().message));
        return;
    }
    if (m_exportPreparing)
        return; // the dialog is on its way (a second Ctrl+E while the model is made)
    const QString current = m_selection->currentId();
    SessionController *session = m_sessions->session();
    // The export model is made on a worker (tens of ms at 10,000 frames); the dialog opens
    // when it is ready, unless the session changed to another one meanwhile.
    m_exportPreparing = true;
    auto *watcher = new QFutureWatcher<ExportSession>(this);
    const QString dir = m_sessions->dir();
    connect(watcher, &QFutureWatcher<ExportSession>::finished, this, [this, watcher, current, dir] {
        watcher->deleteLater();
        m_exportPreparing = false;
        if (!m_sessions->session()->isOpen() || m_sessions->dir() != dir)
            return;
        auto *dialog = new ExportDialog(
            watcher->result(), current.isEmpty() ? QStringList() : QStringList {current}, current, m_window);
        openFitted(dialog);
    });
    watcher->setFuture(prepareExportSession(session->graph(), dir, session->priceTable()));
}

void WindowDialogs::showAbout()
{
    QMessageBox::about(m_window, tr("About NB2Lite Studio"),
        tr("<h3>NB2Lite Studio %1</h3><p>Iterative image editing over the Gemini Interactions "
           "API (model gemini-3.1-flash-lite-image).</p><p>Every frame is kept on disk in the "
           "session folder; server ids are a shortcut, not the history.</p>")
            .arg(QStringLiteral(NB2_VERSION)));
}

void WindowDialogs::showShortcuts()
{
    if (auto *open = m_window->findChild<ShortcutsDialog *>()) {
        open->raise();
        open->activateWindow();
        return;
    }
    auto *dialog = new ShortcutsDialog(m_actions->shortcutTable(), m_window);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->show(); // non-modal: it can stay open beside the window while the user tries the keys
    fitToScreen(dialog);
}

} // namespace nb2
