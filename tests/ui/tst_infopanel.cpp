// Frame Details on its own.
// - What showing a frame costs the GUI thread (issue 10, case 5: when a 10,000-frame session
//   opens, the pass that shows its frame was the longest). Prints the GUI thread's CPU for the
//   first frame ever shown (fonts and text engines still cold) and for the next frames (as when
//   the arrow keys walk the timeline), with the layout and paint that follow; asserts no timing
//   (the machine is shared), only that every row says what the frame holds.
// - Its values are selectable text under the mouse, and only there (the cheaper layout).
#include "core/session/frame.h"
#include "threadcpu.h"
#include "ui/infopanel.h"

#include <QLabel>
#include <QtTest>

#include <algorithm>

using namespace nb2;

namespace {

/** A finished edit with every row the app usually shows filled in; n makes its texts differ. */
Frame fullFrame(int n)
{
    Frame f;
    f.id = QStringLiteral("%1").arg(n, 8, 16, QLatin1Char('0'));
    f.parentId = QStringLiteral("0000ffff");
    f.kind = FrameKind::Edit;
    f.status = FrameStatus::Done;
    f.prompt = QStringLiteral("step %1: make the lantern a little brighter and add a second boat near the quay, "
                              "keeping the reflections in the water")
                   .arg(n);
    f.aspectRatio = QStringLiteral("16:9");
    f.thinkingLevel = QStringLiteral("high");
    f.model = QStringLiteral("gemini-3.1-flash-lite-image");
    f.interactionId = QStringLiteral("v1_ChdpbnRlcmFjdGlvbl8%1_aGVsbG8gd29ybGQ").arg(n);
    f.modelText = QStringLiteral("I brightened the lantern and placed a small rowing boat by the quay; the "
                                 "reflections follow the new light. (%1)")
                      .arg(n);
    f.usage.inputTokens = 1290 + n;
    f.usage.outputTokens = 1120;
    f.usage.thoughtTokens = 212;
    f.usage.totalTokens = 2622 + n;
    f.requestedAt = QDateTime::currentDateTimeUtc().addSecs(-60 - n);
    f.finishedAt = QDateTime::currentDateTimeUtc().addSecs(-n);
    f.attempts = 1;
    f.image.file = QStringLiteral("images/%1.jpg").arg(f.id);
    f.image.width = 1024;
    f.image.height = 576;
    f.drift.changed = 0.12;
    return f;
}

/** setFrame() and what it queues (the layout, the rows' second measure) and a paint. */
double showAndSettle(InfoPanel &panel, const Frame &f, int number)
{
    const double start = nb2test::threadCpuMs();
    panel.setFrame(f, number, number - 1, QStringLiteral("/home/someone/session/") + f.image.file);
    panel.setCost(QStringLiteral("$0.0123 (estimate) · $0.4567 to reproduce this branch up to here"));
    QCoreApplication::sendPostedEvents();
    QCoreApplication::sendPostedEvents(); // what the layout's resize events queued
    panel.repaint();
    return nb2test::threadCpuMs() - start;
}

double median(QList<double> v)
{
    std::sort(v.begin(), v.end());
    return v.isEmpty() ? 0 : v.at(v.size() / 2);
}

} // namespace

class tst_InfoPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void showingAFrame();
    void valuesAreSelectableUnderTheMouse();
};

void tst_InfoPanel::showingAFrame()
{
    InfoPanel panel;
    panel.resize(330, 720); // the dock's width in a 1280-wide window
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.prepare(); // as a background open does while the worker parses
    QCoreApplication::sendPostedEvents();

    const double first = showAndSettle(panel, fullFrame(1), 2);
    QList<double> next;
    for (int i = 2; i < 42; ++i)
        next << showAndSettle(panel, fullFrame(i), i + 1);
    qInfo("Frame Details, GUI thread CPU: first frame %.2f ms; next frames median %.2f ms (min %.2f, max %.2f, n=%d)",
        first, median(next), *std::min_element(next.cbegin(), next.cend()),
        *std::max_element(next.cbegin(), next.cend()), int(next.size()));

    // NB2_SCREENSHOT_OUT=<folder>: the panel as the last frame left it, to look at.
    if (const QString dir = qEnvironmentVariable("NB2_SCREENSHOT_OUT"); !dir.isEmpty())
        QVERIFY(panel.grab().save(dir + QStringLiteral("/frame-details.png"), "PNG"));

    // What was shown is the last frame, row by row.
    const Frame last = fullFrame(41);
    QCOMPARE(panel.rowText(QStringLiteral("infoPrompt")), last.prompt);
    QCOMPARE(panel.rowText(QStringLiteral("infoInteractionId")), last.interactionId);
    QVERIFY(panel.rowText(QStringLiteral("infoUsage")).contains(QStringLiteral("2663 total")));
    QVERIFY(panel.rowText(QStringLiteral("infoModelText")).contains(QStringLiteral("(41)")));
    QVERIFY(panel.rowText(QStringLiteral("infoCost")).contains(QStringLiteral("to reproduce")));
    // And every wrapped row has the height its text needs, none over the next.
    QTRY_VERIFY(panel.findChild<QLabel *>(QStringLiteral("infoPrompt"))->height()
        >= panel.findChild<QLabel *>(QStringLiteral("infoPrompt"))->fontMetrics().lineSpacing() * 2);
    int bottom = -1;
    for (const char *name : {"infoPrompt", "infoKind", "infoStatus", "infoModelText", "infoUsage", "infoCost"}) {
        auto *label = panel.findChild<QLabel *>(QLatin1String(name));
        QVERIFY(label && label->isVisible());
        const QRect r(label->mapTo(&panel, QPoint(0, 0)), label->size());
        QVERIFY2(r.top() > bottom, name);
        QVERIFY2(label->height() >= label->heightForWidth(label->width()), name);
        bottom = r.bottom();
    }
}

