#pragma once

#include <QByteArray>

namespace nb2 {

/**
 * SHA-256 of `bytes` (32 raw bytes). OpenSSL's libcrypto when it can be loaded — Qt 6.4's own
 * takes ~8 ms for a 1 MB image, libcrypto's ~1 ms — else QCryptographicHash (same digest).
 * libcrypto is opened at the first call, not linked: loading it costs ~10 M instructions
 * (relocations and its constructors), which nb2lite-studio must not spend before its first
 * frame; in the CLI it is already loaded for TLS and the open is free. Thread-safe.
 */
QByteArray sha256(const QByteArray &bytes);

/** Whether sha256() uses libcrypto (false: it was not found, QCryptographicHash is used). For tests. */
bool sha256UsesLibcrypto();

} // namespace nb2
