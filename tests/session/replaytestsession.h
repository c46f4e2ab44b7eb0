// What the replay tests (tst_replay, tst_replayimport) start from: a session whose client talks
// to the fake server, and a chain of edits to replay.
#pragma once

#include "core/api/interactionsclient.h"
#include "core/fakeapi/fakeserver.h"
#include "core/session/sessioncontroller.h"

#include <QDir>
#include <QStringList>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace nb2::test {

/** Opens (or creates) the session in dir, its client on the fake server, sending to model. */
inline void openReplaySession(
    SessionController &c, const FakeServer &fake, const QString &dir, const QString &model, int maxRetries = 0)
{
    ClientConfig cfg;
    cfg.baseUrl = fake.baseUrl();
    cfg.apiKey = ApiKey(QStringLiteral("test-key"), QStringLiteral("test"));
    cfg.maxRetries = maxRetries;
    cfg.backoffBaseMs = 50;
    cfg.model = model;
    c.setClient(std::make_shared<InteractionsClient>(cfg));
    QVERIFY(c.open(dir));
    QVERIFY(c.waitForIdle(10000));
}

/** The frame a turn made, once the session is idle (an empty frame if the turn was refused or never finished). */
inline Frame finishedFrame(SessionController &c, const Result<QString> &r)
{
    if (!r)
        qWarning("turn refused: %s", qPrintable(r.error().message));
    if (!r || !c.waitForIdle(20000))
        return {};
    return c.graph().value(r.value());
}

/** Generates "a red fox", then makes `edits` edits (up to 3): "make it night", "add a lantern", "let it snow". Returns {root, e1, ...}. */
inline QStringList makeFoxChain(SessionController &c, int edits)
{
    static const char *const kEdits[] = {"make it night", "add a lantern", "let it snow"};
    TurnParams turn;
    turn.prompt = QStringLiteral("a red fox");
    QStringList ids {finishedFrame(c, c.generate(turn)).id};
    for (int i = 0; i < edits && i < 3; ++i) {
        turn.prompt = QString::fromLatin1(kEdits[i]);
        ids.append(finishedFrame(c, c.edit(ids.last(), turn)).id);
    }
    return ids;
}

/**
 * A test's fake server serving `model` (started on a free port) and a scratch folder with an
 * empty `session` folder in it: what each replay test starts from.
 */
inline void startReplayFixture(
    std::unique_ptr<FakeServer> &fake, std::unique_ptr<QTemporaryDir> &tmp, const QString &model)
{
    FakeServerOptions options;
    options.models = {model};
    fake = std::make_unique<FakeServer>(options);
    QVERIFY(fake->start(0));
    tmp = std::make_unique<QTemporaryDir>();
    QVERIFY(QDir(tmp->path()).mkpath(QStringLiteral("session")));
}

/** How many interactions the fake was asked to create with a prompt containing `prompt` (turns sent). */
inline int createsWith(const FakeServer &fake, const QString &prompt)
{
    int n = 0;
    for (const FakeRequest &r : fake.requests()) {
        if (r.method == QLatin1String("POST") && r.path.endsWith(QLatin1String("/interactions"))
            && QString::fromUtf8(r.body).contains(prompt))
            ++n;
    }
    return n;
}

} // namespace nb2::test
