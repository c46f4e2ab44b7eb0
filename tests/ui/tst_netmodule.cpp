// libnb2net.so (app/netmodule/netmodule.h): nb2lite-studio's HTTP code, loaded after the first
// frame by NetModuleLoader. Not loaded before it is asked for; works once loaded (its demo
// server answers its transport); a clear error when it is missing; and the studio's executable
// does not link cpp-httplib or OpenSSL at all (they come with the module).
#include "app/studio/netmoduleloader.h"
#include "tests/testpaths.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThreadPool>

#include <memory>

using namespace nb2;

namespace {

const QString kModuleDir = nb2test::binaryDir() + QStringLiteral("/app/studio");

bool moduleMapped()
{
    QFile maps(QStringLiteral("/proc/self/maps"));
    return maps.open(QIODevice::ReadOnly) && maps.readAll().contains("libnb2net.so");
}

} // namespace

class tst_NetModule : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void notLoadedBeforeItIsAskedFor()
    {
        QVERIFY(QFileInfo::exists(kModuleDir + QLatin1Char('/') + NetModuleLoader::fileName()));
        QVERIFY(!NetModuleLoader::isLoaded());
        QVERIFY(!moduleMapped());
    }

    void aMissingModuleIsAnErrorThatNamesIt()
    {
        QTemporaryDir empty;
        NetModuleLoader::setSearchDirs({empty.path()});
        const Result<const NetModule *> module = NetModuleLoader::require();
        QVERIFY(!module);
        QCOMPARE(module.error().kind, ErrorKind::Io);
        const QString message = module.error().message;
        QVERIFY2(message.contains(QLatin1String("libnb2net.so")), qPrintable(message));
        QVERIFY2(message.contains(empty.path()), qPrintable(message));
        QVERIFY2(message.contains(QLatin1String("nb2lite-studio")), qPrintable(message)); // the package to reinstall
        QVERIFY(!NetModuleLoader::isLoaded());
        QVERIFY(!moduleMapped());
    }

    void preloadLoadsItOnThePoolAndUsersWaitForIt()
    {
        NetModuleLoader::setSearchDirs({kModuleDir});
        QThreadPool pool;
        pool.setMaxThreadCount(1);
        NetModuleLoader::preload(&pool);
        const Result<const NetModule *> module = NetModuleLoader::require(); // waits for the pool's load
        QVERIFY2(module, qPrintable(module.error().message));
        QVERIFY(NetModuleLoader::isLoaded());
        QVERIFY(moduleMapped());
        QCOMPARE(module.value()->abi, kNetModuleAbi);
        pool.waitForDone();
    }

    void itsDemoServerAnswersItsTransport()
    {
        const Result<const NetModule *> module = NetModuleLoader::require();
        QVERIFY2(module, qPrintable(module.error().message));
        std::unique_ptr<DemoServer> server(module.value()->createDemoServer(QStringLiteral("module-key"), 0));
        QVERIFY2(server->start(), qPrintable(server->errorString()));
        QVERIFY(server->baseUrl().startsWith(QLatin1String("http://127.0.0.1:")));
        ClientConfig config;
        config.baseUrl = server->baseUrl();
        config.apiKey = ApiKey(QStringLiteral("module-key"), QStringLiteral("test"));
        const CallOptions options;
        const apidetail::AttemptOutcome o = module.value()->backend->attempt(
            config, options, "GET", "/v1beta/interactions/no-such-id", {}, false, {});
        QCOMPARE(o.error, apidetail::TransportError::Success);
        QCOMPARE(o.status, 404); // the fake's answer for an unknown id, over the module's httplib
        QVERIFY(module.value()->backend->opensslVersion().startsWith(QLatin1String("OpenSSL")));
        QVERIFY(!module.value()->backend->httplibVersion().isEmpty());
    }

    void theStudioDoesNotLinkTheHttpLibraries()
    {
        QProcess ldd;
        ldd.start(QStringLiteral("ldd"), {nb2test::studioProgram()});
        QVERIFY(ldd.waitForFinished(30000));
        const QByteArray libs = ldd.readAllStandardOutput();
        QVERIFY2(libs.contains("libQt6Widgets"), libs.constData()); // ldd did list them
        for (const char *lib : {"libssl", "libcrypto", "libcpp-httplib", "libnb2net"})
            QVERIFY2(
                !libs.contains(lib), qPrintable(QStringLiteral("nb2lite-studio links %1").arg(QLatin1String(lib))));
    }
};

QTEST_GUILESS_MAIN(tst_NetModule)
#include "tst_netmodule.moc"
