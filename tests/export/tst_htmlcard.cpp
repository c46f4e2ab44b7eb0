#include "core/export/exportfiles.h"
#include "core/export/htmlcard.h"
#include "core/export/htmlexporter.h"

#include <QFile>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace nb2;

/**
 * The HTML card's field table against the page HtmlExporter writes: every row a frame's
 * card has is on the page, in its place, and nothing the strip options remove is.
 */
class tst_HtmlCard : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_tmp;
    ExportSession m_session;

    static ExportFrame frame(const QString &id, const QString &status)
    {
        ExportFrame f;
        f.id = id;
        f.kind = QStringLiteral("style_edit");
        f.status = status;
        f.prompt = QStringLiteral("Paint it <b>blue</b> & calm");
        f.modelText = QStringLiteral("Here \"it\" is");
        f.model = QStringLiteral("gemini-3.1-flash-lite-image");
        f.interactionId = QStringLiteral("v1_ia_%1").arg(id);
        f.parameters = {
            {QStringLiteral("aspect"), QStringLiteral("16:9")}, {QStringLiteral("thinking"), QStringLiteral("high")}};
        f.created = QDateTime(QDate(2026, 1, 2), QTime(3, 4, 5), Qt::UTC);
        f.finished = f.created.addMSecs(4200);
        return f;
    }

    QString page(const HtmlExportOptions &options, const QString &name)
    {
        HtmlExportOptions o = options;
        o.singleFile = true;
        const QString out = m_tmp.filePath(name + QStringLiteral(".html"));
        QList<const ExportFrame *> frames;
        for (const ExportFrame &f : std::as_const(m_session.frames))
            frames.append(&f);
        const Result<ExportReport> written = HtmlExporter::write(m_session, frames, out, o);
        if (!written)
            qFatal("export failed: %s", qPrintable(written.error().message));
        QFile file(out);
        if (!file.open(QIODevice::ReadOnly))
            qFatal("cannot read %s", qPrintable(out));
        return QString::fromUtf8(file.readAll());
    }

    /** How the page spells a row, in its place. */
    static QString rendered(const CardRow &row)
    {
        using exportfiles::htmlEscape;
        switch (row.field) {
        case CardField::Kind:
            return QStringLiteral("<span class=\"kind\">%1</span>").arg(htmlEscape(row.value));
        case CardField::Created:
            return QStringLiteral("\">%1</time>").arg(htmlEscape(row.value));
        case CardField::Duration:
            return QStringLiteral("<span>took %1</span>").arg(htmlEscape(row.value));
        case CardField::Status:
            return QStringLiteral("<span>%1</span>").arg(htmlEscape(row.value));
        case CardField::Prompt:
            return QStringLiteral("<p class=\"prompt%1\">%2</p>")
                .arg(row.placeholder ? QStringLiteral(" none") : QString(), htmlEscape(row.value));
        case CardField::ModelText:
            return QStringLiteral("<p class=\"modeltext\">%1</p>").arg(htmlEscape(row.value));
        case CardField::Model:
        case CardField::Parameter:
        case CardField::FrameId:
        case CardField::InteractionId:
        case CardField::ReplayOf:
        case CardField::Cost:
            return QStringLiteral("<dt>%1</dt><dd>%2</dd>").arg(htmlEscape(row.label), htmlEscape(row.value));
        case CardField::ReAnchor:
            return QStringLiteral("<p class=\"reanchor\">Re-anchored: %1</p>").arg(htmlEscape(row.value));
        case CardField::Failure:
            return QStringLiteral("<p class=\"error\">Failed: %1</p>").arg(htmlEscape(row.value));
        }
        return {};
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_tmp.isValid());
        m_session.title = QStringLiteral("Card");
        m_session.priceAsOf = QStringLiteral("2026-06-30");
        m_session.priceSource = QStringLiteral("test prices");
        ExportFrame done = frame(QStringLiteral("aaaa1111"), QStringLiteral("done"));
        done.reanchor = QStringLiteral("the parent's id had expired");
        done.replayOf = QStringLiteral("eeee5555"); // a replayed step (issue 14): its "Replays" row
        done.costUsd = 0.0392;
        ExportFrame failed = frame(QStringLiteral("bbbb2222"), QStringLiteral("failed"));
        failed.parentId = done.id;
        failed.error = QStringLiteral("The server said <no>");
        failed.costUsd = 0.0011; // a failed turn that still reported usage
        ExportFrame pending = frame(QStringLiteral("cccc3333"), QStringLiteral("pending"));
        pending.parentId = done.id;
        pending.prompt.clear();
        pending.modelText.clear();
        pending.interactionId.clear();
        pending.finished = {};
        ExportFrame silent = frame(QStringLiteral("dddd4444"), QStringLiteral("failed"));
        silent.parentId = failed.id;
        m_session.frames = {done, failed, pending, silent};
    }

    void tableIsComplete()
    {
        QSet<QString> names;
        QSet<int> fields;
        for (const CardFieldSpec &spec : HtmlCard::fields()) {
            names.insert(QString::fromLatin1(spec.name));
            fields.insert(int(spec.field));
            QVERIFY(!HtmlCard::label(spec).isEmpty());
            QCOMPARE(HtmlCard::spec(spec.field).name, spec.name);
            // Every field is on the page of an export with the default options.
            QVERIFY(HtmlCard::isIncluded(spec, HtmlExportOptions {}));
        }
        QCOMPARE(names.size(), HtmlCard::fields().size());
        QCOMPARE(fields.size(), int(CardField::Failure) + 1);
    }

    void rowsFollowTheStripOptions_data()
    {
        QTest::addColumn<bool>("stripPrompts");
        QTest::addColumn<bool>("stripIds");
        QTest::addColumn<bool>("stripCost");
        QTest::newRow("everything") << false << false << false;
        QTest::newRow("strip prompts") << true << false << false;
        QTest::newRow("strip ids") << false << true << false;
        QTest::newRow("strip both") << true << true << false;
        QTest::newRow("strip cost") << false << false << true;
    }
    void rowsFollowTheStripOptions()
    {
        QFETCH(bool, stripPrompts);
        QFETCH(bool, stripIds);
        QFETCH(bool, stripCost);
        HtmlExportOptions o;
        o.stripPrompts = stripPrompts;
        o.stripIds = stripIds;
        o.stripCost = stripCost;
        const QString html = page(o, QString::fromLatin1(QTest::currentDataTag()).replace(u' ', u'-'));

        QSet<int> seen;
        for (const ExportFrame &f : std::as_const(m_session.frames)) {
            for (const CardRow &row : HtmlCard::rows(f, o)) {
                seen.insert(int(row.field));
                QVERIFY2(html.contains(rendered(row)), qPrintable(QStringLiteral("%1: %2").arg(f.id, rendered(row))));
                const CardFieldSpec &spec = HtmlCard::spec(row.field);
                QCOMPARE(row.place, spec.place);
                if (row.field != CardField::Parameter)
                    QCOMPARE(row.label, HtmlCard::label(spec));
            }
        }
        // What the options strip is absent from the rows and from the page.
        for (const CardFieldSpec &spec : HtmlCard::fields())
            QCOMPARE(seen.contains(int(spec.field)), HtmlCard::isIncluded(spec, o));
        QCOMPARE(html.contains(QStringLiteral("aaaa1111")), !stripIds);
        QCOMPARE(html.contains(QStringLiteral("v1_ia_")), !stripIds);
        QCOMPARE(html.contains(QStringLiteral("&lt;b&gt;blue&lt;/b&gt;")), !stripPrompts);
        QCOMPARE(html.contains(QStringLiteral("Here &quot;it&quot; is")), !stripPrompts);
        QCOMPARE(html.contains(HtmlCard::strippedPromptText()), stripPrompts);
        // Per-frame cost and the page's total, labelled an estimate with the table's date, only when kept.
        QCOMPARE(html.contains(QStringLiteral("<dt>Cost (estimate)</dt><dd>$0.0392</dd>")), !stripCost);
        QCOMPARE(html.contains(QStringLiteral("<dt>Cost (estimate)</dt><dd>$0.0011</dd>")), !stripCost);
        QCOMPARE(html.contains(QStringLiteral("id=\"total-cost\"")), !stripCost);
        QCOMPARE(html.contains(QStringLiteral("Total cost (estimate): $0.0403 for the frames on this page with known "
                                              "usage (2 of 4), prices as of 2026-06-30 (test prices)")),
            !stripCost);
    }

    void noCostWithoutPrices()
    {
        // A session read without a price table has no cost rows and no total, whatever the options.
        ExportSession plain = m_session;
        for (ExportFrame &f : plain.frames)
            f.costUsd = -1;
        QList<const ExportFrame *> frames;
        for (const ExportFrame &f : std::as_const(plain.frames)) {
            frames.append(&f);
            for (const CardRow &row : HtmlCard::rows(f, HtmlExportOptions {}))
                QVERIFY(row.field != CardField::Cost);
        }
        QVERIFY(HtmlCard::totalCostText(plain, frames, HtmlExportOptions {}).isEmpty());
    }

    void placeholdersAndOptionalFields()
    {
        const HtmlExportOptions o;
        const QList<CardRow> pending = HtmlCard::rows(m_session.frames.at(2), o);
        auto find = [](const QList<CardRow> &rows, CardField field) -> const CardRow * {
            for (const CardRow &r : rows)
                if (r.field == field)
                    return &r;
            return nullptr;
        };
        QVERIFY(find(pending, CardField::Prompt)->placeholder);
        QCOMPARE(find(pending, CardField::Status)->value, QStringLiteral("pending"));
        QVERIFY(!find(pending, CardField::ModelText));
        QVERIFY(!find(pending, CardField::InteractionId));
        QVERIFY(!find(pending, CardField::Duration));
        QVERIFY(!find(pending, CardField::Failure));

        const QList<CardRow> done = HtmlCard::rows(m_session.frames.at(0), o);
        QVERIFY(!find(done, CardField::Status));
        QCOMPARE(find(done, CardField::Duration)->value, QStringLiteral("4.2 s"));
        QCOMPARE(find(done, CardField::Created)->value, QStringLiteral("2026-01-02 03:04:05 UTC"));
        QCOMPARE(find(done, CardField::Kind)->value, QStringLiteral("style-edit"));

        const QList<CardRow> silent = HtmlCard::rows(m_session.frames.at(3), o);
        QVERIFY(find(silent, CardField::Failure)->placeholder);
    }
};

QTEST_GUILESS_MAIN(tst_HtmlCard)
#include "tst_htmlcard.moc"
