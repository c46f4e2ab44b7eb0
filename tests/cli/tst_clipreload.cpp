// A session command reads its checkpoint on another thread from the moment its arguments are
// parsed (app/cli/sessioncommands.h, preloadSessionForWork): only the commands that open the
// session for work start one, the open that follows uses it, and what another process appended
// to the journal in between is not lost.

#include "app/cli/cliargs.h"
#include "app/cli/sessioncommands.h"
#include "core/session/sessionstore.h"

#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace nb2;

namespace {

Frame doneFrame(const QString &parent = {})
{
    Frame f;
    f.id = Frame::newId();
    f.parentId = parent;
    f.kind = parent.isEmpty() ? FrameKind::Generate : FrameKind::Edit;
    f.status = FrameStatus::Done;
    f.prompt = QStringLiteral("a lighthouse");
    f.requestedAt = QDateTime::currentDateTimeUtc();
    return f;
}

CliArgs argsFor(const QStringList &words)
{
    const CliParseResult parsed = parseCliArgs(words);
    if (!parsed.ok())
        qWarning() << parsed.error;
    return parsed.args;
}

} // namespace

class TestCliPreload : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init()
    {
        m_tmp = std::make_unique<QTemporaryDir>(); // a fresh session for each test
        QVERIFY(m_tmp->isValid());
        m_dir = m_tmp->path() + QStringLiteral("/s");
        SessionStore store;
        QVERIFY(store.open(m_dir));
        const Frame root = doneFrame();
        QVERIFY(store.commit({root, doneFrame(root.id)}, {}, root.id));
        store.close();
    }

    void aCommandThatWorksInTheSessionUsesThePreload()
    {
        QVERIFY(cli::preloadSessionForWork(argsFor({QStringLiteral("--session"), m_dir, QStringLiteral("edit"),
            QStringLiteral("head"), QStringLiteral("warmer light")})));
        SessionStore store;
        QVERIFY(store.open(m_dir, SessionStore::OpenMode::OpenExisting));
        QVERIFY(store.openedFromPreload());
        QCOMPARE(store.graph().size(), 2);
    }

    void readingAndRebuildingCommandsStartNone()
    {
        for (const QString &command : {QStringLiteral("log"), QStringLiteral("rebuild")})
            QVERIFY2(!cli::preloadSessionForWork(argsFor({QStringLiteral("--session"), m_dir, command})),
                qPrintable(command));
        // A folder that is not (yet) a session: nothing to read.
        QVERIFY(!cli::preloadSessionForWork(argsFor({QStringLiteral("--session"),
            m_tmp->path() + QStringLiteral("/new"), QStringLiteral("generate"), QStringLiteral("a lighthouse")})));
        SessionStore store;
        QVERIFY(store.open(m_dir, SessionStore::OpenMode::OpenExisting));
        QVERIFY(!store.openedFromPreload());
    }

    void framesAppendedAfterThePreloadAreOpened()
    {
        QVERIFY(cli::preloadSessionForWork(
            argsFor({QStringLiteral("--session"), m_dir, QStringLiteral("generate"), QStringLiteral("a lighthouse")})));
        {
            // Another process's turn lands between the preload and the open (a journal append;
            // the checkpoint stays the same file).
            SessionStore other;
            QVERIFY(other.open(m_dir, SessionStore::OpenMode::OpenExisting));
            QVERIFY(other.commit({doneFrame()}));
            other.close();
        }
        SessionStore store;
        QVERIFY(store.open(m_dir, SessionStore::OpenMode::OpenExisting));
        QCOMPARE(store.graph().size(), 3);
    }

private:
    std::unique_ptr<QTemporaryDir> m_tmp;
    QString m_dir;
};

QTEST_GUILESS_MAIN(TestCliPreload)
#include "tst_clipreload.moc"
