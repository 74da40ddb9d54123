#include "core/assignment_report.h"

#include <algorithm>
#include <string_view>

#include "core/html.h"
#include "warpscope/viz/svg_figures.h"

namespace ws {

std::vector<std::size_t> GoalSites(const Goal& g, const LessonRun& run) {
  std::vector<std::size_t> out;
  if (g.site.empty() || !run.program || !run.has_launch()) return out;
  const std::vector<std::uint32_t> lines = MarkerLines(run.program->source, g.site);
  const LaunchTrace& t = run.main_launch();
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    const SiteInfo& s = t.sites[i];
    if (!s.file.empty() && s.file != run.program->file) continue;  // a header's line
    if (std::find(lines.begin(), lines.end(), s.line) == lines.end()) continue;
    if (!g.op.empty() && g.op != ToString(s.op)) continue;
    const bool shared = s.space == MemorySpace::kShared;
    if ((g.figure == GoalFigure::kSectorsPerRequest && shared) ||
        ((g.figure == GoalFigure::kBankConflictWays || g.figure == GoalFigure::kBankConflicts) &&
         !shared))
      continue;
    out.push_back(i);
  }
  return out;
}

namespace {

const char* const kStyle =
    "body{font-family:sans-serif;max-width:60em;margin:2em auto;color:#222}"
    "td,th{padding:.3em .8em;border-bottom:1px solid #ddd;text-align:left}"
    ".met{color:#1a7f37}.not{color:#c0392b}.skipped{color:#777}"
    "pre{background:#f6f6f6;padding:.5em}figure{margin:1em 0}svg{max-width:100%;height:auto}";

// Site `i`'s access as written ("sdata[tid + s]", from its columns on its line), else its line.
std::string AccessText(const LessonRun& run, std::size_t i) {
  const SiteInfo& s = run.main_launch().sites[i];
  const std::string& source = run.program->source;
  std::size_t at = 0;  // where line s.line starts, columns counted from 1 there
  for (std::uint32_t l = 1; l < s.line && at != std::string::npos; ++l) {
    at = source.find('\n', at);
    if (at != std::string::npos) ++at;
  }
  const std::string_view line =
      at == std::string::npos ? std::string_view()
                              : std::string_view(source).substr(at, source.find('\n', at) - at);
  if (s.column == 0 || s.end_column <= s.column || s.end_column - 1u > line.size())
    return SourceLine(source, s.line);
  return std::string(line.substr(s.column - 1u, static_cast<std::size_t>(s.end_column - s.column)));
}

// Each goal site's line of code and its views; a site drawn for an earlier goal is not drawn again.
std::string GoalSiteSections(const Verdict& v, const LessonRun& run) {
  std::string h;
  std::vector<std::size_t> drawn;
  for (const GoalResult& g : v.goals) {
    if (g.goal->site.empty()) continue;
    const std::string marker = "<code>// goal: " + EscapeHtml(g.goal->site) + "</code>";
    h += "<h3>" + EscapeHtml(g.goal->name) + " (" + marker + ")</h3>\n";
    const std::vector<std::uint32_t> lines = MarkerLines(run.program->source, g.goal->site);
    if (lines.empty()) {
      h += "<p>The program has no marker " + marker + ".</p>\n";
      continue;
    }
    h += "<pre>";
    for (std::uint32_t line : lines)
      h += EscapeHtml(std::to_string(line) + ": " + SourceLine(run.program->source, line)) + "\n";
    h += "</pre>\n";
    const std::vector<std::size_t> sites = GoalSites(*g.goal, run);
    if (sites.empty())
      h += "<p>Not in the launch the views show (" + EscapeHtml(run.main_launch().kernel) +
           "): no view of it.</p>\n";
    for (std::size_t site : sites) {
      const SiteInfo& s = run.main_launch().sites[site];
      const std::string what = "line " + std::to_string(s.line) + ", <code>" +
                               EscapeHtml(AccessText(run, site)) + "</code> (" + ToString(s.op) +
                               ", " + ToString(s.space) + ")";
      if (std::find(drawn.begin(), drawn.end(), site) != drawn.end()) {
        h += "<p>" + what + ": drawn above.</p>\n";
        continue;
      }
      drawn.push_back(site);
      const bool shared = s.space == MemorySpace::kShared;
      const std::string svg = shared ? SvgBankHeatmap(run, site) : SvgCoalescingStrip(run, site);
      if (!svg.empty())
        h += "<figure>\n" + svg.substr(svg.find("<svg")) + "\n<figcaption>" + what +
             "</figcaption>\n</figure>\n";
    }
  }
  return h;
}

}  // namespace

std::string AssignmentReportHtml(const Assignment& a, const Verdict& v, const LessonRun& run) {
  const std::string file = run.program ? run.program->file : std::string("(no program)");
  std::string h = "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>" +
                  EscapeHtml(a.title + ": " + file) + "</title><style>" + kStyle +
                  "</style></head><body>\n<h1>" + EscapeHtml(a.title) + "</h1>\n";
  h += "<p>Program: " + EscapeHtml(file) + ", on " +
       EscapeHtml(run.backend == "cuda" ? run.device : "the emulator") + ". " +
       (v.met ? "Every goal is met." : "Not every goal is met.") +
       (v.failure.empty() ? "" : " The program " + EscapeHtml(v.failure) + ".") + "</p>\n";
  h += "<table>\n<tr><th>goal</th><th>figure</th><th>met</th></tr>\n";
  for (const GoalResult& g : v.goals) {
    const char* cls = g.met ? "met" : g.skipped ? "skipped" : "not";
    h += "<tr class=\"goal " + std::string(cls) + "\"><td>" + EscapeHtml(g.goal->name) +
         "</td><td>" + EscapeHtml(g.text) + "</td><td>" +
         (g.met       ? "yes"
          : g.skipped ? "skipped"
                      : "no") +
         "</td></tr>\n";
  }
  std::string task = EscapeHtml(a.task);
  for (std::size_t at = task.find("\n\n"); at != std::string::npos; at = task.find("\n\n", at))
    task.replace(at, 2, "</p>\n<p>");
  h += "</table>\n<h2>The task</h2>\n<p>" + task + "</p>\n";
  if (run.program && run.program->ok() && run.has_launch())
    h += "<h2>The goal sites</h2>\n" + GoalSiteSections(v, run);
  return h + "</body></html>\n";
}

}  // namespace ws
