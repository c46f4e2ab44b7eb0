#pragma once

#include <QString>

namespace nb2 {

/** Versions of what the API layer is built on, for diagnostics ("OpenSSL 3.0.x ..."). */
QString opensslVersion();
QString httplibVersion();

} // namespace nb2
