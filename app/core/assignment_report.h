// An assignment's report: the HTML page a student hands in (the Goals panel's "Export the
// report") and a grader keeps (`warpscope-cli check --report DIR`). It holds the task, each goal
// with its figure and verdict, and for each goal site the view of it, as the views draw it
// (viz/svg_figures.h: the coalescing strip of a global site, the bank heatmap of a shared one),
// with its line of code.
//
//   Verdict v = CheckAssignment(a, run, &start);
//   WriteFileAtomically(path, AssignmentReportHtml(a, v, run));
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "core/assignment.h"
#include "warpscope/trace/lesson_run.h"

namespace ws {

// The sites goal `g` names in one launch: the launch the views show (run.main_launch()) when it
// has any, else the first that has; `sites` indexes that launch's site table (GoalSelects).
// Empty for a goal without a site, or one whose sites no launch recorded.
struct GoalSitesIn {
  std::size_t launch = 0;
  std::vector<std::size_t> sites;
};
GoalSitesIn GoalSites(const Goal& g, const LessonRun& run);

// The whole page (self-contained: the figures are inline SVG).
std::string AssignmentReportHtml(const Assignment& a, const Verdict& v, const LessonRun& run);

}  // namespace ws
