#include "core/api/thinkinglevels.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <thread>
#include <vector>

using namespace nb2;

class tst_ThinkingLevels : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void defaults();
    void parseAllowedValues_data();
    void parseAllowedValues();
    void learnPersistsAndReloads();
    void emptyLearnIgnored();
    void corruptFileIgnored();
    void concurrentUse();
};

void tst_ThinkingLevels::defaults()
{
    ThinkingLevels levels;
    QCOMPARE(ThinkingLevels::defaultLevels(), QStringList({QStringLiteral("low"), QStringLiteral("high")}));
    QCOMPARE(ThinkingLevels::defaultLevel(), QStringLiteral("low"));
    QCOMPARE(levels.allowed(QStringLiteral("m")), ThinkingLevels::defaultLevels());
    QVERIFY(!levels.isLearned(QStringLiteral("m")));
    QVERIFY(levels.isAllowed(QStringLiteral("m"), QStringLiteral("low")));
    QVERIFY(levels.isAllowed(QStringLiteral("m"), QStringLiteral("HIGH")));
    QVERIFY(!levels.isAllowed(QStringLiteral("m"), QStringLiteral("minimal")));
}

void tst_ThinkingLevels::parseAllowedValues_data()
{
    QTest::addColumn<QString>("message");
    QTest::addColumn<QStringList>("values");
    QTest::newRow("low high") << "... thinking_level: Unsupported thinking level. Allowed values are: low, high."
                              << QStringList {QStringLiteral("low"), QStringLiteral("high")};
    QTest::newRow("minimal high no dot") << "Allowed values are: minimal, high"
                                         << QStringList {QStringLiteral("minimal"), QStringLiteral("high")};
    QTest::newRow("quoted upper") << "Invalid value. Allowed values are: 'MINIMAL', 'HIGH'."
                                  << QStringList {QStringLiteral("minimal"), QStringLiteral("high")};
    QTest::newRow("enum names") << "allowed values are: THINKING_LEVEL_LOW, THINKING_LEVEL_HIGH"
                                << QStringList {QStringLiteral("low"), QStringLiteral("high")};
    QTest::newRow("or") << "Allowed values are: minimal or high."
                        << QStringList {QStringLiteral("minimal"), QStringLiteral("high")};
    QTest::newRow("not supported wording")
        << "Thinking level THINKING_LEVEL_LOW is not supported for this model. Please retry with other thinking level."
        << QStringList();
    QTest::newRow("unrelated") << "Quota exceeded." << QStringList();
}

void tst_ThinkingLevels::parseAllowedValues()
{
    QFETCH(QString, message);
    QFETCH(QStringList, values);
    QCOMPARE(ThinkingLevels::parseAllowedValues(message), values);
}

void tst_ThinkingLevels::learnPersistsAndReloads()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("sub/levels.json"));
    {
        ThinkingLevels levels(path);
        levels.learn(QStringLiteral("gemini-3.1-flash-lite-image"),
            {QStringLiteral("Minimal"), QStringLiteral("high"), QStringLiteral("high")});
        QCOMPARE(levels.allowed(QStringLiteral("gemini-3.1-flash-lite-image")),
            QStringList({QStringLiteral("minimal"), QStringLiteral("high")}));
        QCOMPARE(levels.allowed(QStringLiteral("other")), ThinkingLevels::defaultLevels());
        QVERIFY(QFile::exists(path));
    }
    ThinkingLevels reloaded(path);
    QVERIFY(reloaded.isLearned(QStringLiteral("gemini-3.1-flash-lite-image")));
    QVERIFY(reloaded.isAllowed(QStringLiteral("gemini-3.1-flash-lite-image"), QStringLiteral("minimal")));
    QVERIFY(!reloaded.isAllowed(QStringLiteral("gemini-3.1-flash-lite-image"), QStringLiteral("low")));
    QCOMPARE(reloaded.filePath(), path);
}

void tst_ThinkingLevels::emptyLearnIgnored()
{
    ThinkingLevels levels;
    levels.learn(QStringLiteral("m"), {});
    QVERIFY(!levels.isLearned(QStringLiteral("m")));
}

void tst_ThinkingLevels::corruptFileIgnored()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("levels.json"));
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly));
    f.write("{not json");
    f.close();
    ThinkingLevels levels(path);
    QCOMPARE(levels.allowed(QStringLiteral("m")), ThinkingLevels::defaultLevels());
    levels.learn(QStringLiteral("m"), {QStringLiteral("high")});
    ThinkingLevels reloaded(path);
    QCOMPARE(reloaded.allowed(QStringLiteral("m")), QStringList {QStringLiteral("high")});
}

void tst_ThinkingLevels::concurrentUse()
{
    QTemporaryDir dir;
    ThinkingLevels levels(dir.filePath(QStringLiteral("levels.json")));
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&levels, t] {
            for (int i = 0; i < 50; ++i) {
                levels.learn(
                    QStringLiteral("model-%1").arg(t), {QStringLiteral("l%1").arg(i % 3), QStringLiteral("high")});
                (void)levels.allowed(QStringLiteral("model-%1").arg((t + 1) % 4));
            }
        });
    }
    for (auto &th : threads)
        th.join();
    for (int t = 0; t < 4; ++t)
        QVERIFY(levels.isLearned(QStringLiteral("model-%1").arg(t)));
    ThinkingLevels reloaded(levels.filePath());
    for (int t = 0; t < 4; ++t)
        QCOMPARE(
            reloaded.allowed(QStringLiteral("model-%1").arg(t)), levels.allowed(QStringLiteral("model-%1").arg(t)));
}

QTEST_GUILESS_MAIN(tst_ThinkingLevels)
#include "tst_thinkinglevels.moc"
