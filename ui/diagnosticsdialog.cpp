#include "ui/diagnosticsdialog.h"

#include "core/api/clientconfig.h"
#include "core/api/interactionsclient.h"
#include "ui/theme.h"

#include <QApplication>
#include <QClipboard>
#include <QDialogButtonBox>
#include <QElapsedTimer>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>

namespace nb2 {

DiagnosticsInfo DiagnosticsInfo::fromConfig(const ClientConfig &config)
{
    DiagnosticsInfo info;
    info.apiKey = config.apiKey;
    info.model = config.model;
    info.baseUrl = config.baseUrl;
    info.apiVersion = config.apiVersion;
    return info;
}

DiagnosticsDialog::DiagnosticsDialog(const DiagnosticsInfo &info, QWidget *parent) : QDialog(parent)
{
    qRegisterMetaType<ConnectionCheckResult>();
    setWindowTitle(tr("Diagnostics"));
    setAccessibleName(tr("Diagnostics"));

    auto *infoBox = new QGroupBox(tr("Configuration"), this);
    m_infoHost = new QWidget(infoBox);
    auto *infoBoxLayout = new QVBoxLayout(infoBox);
    infoBoxLayout->addWidget(m_infoHost);

    auto *testBox = new QGroupBox(tr("Connection"), this);
    m_testButton = new QPushButton(themeIcon(QStringLiteral("connection")), tr("&Test Connection"), testBox);
    m_testButton->setObjectName(QStringLiteral("testConnectionButton"));
    m_testButton->setToolTip(tr("Ask the server for an interaction that cannot exist: a “not found” answer proves the "
                                "endpoint is reachable and the key is accepted"));
    m_testButton->setAccessibleName(tr("Test connection"));
    m_testButton->setEnabled(false);
    connect(m_testButton, &QPushButton::clicked, this, &DiagnosticsDialog::testConnection);
    m_statusIcon = new QLabel(testBox);
    m_statusIcon->setFixedSize(16, 16);
    m_status = new QLabel(tr("Not tested yet."), testBox);
    m_status->setObjectName(QStringLiteral("connectionStatus"));
    m_status->setWordWrap(true);
    m_status->setTextFormat(Qt::PlainText);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *testRow = new QHBoxLayout(testBox);
    testRow->setSpacing(ThemeMetrics::kSpacing);
    testRow->addWidget(m_testButton, 0, Qt::AlignTop);
    testRow->addSpacing(4);
    testRow->addWidget(m_statusIcon, 0, Qt::AlignVCenter);
    testRow->addWidget(m_status, 1);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    auto *copy = buttons->addButton(tr("&Copy Report"), QDialogButtonBox::ActionRole);
    copy->setIcon(themeIcon(QStringLiteral("copy")));
    copy->setToolTip(tr("Copy this information as text, for a bug report (the key stays masked)"));
    copy->setAccessibleName(tr("Copy report"));
    connect(copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(reportText()); });
    auto *close = buttons->button(QDialogButtonBox::Close);
    close->setToolTip(tr("Close the diagnostics"));
    close->setAccessibleName(tr("Close"));
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(
        ThemeMetrics::kMargin + 4, ThemeMetrics::kMargin + 4, ThemeMetrics::kMargin + 4, ThemeMetrics::kMargin);
    layout->setSpacing(ThemeMetrics::kSectionSpacing - 4);
    layout->addWidget(infoBox);
    layout->addWidget(testBox);
    layout->addStretch(1);
    layout->addWidget(buttons);
    setMinimumWidth(600);

