// Issue 13 in the window: the drift of every edit (worker, badge, heatmap, warning), raw <->
// composite in Compare, and the keep-list above the prompt, against the in-process fake server.
#include "core/edit/editmask.h"
#include "core/fakeapi/fakeserver.h"
#include "core/session/appsettings.h"
#include "core/session/editfinisher.h"
#include "core/session/keeplist.h"
#include "core/session/precisionedit.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"
#include "ui/canvasview.h"
#include "ui/compareview.h"
#include "ui/driftwatch.h"
#include "ui/elidedlabel.h"
#include "ui/frameselection.h"
#include "ui/imagestage.h"
#include "ui/infopanel.h"
#include "ui/keeplistwidget.h"
#include "ui/mainwindow.h"
#include "ui/noticepresenter.h"
#include "ui/promptpanel.h"
#include "ui/sessionmanager.h"
#include "ui/timelinedelegate.h"
#include "ui/timelinemodel.h"
#include "ui/turndispatcher.h"
#include "ui/windowsettings.h"
#include "uitesthelpers.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QLineEdit>
#include <QListWidget>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>
#include <QUndoStack>

using namespace nb2;

class tst_DriftUi : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void badgeTextIsPluralSafe();
    void appEditGetsDriftBadgeAndHeatmap();
    void aHeatmapThatLeadsOutOfTheSessionIsNotShown();
    void protectEditIsCompositedAndComparesRawWithComposite();
    void keepListAboveThePromptIsSentAndShown();
    void heatmapOverlayTintsOnlyChangedAreas();

private:
    bool waitFor(const std::function<bool()> &done, int timeoutMs = 20000)
    {
        QElapsedTimer t;
        t.start();
        while (!done()) {
            if (t.elapsed() > timeoutMs)
                return false;
            QTest::qWait(20);
        }
        return true;
    }
    Frame frame(const QString &id) const { return m_window->session()->graph().value(id); }
    QString send(const QString &prompt)
    {
        m_window->promptPanel()->setPrompt(prompt);
        m_window->turns()->submit();
        const QString id = m_window->selection()->currentId();
        waitFor([&] { return m_window->session()->isIdle(); });
        return id;
    }
    EditFinisher *finisher() const { return m_window->findChild<DriftWatch *>()->finisher(); }

    std::unique_ptr<FakeServer> m_server;
    std::unique_ptr<QTemporaryDir> m_dir;
    MainWindow *m_window = nullptr;
};

void tst_DriftUi::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    qputenv("NB2_NO_AUTO_SETTINGS", "1");
    QApplication::setOrganizationName(QStringLiteral("NB2LiteTest"));
    QApplication::setApplicationName(QStringLiteral("tst_driftui"));
    FakeServerOptions options;
    options.apiKey = QStringLiteral("ui-test-key");
    m_server = std::make_unique<FakeServer>(options);
    QVERIFY(m_server->start(0));
}

void tst_DriftUi::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    {
        QSettings s;
        s.clear();
        appprefs::sessionsFolder.write(s, m_dir->path() + QStringLiteral("/sessions"));
    }
    m_window = new MainWindow;
    m_window->setBackend(nb2test::fakeConfig(*m_server, QStringLiteral("ui-test-key")), true);
    const Result<void> opened = m_window->sessions()->open(m_dir->path() + QStringLiteral("/s1"));
    QVERIFY2(opened, qPrintable(opened.error().message));
    m_window->resize(1300, 850);
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window));
}

void tst_DriftUi::cleanup()
{
    if (m_window) {
        m_window->session()->waitForIdle(10000);
        finisher()->waitForIdle(10000);
        delete m_window;
        m_window = nullptr;
    }
    m_dir.reset();
}

