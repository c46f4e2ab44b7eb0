// The main window and in-process fake server every main-window test starts from (tst_mainwindow,
// tst_mainwindowfiles, tst_sessionopening, tst_sessionpresenter): settings cleared and a fresh
// session folder per test function, and the helpers that send a prompt, wait for a frame's
// status, click a card's button and drop files.
#pragma once

#include "core/fakeapi/fakeserver.h"
#include "core/session/appsettings.h"
#include "core/session/sessioncontroller.h"
#include "ui/mainwindow.h"
#include "ui/promptpanel.h"
#include "ui/sessionmanager.h"
#include "ui/timelinedelegate.h"
#include "ui/timelinemodel.h"
#include "ui/timelineview.h"
#include "uitesthelpers.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QUrl>

#include <memory>

namespace nb2::test {

/** The base of the main-window test classes; QtTest runs its initTestCase, init and cleanup slots. */
class MainWindowFixture : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("NB2_NO_AUTO_SETTINGS", "1");
        QApplication::setOrganizationName(QStringLiteral("NB2LiteTest"));
        // The application name stays the executable's (tst_mainwindow, tst_mainwindowfiles): each test
        // program clears its own settings, so two of them can run at once.
        FakeServerOptions options;
        options.apiKey = QStringLiteral("ui-test-key");
        m_server = std::make_unique<FakeServer>(options);
        QVERIFY2(m_server->start(0), qPrintable(m_server->errorString()));
    }

    void init()
    {
        m_server->clearFaults();
        m_server->setLatencyMs(0);
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        {
            QSettings s;
            s.clear();
            appprefs::sessionsFolder.write(s, m_dir->path() + QStringLiteral("/sessions"));
        }
        // Learned thinking levels persist next to the settings; every test starts from the defaults.
        QFile::remove(QStandardPaths::writableLocation(QStandardPaths::AppConfigLocation)
            + QStringLiteral("/thinking-levels.json"));
        m_window = new MainWindow;
        m_window->setBackend(nb2test::fakeConfig(*m_server, QStringLiteral("ui-test-key")), true);
        const Result<void> opened = m_window->sessions()->open(m_dir->path() + QStringLiteral("/s1"));
        QVERIFY2(opened, qPrintable(opened.error().message));
        m_window->resize(1300, 850);
        m_window->show();
        QVERIFY(QTest::qWaitForWindowExposed(m_window));
        m_window->activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(m_window));
    }

    void cleanup()
    {
        if (m_window) {
            m_window->session()->waitForIdle(10000);
            delete m_window;
            m_window = nullptr;
        }
        m_dir.reset();
    }

protected:
    QString frameAt(int row) const { return m_window->timelineModel()->frameIdAt(row); }
    Frame frame(const QString &id) const { return m_window->session()->graph().value(id); }
    void send(const QString &prompt)
    {
        PromptPanel *p = m_window->promptPanel();
        p->setPrompt(prompt);
        p->editor()->setFocus();
        // Ctrl+Enter from inside the prompt editor is how users send.
        QTest::keyClick(p->editor(), Qt::Key_Return, Qt::ControlModifier);
    }
    bool waitStatus(const QString &id, FrameStatus status, int timeoutMs = 20000)
    {
        QElapsedTimer t;
        t.start();
        while (t.elapsed() < timeoutMs) {
            if (frame(id).status == status)
                return true;
            QTest::qWait(20);
        }
        qWarning("frame %s is %s, expected %s", qPrintable(id), qPrintable(frameStatusName(frame(id).status)),
            qPrintable(frameStatusName(status)));
        return false;
    }
    void clickCardButton(int row)
    {
        TimelineView *view = m_window->timelineView();
        const QModelIndex idx = m_window->timelineModel()->index(row);
        view->scrollTo(idx);
        const QRect button = TimelineDelegate::actionButtonRect(view->visualRect(idx));
        QVERIFY(!button.isEmpty());
        QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, button.center());
    }
    void drop(const QList<QUrl> &urls)
    {
        QMimeData mime;
        mime.setUrls(urls);
        QDragEnterEvent enter(QPoint(200, 200), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(m_window, &enter);
        QVERIFY(enter.isAccepted());
        QDropEvent dropEvent(QPointF(200, 200), Qt::CopyAction, &mime, Qt::LeftButton, Qt::NoModifier);
        QApplication::sendEvent(m_window, &dropEvent);
    }

    std::unique_ptr<FakeServer> m_server;
    std::unique_ptr<QTemporaryDir> m_dir;
    MainWindow *m_window = nullptr;
};

} // namespace nb2::test