    connect(&m_watcher, &QFutureWatcher<ConnectionCheckResult>::finished, this, [this] {
        m_last = m_watcher.result();
        m_hasResult = true;
        m_testButton->setEnabled(bool(m_check));
        QString text = m_last.summary;
        if (!m_last.detail.isEmpty())
            text += QLatin1Char('\n') + m_last.detail;
        if (m_last.elapsedMs > 0)
            text += QLatin1Char('\n') + tr("Answered in %1 ms.").arg(m_last.elapsedMs);
        m_status->setText(text);
        m_statusIcon->setPixmap(themeIcon(m_last.ok ? QStringLiteral("connection") : QStringLiteral("error"),
            themeColor(m_last.ok ? ThemeColor::Success : ThemeColor::Error))
                                    .pixmap(QSize(16, 16), devicePixelRatioF()));
        Q_EMIT connectionChecked(m_last);
    });

    setInfo(info);
}

DiagnosticsDialog::~DiagnosticsDialog()
{
    // The check only holds its own copies (config, client); let it finish in the pool.
    m_watcher.disconnect(this);
}

void DiagnosticsDialog::setInfo(const DiagnosticsInfo &info)
{
    m_info = info;
    rebuildInfo();
}

void DiagnosticsDialog::setConnectionCheck(ConnectionCheck check)
{
    m_check = std::move(check);
    m_testButton->setEnabled(bool(m_check) && !m_watcher.isRunning());
}

bool DiagnosticsDialog::isChecking() const
{
    return m_watcher.isRunning();
}

QString DiagnosticsDialog::connectionStatusText() const
{
    return m_status->text();
}

void DiagnosticsDialog::testConnection()
{
    if (!m_check || m_watcher.isRunning())
        return;
    m_testButton->setEnabled(false);
    m_status->setText(tr("Connecting to %1…").arg(m_info.baseUrl));
    m_statusIcon->setPixmap(themeIcon(QStringLiteral("pending")).pixmap(QSize(16, 16), devicePixelRatioF()));
    m_watcher.setFuture(QtConcurrent::run(m_check));
}

QList<QPair<QString, QString>> DiagnosticsDialog::rows() const
{
    QList<QPair<QString, QString>> r;
    QString key;
    if (m_info.apiKey.isEmpty()) {
        key = m_info.demoBackend ? tr("Not set — using the built-in demo backend") : tr("Not set");
    } else {
        key = tr("Set (%1), from %2").arg(m_info.apiKey.masked(), m_info.apiKey.source());
        if (!m_info.apiKey.warning().isEmpty())
            key += QLatin1String(" — ") + m_info.apiKey.warning();
    }
    r.append({tr("API key"), key});
    if (!m_info.keyStorage.isEmpty())
        r.append({tr("Stored key"), m_info.keyStorage});
    r.append({tr("Backend"),
        m_info.demoBackend ? tr("Demo (built-in fake server; images are synthetic)") : tr("Gemini Interactions API")});
    r.append({tr("Model"), m_info.model});
    r.append({tr("Endpoint"), m_info.baseUrl});
    r.append({tr("API version"), m_info.apiVersion});
    QString levels = m_info.thinkingLevels.isEmpty() ? tr("unknown") : m_info.thinkingLevels.join(QLatin1String(", "));
    levels += m_info.thinkingLevelsLearned ? tr(" (learned from the server)")
                                           : tr(" (built-in default, not yet confirmed by the server)");
    r.append({tr("Thinking levels"), levels});
    if (!m_info.sessionsFolder.isEmpty())
        r.append({tr("Sessions folder"), m_info.sessionsFolder});
    r.append({tr("NB2Lite Studio"), m_info.appVersion});
    r.append({tr("Qt"), m_info.qtVersion.isEmpty() ? QString::fromLatin1(qVersion()) : m_info.qtVersion});
    r.append({tr("OpenSSL"), m_info.opensslVersion.isEmpty() ? tr("unknown") : m_info.opensslVersion});
    return r;
}

