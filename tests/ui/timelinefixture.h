// The fake server, session and model every timeline test starts from (tst_timelinemodel and
// tst_timelinelayout): one server per test case, a fresh session folder and a model watched by
// QAbstractItemModelTester per test function.
#pragma once

#include "core/api/interactionsclient.h"
#include "core/fakeapi/fakeserver.h"
#include "core/session/sessioncontroller.h"
#include "ui/timelinemodel.h"
#include "uitesthelpers.h"

#include <QAbstractItemModelTester>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

/** The base of the timeline test classes; QtTest runs its initTestCase, init and cleanup slots. */
class TimelineFixture : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QVERIFY(startServer()); }
    void init()
    {
        const nb2::Result<void> opened = openSession();
        QVERIFY2(opened, qPrintable(opened.error().message));
    }
    void cleanup() { closeSession(); }

protected:
    /** Once per test case. */
    bool startServer()
    {
        QStandardPaths::setTestModeEnabled(true);
        nb2::FakeServerOptions options;
        options.apiKey = QStringLiteral("model-key");
        m_server = std::make_unique<nb2::FakeServer>(options);
        return m_server->start(0);
    }
    /** Before each test function: an empty session and its model. */
    nb2::Result<void> openSession()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        m_png = nb2test::writePng(m_dir->path() + QStringLiteral("/in.png"));
        m_session = std::make_unique<nb2::SessionController>();
        m_session->setClient(
            std::make_shared<nb2::InteractionsClient>(nb2test::fakeConfig(*m_server, QStringLiteral("model-key"))));
        const nb2::Result<void> opened = m_session->open(m_dir->path() + QStringLiteral("/s"));
        if (!opened)
            return opened;
        m_model = std::make_unique<nb2::TimelineModel>(m_session.get());
        m_tester = std::make_unique<QAbstractItemModelTester>(
            m_model.get(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        return {};
    }
    /** After each test function. */
    void closeSession()
    {
        m_session->waitForIdle(10000);
        m_tester.reset();
        m_model.reset();
        m_session.reset();
        m_dir.reset();
    }
    /** A new root frame from the test picture. */
    QString import()
    {
        auto r = m_session->importImage(m_png);
        return r ? r.value() : QString();
    }

    std::unique_ptr<nb2::FakeServer> m_server;
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<nb2::SessionController> m_session;
    std::unique_ptr<nb2::TimelineModel> m_model;
    std::unique_ptr<QAbstractItemModelTester> m_tester;
    QString m_png;
};
