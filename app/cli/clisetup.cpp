#include "app/cli/clisetup.h"

#include "app/cli/cliargs.h"
#include "app/cli/clitext.h"
#include "core/session/appsettings.h"

#include <QDir>
#include <QStandardPaths>

namespace nb2 {

namespace {

/** How `nb2lite doctor` names a source: the flag, the variable, or "default". */
QString sourceName(SettingSource source, const char *flag, const Preference<QString> &preference)
{
    switch (source) {
    case SettingSource::CommandLine:
        return QString::fromLatin1(flag);
    case SettingSource::Environment:
        return QString::fromLatin1(preference.environmentVariable);
    case SettingSource::Settings: // the CLI has no settings layer
    case SettingSource::Default:
        break;
    }
    return QStringLiteral("default");
}

std::optional<QString> flag(const QString &value)
{
    return value.isEmpty() ? std::nullopt : std::optional<QString>(value);
}

} // namespace

CliSetup resolveCliSetup(const CliArgs &args, const QProcessEnvironment &env, const QString &homeDir)
{
    CliSetup setup;
    const Connection connection
        = resolveConnection(env, nullptr, {flag(args.model), flag(args.baseUrl), flag(args.apiVersion)}, homeDir);
    setup.config = connection.config;
    setup.modelSource = sourceName(connection.modelSource, "--model", appprefs::model);
    setup.baseUrlSource = args.demo ? cli::CliText::tr("--demo: built-in offline fake API")
                                    : sourceName(connection.baseUrlSource, "--base-url", appprefs::baseUrl);

    const QString out = appprefs::outputFolder.resolve(env, std::nullopt, flag(args.outDir)).value;
    setup.outputDir = QDir::cleanPath(QDir(out.isEmpty() ? QDir::currentPath() : out).absolutePath());
    return setup;
}

QString thinkingLevelsFilePath()
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation);
    if (dir.isEmpty())
        return {};
    QDir().mkpath(dir);
    return QDir(dir).filePath(QStringLiteral("thinking-levels.json"));
}

} // namespace nb2
