#include "core/common/sha256.h"

#include <QCryptographicHash>
#include <QLibrary>

#include <mutex>

namespace nb2 {

namespace {

// libcrypto's one-shot digest: unsigned char *SHA256(const unsigned char *d, size_t n, unsigned char *md).
using Sha256Fn = unsigned char *(*)(const unsigned char *, size_t, unsigned char *);

Sha256Fn libcryptoSha256()
{
    static Sha256Fn fn = nullptr;
    static std::once_flag once;
    std::call_once(once, [] {
        // Never unloaded: the function stays valid for the life of the process.
        QLibrary crypto(QStringLiteral("crypto"), 3);
        if (crypto.load())
            fn = reinterpret_cast<Sha256Fn>(crypto.resolve("SHA256"));
    });
    return fn;
}

} // namespace

QByteArray sha256(const QByteArray &bytes)
{
    if (const Sha256Fn fn = libcryptoSha256()) {
        QByteArray digest(32, Qt::Uninitialized);
        fn(reinterpret_cast<const unsigned char *>(bytes.constData()), size_t(bytes.size()),
            reinterpret_cast<unsigned char *>(digest.data()));
        return digest;
    }
    return QCryptographicHash::hash(bytes, QCryptographicHash::Sha256);
}

bool sha256UsesLibcrypto()
{
    return libcryptoSha256() != nullptr;
}

} // namespace nb2
