// The timing view's model (see timing_panel.cpp): a run reduced to a point, each lesson's
// history of points, and the plot's series, ticks and labels made from them. Only the timing view
// uses it.
#pragma once

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

#include "warpscope/trace/lesson_run.h"

namespace ws::timing_view {

inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
inline constexpr std::size_t kMaxPointsPerLesson = 5000;  // the oldest go first
inline constexpr const char* kRunOrder = "#run";          // x = the runs in the order they came
inline constexpr std::size_t kMaxLabelledTicks = 12;      // more distinct x values: ImPlot's ticks

enum Measure { kTime = 0, kBandwidth = 1, kSectors = 2 };
inline constexpr const char* kMeasureNames[] = {"Time (µs)", "Effective bandwidth (GB/s)",
                                                "Sectors per request"};

// True when the x axis is one of the sizes the lesson is timed at (LessonInfo::timed_size): every
// run would be timed at the same size and the curve would be flat, so the plot takes each run's
// own time instead.
bool OwnSize(const LessonInfo* info, const std::string& x);

// One run of a lesson, reduced to what the plot and the CSV need.
struct TimingPoint {
  std::string variant, backend, kind;
  Params params;
  double ms = 0;
  double gbps = kNaN;  // global-memory bytes / time; NaN when the time is 0
  // At the run's own size, where the time is that of a larger one (Timing::timed_at).
  double own_ms = 0, own_gbps = kNaN;
  double sectors_per_request = kNaN;  // over all global sites; NaN when there is no request
  std::size_t run = 0;                // 1-based: the run's place in this lesson's history
};

struct LessonHistory {
  std::vector<TimingPoint> points;
  std::size_t runs = 0;
  Params last_params;  // of the previous run, to see which parameter the user changed
  bool has_last = false;
  std::string changed;   // the parameter that differed between the last two runs that differed
  std::string x_choice;  // picked in the combo; empty: `changed` (or the first parameter)
};

// A run of a lesson with a launch, as a point.
TimingPoint MakePoint(const LessonRun& run);

// The lesson's parameters in its own order, then any others its runs carried (older traces).
std::vector<std::string> ParamNames(const LessonInfo* info, const LessonHistory& h);

const ParamSpec* FindParam(const LessonInfo* info, const std::string& name);

// True when `a` and `b` hold the same parameters with the same values, `except` aside.
bool SameExcept(const Params& a, const Params& b, const std::string& except);

// The point's x: its value of parameter `x`, or its run number (kRunOrder); NaN when absent.
double XValue(const TimingPoint& p, const std::string& x);

// own: the time at each run's own size, not at the lesson's timed size (see OwnSize).
double YValue(const TimingPoint& p, int measure, bool own);

// "%.9g" (a CSV cell, a tick); NaN as "".
std::string FormatNumber(double v);

// One line of the plot: the runs of one variant with one kind of timing.
struct Series {
  std::string label;
  std::string kind;
  std::size_t variant_index = 0;
  std::vector<double> xs, ys;
};

// The runs that BuildSeries left out: hidden (other parameters differ, or no x value), repeated
// (the same parameters again: the latest stands for them), no value (no y for the measure).
struct SeriesCounts {
  std::size_t hidden = 0, repeated = 0, no_value = 0;
};

// Groups the history into series and keeps, for the curve "vary x, keep the rest", only the
// runs whose other parameters equal the current run's. `own`: see YValue.
std::vector<Series> BuildSeries(const LessonRun& run, const LessonHistory& h,
                                const LessonInfo* info, const std::string& x, int measure, bool own,
                                SeriesCounts* counts);

// The y axis's label: the measure, and which kinds of time the series hold.
std::string YLabel(const std::vector<Series>& series, int measure);

// The x axis's ticks: values and their labels (both empty: ImPlot's own ticks).
struct XTicks {
  std::vector<double> values;
  std::vector<std::string> text;
};
// Ticks: the choices' names for a parameter that picks from a list, else the x values the runs
// used when there are few of them (slider steps are often powers of two).
XTicks MakeXTicks(const ParamSpec* spec, const std::vector<double>& distinct);

// Frames the runs once (the user may zoom afterwards): y from 0, so that halving a time looks
// like halving it, and a margin around the x values so that no marker sits on the border.
void FitAxes(const std::vector<Series>& series, const std::vector<double>& distinct, bool log_x);

}  // namespace ws::timing_view
