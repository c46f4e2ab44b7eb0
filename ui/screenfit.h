#pragma once

class QWidget;

namespace nb2 {

/**
 * Keeps a top-level window on its screen: its size and minimum size are bounded by the
 * screen's available geometry (what panels leave free) and it is moved inside it. At
 * QT_SCALE_FACTOR=2 on a small screen a 1440×900 default or a dialog's minimum size would
 * otherwise open larger than the screen, with its buttons out of reach.
 */
void fitToScreen(QWidget *window);

} // namespace nb2
