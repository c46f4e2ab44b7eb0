#include "ui/canvasview.h"

#include <QAction>
#include <QSignalSpy>
#include <QTest>
#include <QWheelEvent>

using nb2::CanvasView;

class tst_CanvasView : public QObject
{
    Q_OBJECT

private:
    static QImage gradient(int w, int h)
    {
        QImage img(w, h, QImage::Format_RGB32);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                img.setPixel(x, y, qRgb(x * 255 / std::max(1, w - 1), y * 255 / std::max(1, h - 1), 128));
        return img;
    }

    static void sendWheel(QWidget *w, const QPointF &pos, int angle)
    {
        QWheelEvent ev(pos, w->mapToGlobal(pos), QPoint(), QPoint(0, angle), Qt::NoButton, Qt::NoModifier,
            Qt::NoScrollPhase, false);
        QApplication::sendEvent(w, &ev);
    }

    static void mouse(
        QWidget *w, QEvent::Type type, const QPointF &pos, Qt::MouseButton button, Qt::MouseButtons buttons)
    {
        QMouseEvent ev(type, pos, w->mapToGlobal(pos), button, buttons, Qt::NoModifier);
        QApplication::sendEvent(w, &ev);
    }

private Q_SLOTS:
    void fitZoom_data()
    {
        QTest::addColumn<QSize>("image");
        QTest::addColumn<QSizeF>("viewport");
        QTest::addColumn<double>("dpr");
        QTest::addColumn<double>("expected");
        QTest::newRow("wide image, width limits") << QSize(2000, 1000) << QSizeF(500, 500) << 1.0 << 0.25;
        QTest::newRow("tall image, height limits") << QSize(1000, 2000) << QSizeF(500, 500) << 1.0 << 0.25;
        QTest::newRow("hidpi doubles device pixels") << QSize(2000, 1000) << QSizeF(500, 500) << 2.0 << 0.5;
        QTest::newRow("small image is not blown up") << QSize(100, 80) << QSizeF(800, 600) << 1.0 << 1.0;
        QTest::newRow("small on hidpi stays 100 %") << QSize(300, 300) << QSizeF(400, 400) << 2.0 << 1.0;
        QTest::newRow("fractional dpr") << QSize(1500, 1500) << QSizeF(600, 400) << 1.5 << 0.4;
        QTest::newRow("empty image") << QSize() << QSizeF(600, 400) << 1.0 << 1.0;
    }
    void fitZoom()
    {
        QFETCH(QSize, image);
        QFETCH(QSizeF, viewport);
        QFETCH(double, dpr);
        QFETCH(double, expected);
        QCOMPARE(CanvasView::fitZoomFor(image, viewport, dpr), expected);
    }

    void steppedZoom_data()
    {
        QTest::addColumn<double>("zoom");
        QTest::addColumn<double>("factor");
        QTest::addColumn<double>("expected");
        QTest::newRow("in") << 0.5 << 1.25 << 0.625;
        QTest::newRow("out") << 2.0 << 0.8 << 1.6;
        QTest::newRow("stops at 100 % going up") << 0.9 << 1.25 << 1.0;
        QTest::newRow("stops at 100 % going down") << 1.1 << 0.8 << 1.0;
        QTest::newRow("leaves 100 %") << 1.0 << 1.25 << 1.25;
        QTest::newRow("max clamp") << 30.0 << 1.25 << CanvasView::kMaxZoom;
        QTest::newRow("min clamp") << 0.021 << 0.8 << CanvasView::kMinZoom;
    }
    void steppedZoom()
    {
        QFETCH(double, zoom);
        QFETCH(double, factor);
        QFETCH(double, expected);
        QCOMPARE(CanvasView::steppedZoom(zoom, factor), expected);
    }

    void offsetMath()
    {
        // Pure formula: the image point under the anchor stays under it.
        const QPointF offset(-120, -40);
        const QPointF anchor(200, 150);
        const double s0 = 0.5, s1 = 1.7;
        const QPointF p0 = (anchor - offset) / s0;
        const QPointF o1 = CanvasView::offsetAfterZoom(offset, s0, s1, anchor);
        const QPointF p1 = (anchor - o1) / s1;
        QVERIFY(qAbs(p0.x() - p1.x()) < 1e-9 && qAbs(p0.y() - p1.y()) < 1e-9);
    }

