#pragma once

// The timeline's grid, shared by its layout (timelineview.cpp) and its painting
// (timelineviewpaint.cpp): columns are depths, rows are lanes, a card per cell.

#include "ui/timelinedelegate.h"

namespace nb2::timelinemetrics {

inline constexpr int kEdgeX = 14;
/** Left edge of the first column: after the lane headers (TimelineDelegate::paintLaneHeader). */
inline int marginX()
{
    return kEdgeX + TimelineDelegate::laneHeaderWidth();
}
inline constexpr int kMarginY = 10;
inline constexpr int kGapX = 28; // room for the connector between columns
inline constexpr int kGapY = 12;

} // namespace nb2::timelinemetrics
