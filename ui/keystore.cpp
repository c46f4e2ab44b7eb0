#include "ui/keystore.h"

#include "core/api/apikey.h"

#include <qt6keychain/keychain.h>

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QFutureWatcher>
#include <QPointer>
#include <QTimer>
#include <QtConcurrent/QtConcurrentRun>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <memory>
#include <sys/stat.h>
#include <unistd.h>

namespace nb2 {

namespace {

/** One plain sentence for the status line; the backend's own words go in Result::keychainErrorDetail. */
QString keychainErrorText(QKeychain::Error error, const QString &detail)
{
    switch (error) {
    case QKeychain::NoBackendAvailable:
        return KeyStore::tr("No desktop keychain service is available");
    case QKeychain::AccessDeniedByUser:
    case QKeychain::AccessDenied:
        // libsecret refuses writes to a locked collection this way (a keyring nobody unlocked
        // at login, and no prompt that could unlock it).
        if (detail.contains(QLatin1String("locked"), Qt::CaseInsensitive))
            return KeyStore::tr("The desktop keychain is locked");
        return KeyStore::tr("The desktop keychain refused access");
    case QKeychain::NotImplemented:
        return KeyStore::tr("This platform has no supported keychain");
    default:
        // QtKeychain reports a missing Secret Service or session bus only in D-Bus's words.
        if (detail.contains(QLatin1String("org.freedesktop.secrets")))
            return KeyStore::tr("No Secret Service keyring is running");
        if (detail.contains(QLatin1String("D-Bus"), Qt::CaseInsensitive) || detail.contains(QLatin1String("DBus")))
            return KeyStore::tr("There is no desktop session bus to reach a keychain");
        return KeyStore::tr("The desktop keychain failed: %1").arg(detail);
    }
}

QString errnoText()
{
    return QString::fromLocal8Bit(std::strerror(errno));
}

} // namespace

KeyStore::KeyStore(QObject *parent) : QObject(parent), m_filePath(defaultFilePath())
{
    qRegisterMetaType<KeyStore::Result>();
}

KeyStore::~KeyStore() = default;

QString KeyStore::defaultFilePath()
{
    return apiKeyFilePath(QDir::homePath()); // the same file the CLI reads
}

QString KeyStore::serviceName()
{
    return QStringLiteral("nb2lite-studio");
}

QString KeyStore::backendName(Backend backend)
{
    switch (backend) {
    case Backend::None:
        return tr("nowhere");
    case Backend::Keychain:
        return tr("the desktop keychain");
    case Backend::File:
        return tr("a key file");
    }
    return {};
}

int KeyStore::read()
{
    const int id = m_nextId++;
    if (m_keychainEnabled)
        runKeychain(id, Operation::Read, {});
    else
        runFile(id, Operation::Read, {}, tr("The keychain is turned off"), {}, false);
    return id;
}

int KeyStore::write(const QString &key)
{
    const int id = m_nextId++;
    if (key.trimmed().isEmpty()) {
        Result r;
        r.operation = Operation::Write;
        r.requestId = id;
        r.error = tr("The key is empty; use Remove to delete a stored key");
        QTimer::singleShot(0, this, [this, r] { Q_EMIT finished(r); });
        return id;
    }
    if (m_keychainEnabled)
        runKeychain(id, Operation::Write, key.trimmed());
    else
        runFile(id, Operation::Write, key.trimmed(), tr("The keychain is turned off"), {}, false);
    return id;
}

int KeyStore::remove()
{
    const int id = m_nextId++;
    if (m_keychainEnabled)
        runKeychain(id, Operation::Remove, {});
    else
        runFile(id, Operation::Remove, {}, tr("The keychain is turned off"), {}, false);
    return id;
}

void KeyStore::runKeychain(int id, Operation op, const QString &key)
{
    const QString service = serviceName();
    // Jobs are not parented to the store: a backend (libsecret) may answer after the store
    // is gone, and deleting the job under it crashes. setAutoDelete frees them when they
    // finish; the connections below die with the store, so a late answer is ignored.
    QKeychain::Job *job = nullptr;
    switch (op) {
    case Operation::Read:
        job = new QKeychain::ReadPasswordJob(service);
        break;
    case Operation::Write: {
        auto *w = new QKeychain::WritePasswordJob(service);
        w->setTextData(key);
        job = w;
        break;
    }
    case Operation::Remove:
        job = new QKeychain::DeletePasswordJob(service);
        break;
    }
    job->setKey(m_keychainKey);
    job->setAutoDelete(true);
    // Never let QtKeychain write a plaintext copy into QSettings.
    job->setInsecureFallback(false);

    // Whichever comes first — the job's answer or the timeout — decides; the other is ignored.
    auto settled = std::make_shared<bool>(false);
    auto *timer = new QTimer(this);
    timer->setSingleShot(true);
    connect(timer, &QTimer::timeout, this, [this, id, op, key, settled, timer] {
        timer->deleteLater();
        if (*settled)
            return;
        *settled = true;
        runFile(id, op, key, tr("The desktop keychain did not answer within %1 s").arg(m_timeoutMs / 1000.0, 0, 'g', 2),
            {}, false);
    });
    connect(job, &QKeychain::Job::finished, this, [this, id, op, key, settled, timer](QKeychain::Job *j) {
        if (*settled)
            return;
        *settled = true;
        timer->stop();
        timer->deleteLater();
        const QKeychain::Error error = j->error();
        if (error == QKeychain::NoError) {
            if (op == Operation::Remove) {
                // Also forget a fallback file, so "remove" means the key is gone everywhere.
                runFile(id, Operation::Remove, {}, {}, {}, true);
                return;
            }
            Result r;
            r.operation = op;
            r.requestId = id;
            r.ok = true;
            r.backend = Backend::Keychain;
            r.keychainAvailable = true;
            if (op == Operation::Read) {
                r.key = static_cast<QKeychain::ReadPasswordJob *>(j)->textData().trimmed();
                r.found = !r.key.isEmpty();
            }
            Q_EMIT finished(r);
            return;
        }
        if (error == QKeychain::EntryNotFound && op != Operation::Write) {
            // The keychain works but holds nothing: a key may still sit in the file.
            runFile(id, op, key, {}, {}, true);
            return;
        }
        runFile(id, op, key, keychainErrorText(error, j->errorString()), j->errorString(), false);
    });
    timer->start(m_timeoutMs);
    job->start();
}

void KeyStore::runFile(int id, Operation op, const QString &key, const QString &keychainError,
    const QString &keychainErrorDetail, bool keychainAvailable)
{
    const QString path = m_filePath;
    auto *watcher = new QFutureWatcher<Result>(this);
    connect(watcher, &QFutureWatcher<Result>::finished, this,
        [this, id, watcher, keychainError, keychainErrorDetail, keychainAvailable] {
            Result r = watcher->result();
            watcher->deleteLater();
            r.requestId = id;
            r.keychainAvailable = keychainAvailable;
            r.keychainError = keychainError;
            r.keychainErrorDetail = keychainErrorDetail;
            // A keychain that works but was empty: a not-found read is reported as the keychain's.
            if (keychainAvailable && ((r.operation == Operation::Read && !r.found) || r.operation == Operation::Remove))
                r.backend = Backend::Keychain;
            Q_EMIT finished(r);
        });
    watcher->setFuture(QtConcurrent::run([op, path, key] {
        switch (op) {
        case Operation::Read:
            return readFile(path);
        case Operation::Write:
            return writeFile(path, key);
        case Operation::Remove:
            return removeFile(path);
        }
        return Result();
    }));
}

KeyStore::Result KeyStore::readFile(const QString &path)
{
    Result r;
    r.operation = Operation::Read;
    r.backend = Backend::File;
    QFile f(path);
    if (!f.exists()) {
        r.ok = true;
        return r;
    }
    if (!f.open(QIODevice::ReadOnly)) {
        r.error = tr("Cannot read %1: %2").arg(QDir::toNativeSeparators(path), f.errorString());
        return r;
    }
    const QByteArray firstLine = f.readLine(4096);
    r.key = QString::fromUtf8(firstLine).trimmed();
    r.found = !r.key.isEmpty();
    r.ok = true;
    const QFileDevice::Permissions p = f.permissions();
    if (p & (QFileDevice::ReadGroup | QFileDevice::ReadOther))
        r.warning = tr("%1 can be read by other users; run: chmod 600 %1").arg(QDir::toNativeSeparators(path));
    return r;
}

KeyStore::Result KeyStore::writeFile(const QString &path, const QString &key)
{
    Result r;
    r.operation = Operation::Write;
    r.backend = Backend::File;
    const QFileInfo info(path);
    const QByteArray dir = QFile::encodeName(info.absolutePath());
    // mkstemp creates the file with mode 0600 before a single byte of the key is written;
    // rename makes the switch atomic, so a crash never leaves a half-written key.
    QByteArray tmpl = QFile::encodeName(info.absoluteFilePath()) + ".tmp-XXXXXX";
    const int fd = ::mkstemp(tmpl.data());
    if (fd < 0) {
        r.error = tr("Cannot create a file in %1: %2").arg(QFile::decodeName(dir), errnoText());
        return r;
    }
    ::fchmod(fd, S_IRUSR | S_IWUSR);
    const QByteArray data = key.toUtf8() + '\n';
    qsizetype done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.constData() + done, size_t(data.size() - done));
        if (n < 0) {
            if (errno == EINTR)
                continue;
            r.error = tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), errnoText());
            ::close(fd);
            ::unlink(tmpl.constData());
            return r;
        }
        done += n;
    }
    const bool synced = ::fsync(fd) == 0;
    const bool closed = ::close(fd) == 0;
    if (!synced || !closed) {
        r.error = tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), errnoText());
        ::unlink(tmpl.constData());
        return r;
    }
    if (::rename(tmpl.constData(), QFile::encodeName(info.absoluteFilePath()).constData()) != 0) {
        r.error = tr("Cannot replace %1: %2").arg(QDir::toNativeSeparators(path), errnoText());
        ::unlink(tmpl.constData());
        return r;
    }
    r.ok = true;
    return r;
}

KeyStore::Result KeyStore::removeFile(const QString &path)
{
    Result r;
    r.operation = Operation::Remove;
    r.backend = Backend::File;
    QFile f(path);
    if (f.exists() && !f.remove()) {
        r.error = tr("Cannot delete %1: %2").arg(QDir::toNativeSeparators(path), f.errorString());
        return r;
    }
    r.ok = true;
    return r;
}

} // namespace nb2