    void startsFittedAndCentred()
    {
        CanvasView view;
        view.resize(400, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setImage(gradient(1000, 500));
        QVERIFY(view.isFitMode());
        QCOMPARE(view.zoom(), 0.4); // width limits: 400 / 1000
        const QRectF r = view.imageRect();
        QCOMPARE(r.width(), 400.0);
        QCOMPARE(r.height(), 200.0);
        QCOMPARE(r.top(), 50.0); // centred vertically
        QVERIFY(view.zoomText().contains(QLatin1String("40")));
        QVERIFY(view.zoomText().contains(QLatin1String("Fit")));
    }

    // Also run with QT_SCALE_FACTOR=2 (tst_canvasview_hidpi): 100 % is one image pixel per
    // device pixel, and fit uses the device pixels the view really has.
    void actualSizeIsDevicePixels()
    {
        CanvasView view;
        view.resize(400, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const qreal dpr = view.devicePixelRatioF();
        view.setImage(gradient(1000, 500));
        QCOMPARE(view.zoom(), CanvasView::fitZoomFor(QSize(1000, 500), QSizeF(400, 300), dpr));
        QCOMPARE(view.imageRect().width() * dpr, 1000 * view.zoom());
        QVERIFY(view.imageRect().width() <= 400.0 + 1e-9);
        view.zoomToActualSize();
        QCOMPARE(view.imageRect().width() * dpr, 1000.0);
        QCOMPARE(view.imageRect().height() * dpr, 500.0);
    }
    void hiDpiFitDoesNotUpscale()
    {
        CanvasView view;
        view.resize(400, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        const qreal dpr = view.devicePixelRatioF();
        view.setImage(gradient(500, 400)); // smaller than the device pixels at dpr 2, larger at 1
        QCOMPARE(view.zoom(), std::min(1.0, std::min(400 * dpr / 500, 300 * dpr / 400)));
        qInfo("devicePixelRatio %.2f, fit zoom %.3f", dpr, view.zoom());
    }

    void wheelZoomKeepsPointUnderCursor_data()
    {
        QTest::addColumn<double>("startZoom");
        QTest::addColumn<QPointF>("cursor");
        QTest::addColumn<int>("angle");
        QTest::newRow("in at centre") << 0.5 << QPointF(200, 150) << 120;
        QTest::newRow("in near top-left") << 0.5 << QPointF(30, 20) << 120;
        QTest::newRow("in near bottom-right") << 0.6 << QPointF(390, 290) << 120;
        QTest::newRow("two notches in") << 0.7 << QPointF(123, 77) << 240;
        QTest::newRow("out at centre") << 2.0 << QPointF(200, 150) << -120;
        QTest::newRow("out off-centre") << 3.0 << QPointF(310, 44) << -120;
        QTest::newRow("trackpad half notch") << 1.5 << QPointF(250, 100) << 60;
    }
    void wheelZoomKeepsPointUnderCursor()
    {
        QFETCH(double, startZoom);
        QFETCH(QPointF, cursor);
        QFETCH(int, angle);

        CanvasView view;
        view.resize(400, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setImage(gradient(1000, 800));
        // Zoom is in device pixels: scale by the ratio so the picture covers the view on any screen.
        startZoom *= view.devicePixelRatioF();
        view.setZoom(startZoom, QPointF(200, 150));
        QVERIFY(!view.isFitMode());
        QVERIFY(view.imageRect().contains(QRectF(view.rect()))); // no centring or clamping in play
        const QPointF before = view.mapToImage(cursor);
        QSignalSpy zoomSpy(&view, &CanvasView::zoomChanged);

        sendWheel(&view, cursor, angle);

        QCOMPARE(zoomSpy.count(), 1);
        QVERIFY(angle > 0 ? view.zoom() > startZoom : view.zoom() < startZoom);
        const QPointF after = view.mapToImage(cursor);
        QVERIFY2(qAbs(before.x() - after.x()) < 1e-6 && qAbs(before.y() - after.y()) < 1e-6,
            qPrintable(QStringLiteral("(%1,%2) moved to (%3,%4)")
                           .arg(before.x())
                           .arg(before.y())
                           .arg(after.x())
                           .arg(after.y())));
    }

    void zoomNeverShowsEmptySpacePastAnEdge()
    {
        CanvasView view;
        view.resize(400, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setImage(gradient(1000, 800));
        view.setZoom(1.0, QPointF(0, 0));
        QCOMPARE(view.imageRect().topLeft(), QPointF(0, 0));
        view.setZoom(4.0, QPointF(399, 299));
        const QRectF r = view.imageRect();
        QVERIFY(r.left() <= 0 && r.top() <= 0);
        QVERIFY(r.right() >= 400 && r.bottom() >= 300);
    }

    void actionsAndShortcuts()
    {
        CanvasView view;
        view.resize(400, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(!view.zoomInAction()->isEnabled()); // nothing to zoom yet
        view.setImage(gradient(1000, 800));
        QVERIFY(view.zoomInAction()->isEnabled());
        for (QAction *a : {view.zoomInAction(), view.zoomOutAction(), view.zoomFitAction(), view.zoomActualAction()}) {
            QVERIFY(!a->text().isEmpty());
            QVERIFY(!a->toolTip().isEmpty());
            QVERIFY(!a->shortcut().isEmpty());
            QVERIFY(!a->icon().isNull());
        }
        const double fit = view.zoom();
        view.zoomIn();
        QCOMPARE(view.zoom(), CanvasView::steppedZoom(fit, CanvasView::kZoomStep));
        QVERIFY(!view.isFitMode());
        QVERIFY(!view.zoomFitAction()->isChecked());
        view.zoomToActualSize();
        QCOMPARE(view.zoom(), 1.0);
        QVERIFY(view.zoomText().startsWith(QLatin1String("100")));
        view.zoomToFit();
        QVERIFY(view.isFitMode());
        QCOMPARE(view.zoom(), fit);

        // Keyboard: Ctrl+1 then Ctrl+- then Ctrl+0, through the real shortcut machinery.
        view.activateWindow();
        view.setFocus();
        QVERIFY(QTest::qWaitForWindowActive(&view));
        QTest::keyClick(&view, Qt::Key_1, Qt::ControlModifier);
        QCOMPARE(view.zoom(), 1.0);
        QTest::keyClick(&view, Qt::Key_Minus, Qt::ControlModifier);
        QCOMPARE(view.zoom(), 0.8);
        QTest::keyClick(&view, Qt::Key_0, Qt::ControlModifier);
        QVERIFY(view.isFitMode());
    }

    void panByDrag()
    {
        CanvasView view;
        view.resize(400, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setImage(gradient(1000, 800));
        view.setZoom(1.0);
        const QPointF centre(200, 150);
        const QPointF before = view.mapToImage(centre);
        mouse(&view, QEvent::MouseButtonPress, QPointF(200, 150), Qt::LeftButton, Qt::LeftButton);
        mouse(&view, QEvent::MouseMove, QPointF(170, 130), Qt::NoButton, Qt::LeftButton);
        mouse(&view, QEvent::MouseMove, QPointF(150, 120), Qt::NoButton, Qt::LeftButton);
        mouse(&view, QEvent::MouseButtonRelease, QPointF(150, 120), Qt::LeftButton, Qt::NoButton);
        const QPointF after = view.mapToImage(centre);
        // Dragging the picture left/up shows what was right/below (in image pixels: 50 x 30
        // logical pixels at 100 %, i.e. times the device pixel ratio).
        QCOMPARE(after - before, QPointF(50, 30) * view.devicePixelRatioF());
    }

    void arrowKeysPanOnlyWhenZoomed()
    {
        CanvasView view;
        view.resize(400, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setImage(gradient(1000, 800));
        // Fitted: nothing to pan, so the key is left for the parent (timeline navigation).
        QKeyEvent fitted(QEvent::KeyPress, Qt::Key_Right, Qt::NoModifier);
        QApplication::sendEvent(&view, &fitted);
        QVERIFY(!fitted.isAccepted());

        view.setZoom(1.0);
        const QPointF before = view.viewCenter();
        QKeyEvent right(QEvent::KeyPress, Qt::Key_Right, Qt::NoModifier);
        QApplication::sendEvent(&view, &right);
        QVERIFY(right.isAccepted());
        const QPointF moved = view.viewCenter() - before;
        QVERIFY(moved.x() > 0); // shows more of the right-hand side
        QCOMPARE(moved.y(), 0.0);
    }

    void resizeKeepsFitOrCentre()
    {
        CanvasView view;
        view.resize(400, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setImage(gradient(1000, 800));
        view.resize(800, 600);
        QTRY_COMPARE(view.zoom(), 0.75);
        view.setZoom(2.0);
        const QPointF centre = view.viewCenter();
        view.resize(600, 500);
        QTRY_COMPARE(view.size(), QSize(600, 500));
        QVERIFY((view.viewCenter() - centre).manhattanLength() < 1e-6);
    }

    void sameSizeImageKeepsView()
    {
        CanvasView view;
        view.resize(400, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setImage(gradient(1000, 800));
        view.setZoom(2.0, QPointF(50, 50));
        const QRectF r = view.imageRect();
        view.setImage(gradient(1000, 800).mirrored());
        QCOMPARE(view.zoom(), 2.0);
        QCOMPARE(view.imageRect(), r);
        view.setImage(gradient(640, 480)); // another size: fitted again
        QVERIFY(view.isFitMode());
    }

    void doubleClickTogglesFitAnd100()
    {
        CanvasView view;
        view.resize(400, 300);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        view.setImage(gradient(1000, 800));
        QTest::mouseDClick(&view, Qt::LeftButton, Qt::NoModifier, QPoint(200, 150));
        QCOMPARE(view.zoom(), 1.0);
        QTest::mouseDClick(&view, Qt::LeftButton, Qt::NoModifier, QPoint(200, 150));
        QVERIFY(view.isFitMode());
    }

    void rendersDraftEmptyAndPixels()
    {
        CanvasView view;
        view.resize(300, 200);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QVERIFY(!view.emptyText().isEmpty());
        QVERIFY(!view.grab().isNull());

        QImage red(100, 100, QImage::Format_RGB32);
        red.fill(Qt::red);
        view.setZoomIndicatorVisible(false);
        view.setImage(red);
        const QImage shot = view.grab().toImage();
        QCOMPARE(QColor(shot.pixel(150, 100)), QColor(Qt::red)); // centre of a fitted 100x100 at 100 %
        QVERIFY(QColor(shot.pixel(5, 5)) != QColor(Qt::red));    // outside the picture: background

        view.setDraft(true);
        QVERIFY(view.isDraft());
        QVERIFY(view.draftText().contains(QLatin1String("Draft")));
        const QImage drafted = view.grab().toImage();
        QVERIFY(drafted != shot); // the overlay is drawn
    }

    void downscaleIsResampledOffThread()
    {
        CanvasView view;
        view.resize(200, 200);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        // One-pixel checker: a good downscale averages it to grey; nearest sampling would not.
        QImage checker(800, 800, QImage::Format_RGB32);
        for (int y = 0; y < 800; ++y)
            for (int x = 0; x < 800; ++x)
                checker.setPixel(x, y, ((x + y) & 1) ? qRgb(255, 255, 255) : qRgb(0, 0, 0));
        view.setZoomIndicatorVisible(false);
        view.setImage(checker);
        QCOMPARE(view.zoom(), 0.25);
        QTRY_VERIFY_WITH_TIMEOUT(qAbs(qGray(view.grab().toImage().pixel(100, 100)) - 128) < 20, 5000);
    }
};

QTEST_MAIN(tst_CanvasView)
#include "tst_canvasview.moc"
