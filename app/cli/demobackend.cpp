#include "app/cli/demobackend.h"

#include "app/cli/clitext.h"
#include "core/fakeapi/fakeserver.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QStandardPaths>

namespace nb2 {

namespace {
// Not a secret: it only opens the in-process fake, which listens on loopback for the
// lifetime of one command.
const QString kDemoKey = QStringLiteral("nb2lite-demo-key");
} // namespace

DemoBackend::DemoBackend() = default;
DemoBackend::~DemoBackend() = default;

QString DemoBackend::sessionStoreDir(const QString &sessionDir)
{
    return QDir(QFileInfo(sessionDir).absoluteFilePath()).filePath(QStringLiteral("demo"));
}

QString DemoBackend::cacheStoreDir()
{
    const QString cache = QStandardPaths::writableLocation(QStandardPaths::CacheLocation);
    if (cache.isEmpty())
        return {};
    return QDir(cache).filePath(QStringLiteral("demo-interactions"));
}

void DemoBackend::keepNewest(const QString &storeDir, int count)
{
    if (storeDir.isEmpty())
        return;
    const QFileInfoList records
        = QDir(storeDir).entryInfoList({QStringLiteral("*.json")}, QDir::Files | QDir::NoSymLinks, QDir::Time);
    for (qsizetype i = count; i < records.size(); ++i)
        QFile::remove(records.at(i).absoluteFilePath());
}

QString DemoBackend::start(int latencyMs, const QString &storeDir)
{
    FakeServerOptions options;
    options.apiKey = kDemoKey;
    options.latencyMs = latencyMs > 0 ? latencyMs : 0;
    if (!storeDir.isEmpty() && QFileInfo(storeDir).isSymLink())
        m_warning = cli::CliText::tr("the demo store %1 is a symbolic link, so it is not used: this command's demo "
                                     "interactions last only as long as the command")
                        .arg(QDir::toNativeSeparators(storeDir));
    else
        options.storeDir = storeDir;
    m_server = std::make_unique<FakeServer>(options);
    if (!m_server->start(0))
        return cli::CliText::tr("the built-in demo server did not start: %1").arg(m_server->errorString());
    return {};
}

QString DemoBackend::baseUrl() const
{
    return m_server ? m_server->baseUrl() : QString();
}

ApiKey DemoBackend::apiKey() const
{
    return ApiKey(kDemoKey, cli::CliText::tr("demo (built-in offline fake API)"));
}

} // namespace nb2
