#include "app/cli/doctor.h"

#include "app/cli/clitext.h"
#include "app/cli/exitcodes.h"
#include "app/cli/jsonout.h"
#include "core/api/interactionsclient.h"
#include "core/api/thinkinglevels.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>

#include <nlohmann/json.hpp>

namespace nb2 {

namespace {

// Cannot exist on any server: ids are opaque base64url-ish strings starting with "v1_".
const QString kProbeId = QStringLiteral("nb2lite-doctor-probe-does-not-exist");

QString outputDirState(const QString &dir)
{
    const QFileInfo info(dir);
    if (!info.exists())
        return cli::CliText::tr("does not exist yet; created on first save");
    if (!info.isDir())
        return QStringLiteral("NOT a folder");
    if (!info.isWritable())
        return cli::CliText::tr("NOT writable");
    return cli::CliText::tr("exists, writable");
}

} // namespace

int DoctorReport::exitCode() const
{
    if (connectivityOk)
        return kExitSuccess;
    return exitCodeFor(connectivityError.kind == ErrorKind::None ? ErrorKind::Network : connectivityError.kind);
}

Doctor::Doctor(ClientConfig config, const ThinkingLevels *levels) : m_config(std::move(config)), m_levels(levels) {}

void Doctor::setSources(const QString &modelSource, const QString &baseUrlSource)
{
    m_modelSource = modelSource;
    m_baseUrlSource = baseUrlSource;
}

void Doctor::setOutputDir(const QString &dir)
{
    m_outputDir = dir;
}

DoctorReport Doctor::run()
{
    DoctorReport report;
    report.keyPresent = !m_config.apiKey.isEmpty();
    report.keySource = m_config.apiKey.source();
    report.keyMasked = report.keyPresent ? m_config.apiKey.masked() : QString();
    report.keyWarning = m_config.apiKey.warning();
    report.model = m_config.model;
    report.modelSource = m_modelSource;
    report.baseUrl = m_config.baseUrl;
    report.baseUrlSource = m_baseUrlSource;
    report.apiVersion = m_config.apiVersion;
    report.outputDir = QDir(m_outputDir).absolutePath();
    report.outputDirState = outputDirState(report.outputDir);
    if (m_levels) {
        report.thinkingLevels = m_levels->allowed(m_config.model);
        report.thinkingLevelsLearned = m_levels->isLearned(m_config.model);
        report.thinkingLevelsFile = m_levels->filePath();
    } else {
        report.thinkingLevels = ThinkingLevels::defaultLevels();
    }

    if (!report.keyPresent) {
        report.connectivityError.kind = ErrorKind::Auth;
        report.connectivity
            = cli::CliText::tr("skipped: no API key (set GEMINI_API_KEY or put the key in ~/gemini.key; "
                               "or try --demo)");
        return report;
    }
    if (const Result<void> secure = checkTransportSecurity(m_config.baseUrl); !secure) {
        report.connectivityError.kind = secure.error().kind;
        report.connectivity = cli::CliText::tr("not attempted: ") + secure.error().message;
        return report;
    }

    // One short attempt: doctor answers quickly instead of retrying for half a minute.
    ClientConfig probeConfig = m_config;
    probeConfig.maxRetries = 0;
    probeConfig.connectTimeoutMs = qMin(probeConfig.connectTimeoutMs, 5'000);
    probeConfig.readTimeoutMs = qMin(probeConfig.readTimeoutMs, 15'000);
    InteractionsClient probe(probeConfig);
    QElapsedTimer timer;
    timer.start();
    Result<Interaction> result = probe.get(kProbeId);
    report.connectivityChecked = true;
    report.connectivityMs = timer.elapsed();
    const QString url = QStringLiteral("%1/%2/interactions").arg(m_config.baseUrl, m_config.apiVersion);

    if (result.ok() || result.error().kind == ErrorKind::NotFound) {
        report.connectivityOk = true;
        report.connectivity = cli::CliText::tr("OK: %1 is reachable and accepted the key "
                                               "(a probe GET of a made-up id answered %2 as expected, %3 ms)")
                                  .arg(url, result.ok() ? QStringLiteral("200") : QStringLiteral("404"))
                                  .arg(report.connectivityMs);
        return report;
    }
    const Error &error = result.error();
    report.connectivityError = error;
    const QString status
        = error.api.httpStatus > 0 ? QStringLiteral(" (HTTP %1)").arg(error.api.httpStatus) : QString();
    QString what;
    switch (error.kind) {
    case ErrorKind::Auth:
        what = cli::CliText::tr("FAILED: the server is reachable but refused the key%1").arg(status);
        break;
    case ErrorKind::Network:
    case ErrorKind::Timeout:
    case ErrorKind::Tls:
        what = cli::CliText::tr("FAILED: %1 is not reachable%2").arg(url, status);
        break;
    default:
        what = cli::CliText::tr("FAILED: unexpected answer from %1%2").arg(url, status);
        break;
    }
    report.connectivity = QStringLiteral("%1: %2").arg(what, error.message);
    return report;
}

QString Doctor::human(const DoctorReport &report)
{
    QString out = QStringLiteral("nb2lite doctor\n");
    const auto line = [&out](const QString &label, const QString &value) {
        out += QStringLiteral("  %1 %2\n").arg(label, -17).arg(value);
    };
    if (report.keyPresent)
        line(cli::CliText::tr("API key:"),
            cli::CliText::tr("set, from %1 (%2)").arg(report.keySource, report.keyMasked));
    else
        line(cli::CliText::tr("API key:"),
            cli::CliText::tr("NOT SET (looked in GEMINI_API_KEY, GOOGLE_API_KEY, ~/gemini.key)"));
    if (!report.keyWarning.isEmpty())
        line(QString(), QStringLiteral("warning: ") + report.keyWarning);
    line(QStringLiteral("Model:"), QStringLiteral("%1 (%2)").arg(report.model, report.modelSource));
    line(cli::CliText::tr("Base URL:"), QStringLiteral("%1 (%2)").arg(report.baseUrl, report.baseUrlSource));
    line(cli::CliText::tr("API version:"), report.apiVersion);
    line(cli::CliText::tr("Output folder:"), QStringLiteral("%1 (%2)").arg(report.outputDir, report.outputDirState));
    line(cli::CliText::tr("Thinking levels:"),
        QStringLiteral("%1 (%2)").arg(report.thinkingLevels.join(QStringLiteral(", ")),
            report.thinkingLevelsLearned ? cli::CliText::tr("learned from the server")
                                         : cli::CliText::tr("default; nothing learned yet")));
    if (!report.thinkingLevelsFile.isEmpty())
        line(cli::CliText::tr("Levels file:"), report.thinkingLevelsFile);
    line(QStringLiteral("Connectivity:"), report.connectivity);
    return out;
}

QByteArray Doctor::json(const DoctorReport &report)
{
    using Json = cli::OutJson;
    const auto str = [](const QString &s) { return s.isEmpty() ? Json(nullptr) : Json(s.toStdString()); };
    Json object;
    object["ok"] = report.connectivityOk;
    object["key"] = Json {{"present", report.keyPresent}, {"source", str(report.keySource)},
        {"masked", str(report.keyMasked)}, {"warning", str(report.keyWarning)}};
    object["model"] = report.model.toStdString();
    object["model_source"] = report.modelSource.toStdString();
    object["base_url"] = report.baseUrl.toStdString();
    object["base_url_source"] = report.baseUrlSource.toStdString();
    object["api_version"] = report.apiVersion.toStdString();
    object["output_dir"] = report.outputDir.toStdString();
    Json levels = Json::array();
    for (const QString &level : report.thinkingLevels)
        levels.push_back(level.toStdString());
    object["thinking_levels"] = Json {
        {"allowed", levels}, {"learned", report.thinkingLevelsLearned}, {"file", str(report.thinkingLevelsFile)}};
    object["connectivity"] = Json {{"checked", report.connectivityChecked}, {"ok", report.connectivityOk},
        {"ms", report.connectivityMs < 0 ? Json(nullptr) : Json(report.connectivityMs)},
        {"message", report.connectivity.toStdString()}};
    if (report.connectivityOk) {
        object["error"] = nullptr;
    } else {
        const Error &e = report.connectivityError;
        object["error"]
            = Json {{"kind", errorKindName(e.kind == ErrorKind::None ? ErrorKind::Network : e.kind).toStdString()},
                {"http_status", e.api.httpStatus > 0 ? Json(e.api.httpStatus) : Json(nullptr)},
                {"message", report.connectivity.toStdString()}};
    }
    return cli::jsonLine(object);
}

} // namespace nb2
