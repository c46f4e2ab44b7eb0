#pragma once

#include "core/api/apikey.h"

#include <QDialog>
#include <QFutureWatcher>
#include <QStringList>

#include <functional>

class QLabel;
class QPushButton;

namespace nb2 {

struct ClientConfig;

/** What the diagnostics dialog shows; the app fills it (the dialog looks nothing up itself). */
struct DiagnosticsInfo {
    ApiKey apiKey;            // only masked() and source() are ever shown
    QString keyStorage;       // where a stored key lives ("desktop keychain", "~/gemini.key"), optional
    bool demoBackend = false; // running against the built-in fake server
    QString model;
    QString baseUrl;
    QString apiVersion;
    QStringList thinkingLevels;
    bool thinkingLevelsLearned = false; // false: the built-in guess, not yet confirmed by the server
    QString sessionsFolder;
    QString appVersion = QStringLiteral(NB2_VERSION);
    QString qtVersion;      // empty: qVersion() of the running library
    QString opensslVersion; // from core (the app passes it); empty: shown as unknown

    /** Model, endpoint, version and key from a client config. */
    static DiagnosticsInfo fromConfig(const ClientConfig &config);
};

/** The outcome of "Test connection". */
struct ConnectionCheckResult {
    bool ok = false;
    QString summary; // one line: "Connected — the key was accepted"
    QString detail;  // the server's words or the transport error
    int httpStatus = 0;
    qint64 elapsedMs = 0;
};

/** Runs on a worker thread; must not touch widgets. */
using ConnectionCheck = std::function<ConnectionCheckResult()>;

/**
 * The seed's get_help as a dialog: key status and source (masked), model, endpoint, API
 * version, learned thinking levels, versions of the app, Qt and OpenSSL, and a "Test
 * connection" button. The check is a function the caller supplies (clientCheck() builds
 * the usual one from core's InteractionsClient); the dialog runs it with QtConcurrent and
 * only shows the result — it never does HTTP itself. "Copy Report" puts a plain-text
 * summary (never the key) on the clipboard for bug reports.
 */
class DiagnosticsDialog : public QDialog
{
    Q_OBJECT
public:
    explicit DiagnosticsDialog(const DiagnosticsInfo &info, QWidget *parent = nullptr);
    ~DiagnosticsDialog() override;

    void setInfo(const DiagnosticsInfo &info);
    const DiagnosticsInfo &info() const { return m_info; }

    /** Without a check the button is disabled. */
    void setConnectionCheck(ConnectionCheck check);

    /**
     * GET of an id that cannot exist, through core's InteractionsClient, without retries: a
     * 404 means the endpoint is reachable and the key was accepted.
     */
    static ConnectionCheck clientCheck(const ClientConfig &config);
    static ConnectionCheckResult interpretProbe(
        int errorKind, int httpStatus, const QString &message, qint64 elapsedMs);

    /** Everything shown, as plain text; contains the key only masked. */
    QString reportText() const;
    bool isChecking() const;
    QString connectionStatusText() const;

public Q_SLOTS:
    void testConnection();

Q_SIGNALS:
    void connectionChecked(const nb2::ConnectionCheckResult &result);

private:
    void rebuildInfo();
    QList<QPair<QString, QString>> rows() const;

    DiagnosticsInfo m_info;
    ConnectionCheck m_check;
    QFutureWatcher<ConnectionCheckResult> m_watcher;
    QWidget *m_infoHost = nullptr;
    QPushButton *m_testButton = nullptr;
    QLabel *m_statusIcon = nullptr;
    QLabel *m_status = nullptr;
    ConnectionCheckResult m_last;
    bool m_hasResult = false;
};

} // namespace nb2

Q_DECLARE_METATYPE(nb2::ConnectionCheckResult)
