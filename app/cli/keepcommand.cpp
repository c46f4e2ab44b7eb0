#include "app/cli/keepcommand.h"

#include "app/cli/cliargs.h"
#include "app/cli/clireport.h"
#include "app/cli/clitext.h"
#include "app/cli/console.h"
#include "app/cli/exitcodes.h"
#include "app/cli/jsonout.h"
#include "core/session/keeplist.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"

#include <nlohmann/json.hpp>

namespace nb2::cli {

namespace {
int failWith(const Error &error, bool json, Console &console)
{
    CliReport report;
    report.error = error;
    return console.finish(report, json);
}
} // namespace

int runKeep(SessionController &session, const QString &frameId, const CliArgs &a, Console &console)
{
    const EffectiveKeepList before = KeepList::effective(session.graph(), frameId);
    bool changed = true;
    if (!a.keepAdd.isEmpty()) {
        if (before.items.size() >= KeepList::kMaxItems)
            return failWith(Error::make(ErrorKind::InvalidInput,
                                CliText::tr("the keep-list already has %1 constraints, the most it takes; remove one "
                                            "first (--remove N)")
                                    .arg(KeepList::kMaxItems)),
                a.json, console);
        session.setKeepList(frameId, before.items + QStringList {a.keepAdd});
    } else if (a.keepRemove > 0) {
        if (a.keepRemove > before.items.size())
            return failWith(Error::make(ErrorKind::InvalidInput,
                                CliText::tr("there is no constraint %1 in force at frame %2 (it has %3); see "
                                            "'keep %2'")
                                    .arg(QString::number(a.keepRemove), frameId, QString::number(before.items.size()))),
                a.json, console);
        QStringList items = before.items;
        items.removeAt(a.keepRemove - 1);
        session.setKeepList(frameId, items);
    } else if (a.keepClear) {
        session.setKeepList(frameId, {});
    } else if (a.keepInherit) {
        session.setKeepList(frameId, {}, false);
    } else {
        changed = false;
    }
    if (changed) {
        if (const Result<void> flushed = session.store()->flush(); !flushed)
            return failWith(flushed.error(), a.json, console);
    }

    const EffectiveKeepList now = KeepList::effective(session.graph(), frameId);
    if (a.json) {
        OutJson o = OutJson::object();
        o["ok"] = true;
        o["frame"] = toOutJson(frameId);
        o["keep_list"] = toOutJson(now.items);
        o["set_on"] = stringOrNull(now.setOn);
        console.out(jsonLine(o));
        return kExitSuccess;
    }
    QString text;
    if (now.setOn.isEmpty())
        text = CliText::tr("no keep-list in force at frame %1").arg(frameId) + QLatin1Char('\n');
    else if (now.items.isEmpty())
        text = CliText::tr("keep-list cleared at frame %1 (set on %2)").arg(frameId, now.setOn) + QLatin1Char('\n');
    else
        text
            = (now.setOn == frameId ? CliText::tr("keep-list of frame %1 (set here):").arg(frameId)
                                    : CliText::tr("keep-list of frame %1 (inherited from %2):").arg(frameId, now.setOn))
            + QLatin1Char('\n');
    for (int i = 0; i < now.items.size(); ++i)
        text += QStringLiteral("  %1. %2\n").arg(QString::number(i + 1), now.items.at(i));
    console.out(text);
    return kExitSuccess;
}

} // namespace nb2::cli
