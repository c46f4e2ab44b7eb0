// The fake server and session folder the SessionController tests start from (tst_sessioncontroller
// and tst_sessionrecovery): a fresh in-process fake API and temporary folder per test function,
// and the helpers that open a controller on them and run a turn to its end.
#pragma once

#include "core/api/interactionsclient.h"
#include "core/fakeapi/fakeserver.h"
#include "core/session/sessioncontroller.h"
#include "fakeclient.h"

#include <QTemporaryDir>
#include <QtTest>

#include <memory>

namespace nb2::test {

/** The base of the SessionController test classes; QtTest runs its init and cleanup slots. */
class ControllerFixture : public QObject
{
    Q_OBJECT

protected:
    std::unique_ptr<FakeServer> m_fake;
    std::unique_ptr<QTemporaryDir> m_tmp;

    std::shared_ptr<InteractionsClient> client() const { return fakeServerClient(*m_fake); }

    void openController(SessionController &c, SessionSettings s = {})
    {
        c.setClient(client());
        c.setSettings(s);
        const Result<void> opened = c.open(m_tmp->path());
        QVERIFY2(opened, qPrintable(opened.error().message));
        QVERIFY(c.waitForIdle(10000));
    }

    static Frame finish(SessionController &c, const Result<QString> &r)
    {
        if (!r)
            qWarning() << "turn refused:" << r.error().message;
        if (!r)
            return {};
        c.waitForIdle(20000);
        return c.graph().value(r.value());
    }

    QList<FakeRequest> requestsMatching(const QString &method, const QString &pathPart) const
    {
        QList<FakeRequest> out;
        for (const FakeRequest &r : m_fake->requests())
            if (r.method == method && r.path.contains(pathPart))
                out.append(r);
        return out;
    }

    static TurnParams p(const char *prompt) { return TurnParams {QString::fromUtf8(prompt), {}, {}, false, {}}; }

private Q_SLOTS:
    void init()
    {
        m_fake = std::make_unique<FakeServer>();
        QVERIFY(m_fake->start(0));
        m_tmp = std::make_unique<QTemporaryDir>();
        QVERIFY(m_tmp->isValid());
    }

    void cleanup()
    {
        m_fake.reset();
        m_tmp.reset();
    }
};

} // namespace nb2::test
