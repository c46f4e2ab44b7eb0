// Issue 13 in the window, against the in-process fake server: paint a selection on the
// canvas with the tools' shortcuts, send a region edit and a protect edit, find the composite
// with its mask and raw file, and the continuation after a composite (inline by default, the
// raw image by id when asked) in the fake's request log.
// NB2_SCREENSHOT_DIR=<dir>: also writes region-selection.png and region-edit-result.png there.
#include "core/edit/editmask.h"
#include "core/fakeapi/fakeserver.h"
#include "core/session/precisionrunner.h"
#include "core/session/sessioncontroller.h"
#include "core/session/sessionstore.h"
#include "ui/actionmanager.h"
#include "ui/canvasview.h"
#include "ui/frameselection.h"
#include "ui/imagestage.h"
#include "ui/mainwindow.h"
#include "ui/promptpanel.h"
#include "ui/selectionchoice.h"
#include "ui/selectioncontroller.h"
#include "ui/selectionmask.h"
#include "ui/sessionmanager.h"
#include "ui/turndispatcher.h"
#include "uitesthelpers.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <functional>

using namespace nb2;

class tst_RegionEdit : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();

    void regionEditFromTheCanvas();
    void protectEditKeepsTheSelectionExact();
    void toolsFollowTheFrame();

private:
    Frame frame(const QString &id) const { return m_window->session()->graph().value(id); }
    QString sessionDir() const { return m_window->session()->store()->dir(); }
    QString path(const QString &rel) const { return QDir(sessionDir()).filePath(rel); }
    static bool waitFor(const std::function<bool()> &done, int timeoutMs = 30000);
    void send(const QString &prompt);
    /** Sends a prompt for a new picture and waits until it is on the canvas, ready to select on. */
    QString generateAndShow(const QString &prompt);
    /** A finished child of `parentId` not in `known`, once its composite (if any) is recorded. */
    QString waitForChild(const QString &parentId, const QStringList &known = {});
    void drag(const QPointF &fromImage, const QPointF &toImage, Qt::KeyboardModifiers modifiers = {});
    QJsonObject lastCreateBody() const;
    bool protectedPixelsExact(const Frame &parent, const Frame &child, QString *why) const;
    void screenshot(const QString &name);

    std::unique_ptr<FakeServer> m_server;
    std::unique_ptr<QTemporaryDir> m_dir;
    MainWindow *m_window = nullptr;
};

void tst_RegionEdit::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    qputenv("NB2_NO_AUTO_SETTINGS", "1");
    QApplication::setOrganizationName(QStringLiteral("NB2LiteTest"));
    QApplication::setApplicationName(QStringLiteral("tst_regionedit"));
    FakeServerOptions options;
    options.apiKey = QStringLiteral("ui-test-key");
    m_server = std::make_unique<FakeServer>(options);
    QVERIFY2(m_server->start(0), qPrintable(m_server->errorString()));
}

void tst_RegionEdit::init()
{
    m_server->clearFaults();
    m_dir = std::make_unique<QTemporaryDir>();
    {
        QSettings s;
        s.clear();
    }
    m_window = new MainWindow;
    m_window->setBackend(nb2test::fakeConfig(*m_server, QStringLiteral("ui-test-key")), true);
    const Result<void> opened = m_window->sessions()->open(m_dir->path() + QStringLiteral("/s1"));
    QVERIFY2(opened, qPrintable(opened.error().message));
    const QByteArray size = qgetenv("NB2_WINDOW_SIZE"); // e.g. 800x600 for the small-screen check
    const QList<QByteArray> wh = size.split('x');
    m_window->resize(wh.size() == 2 ? QSize(wh[0].toInt(), wh[1].toInt()) : QSize(1280, 860));
    m_window->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_window));
    m_window->activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(m_window));
}

void tst_RegionEdit::cleanup()
{
    if (m_window) {
        m_window->session()->waitForIdle(10000);
        m_window->turns()->precisionRunner()->waitForIdle(10000);
        delete m_window;
        m_window = nullptr;
    }
    m_dir.reset();
}

