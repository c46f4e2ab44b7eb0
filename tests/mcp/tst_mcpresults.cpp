// The bridge's turn results (core/mcp/mcpresults): what an agent reads about an edit's drift.

#include "core/mcp/mcpresults.h"
#include "core/session/editfinisher.h"

#include <QJsonArray>
#include <QtTest>

using namespace nb2;

namespace {

TurnOutcome outcome(FrameKind kind, double changed)
{
    TurnOutcome o;
    o.frame.id = QStringLiteral("ab12cd34");
    o.frame.parentId = kind == FrameKind::Generate ? QString() : QStringLiteral("00ff00ff");
    o.frame.kind = kind;
    o.frame.status = FrameStatus::Done;
    o.frame.interactionId = QStringLiteral("v1_x");
    o.frame.image.file = QStringLiteral("images/edit_1_ab12cd34.jpg");
    o.frame.drift.changed = changed;
    o.sessionDir = QStringLiteral("/tmp/session");
    o.imagePath = QStringLiteral("/tmp/session/images/edit_1_ab12cd34.jpg");
    return o;
}

QString text(const QJsonObject &result)
{
    return result.value(QLatin1String("content")).toArray().at(0).toObject().value(QLatin1String("text")).toString();
}

QJsonObject structured(const QJsonObject &result)
{
    return result.value(QLatin1String("structuredContent")).toObject();
}

} // namespace

class TestMcpResults : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void smallEditReportsItsDriftWithoutAWarning()
    {
        const QJsonObject r = mcp::imageTurnResult(outcome(FrameKind::Edit, 0.12), false);
        QVERIFY2(text(r).contains(QLatin1String("Drift: 12 % of the picture changed.")), qPrintable(text(r)));
        QVERIFY(!text(r).contains(QLatin1String("Warning")));
        QCOMPARE(structured(r).value(QLatin1String("drift_changed")).toDouble(), 0.12);
        QCOMPARE(structured(r).value(QLatin1String("drift_warning")).toBool(true), false);
    }

    void editThatRedidThePictureWarns()
    {
        const double changed = EditFinisher::kChangedWarning + 0.2;
        const QJsonObject r = mcp::imageTurnResult(outcome(FrameKind::Edit, changed), false);
        QVERIFY2(
            text(r).contains(QLatin1String("Warning: this edit changed most of the picture")), qPrintable(text(r)));
        QVERIFY(text(r).contains(QLatin1String("branch_from")));
        QCOMPARE(structured(r).value(QLatin1String("drift_warning")).toBool(), true);
    }

    void styleEditsChangeEverythingOnPurpose()
    {
        const QJsonObject r = mcp::imageTurnResult(outcome(FrameKind::StyleEdit, 0.95), false);
        QVERIFY(text(r).contains(QLatin1String("Drift: 95 %")));
        QVERIFY(!text(r).contains(QLatin1String("Warning")));
        QCOMPARE(structured(r).value(QLatin1String("drift_warning")).toBool(true), false);
    }

    void generationHasNoDriftFields()
    {
        const QJsonObject r = mcp::imageTurnResult(outcome(FrameKind::Generate, -1), false);
        QVERIFY(!text(r).contains(QLatin1String("Drift")));
        QVERIFY(!structured(r).contains(QLatin1String("drift_changed")));
        QVERIFY(!structured(r).contains(QLatin1String("drift_warning")));
    }
};

QTEST_GUILESS_MAIN(TestMcpResults)
#include "tst_mcpresults.moc"
