// Cases not written yet: each reports that it did not run.
#include "bench/benchcases.h"
#include "bench/benchcontext.h"

namespace nb2::bench {

void runTurnOverhead(Context &ctx) { ctx.report->addError(QStringLiteral("overhead"), QStringLiteral("not implemented")); }
void runWindowStart(Context &ctx) { ctx.report->addError(QStringLiteral("window"), QStringLiteral("not implemented")); }
void runResponsiveness(Context &ctx) { ctx.report->addError(QStringLiteral("responsive"), QStringLiteral("not implemented")); }
void runConcurrency(Context &ctx) { ctx.report->addError(QStringLiteral("concurrency"), QStringLiteral("not implemented")); }

} // namespace nb2::bench
