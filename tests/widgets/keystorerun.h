#pragma once

// Shared by the key store tests: run one KeyStore operation and wait for its answer.

#include "ui/keystore.h"

#include <QSignalSpy>

#include <functional>

namespace nb2::testing {

/** Starts an operation with `start` and returns the store's answer (empty after 15 s of silence). */
inline KeyStore::Result runKeyStore(KeyStore &store, const std::function<void()> &start)
{
    QSignalSpy spy(&store, &KeyStore::finished);
    start();
    if (spy.isEmpty() && !spy.wait(15000))
        return {};
    return spy.takeFirst().at(0).value<KeyStore::Result>();
}

} // namespace nb2::testing
