// Quantities as a teacher reads them aloud: a duration in the unit that keeps it between 1 and
// 1000, to 3 significant digits ("721 µs", "1.13 ms", "44.0 ns"), instead of "7.212e-01 ms".
#pragma once

#include <string>

namespace ws {

// `ms` milliseconds, in ns, µs, ms or s. 0 is "0 ms"; a negative or non-finite time is "—".
std::string FormatDuration(double ms);

}  // namespace ws
