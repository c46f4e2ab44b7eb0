// Cases not written yet: each reports that it did not run.
#include "bench/benchcases.h"
#include "bench/benchcontext.h"

namespace nb2::bench {

void runTurnOverhead(Context &ctx) { ctx.report->addError(QStringLiteral("overhead"), QStringLiteral("not implemented yet")); }

} // namespace nb2::bench