void tst_DriftUi::badgeTextIsPluralSafe()
{
    QCOMPARE(TimelineDelegate::driftBadgeText(0.38), QStringLiteral("38 % changed"));
    QCOMPARE(TimelineDelegate::driftBadgeText(0.0), QStringLiteral("0 % changed"));
    QCOMPARE(TimelineDelegate::driftBadgeText(0.001), QStringLiteral("1 % changed")); // visible, however small
    QCOMPARE(TimelineDelegate::driftBadgeText(1.0), QStringLiteral("100 % changed"));
    QVERIFY(TimelineDelegate::driftBadgeText(-1).isEmpty());
}

void tst_DriftUi::appEditGetsDriftBadgeAndHeatmap()
{
    SessionController *s = m_window->session();
    const QString root = send(QStringLiteral("a lighthouse on a cliff"));
    QCOMPARE(frame(root).status, FrameStatus::Done);
    QSignalSpy measured(finisher(), &EditFinisher::finished);
    const QString edit = send(QStringLiteral("make it night"));
    QCOMPARE(frame(edit).status, FrameStatus::Done);
    QVERIFY(waitFor([&] { return !frame(edit).drift.isEmpty(); }));
    QCOMPARE(measured.count(), 1);
    const Frame e = frame(edit);
    QVERIFY(QFileInfo::exists(s->store()->absolutePath(e.drift.heatmapFile)));

    // The card's badge and the warning follow the stored reading.
    const QModelIndex idx = m_window->timelineModel()->indexOf(edit);
    QCOMPARE(idx.data(TimelineRole::DriftChanged).toDouble(), e.drift.changed);
    QCOMPARE(idx.data(TimelineRole::DriftWarning).toBool(), EditFinisher::warrantsWarning(e));
    QCOMPARE(m_window->timelineModel()->indexOf(root).data(TimelineRole::DriftChanged).toDouble(), -1.0);
    if (EditFinisher::warrantsWarning(e)) {
        QVERIFY2(m_window->notices()->lastMessage().contains(QStringLiteral("protect what must stay?")),
            qPrintable(m_window->notices()->lastMessage()));
        QCOMPARE(m_window->notices()->actionText(), QStringLiteral("Show changes"));
    }
    QVERIFY(m_window->infoPanel()
                ->rowText(QStringLiteral("infoDrift"))
                .contains(QStringLiteral("% of the picture changed")));

    // Compare with the parent: the heatmap toggle is there and lays the heatmap over the child.
    m_window->selection()->select(edit);
    m_window->stage()->showCompare();
    CompareView *compare = m_window->stage()->compareView();
    QVERIFY(waitFor([&] { return compare->hasHeatmap() && !compare->shownRightImage().isNull(); }));
    QSignalSpy applied(compare, &CompareView::heatmapApplied);
    compare->setHeatmapShown(true);
    QVERIFY(applied.wait(5000));
    QVERIFY(compare->shownRightImage()
            != QImage(s->store()->absolutePath(e.image.file)).convertToFormat(QImage::Format_RGB32)
        || e.drift.changed == 0);
    QVERIFY(!compare->isRawCompareAvailable()); // a plain edit has no raw image
    m_window->stage()->showCanvas();

    // Identical picture: 0 % (the same image imported twice and "edited" into itself is a core test;
    // here: the badge reads what the frame holds).
    QCOMPARE(TimelineDelegate::driftBadgeText(e.drift.changed),
        TimelineDelegate::driftBadgeText(idx.data(TimelineRole::DriftChanged).toDouble()));
}

