#include "core/api/clientconfig.h"
#include "core/fakeapi/fakeserver.h"
#include "ui/diagnosticsdialog.h"

#include <QLabel>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QThread>

using nb2::ConnectionCheckResult;
using nb2::DiagnosticsDialog;
using nb2::DiagnosticsInfo;

class tst_DiagnosticsDialog : public QObject
{
    Q_OBJECT

private:
    static QStringList allText(const QWidget &w)
    {
        QStringList out;
        for (auto *label : w.findChildren<QLabel *>())
            out << label->text() << label->toolTip() << label->accessibleName();
        return out;
    }
    static ConnectionCheckResult runCheck(DiagnosticsDialog &d)
    {
        QSignalSpy spy(&d, &DiagnosticsDialog::connectionChecked);
        QTest::mouseClick(d.findChild<QPushButton *>(QStringLiteral("testConnectionButton")), Qt::LeftButton);
        if (!spy.wait(30000))
            return {};
        return spy.first().at(0).value<ConnectionCheckResult>();
    }

private Q_SLOTS:
    void masksTheKey()
    {
        const QString key = QStringLiteral("AIzaSyFULLKEYabcdefgh-wxyz");
        DiagnosticsInfo info;
        info.apiKey = nb2::ApiKey(key, QStringLiteral("GEMINI_API_KEY"));
        info.model = QStringLiteral("gemini-3.1-flash-lite-image");
        info.baseUrl = QStringLiteral("https://generativelanguage.googleapis.com");
        info.apiVersion = QStringLiteral("v1");
        info.thinkingLevels = {QStringLiteral("low"), QStringLiteral("high")};
        info.thinkingLevelsLearned = true;
        info.opensslVersion = QStringLiteral("OpenSSL 3.0.11");
        DiagnosticsDialog d(info);

        const QString everything = allText(d).join(QLatin1Char('\n')) + d.reportText();
        QVERIFY(!everything.contains(key));
        QVERIFY(!everything.contains(QLatin1String("AIzaSy")));
        QVERIFY(!everything.contains(QLatin1String("abcdefgh")));
        QVERIFY(everything.contains(QStringLiteral("\u2026wxyz")));
        QVERIFY(everything.contains(QLatin1String("GEMINI_API_KEY")));
        QVERIFY(d.reportText().contains(QLatin1String("low, high")));
        QVERIFY(d.reportText().contains(QLatin1String("OpenSSL 3.0.11")));
        QVERIFY(d.reportText().contains(QString::fromLatin1(qVersion())));
        QVERIFY(d.reportText().contains(QLatin1String(NB2_VERSION)));
    }

    void shortKeysRevealLess()
    {
        DiagnosticsInfo info;
        info.apiKey = nb2::ApiKey(QStringLiteral("abcdef"), QStringLiteral("settings"));
        DiagnosticsDialog d(info);
        const QString report = d.reportText();
        QVERIFY(!report.contains(QLatin1String("abcdef")));
        QVERIFY(!report.contains(QLatin1String("cdef")));
    }

    void noKeyMentionsDemo()
    {
        DiagnosticsInfo info;
        info.demoBackend = true;
        DiagnosticsDialog d(info);
        QVERIFY(d.reportText().contains(QLatin1String("demo"), Qt::CaseInsensitive));
    }

    void checkRunsOffTheGuiThread()
    {
        DiagnosticsDialog d(DiagnosticsInfo {});
        auto *button = d.findChild<QPushButton *>(QStringLiteral("testConnectionButton"));
        QVERIFY(!button->isEnabled()); // no check, no button
        QThread *gui = QThread::currentThread();
        d.setConnectionCheck([gui] {
            ConnectionCheckResult r;
            r.ok = QThread::currentThread() != gui;
            r.summary = QStringLiteral("probe summary");
            return r;
        });
        QVERIFY(button->isEnabled());
        const auto r = runCheck(d);
        QVERIFY(r.ok);
        QVERIFY(d.connectionStatusText().contains(QLatin1String("probe summary")));
        QVERIFY(d.reportText().contains(QLatin1String("probe summary")));
        QVERIFY(button->isEnabled());
    }

    void clientCheckAgainstFakeServer()
    {
        nb2::FakeServer server;
        QVERIFY(server.start(0));
        nb2::ClientConfig config;
        config.baseUrl = server.baseUrl();
        config.apiKey = nb2::ApiKey(QStringLiteral("test-key"), QStringLiteral("test"));
        DiagnosticsDialog d(DiagnosticsInfo::fromConfig(config));
        d.setConnectionCheck(DiagnosticsDialog::clientCheck(config));
        auto r = runCheck(d);
        QVERIFY2(r.ok, qPrintable(r.summary + QLatin1Char(' ') + r.detail));
        QCOMPARE(r.httpStatus, 404);

        config.apiKey = nb2::ApiKey(QStringLiteral("wrong-key"), QStringLiteral("test"));
        d.setConnectionCheck(DiagnosticsDialog::clientCheck(config));
        r = runCheck(d);
        QVERIFY(!r.ok);
        QVERIFY2(r.summary.contains(QLatin1String("key")), qPrintable(r.summary));
        QVERIFY(!d.reportText().contains(QLatin1String("wrong-key")));
    }

    void clientCheckUnreachable()
    {
        // A port that was just free: nothing listens there.
        quint16 port = 0;
        {
            nb2::FakeServer gone;
            QVERIFY(gone.start(0));
            port = gone.port();
            gone.stop();
        }
        nb2::ClientConfig config;
        config.baseUrl = QStringLiteral("http://127.0.0.1:%1").arg(port);
        config.apiKey = nb2::ApiKey(QStringLiteral("k"), QStringLiteral("test"));
        DiagnosticsDialog d(DiagnosticsInfo::fromConfig(config));
        d.setConnectionCheck(DiagnosticsDialog::clientCheck(config));
        const auto r = runCheck(d);
        QVERIFY(!r.ok);
        QVERIFY2(r.summary.contains(QLatin1String("reached")), qPrintable(r.summary));
    }
};

QTEST_MAIN(tst_DiagnosticsDialog)
#include "tst_diagnosticsdialog.moc"
