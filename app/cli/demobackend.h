#pragma once

#include "core/api/apikey.h"

#include <QString>

#include <memory>

namespace nb2 {

class FakeServer;

/**
 * The offline demo backend behind --demo: an in-process fake Interactions API on an
 * ephemeral loopback port, with its own throwaway key so that no real key is needed or
 * sent anywhere. The fake keeps the interactions it makes in a store folder (a session's
 * demo/ folder, or a cache folder for plain commands), so that the next command's fake can
 * continue them: a demo chain then behaves like one on the real service, instead of every
 * later edit re-anchoring. Owns the server; it stops when this object is destroyed.
 */
class DemoBackend
{
public:
    DemoBackend();
    ~DemoBackend();

    /**
     * Starts the fake; returns an error message or empty. storeDir empty: memory only. A store
     * folder that is a symbolic link is not used (what we write must stay where it is named);
     * warning() then says so.
     */
    QString start(int latencyMs, const QString &storeDir = {});
    QString baseUrl() const;
    ApiKey apiKey() const;
    /** Something the user should know about the store (empty when all is well). */
    QString warning() const { return m_warning; }

    /** <session>/demo: a session keeps its demo interactions with its frames. */
    static QString sessionStoreDir(const QString &sessionDir);
    /** The store of plain --demo commands, in the user's cache folder (empty when there is none). */
    static QString cacheStoreDir();
    /**
     * Deletes all but the newest `count` records of a store. The cache store is kept small
     * this way (the real service forgets ids after a while, too); a session's store is not.
     */
    static void keepNewest(const QString &storeDir, int count);
    static constexpr int kMaxCachedInteractions = 100;

private:
    std::unique_ptr<FakeServer> m_server;
    QString m_warning;
};

} // namespace nb2