void tst_DriftUi::aHeatmapThatLeadsOutOfTheSessionIsNotShown()
{
    // The open checks every frame's pictures, not its heatmap or raw image: those are resolved
    // as Compare reads them, so a link out (crafted, or made after the open) shows nothing.
    SessionController *s = m_window->session();
    send(QStringLiteral("a lighthouse on a cliff"));
    const QString edit = send(QStringLiteral("make it night"));
    QVERIFY(waitFor([&] { return !frame(edit).drift.isEmpty(); }));
    const QString heatmap = s->store()->absolutePath(frame(edit).drift.heatmapFile);
    const QString outside = m_dir->filePath(QStringLiteral("outside.png"));
    QVERIFY(QFile::rename(heatmap, outside));
    QVERIFY(QFile::link(outside, heatmap));

    m_window->selection()->select(edit);
    m_window->stage()->showCompare();
    CompareView *compare = m_window->stage()->compareView();
    QVERIFY(waitFor([&] { return !compare->shownRightImage().isNull(); }));
    QVERIFY(!compare->hasHeatmap());
    QVERIFY2(m_window->notices()->lastMessage().startsWith(QStringLiteral("The drift heatmap of #2 names '%1', "
                                                                          "a link that leads outside")
                                                               .arg(frame(edit).drift.heatmapFile)),
        qPrintable(m_window->notices()->lastMessage()));
    m_window->stage()->showCanvas();
}

void tst_DriftUi::protectEditIsCompositedAndComparesRawWithComposite()
{
    SessionController *s = m_window->session();
    const QString root = send(QStringLiteral("a red barn in a field"));
    const Frame parent = frame(root);
    QVERIFY(parent.isDone());
    const QSize size(parent.image.width, parent.image.height);
    const QRect sky(0, 0, size.width(), size.height() / 3);
    Result<PreparedRegion> prepared
        = PrecisionEdit::prepare(s->store()->dir(), parent, RegionMode::Protect, EditMask::fromRect(size, sky), 4);
    QVERIFY2(prepared, qPrintable(prepared.error().message));
    TurnParams params = nb2test::turn(QStringLiteral("a stormy sky"));
    params.regionEdit = prepared.value().edit;
    const Result<QString> started = s->edit(root, params);
    QVERIFY2(started, qPrintable(started.error().message));
    QVERIFY(waitFor([&] { return !frame(started.value()).drift.isEmpty(); }));
    const Frame child = frame(started.value());
    QVERIFY(!child.regionEdit.rawFile.isEmpty());
    QVERIFY(child.image.file.endsWith(QStringLiteral("_composite.png")));
    QVERIFY(child.drift.outsideChanged >= 0);
    QVERIFY(m_window->infoPanel()->rowText(QStringLiteral("infoRegion")).isEmpty()
        || m_window->selection()->currentId() != child.id);

    m_window->selection()->select(child.id);
    QVERIFY(waitFor([&] {
        return m_window->infoPanel()->rowText(QStringLiteral("infoRegion")).contains(QStringLiteral("protect"));
    }));
    m_window->stage()->showCompare();
    CompareView *compare = m_window->stage()->compareView();
    QVERIFY(waitFor([&] { return compare->isRawCompareAvailable(); }));
    compare->setRawCompare(true);
    QVERIFY(waitFor([&] { return compare->leftLabel().contains(QStringLiteral("raw")); }));
    QVERIFY(compare->rightLabel().contains(QStringLiteral("composite")));
    QVERIFY(waitFor([&] { return !compare->hasHeatmap() && !compare->leftView()->imageSize().isEmpty(); }));
    compare->setRawCompare(false);
    QVERIFY(waitFor([&] { return compare->leftLabel().contains(QStringLiteral("parent")); }));
    m_window->stage()->showCanvas();
}