void tst_InfoPanel::valuesAreSelectableUnderTheMouse()
{
    InfoPanel panel;
    panel.resize(330, 720);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    const Frame f = fullFrame(7);
    panel.setFrame(f, 8, 7, QStringLiteral("/home/someone/session/") + f.image.file);
    QTest::qWait(50); // laid out, heights reserved
    auto *prompt = panel.findChild<QLabel *>(QStringLiteral("infoPrompt"));
    auto *file = panel.findChild<QLabel *>(QStringLiteral("infoFile"));
    auto *parentLink = panel.findChild<QLabel *>(QStringLiteral("infoParent"));
    QVERIFY(prompt && file && parentLink);
    auto enter = [](QLabel *label) {
        QEnterEvent e(QPointF(5, 5), label->mapTo(label->window(), QPointF(5, 5)), label->mapToGlobal(QPointF(5, 5)));
        QCoreApplication::sendEvent(label, &e);
    };
    auto leave = [](QLabel *label) {
        QEvent e(QEvent::Leave);
        QCoreApplication::sendEvent(label, &e);
    };

    // Plain labels until the mouse comes: the same heights either way, so nothing moves then.
    const QList<QLabel *> values = panel.findChildren<QLabel *>();
    QMap<QLabel *, int> heights;
    for (QLabel *label : values) {
        if (label != parentLink && label->wordWrap() && label->isVisible()) {
            QVERIFY2(!(label->textInteractionFlags() & Qt::TextSelectableByMouse), qPrintable(label->objectName()));
            heights.insert(label, label->heightForWidth(label->width()));
        }
    }
    QVERIFY(heights.size() >= 10);
    for (auto it = heights.cbegin(); it != heights.cend(); ++it) {
        enter(it.key());
        QVERIFY2(it.key()->textInteractionFlags() & Qt::TextSelectableByMouse, qPrintable(it.key()->objectName()));
        QCOMPARE(it.key()->heightForWidth(it.key()->width()), it.value());
        leave(it.key());
        QVERIFY(!(it.key()->textInteractionFlags() & Qt::TextSelectableByMouse));
    }
    // The parent row stays a link.
    QCOMPARE(parentLink->textInteractionFlags(), Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);

    // A selection made under the mouse is kept when the mouse leaves (to copy it), and while the
    // focus is in a popup or another window, until the focus moves inside this window.
    enter(prompt);
    prompt->setFocus(Qt::MouseFocusReason);
    prompt->setSelection(0, 7);
    leave(prompt);
    QCOMPARE(prompt->selectedText(), f.prompt.left(7));
    QFocusEvent popupOut(QEvent::FocusOut, Qt::PopupFocusReason); // its own context menu
    QCoreApplication::sendEvent(prompt, &popupOut);
    QCOMPARE(prompt->selectedText(), f.prompt.left(7));
    QFocusEvent windowOut(QEvent::FocusOut, Qt::ActiveWindowFocusReason); // another window, to paste it there
    QCoreApplication::sendEvent(prompt, &windowOut);
    QCOMPARE(prompt->selectedText(), f.prompt.left(7));
    QFocusEvent out(QEvent::FocusOut, Qt::MouseFocusReason);
    QCoreApplication::sendEvent(prompt, &out);
    QVERIFY(!(prompt->textInteractionFlags() & Qt::TextSelectableByMouse));
    QVERIFY(!prompt->hasSelectedText());

    // A new frame shown while the mouse is over a value: still selectable, with the new text.
    enter(file);
    const Frame g = fullFrame(8);
    panel.setFrame(g, 9, 8, QStringLiteral("/home/someone/session/") + g.image.file);
    QVERIFY(file->textInteractionFlags() & Qt::TextSelectableByMouse);
    file->setSelection(0, 8);
    QCOMPARE(file->selectedText(), g.image.file.mid(7, 8)); // "images/" is the folder, not shown
}

QTEST_MAIN(tst_InfoPanel)
#include "tst_infopanel.moc"
