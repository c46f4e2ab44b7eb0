// The canvas selection model (issue 13): every tool gives exactly the expected mask pixels.
#include "ui/selectionmask.h"
#include "ui/selectiontool.h"

#include <QtTest>

using namespace nb2;

class tst_SelectionMask : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void rectangleSelectsExactlyItsPixels()
    {
        SelectionMask m(QSize(20, 16));
        QVERIFY(m.isEmpty());
        m.selectRect(QRect(2, 3, 4, 5));
        QCOMPARE(m.selectedCount(), 20);
        QCOMPARE(m.boundingRect(), QRect(2, 3, 4, 5));
        QVERIFY(m.isSelected(2, 3));
        QVERIFY(m.isSelected(5, 7));
        QVERIFY(!m.isSelected(6, 7));
        QVERIFY(!m.isSelected(1, 3));
        QVERIFY(!m.isSelected(2, 8));
        // The mask PrecisionEdit receives is the same selection.
        const EditMask e = m.toEditMask();
        QCOMPARE(e.size(), QSize(20, 16));
        QCOMPARE(e.boundingRect(), QRect(2, 3, 4, 5));
        QCOMPARE(e.selectedCount(), 20);
    }

    void rectangleIsClippedToThePicture()
    {
        SelectionMask m(QSize(10, 10));
        m.selectRect(QRect(-5, 8, 30, 30));
        QCOMPARE(m.boundingRect(), QRect(0, 8, 10, 2));
        QCOMPARE(m.selectedCount(), 20);
    }

    void ellipseSelectsPixelCentresInside()
    {
        SelectionMask m(QSize(20, 20));
        m.selectEllipse(QRect(0, 0, 10, 10));
        QCOMPARE(m.boundingRect(), QRect(0, 0, 10, 10));
        QVERIFY(m.isSelected(4, 4));
        QVERIFY(m.isSelected(0, 4) && m.isSelected(9, 5) && m.isSelected(5, 0) && m.isSelected(4, 9));
        QVERIFY(!m.isSelected(0, 0) && !m.isSelected(9, 9) && !m.isSelected(0, 9) && !m.isSelected(9, 0));
        int inside = 0;
        for (int y = 0; y < 10; ++y) {
            for (int x = 0; x < 10; ++x) {
                const double dx = (x + 0.5 - 5) / 5, dy = (y + 0.5 - 5) / 5;
                inside += dx * dx + dy * dy <= 1;
                QCOMPARE(m.isSelected(x, y), dx * dx + dy * dy <= 1);
                QCOMPARE(m.isSelected(x, y), m.isSelected(9 - x, y)); // symmetric
                QCOMPARE(m.isSelected(x, y), m.isSelected(x, 9 - y));
            }
        }
        QCOMPARE(m.selectedCount(), qint64(inside));
        QVERIFY(std::abs(inside - 78.5) < 6); // close to pi * 25
    }

    void lassoFillsThePolygon()
    {
        SelectionMask m(QSize(20, 20));
        m.selectPolygon(QPolygonF {QPointF(0, 0), QPointF(10, 0), QPointF(0, 10)});
        // Pixel centres with x + y + 1 < 10: rows of 9, 8, ..., 1 pixels.
        QCOMPARE(m.selectedCount(), 45);
        QCOMPARE(m.boundingRect(), QRect(0, 0, 9, 9));
        QVERIFY(m.isSelected(8, 0));
        QVERIFY(!m.isSelected(9, 0));
        QVERIFY(m.isSelected(0, 8));
        QVERIFY(!m.isSelected(5, 5));
        // Fewer than three points select nothing (and Replace still clears).
        m.selectPolygon(QPolygonF {QPointF(1, 1), QPointF(5, 5)});
        QVERIFY(m.isEmpty());
    }

    void shiftAddsAndCtrlSubtracts()
    {
        SelectionMask m(QSize(20, 20));
        m.selectRect(QRect(0, 0, 10, 10));
        m.selectRect(QRect(10, 0, 5, 10), SelectionMask::Op::Add);
        QCOMPARE(m.selectedCount(), 150);
        QCOMPARE(m.boundingRect(), QRect(0, 0, 15, 10));
        m.selectRect(QRect(0, 0, 5, 10), SelectionMask::Op::Subtract);
        QCOMPARE(m.selectedCount(), 100);
        QCOMPARE(m.boundingRect(), QRect(5, 0, 10, 10));
        m.selectRect(QRect(1, 1, 2, 2)); // Replace
        QCOMPARE(m.selectedCount(), 4);
        QCOMPARE(SelectionGesture::opFor(Qt::ShiftModifier), SelectionMask::Op::Add);
        QCOMPARE(SelectionGesture::opFor(Qt::ControlModifier), SelectionMask::Op::Subtract);
        QCOMPARE(SelectionGesture::opFor(Qt::AltModifier), SelectionMask::Op::Subtract);
        QCOMPARE(SelectionGesture::opFor(Qt::NoModifier), SelectionMask::Op::Replace);
    }

    void brushPaintsARoundStroke()
    {
        SelectionMask m(QSize(40, 20));
        m.stroke(QPointF(10, 10), QPointF(30, 10), 6, false);
        // Within 3 px of the segment (pixel centres), nothing else.
        for (int y = 0; y < 20; ++y) {
            for (int x = 0; x < 40; ++x) {
                const QPointF c(x + 0.5, y + 0.5);
                const double px = std::clamp(c.x(), 10.0, 30.0);
                const double d = std::hypot(c.x() - px, c.y() - 10);
                if (d <= 2.6)
                    QVERIFY2(m.isSelected(x, y), qPrintable(QStringLiteral("%1,%2").arg(x).arg(y)));
                if (d > 3.01)
                    QVERIFY2(!m.isSelected(x, y), qPrintable(QStringLiteral("%1,%2").arg(x).arg(y)));
            }
        }
        QCOMPARE(m.boundingRect(), QRect(7, 7, 26, 6));
    }

    void eraserRemoves()
    {
        SelectionMask m(QSize(20, 20));
        m.selectRect(QRect(0, 0, 20, 20));
        m.stroke(QPointF(10, 10), QPointF(10, 10), 4, true);
        QVERIFY(!m.isSelected(10, 10) && !m.isSelected(9, 9));
        QVERIFY(m.isSelected(0, 0) && m.isSelected(13, 10));
        QCOMPARE(m.selectedCount(), 400 - 12); // a disc of radius 2: 12 pixel centres
    }

    void invertAndClear()
    {
        SelectionMask m(QSize(10, 10));
        m.selectRect(QRect(0, 0, 3, 10));
        const quint64 before = m.revision();
        m.invert();
        QVERIFY(m.revision() > before);
        QCOMPARE(m.selectedCount(), 70);
        QCOMPARE(m.boundingRect(), QRect(3, 0, 7, 10));
        QVERIFY(!m.isSelected(2, 5) && m.isSelected(3, 5));
        m.clear();
        QVERIFY(m.isEmpty());
        QCOMPARE(m.selectedCount(), 0);
        m.invert(); // everything
        QCOMPARE(m.selectedCount(), 100);
        QVERIFY(SelectionMask().isEmpty());
    }

    void gestureDragsAndClicks()
    {
        SelectionMask m(QSize(20, 20));
        SelectionGesture g;
        g.begin(SelectionTool::Rectangle, QPointF(2.2, 3.7), Qt::NoModifier, &m, 10);
        QVERIFY(g.isActive());
        g.move(QPointF(4, 5));
        QVERIFY(m.isEmpty()); // a shape is applied on release
        QVERIFY(!g.previewPath().isEmpty());
        QVERIFY(g.end(QPointF(5.9, 7.1)));
        QCOMPARE(m.boundingRect(), QRect(2, 3, 4, 5));
        QCOMPARE(m.selectedCount(), 20);
        // Shift+drag of an ellipse adds.
        g.begin(SelectionTool::Ellipse, QPointF(10, 10), Qt::ShiftModifier, &m, 10);
        QVERIFY(g.end(QPointF(20, 20)));
        QVERIFY(m.isSelected(15, 15) && m.isSelected(3, 4));
        // A click without a drag deselects.
        g.begin(SelectionTool::Rectangle, QPointF(1, 1), Qt::NoModifier, &m, 10);
        QVERIFY(g.end(QPointF(1.2, 1.1)));
        QVERIFY(m.isEmpty());
        // Lasso along a path, closed on release.
        g.begin(SelectionTool::Lasso, QPointF(0, 0), Qt::NoModifier, &m, 10);
        g.move(QPointF(10, 0));
        QVERIFY(g.end(QPointF(0, 10)));
        QCOMPARE(m.selectedCount(), 45);
        // Brush paints while moving; eraser takes away.
        m.clear();
        g.begin(SelectionTool::Brush, QPointF(5, 5), Qt::NoModifier, &m, 4);
        QVERIFY(g.move(QPointF(15, 5)));
        QVERIFY(m.isSelected(10, 4));
        g.end(QPointF(15, 5));
        g.begin(SelectionTool::Eraser, QPointF(10, 5), Qt::NoModifier, &m, 4);
        g.end(QPointF(10, 5));
        QVERIFY(!m.isSelected(10, 4) && m.isSelected(6, 4));
        // No tool or no mask: nothing happens.
        g.begin(SelectionTool::None, QPointF(1, 1), Qt::NoModifier, &m, 4);
        QVERIFY(!g.isActive());
    }
};

QTEST_APPLESS_MAIN(tst_SelectionMask)
#include "tst_selectionmask.moc"