void tst_DriftUi::keepListAboveThePromptIsSentAndShown()
{
    const QString root = send(QStringLiteral("a jar with a label"));
    auto *keep = m_window->findChild<KeepListWidget *>();
    QVERIFY(keep);
    QVERIFY(keep->isVisible());
    m_window->selection()->select(root);
    QVERIFY(keep->items().isEmpty());
    auto *add = keep->findChild<QLineEdit *>(QStringLiteral("keepListAdd"));
    QVERIFY(add && add->isEnabled());
    add->setText(QStringLiteral("keep the label text"));
    QTest::keyClick(add, Qt::Key_Return);
    keep->addItem(QStringLiteral("same framing"));
    QCOMPARE(keep->items(), (QStringList {QStringLiteral("keep the label text"), QStringLiteral("same framing")}));
    QVERIFY(keep->sourceText().contains(QStringLiteral("set on")));
    // The list, made for the first keep-list shown, sits between the remove button and the line
    // edit for Tab, as it did when it was made with the panel.
    auto *list = keep->findChild<QListWidget *>(QStringLiteral("keepListItems"));
    QVERIFY(list && list->isVisible());
    auto *remove = keep->findChild<QToolButton *>(QStringLiteral("keepListRemove"));
    QVERIFY(remove);
    QList<QWidget *> stops;
    for (QWidget *w = remove->nextInFocusChain(); w != remove && stops.size() < 2; w = w->nextInFocusChain()) {
        if (w->focusPolicy() & Qt::TabFocus)
            stops << w;
    }
    QCOMPARE(stops, (QList<QWidget *> {list, add}));
    QVERIFY(frame(root).keepListSet);
    // In a narrow dock the source line ends in "…" (the tooltip has all of it) instead of being cut.
    auto *source = keep->findChild<ElidedLabel *>(QStringLiteral("keepListSource"));
    QVERIFY(source);
    source->resize(source->fontMetrics().horizontalAdvance(source->text()) / 2, source->height());
    QVERIFY2(source->shownText().endsWith(QChar(0x2026)), qPrintable(source->shownText()));
    QCOMPARE(source->toolTip(), source->text());

    const QString child = send(QStringLiteral("make the jar blue"));
    QCOMPARE(frame(child).prompt, QStringLiteral("make the jar blue"));
    const QString sent = QStringLiteral(
        "make the jar blue\n\nKeep-list (respect in this edit):\n- keep the label text\n- same framing");
    QCOMPARE(frame(child).promptSent, sent);
    QByteArray body;
    for (const FakeRequest &r : m_server->requests())
        if (r.method == QLatin1String("POST") && r.path.contains(QLatin1String("/interactions")))
            body = r.body;
    QVERIFY2(body.contains("- keep the label text"), body.constData());

    // The child inherits it; Frame Details shows both texts.
    m_window->selection()->select(child);
    QCOMPARE(keep->items().size(), 2);
    QVERIFY(keep->sourceText().contains(QStringLiteral("inherited from")));
    QCOMPARE(m_window->infoPanel()->rowText(QStringLiteral("infoPrompt")), QStringLiteral("make the jar blue"));
    QVERIFY(
        m_window->infoPanel()->rowText(QStringLiteral("infoPromptSent")).contains(QStringLiteral("- same framing")));

    // Remove on the child overrides there only; Inherit drops the override; undo works.
    keep->removeItem(0);
    QCOMPARE(keep->items(), QStringList {QStringLiteral("same framing")});
    QCOMPARE(KeepList::effective(m_window->session()->graph(), root).items.size(), 2);
    keep->inherit();
    QCOMPARE(keep->items().size(), 2);
    m_window->session()->undoStack()->undo();
    QCOMPARE(keep->items(), QStringList {QStringLiteral("same framing")});
}

void tst_DriftUi::heatmapOverlayTintsOnlyChangedAreas()
{
    QImage child(64, 64, QImage::Format_RGB32);
    child.fill(QColor(30, 90, 200));
    QImage heat(16, 16, QImage::Format_RGB32);
    heat.fill(Qt::black);
    for (int y = 0; y < 16; ++y)
        for (int x = 8; x < 16; ++x)
            heat.setPixel(x, y, qRgb(255, 120, 0));
    const QImage out = CompareView::overlayHeatmap(child, heat);
    QCOMPARE(out.size(), child.size());
    QCOMPARE(out.pixel(4, 30), child.pixel(4, 30)); // unchanged stays exactly as it was
    QVERIFY(qRed(out.pixel(60, 30)) > 150);         // changed glows red..yellow
}

QTEST_MAIN(tst_DriftUi)
#include "tst_driftui.moc"