void DiagnosticsDialog::rebuildInfo()
{
    delete m_infoHost->layout();
    qDeleteAll(m_infoHost->findChildren<QWidget *>(QString(), Qt::FindDirectChildrenOnly));

    auto *form = new QFormLayout(m_infoHost);
    form->setContentsMargins(0, 0, 0, 0);
    form->setHorizontalSpacing(ThemeMetrics::kSectionSpacing);
    form->setVerticalSpacing(ThemeMetrics::kSpacing - 2);
    form->setLabelAlignment(Qt::AlignRight | Qt::AlignTop);
    const auto all = rows();
    for (int i = 0; i < all.size(); ++i) {
        const auto &[name, value] = all[i];
        auto *label = new QLabel(name + QLatin1Char(':'), m_infoHost);
        QPalette pal = label->palette();
        QColor muted = pal.color(QPalette::WindowText);
        muted.setAlphaF(0.7);
        pal.setColor(QPalette::WindowText, muted);
        label->setPalette(pal);
        auto *field = new QLabel(value, m_infoHost);
        field->setObjectName(QStringLiteral("info_%1").arg(i));
        field->setTextFormat(Qt::PlainText);
        field->setWordWrap(true);
        field->setTextInteractionFlags(Qt::TextSelectableByMouse);
        field->setAccessibleName(name);
        if (i == 0 && m_info.apiKey.isEmpty())
            field->setStyleSheet(QStringLiteral("color: %1").arg(themeColor(ThemeColor::Warning).name()));
        form->addRow(label, field);
    }
}

QString DiagnosticsDialog::reportText() const
{
    QString out = tr("NB2Lite Studio diagnostics") + QLatin1Char('\n');
    for (const auto &[name, value] : rows())
        out += name + QLatin1String(": ") + value + QLatin1Char('\n');
    if (m_hasResult)
        out += tr("Connection test") + QLatin1String(": ") + m_last.summary
            + (m_last.detail.isEmpty() ? QString() : QLatin1String(" — ") + m_last.detail) + QLatin1Char('\n');
    return out;
}

ConnectionCheckResult DiagnosticsDialog::interpretProbe(
    int errorKind, int httpStatus, const QString &message, qint64 elapsedMs)
{
    ConnectionCheckResult r;
    r.httpStatus = httpStatus;
    r.elapsedMs = elapsedMs;
    switch (ErrorKind(errorKind)) {
    case ErrorKind::None:
    case ErrorKind::NotFound:
        r.ok = true;
        r.summary = tr("Connected — the server answered and accepted the key.");
        break;
    case ErrorKind::InvalidRequest:
        r.ok = true;
        r.summary = tr("Connected — the server answered (HTTP %1) and accepted the key.").arg(httpStatus);
        r.detail = message;
        break;
    case ErrorKind::Auth:
        r.summary = tr("The server rejected the key. Check it in Settings.");
        r.detail = message;
        break;
    case ErrorKind::RateLimited:
        r.ok = true;
        r.summary = tr("Connected, but the key is rate limited right now.");
        r.detail = message;
        break;
    case ErrorKind::Network:
    case ErrorKind::Timeout:
        r.summary = tr("The server could not be reached.");
        r.detail = message;
        break;
    case ErrorKind::Tls:
        r.summary = tr("The secure connection failed.");
        r.detail = message;
        break;
    default:
        r.summary = tr("The connection test failed.");
        r.detail = message;
        break;
    }
    return r;
}

ConnectionCheck DiagnosticsDialog::clientCheck(const ClientConfig &config)
{
    ClientConfig probe = config;
    probe.maxRetries = 0; // one honest answer, quickly
    probe.connectTimeoutMs = std::min(probe.connectTimeoutMs, 8000);
    probe.readTimeoutMs = std::min(probe.readTimeoutMs, 20000);
    probe.thinkingLevels = nullptr;
    return [probe] {
        QElapsedTimer timer;
        timer.start();
        InteractionsClient client(probe);
        const auto result = client.get(QStringLiteral("nb2lite-connection-test-0000"));
        if (result.ok())
            return interpretProbe(int(ErrorKind::None), 200, QString(), timer.elapsed());
        const Error &e = result.error();
        return interpretProbe(int(e.kind), e.api.httpStatus, e.message, timer.elapsed());
    };
}

} // namespace nb2
