#include "app/cli/clisetup.h"

#include "app/cli/cliargs.h"
#include "app/cli/clitext.h"

#include <QDir>
#include <QStandardPaths>

namespace nb2 {

CliSetup resolveCliSetup(const CliArgs &args, const QProcessEnvironment &env, const QString &homeDir)
{
    CliSetup setup;
    setup.config = ClientConfig::fromEnvironment(env, homeDir, args.baseUrl, args.model);
    if (!args.apiVersion.isEmpty())
        setup.config.apiVersion = args.apiVersion;

    if (!args.model.isEmpty())
        setup.modelSource = QStringLiteral("--model");
    else if (!env.value(QStringLiteral("GEMINI_MODEL_NAME")).isEmpty())
        setup.modelSource = QStringLiteral("GEMINI_MODEL_NAME");
    else
        setup.modelSource = QStringLiteral("default");

    if (args.demo)
        setup.baseUrlSource = cli::CliText::tr("--demo: built-in offline fake API");
    else if (!args.baseUrl.isEmpty())
        setup.baseUrlSource = QStringLiteral("--base-url");
    else if (!env.value(QStringLiteral("GOOGLE_GEMINI_BASE_URL")).isEmpty())
        setup.baseUrlSource = QStringLiteral("GOOGLE_GEMINI_BASE_URL");
    else
        setup.baseUrlSource = QStringLiteral("default");

    QString out = args.outDir;
    if (out.isEmpty())
        out = env.value(QStringLiteral("IMAGE_OUTPUT_DIR"));
    if (out.isEmpty())
        out = QDir::currentPath();
    setup.outputDir = QDir::cleanPath(QDir(out).absolutePath());
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
