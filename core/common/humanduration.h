#pragma once

#include <QString>

namespace nb2 {

/**
 * A wait or a time limit as people read it: "0.4 s", "12 s", "2 min 5 s", "3 h 20 min",
 * "11 days 13 h". Never scientific notation ("1e+06 s"), whatever the size; negative
 * durations read as "0 s".
 */
QString humanDuration(qint64 ms);

} // namespace nb2
