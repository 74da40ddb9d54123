// Quantities as a teacher reads them aloud: a duration in the unit that keeps it between 1 and
// 1000, to 3 significant digits ("721 µs", "1.13 ms", "44.0 ns"), instead of "7.212e-01 ms"; a
// lesson's figure with its label and unit ("Global loads: 524,288 elements").
#pragma once

#include <nlohmann/json_fwd.hpp>
#include <string>

namespace ws {

struct FigureSpec;

// `ms` milliseconds, in ns, µs, ms or s. 0 is "0 ms"; a negative or non-finite time is "—".
std::string FormatDuration(double ms);

// A whole number in full with its thousands grouped ("524,288"); any other to `digits`
// significant digits ("5.43", "0.593"). Non-finite: "—".
std::string FormatNumber(double value, int digits = 3);

// `v` rounded to 4 decimal places (`digits` 4) or 6 (any other), as the run's JSON writes
// figures (run_file.cpp, run_report.cpp).
double RoundForJson(double v, int digits = 4);

// "Label: value unit" for the figure `spec.key` of `figures` (a run's metrics), or "" when the
// run has no such figure or it is not a short value (an object, an array of more than 8).
std::string FormatFigure(const FigureSpec& spec, const nlohmann::json& figures);

}  // namespace ws
