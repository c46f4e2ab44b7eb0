// Waits and limits read as durations, never "1e+06 s" (issue 11, item 7).

#include "core/common/humanduration.h"

#include <QTest>

using namespace nb2;

class tst_HumanDuration : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void durations_data()
    {
        QTest::addColumn<qint64>("ms");
        QTest::addColumn<QString>("text");
        QTest::newRow("negative") << qint64(-5) << QStringLiteral("0 s");
        QTest::newRow("zero") << qint64(0) << QStringLiteral("0 s");
        QTest::newRow("tenths") << qint64(1540) << QStringLiteral("1.5 s");
        QTest::newRow("whole below ten") << qint64(3000) << QStringLiteral("3 s");
        QTest::newRow("seconds") << qint64(42400) << QStringLiteral("42 s");
        QTest::newRow("minutes") << qint64(125000) << QStringLiteral("2 min 5 s");
        QTest::newRow("one minute") << qint64(60000) << QStringLiteral("1 min");
        QTest::newRow("hours") << qint64(12000000) << QStringLiteral("3 h 20 min");
        QTest::newRow("one day") << qint64(86400000) << QStringLiteral("1 day");
        QTest::newRow("a million seconds") << qint64(1000000000) << QStringLiteral("11 days 14 h");
        QTest::newRow("the clamp") << qint64(1000000000) * 1000 << QStringLiteral("11574 days 2 h");
    }

    void durations()
    {
        QFETCH(qint64, ms);
        QFETCH(QString, text);
        QCOMPARE(humanDuration(ms), text);
        QVERIFY(!humanDuration(ms).contains(QLatin1String("e+")));
    }
};

QTEST_GUILESS_MAIN(tst_HumanDuration)
#include "tst_humanduration.moc"
