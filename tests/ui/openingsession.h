// The checkpointed sessions the background-open tests open (tst_sessionopening,
// tst_sessionpresenter; their window and fake server are MainWindowFixture's).
#pragma once

#include "core/session/sessionstore.h"

#include <QList>
#include <QString>
#include <QTest>

namespace nb2::test {

/**
 * A checkpointed session of n done frames in dir, ids "<prefix><hex number>" (8 characters, so
 * two sessions made with different prefixes share no id). withForks: a fork every 10 frames and
 * a journal tail after the checkpoint (frame 1 titled "in the tail"); else one chain.
 */
inline void makeOpeningSession(const QString &dir, int n, const QString &prefix = {}, bool withForks = false)
{
    SessionStore s;
    QVERIFY(s.open(dir));
    QList<Frame> frames;
    QString parent;
    for (int i = 0; i < n; ++i) {
        Frame f;
        f.id = prefix + QStringLiteral("%1").arg(i, 8 - int(prefix.size()), 16, QLatin1Char('0'));
        f.parentId = withForks && i % 10 == 9 && i > 20 ? frames.at(i - 15).id : parent;
        f.kind = f.parentId.isEmpty() ? FrameKind::Generate : FrameKind::Edit;
        f.prompt
            = prefix.isEmpty() ? QStringLiteral("prompt %1").arg(i) : QStringLiteral("%1 prompt %2").arg(prefix).arg(i);
        f.status = FrameStatus::Done;
        f.requestedAt = QDateTime::currentDateTimeUtc();
        frames.append(f);
        parent = f.id;
    }
    QVERIFY(s.commit(frames));
    QVERIFY(s.checkpoint());
    if (withForks && n > 1) {
        Frame tail = s.graph().value(frames.at(1).id);
        tail.title = QStringLiteral("in the tail");
        QVERIFY(s.commit({tail}));
    }
}

} // namespace nb2::test
