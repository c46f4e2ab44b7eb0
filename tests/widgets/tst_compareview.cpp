#include "ui/canvasview.h"
#include "ui/compareview.h"

#include <QAbstractButton>
#include <QSignalSpy>
#include <QTest>

using nb2::CompareView;

class tst_CompareView : public QObject
{
    Q_OBJECT

private:
    static QImage solid(int w, int h, QRgb c)
    {
        QImage img(w, h, QImage::Format_RGB32);
        img.fill(c);
        return img;
    }
    static void mouse(
        QWidget *w, QEvent::Type type, const QPointF &pos, Qt::MouseButton button, Qt::MouseButtons buttons)
    {
        QMouseEvent ev(type, pos, w->mapToGlobal(pos), button, buttons, Qt::NoModifier);
        QApplication::sendEvent(w, &ev);
    }

private Q_SLOTS:
    void difference_data()
    {
        QTest::addColumn<QRgb>("a");
        QTest::addColumn<QRgb>("b");
        QTest::addColumn<int>("gain");
        QTest::addColumn<QRgb>("expected");
        QTest::newRow("identical") << qRgb(10, 20, 30) << qRgb(10, 20, 30) << 1 << qRgb(0, 0, 0);
        QTest::newRow("absolute, both directions") << qRgb(200, 20, 30) << qRgb(50, 60, 30) << 1 << qRgb(150, 40, 0);
        QTest::newRow("symmetric") << qRgb(50, 60, 30) << qRgb(200, 20, 30) << 1 << qRgb(150, 40, 0);
        QTest::newRow("gain 4") << qRgb(10, 20, 30) << qRgb(15, 20, 40) << 4 << qRgb(20, 0, 40);
        QTest::newRow("gain clamps at 255") << qRgb(0, 0, 0) << qRgb(100, 10, 255) << 4 << qRgb(255, 40, 255);
    }
    void difference()
    {
        QFETCH(QRgb, a);
        QFETCH(QRgb, b);
        QFETCH(int, gain);
        QFETCH(QRgb, expected);
        const auto r = CompareView::computeDifference(solid(3, 2, a), solid(3, 2, b), gain);
        QCOMPARE(r.image.size(), QSize(3, 2));
        for (int y = 0; y < 2; ++y)
            for (int x = 0; x < 3; ++x)
                QCOMPARE(r.image.pixel(x, y), expected | 0xff000000u);
        QVERIFY(!r.stats.resized);
    }

    void differenceStats()
    {
        // 4x1: two pixels equal, one slightly off (below the threshold), one very different.
        QImage a(4, 1, QImage::Format_RGB32);
        QImage b(4, 1, QImage::Format_RGB32);
        a.setPixel(0, 0, qRgb(0, 0, 0));
        b.setPixel(0, 0, qRgb(0, 0, 0));
        a.setPixel(1, 0, qRgb(9, 9, 9));
        b.setPixel(1, 0, qRgb(9, 9, 9));
        a.setPixel(2, 0, qRgb(100, 100, 100));
        b.setPixel(2, 0, qRgb(104, 100, 100));
        a.setPixel(3, 0, qRgb(0, 0, 0));
        b.setPixel(3, 0, qRgb(255, 255, 255));
        const auto r = CompareView::computeDifference(a, b);
        QCOMPARE(r.stats.maxDifference, 255);
        QCOMPARE(r.stats.changedFraction, 0.25);
        QCOMPARE(r.stats.meanDifference, (4.0 + 3 * 255.0) / (4 * 3 * 255.0));
        QCOMPARE(r.image.pixel(2, 0), qRgb(4, 0, 0));
    }

    void differentSizesAreResampled()
    {
        const auto r = CompareView::computeDifference(solid(8, 8, qRgb(10, 10, 10)), solid(4, 4, qRgb(30, 10, 10)));
        QVERIFY(r.stats.resized);
        QCOMPARE(r.image.size(), QSize(8, 8));
        QCOMPARE(r.image.pixel(5, 5), qRgb(20, 0, 0));
    }

