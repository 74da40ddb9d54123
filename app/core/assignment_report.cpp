#include "core/assignment_report.h"

#include <algorithm>
#include <string_view>

#include "core/html.h"
#include "warpscope/trace/build_info.h"
#include "warpscope/viz/svg_figures.h"

namespace ws {

GoalSitesIn GoalSites(const Goal& g, const LessonRun& run) {
  GoalSitesIn in;
  if (g.site.empty() || !run.program || !run.has_launch()) return in;
  const std::vector<MarkerPlace> places = FindMarker(*run.program, g.site);
  const std::size_t shown = std::min(run.program->launch, run.launches.size() - 1);
  for (std::size_t k = 0; k <= run.launches.size(); ++k) {
    // The launch shown first, then the others in order.
    const std::size_t l = k == 0 ? shown : k - 1;
    if (k > 0 && l == shown) continue;
    if (l >= run.launches.size()) break;
    const LaunchTrace& t = run.launches[l];
    for (std::size_t i = 0; i < t.sites.size(); ++i)
      if (GoalSelects(g, t.sites[i], places, *run.program)) in.sites.push_back(i);
    if (!in.sites.empty()) {
      in.launch = l;
      return in;
    }
  }
  return in;
}

namespace {

const char* const kStyle =
    "body{font-family:sans-serif;max-width:60em;margin:2em auto;color:#222}"
    "td,th{padding:.3em .8em;border-bottom:1px solid #ddd;text-align:left}"
    ".met{color:#1a7f37}.not{color:#c0392b}.skipped{color:#777}"
    "pre{background:#f6f6f6;padding:.5em}figure{margin:1em 0}svg{max-width:100%;height:auto}";

// A site's place as a reader finds it: "line 20" in the main file, "kern.cuh:12" in another.
std::string PlaceOf(const ProgramRecord& p, const std::string& file, std::uint32_t line) {
  return (file.empty() || file == p.file ? "line " : file + ":") + std::to_string(line);
}

// Site `s`'s access as written ("sdata[tid + s]", from its columns on its line), else its line.
std::string AccessText(const ProgramRecord& p, const SiteInfo& s) {
  const std::string_view text = p.TextOf(s.file.empty() ? p.file : s.file);
  const std::string_view line = SourceLineAsWritten(text, s.line);
  if (s.column == 0 || s.end_column <= s.column || s.end_column - 1u > line.size())
    return SourceLine(text, s.line);
  return std::string(line.substr(s.column - 1u, static_cast<std::size_t>(s.end_column - s.column)));
}

// Each goal site's lines of code and its views; a site drawn for an earlier goal is not drawn
// again.
std::string GoalSiteSections(const Verdict& v, const LessonRun& run) {
  const ProgramRecord& p = *run.program;
  std::string h;
  std::vector<std::pair<std::size_t, std::size_t>> drawn;  // (launch, site)
  for (const GoalResult& g : v.goals) {
    if (g.goal->site.empty()) continue;
    const std::string marker = "<code>// goal: " + EscapeHtml(g.goal->site) + "</code>";
    h += "<h3>" + EscapeHtml(g.goal->name) + " (" + marker + ")</h3>\n";
    const std::vector<MarkerPlace> places = FindMarker(p, g.goal->site);
    if (places.empty()) {
      h += "<p>The program has no marker " + marker + ".</p>\n";
      continue;
    }
    h += "<pre>";
    for (const MarkerPlace& m : places)
      for (std::uint32_t line : m.lines)
        h +=
            EscapeHtml(PlaceOf(p, m.file, line) + ": " + SourceLine(p.TextOf(m.file), line)) + "\n";
    h += "</pre>\n";
    const GoalSitesIn in = GoalSites(*g.goal, run);
    if (in.sites.empty()) h += "<p>No access there was recorded: no view of it.</p>\n";
    const LaunchTrace& t = run.launches[in.launch];
    for (std::size_t site : in.sites) {
      const SiteInfo& s = t.sites[site];
      const std::string what = PlaceOf(p, s.file, s.line) + ", <code>" +
                               EscapeHtml(AccessText(p, s)) + "</code> (" + ToString(s.op) + ", " +
                               ToString(s.space) + "), launch " + std::to_string(in.launch + 1) +
                               " (" + EscapeHtml(t.kernel) + ")";
      if (std::find(drawn.begin(), drawn.end(), std::pair(in.launch, site)) != drawn.end()) {
        h += "<p>" + what + ": drawn above.</p>\n";
        continue;
      }
      drawn.emplace_back(in.launch, site);
      const bool shared = s.space == MemorySpace::kShared;
      const std::string svg = shared ? SvgBankHeatmap(t, site) : SvgCoalescingStrip(t, site);
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
  h += "<p class=\"build\">" + EscapeHtml(VersionLine("Warpscope")) + "</p>\n";
  return h + "</body></html>\n";
}

}  // namespace ws
