// Internal to core/api: one HTTP attempt of the Interactions client (a blocking httplib call
// on its own thread, cancellable in any phase). Compiled into nb2core_http, the only core
// library that links cpp-httplib and OpenSSL; everything else sees it through transport.h.
#pragma once

#include "core/api/transport.h"

#include <httplib.h>

namespace nb2::apidetail {

/**
 * One HTTP attempt. The blocking httplib call runs on its own thread and hands headers and
 * body chunks over through Transfer; this thread only waits on a condition variable, so a
 * cancel (or a stream handler that has seen the end) ends the attempt at once, in any phase
 * including connect and TLS handshake, which httplib::Client::stop() alone cannot interrupt.
 */
class ClientCall
{
public:
    ClientCall(const ClientConfig &config, const CallOptions &options) : m_config(config), m_options(options) {}

    AttemptOutcome attempt(const std::string &method, const std::string &path, const std::string &body, bool stream,
        const ChunkHandler &onChunk);

private:
    const ClientConfig &m_config;
    const CallOptions &m_options;
};

/** The transport linked in: ClientCall and the versions of httplib and OpenSSL. */
const NetBackend &linkedNetBackend();

} // namespace nb2::apidetail