    void differenceComputedAsync()
    {
        CompareView view;
        view.resize(600, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QImage a(64, 48, QImage::Format_RGB32);
        QImage b(64, 48, QImage::Format_RGB32);
        for (int y = 0; y < 48; ++y)
            for (int x = 0; x < 64; ++x) {
                a.setPixel(x, y, qRgb(x * 4, y * 5, 7));
                b.setPixel(x, y, qRgb(x * 4, 255 - y * 5, 7));
            }
        view.setImages(a, b);
        view.setLabels(QStringLiteral("Frame 1"), QStringLiteral("Frame 2"));
        QSignalSpy ready(&view, &CompareView::differenceReady);
        QSignalSpy modeSpy(&view, &CompareView::modeChanged);
        view.setMode(CompareView::Mode::Difference);
        QCOMPARE(modeSpy.count(), 1);
        QVERIFY(ready.wait(5000));
        QVERIFY(view.isDifferenceReady());
        QCOMPARE(view.differenceImage(), CompareView::computeDifference(a, b, view.differenceGain()).image);
        QVERIFY(view.differenceView()->hasImage());

        // A new gain recomputes.
        view.setDifferenceGain(1);
        QVERIFY(ready.wait(5000));
        QCOMPARE(view.differenceImage(), CompareView::computeDifference(a, b, 1).image);

        // New images while in difference mode: recomputed for the new pair.
        view.setImages(b, b);
        QVERIFY(ready.wait(5000));
        QCOMPARE(view.differenceStats().maxDifference, 0);
    }

    void swipePosition()
    {
        CompareView view;
        view.resize(600, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setImages(solid(400, 300, qRgb(255, 0, 0)), solid(400, 300, qRgb(0, 0, 255)));
        view.setMode(CompareView::Mode::Swipe);
        QCOMPARE(view.swipePosition(), 0.5);

        QSignalSpy spy(&view, &CompareView::swipePositionChanged);
        view.setSwipePosition(0.3);
        QCOMPARE(view.swipePosition(), 0.3);
        QCOMPARE(spy.count(), 1);
        view.setSwipePosition(1.7);
        QCOMPARE(view.swipePosition(), 1.0);

        // Drag the handle to 75 % of the picture's width.
        view.setSwipePosition(0.5);
        nb2::CanvasView *swipe = view.swipeView();
        QTRY_VERIFY(swipe->isVisible());
        const QRectF r = swipe->imageRect();
        const QPointF handle = view.swipeHandlePosition();
        QCOMPARE(handle.x(), r.left() + 0.5 * r.width());
        const QPointF target(r.left() + 0.75 * r.width(), handle.y());
        mouse(swipe, QEvent::MouseButtonPress, handle, Qt::LeftButton, Qt::LeftButton);
        mouse(swipe, QEvent::MouseMove, (handle + target) / 2, Qt::NoButton, Qt::LeftButton);
        mouse(swipe, QEvent::MouseMove, target, Qt::NoButton, Qt::LeftButton);
        mouse(swipe, QEvent::MouseButtonRelease, target, Qt::LeftButton, Qt::NoButton);
        QVERIFY(qAbs(view.swipePosition() - 0.75) < 1e-9);

        // What is drawn follows: red (left image) left of the divider, blue right of it.
        swipe->setZoomIndicatorVisible(false);
        const QImage shot = swipe->grab().toImage();
        const int y = int(handle.y()) + 40;
        QCOMPARE(QColor(shot.pixel(int(r.left() + 0.70 * r.width()), y)), QColor(Qt::red));
        QCOMPARE(QColor(shot.pixel(int(r.left() + 0.80 * r.width()), y)), QColor(Qt::blue));

        // Keyboard nudges it.
        swipe->setFocus();
        QTest::keyClick(swipe, Qt::Key_Left);
        QVERIFY(qAbs(view.swipePosition() - 0.70) < 1e-9);
    }

    void sideBySideStaysInStep()
    {
        CompareView view;
        view.resize(800, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setImages(solid(1000, 800, qRgb(1, 2, 3)), solid(1000, 800, qRgb(3, 2, 1)));
        view.leftView()->setZoom(2.0, QPointF(30, 40));
        QCOMPARE(view.rightView()->zoom(), 2.0);
        QVERIFY((view.rightView()->viewCenter() - view.leftView()->viewCenter()).manhattanLength() < 1e-6);
        view.rightView()->zoomToFit();
        QVERIFY(view.leftView()->isFitMode());
    }

    void modeButtonsHaveNames()
    {
        CompareView view;
        const auto buttons = view.findChildren<QAbstractButton *>();
        QVERIFY(buttons.size() >= 3);
        for (auto *b : buttons) {
            QVERIFY2(!b->accessibleName().isEmpty(), qPrintable(b->text()));
            QVERIFY2(!b->toolTip().isEmpty(), qPrintable(b->text()));
        }
    }
};

QTEST_MAIN(tst_CompareView)
#include "tst_compareview.moc"
