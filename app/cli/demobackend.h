#pragma once

#include "core/api/apikey.h"

#include <QString>

#include <memory>

namespace nb2 {

class FakeServer;

/**
 * The offline demo backend behind --demo: an in-process fake Interactions API on an
 * ephemeral loopback port, with its own throwaway key so that no real key is needed or
 * sent anywhere. Owns the server; it stops when this object is destroyed.
 */
class DemoBackend
{
public:
    DemoBackend();
    ~DemoBackend();

    /** Starts the fake; returns an error message or empty. */
    QString start(int latencyMs);
    QString baseUrl() const;
    ApiKey apiKey() const;

private:
    std::unique_ptr<FakeServer> m_server;
};

} // namespace nb2