bool tst_RegionEdit::waitFor(const std::function<bool()> &done, int timeoutMs)
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

void tst_RegionEdit::send(const QString &prompt)
{
    PromptPanel *p = m_window->promptPanel();
    p->setPrompt(prompt);
    p->editor()->setFocus();
    QTest::keyClick(p->editor(), Qt::Key_Return, Qt::ControlModifier);
}

QString tst_RegionEdit::generateAndShow(const QString &prompt)
{
    m_window->selection()->requestNewImage();
    send(prompt);
    QString id;
    if (!waitFor([&] {
            id = m_window->selection()->currentId();
            return !id.isEmpty() && frame(id).isDone() && m_window->selectionTools()->current() != nullptr;
        }))
        return {};
    return id;
}

QString tst_RegionEdit::waitForChild(const QString &parentId, const QStringList &known)
{
    QString found;
    waitFor([&] {
        for (const QString &c : m_window->session()->graph().children(parentId)) {
            const Frame f = frame(c);
            if (known.contains(c) || !f.isDone())
                continue;
            if (!f.regionEdit.isEmpty() && f.regionEdit.rawFile.isEmpty())
                continue; // still compositing
            found = c;
            return true;
        }
        return false;
    });
    return found;
}

void tst_RegionEdit::drag(const QPointF &fromImage, const QPointF &toImage, Qt::KeyboardModifiers modifiers)
{
    CanvasView *canvas = m_window->stage()->canvas();
    const QPoint a = canvas->mapFromImage(fromImage).toPoint();
    const QPoint b = canvas->mapFromImage(toImage).toPoint();
    QTest::mousePress(canvas, Qt::LeftButton, modifiers, a);
    QTest::mouseMove(canvas, (a + b) / 2);
    QTest::mouseMove(canvas, b);
    QTest::mouseRelease(canvas, Qt::LeftButton, modifiers, b);
}

QJsonObject tst_RegionEdit::lastCreateBody() const
{
    const QList<FakeRequest> requests = m_server->requests();
    for (qsizetype i = requests.size() - 1; i >= 0; --i)
        if (requests[i].method == QLatin1String("POST"))
            return QJsonDocument::fromJson(requests[i].body).object();
    return {};
}

bool tst_RegionEdit::protectedPixelsExact(const Frame &parent, const Frame &child, QString *why) const
{
    const QImage p = QImage(path(parent.image.file)).convertToFormat(QImage::Format_ARGB32);
    const QImage c = QImage(path(child.image.file)).convertToFormat(QImage::Format_ARGB32);
    const QImage maskImage(path(child.regionEdit.maskFile));
    if (p.isNull() || c.isNull() || maskImage.isNull() || p.size() != c.size()) {
        *why = QStringLiteral("missing or mismatched images");
        return false;
    }
    const QImage weight = EditMask(maskImage).feathered(child.regionEdit.feather);
    for (int y = 0; y < p.height(); ++y)
        for (int x = 0; x < p.width(); ++x)
            if (weight.constScanLine(y)[x] == 0 && p.pixel(x, y) != c.pixel(x, y)) {
                *why = QStringLiteral("pixel %1,%2 differs").arg(x).arg(y);
                return false;
            }
    return true;
}

void tst_RegionEdit::screenshot(const QString &name)
{
    const QString dir = qEnvironmentVariable("NB2_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return;
    QTest::qWait(400);
    QVERIFY(m_window->grab().save(QDir(dir).filePath(name), "PNG"));
}

void tst_RegionEdit::regionEditFromTheCanvas()
{
    const QString root = generateAndShow(QStringLiteral("a harbour at noon"));
    QVERIFY(!root.isEmpty());
    CanvasView *canvas = m_window->stage()->canvas();
    SelectionController *tools = m_window->selectionTools();
    QVERIFY(!tools->hasSelection());
    QVERIFY(!m_window->promptPanel()->selectionChoice()->isVisible());

    // M chooses the rectangle (as in image editors), then a drag selects.
    canvas->setFocus();
    QTest::keyClick(canvas, Qt::Key_M);
    QCOMPARE(canvas->selectionTool(), SelectionTool::Rectangle);
    const QSize size = canvas->imageSize();
    const QRectF want(size.width() * 0.25, size.height() * 0.3, size.width() * 0.35, size.height() * 0.4);
    drag(want.topLeft(), want.bottomRight());
    QVERIFY(tools->hasSelection());
    const QRect got = tools->current()->boundingRect();
    const int slack = int(std::ceil(1 / canvas->zoom())) + 1; // a widget pixel covers this many image pixels
    QVERIFY2(std::abs(got.left() - want.left()) <= slack && std::abs(got.top() - want.top()) <= slack
            && std::abs(got.right() + 1 - want.right()) <= slack && std::abs(got.bottom() + 1 - want.bottom()) <= slack,
        qPrintable(QStringLiteral("%1,%2 %3x%4").arg(got.x()).arg(got.y()).arg(got.width()).arg(got.height())));

    // The prompt panel offers Edit region (default) / Protect, and the plan is a region edit.
    SelectionChoice *choice = m_window->promptPanel()->selectionChoice();
    QVERIFY(choice->isVisible());
    QCOMPARE(choice->mode(), RegionMode::Region);
    QCOMPARE(m_window->turns()->plan().region, RegionMode::Region);
    QCOMPARE(m_window->turns()->plan().kind, TurnMode::EditLocal);
    QVERIFY(m_window->promptPanel()->contextText().contains(QStringLiteral("selected region")));
    m_window->promptPanel()->setPrompt(QStringLiteral("a red boat"));
    QCOMPARE(m_window->promptPanel()->sendButton()->text(), QStringLiteral("Edit region"));
    screenshot(QStringLiteral("region-selection.png"));

    m_server->clearRequests();
    send(QStringLiteral("a red boat"));
    const QString child = waitForChild(root);
    QVERIFY(!child.isEmpty());
    const Frame c = frame(child);
    const Frame parent = frame(root);
    QCOMPARE(c.kind, FrameKind::EditLocal);
    QCOMPARE(c.regionEdit.mode, RegionMode::Region);
    QCOMPARE(c.regionEdit.feather, PrecisionEdit::kDefaultFeather);
    QVERIFY(c.regionEdit.crop.contains(got));
    // The crop went inline, not the id.
    const QJsonObject body = lastCreateBody();
    QVERIFY2(!body.contains(QLatin1String("previous_interaction_id")), "a region edit sends the crop, not the id");
    QVERIFY(QJsonDocument(body).toJson(QJsonDocument::Compact).contains("\"data\""));
    // Stored: the composite as PNG, the raw server image beside it, the mask the selection was.
    QCOMPARE(c.image.mimeType, QStringLiteral("image/png"));
    QVERIFY(c.image.file.endsWith(QLatin1String("_composite.png")));
    QVERIFY(QFileInfo::exists(path(c.image.file)));
    QVERIFY(QFileInfo::exists(path(c.regionEdit.rawFile)));
    QVERIFY(c.regionEdit.rawFile != c.image.file);
    const QImage storedMask(path(c.regionEdit.maskFile));
    QCOMPARE(storedMask.size(), QSize(parent.image.width, parent.image.height));
    QCOMPARE(EditMask(storedMask).boundingRect(), got);
    QString why;
    QVERIFY2(protectedPixelsExact(parent, c, &why), qPrintable(why));
    QVERIFY(c.drift.changed >= 0);

    // The result is selected, shows the composite, and starts with the same selection.
    QVERIFY(waitFor([&] {
        return m_window->selection()->currentId() == child && tools->current() != nullptr
            && canvas->image().size() == size;
    }));
    QCOMPARE(canvas->image().size(), size);
    QCOMPARE(tools->current()->boundingRect(), got);
    QTest::keyClick(canvas, Qt::Key_D, Qt::ControlModifier); // Deselect
    QVERIFY(!tools->hasSelection());
    QTest::keyClick(canvas, Qt::Key_H);
    QCOMPARE(canvas->selectionTool(), SelectionTool::None);
    screenshot(QStringLiteral("region-edit-result.png"));

    // Continuation: by default the composite is sent inline (the server never saw it) ...
    TurnPlan plan = m_window->turns()->plan();
    QCOMPARE(plan.kind, TurnMode::EditLocal);
    QVERIFY(plan.compositeInline);
    QVERIFY2(plan.reason.contains(QStringLiteral("continues from your composited image (sent inline)")),
        qPrintable(plan.reason));
    QVERIFY(choice->isVisible());
    auto *fromRaw = choice->findChild<QCheckBox *>(QStringLiteral("continueFromRawBox"));
    QVERIFY(fromRaw && fromRaw->isVisible() && !fromRaw->isChecked());
    m_server->clearRequests();
    send(QStringLiteral("add a gull"));
    const QString inlineChild = waitForChild(child);
    QVERIFY(!inlineChild.isEmpty());
    QCOMPARE(frame(inlineChild).kind, FrameKind::EditLocal);
    QCOMPARE(frame(inlineChild).inputImages.value(0), c.image.file); // the composite
    QVERIFY(!lastCreateBody().contains(QLatin1String("previous_interaction_id")));

    // ... and the server's raw image by id when asked (a branch now: the composite has a child).
    m_window->selection()->select(child);
    QVERIFY(waitFor([&] { return fromRaw->isVisible(); }));
    fromRaw->setChecked(true);
    plan = m_window->turns()->plan();
    QCOMPARE(plan.kind, TurnMode::Branch);
    QVERIFY(!plan.compositeInline);
    QVERIFY2(plan.reason.contains(QStringLiteral("raw image by id")), qPrintable(plan.reason));
    m_server->clearRequests();
    send(QStringLiteral("add a kite"));
    const QString rawChild = waitForChild(child, {inlineChild});
    QVERIFY(!rawChild.isEmpty());
    QCOMPARE(lastCreateBody().value(QLatin1String("previous_interaction_id")).toString(), c.interactionId);
}

void tst_RegionEdit::protectEditKeepsTheSelectionExact()
{
    const QString root = generateAndShow(QStringLiteral("a meadow"));
    QVERIFY(!root.isEmpty());
    CanvasView *canvas = m_window->stage()->canvas();
    SelectionController *tools = m_window->selectionTools();
    canvas->setFocus();
    QTest::keyClick(canvas, Qt::Key_M, Qt::ShiftModifier);
    QCOMPARE(canvas->selectionTool(), SelectionTool::Ellipse);
    const QSize size = canvas->imageSize();
    drag(QPointF(size.width() * 0.1, size.height() * 0.1), QPointF(size.width() * 0.5, size.height() * 0.6));
    QVERIFY(tools->hasSelection());
    // The brush adds a stroke (B), the eraser takes part of it away (E).
    QTest::keyClick(canvas, Qt::Key_B);
    QCOMPARE(canvas->selectionTool(), SelectionTool::Brush);
    const qint64 before = tools->current()->selectedCount();
    drag(QPointF(size.width() * 0.7, size.height() * 0.2), QPointF(size.width() * 0.8, size.height() * 0.8));
    const qint64 brushed = tools->current()->selectedCount();
    QVERIFY(brushed > before);
    QTest::keyClick(canvas, Qt::Key_E);
    drag(QPointF(size.width() * 0.75, size.height() * 0.5), QPointF(size.width() * 0.75, size.height() * 0.5));
    QVERIFY(tools->current()->selectedCount() < brushed);
    const SelectionMask selection = *tools->current();

    auto *protect
        = m_window->promptPanel()->selectionChoice()->findChild<QRadioButton *>(QStringLiteral("protectModeButton"));
    QVERIFY(protect);
    protect->setChecked(true);
    const TurnPlan plan = m_window->turns()->plan();
    QCOMPARE(plan.region, RegionMode::Protect);
    QCOMPARE(plan.kind, TurnMode::Edit);
    m_server->clearRequests();
    send(QStringLiteral("make it night"));
    const QString child = waitForChild(root);
    QVERIFY(!child.isEmpty());
    const Frame c = frame(child);
    const Frame parent = frame(root);
    QCOMPARE(c.kind, FrameKind::Edit);
    QCOMPARE(c.regionEdit.mode, RegionMode::Protect);
    QCOMPARE(lastCreateBody().value(QLatin1String("previous_interaction_id")).toString(), parent.interactionId);
    // The stored mask says what may change: everything but the selection.
    const EditMask stored(QImage(path(c.regionEdit.maskFile)));
    for (int y = 0; y < size.height(); y += 3)
        for (int x = 0; x < size.width(); x += 3)
            QCOMPARE(stored.isSelected(x, y), !selection.isSelected(x, y));
    QString why;
    QVERIFY2(protectedPixelsExact(parent, c, &why), qPrintable(why));
}

void tst_RegionEdit::toolsFollowTheFrame()
{
    const QString first = generateAndShow(QStringLiteral("a lighthouse"));
    QVERIFY(!first.isEmpty());
    CanvasView *canvas = m_window->stage()->canvas();
    SelectionController *tools = m_window->selectionTools();
    canvas->setFocus();
    QTest::keyClick(canvas, Qt::Key_L);
    QCOMPARE(canvas->selectionTool(), SelectionTool::Lasso);
    const QSize size = canvas->imageSize();
    CanvasView *c = canvas;
    const QPoint a = c->mapFromImage(QPointF(size.width() * 0.2, size.height() * 0.2)).toPoint();
    const QPoint b = c->mapFromImage(QPointF(size.width() * 0.8, size.height() * 0.2)).toPoint();
    const QPoint d = c->mapFromImage(QPointF(size.width() * 0.5, size.height() * 0.8)).toPoint();
    QTest::mousePress(c, Qt::LeftButton, {}, a);
    QTest::mouseMove(c, b);
    QTest::mouseMove(c, d);
    QTest::mouseRelease(c, Qt::LeftButton, {}, d);
    QVERIFY(tools->hasSelection());
    const QRect lasso = tools->current()->boundingRect();
    // Invert (Ctrl+Shift+I) and back.
    const qint64 n = tools->current()->selectedCount();
    QTest::keyClick(canvas, Qt::Key_I, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(tools->current()->selectedCount(), qint64(size.width()) * size.height() - n);
    m_window->action(ActionId::SelectInvert)->trigger();
    QCOMPARE(tools->current()->selectedCount(), n);

    // Another frame has its own (empty) selection; coming back finds this one again.
    const QString second = generateAndShow(QStringLiteral("a windmill"));
    QVERIFY(!second.isEmpty() && second != first);
    QVERIFY(!tools->hasSelection());
    QCOMPARE(m_window->turns()->plan().region, RegionMode::None);
    m_window->selection()->select(first);
    QVERIFY(waitFor([&] { return tools->hasSelection(); }));
    QCOMPARE(tools->current()->boundingRect(), lasso);
    QCOMPARE(m_window->turns()->plan().region, RegionMode::Region);
    // Typing in the prompt never switches tools: the letters go into the text.
    m_window->promptPanel()->editor()->setFocus();
    QTest::keyClicks(m_window->promptPanel()->editor(), QStringLiteral("mble"));
    QCOMPARE(m_window->promptPanel()->prompt(), QStringLiteral("mble"));
    QCOMPARE(canvas->selectionTool(), SelectionTool::Lasso);
}

QTEST_MAIN(tst_RegionEdit)
#include "tst_regionedit.moc"
