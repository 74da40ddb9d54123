#include "gui/lecture_walk.h"
#include "core/html.h"

#include <imgui.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <set>

#include "gui/ui.h"
#include "warpscope/trace/file_io.h"
#include "warpscope/trace/run_compare.h"
#include "warpscope/viz/svg_figures.h"

namespace ws {
namespace {

constexpr int kSettleFrames = 3;       // the step's layout is built, docked and drawn
constexpr int kSaveFrames = 4;         // its PNGs are saved (a 2x one lays a frame out again)
constexpr int kMaxWaitFrames = 20000;  // a step whose run never ends is left, with a note

std::string StepName(int index) {
  char name[32];
  std::snprintf(name, sizeof name, "step-%02d", index + 1);
  return name;
}

}  // namespace

LectureWalk::LectureWalk(LecturePlayer* player, Ui* ui, std::filesystem::path export_dir)
    : player_(player), ui_(ui), dir_(std::move(export_dir)) {}

int LectureWalk::KeyToPress() {
  if (done_) return ImGuiKey_None;
  if (player_->step() != last_step_) {
    last_step_ = player_->step();
    settle_ = wait_ = 0;
    recorded_ = false;
  }
  if (!player_->ready() && ++wait_ < kMaxWaitFrames) return ImGuiKey_None;
  ++settle_;
  if (!recorded_ || settle_ < kSettleFrames + kSaveFrames) return ImGuiKey_None;
  if (player_->step() + 1 < static_cast<int>(player_->lecture().steps.size()))
    return ImGuiKey_RightArrow;  // the key a teacher presses
  done_ = true;
  return ImGuiKey_None;
}

std::vector<ExportRequest> LectureWalk::AfterDraw() {
  if (recorded_ || settle_ < kSettleFrames) return {};
  recorded_ = true;
  Record();
  std::vector<ExportRequest> shots;
  if (dir_.empty()) return shots;
  StepRecord& r = records_.back();
  for (const std::string& id : r.panels_visible) {
    const std::string file = StepName(r.index) + "-" + id + ".png";
    // The figure without the panel's tab and "Export PNG" menu bars.
    shots.push_back({id, true, dir_ / file, 0, 2 * ui_->frame_height()});
    const Panel* p = ui_->FindPanel(id);
    r.figures.emplace_back(file, p != nullptr ? p->title() : id);
  }
  if (Status s = WriteSvgs(&r); !s.ok()) {
    std::fprintf(stderr, "warpscope: %s\n", s.message().c_str());
    failed_ = true;
  }
  return shots;
}

void LectureWalk::Record() {
  const LectureStep& step = player_->lecture().steps[static_cast<std::size_t>(player_->step())];
  StepRecord r;
  r.index = player_->step();
  r.title = step.title;
  r.caption = step.caption;
  r.error = player_->error();
  r.lesson = step.lesson;  // as the step asks (a failed run leaves the last good one on show)
  r.variant = step.variant;
  const Session& session = ui_->session();
  if (session.run && r.error.empty()) {
    r.described = DescribeRun(*session.run);
    kept_runs_.push_back(session.run);
    if (session.run->info != nullptr && session.run->timing.ms > 0)
      timings_[session.run->lesson].emplace_back(session.run->variant, session.run.get());
  }
  if (session.pinned && session.run) r.differences = CompareRuns(*session.pinned, *session.run);
  for (const std::string& id : player_->Panels()) {
    const Panel* p = ui_->FindPanel(id);
    if (p != nullptr && p->rect().visible) r.panels_visible.push_back(id);
  }
  records_.push_back(std::move(r));
}

// The figures with data behind them, as SVG beside the PNGs: the coalescing strip, the bank
// heatmap, the layout table, the occupancy graphs, the copy bandwidth, the timing plot.
Status LectureWalk::WriteSvgs(StepRecord* r) {
  const Session& session = ui_->session();
  const LessonRun* run = session.run.get();
  if (run == nullptr) return {};
  const std::size_t site = session.sel.site >= 0 ? static_cast<std::size_t>(session.sel.site) : 0;
  std::set<std::string> panels(r->panels_visible.begin(), r->panels_visible.end());
  std::vector<std::pair<std::string, std::string>> svgs;  // (figure, text)
  if (panels.count("coalescing")) svgs.emplace_back("coalescing", SvgCoalescingStrip(*run, site));
  if (panels.count("banks")) svgs.emplace_back("banks", SvgBankHeatmap(*run, site));
  if (panels.count("layout")) svgs.emplace_back("layout", SvgLayoutTable(*run));
  if (panels.count("occupancy")) svgs.emplace_back("occupancy", SvgOccupancyGraphs(*run));
  if (panels.count("transfers")) svgs.emplace_back("bandwidth", SvgBandwidthPlot(*run));
  if (panels.count("timing") && run->info != nullptr) {
    TimingPlotData plot;
    const std::string x = run->info->params.empty() ? "" : run->info->params.front().name;
    plot.title = run->lesson + ": time against " + x;
    plot.x_label = x;
    plot.y_label = "time (ms, " + run->timing.kind + ")";
    std::map<std::string, TimingSeries> series;
    for (const auto& [variant, seen] : timings_[run->lesson]) {
      TimingSeries& s = series[variant];
      s.name = variant;
      s.points.emplace_back(static_cast<double>(seen->params.at(x)), seen->timing.ms);
    }
    for (auto& [name, s] : series) plot.series.push_back(std::move(s));
    svgs.emplace_back("timing", SvgTimingPlot(plot));
  }
  for (const auto& [figure, text] : svgs) {
    if (text.empty()) continue;
    const std::string file = StepName(r->index) + "-" + figure + ".svg";
    if (Status s = WriteFileAtomically(dir_ / file, text); !s.ok()) return s;
    r->figures.emplace_back(file, figure + " (SVG)");
  }
  return {};
}

Status LectureWalk::Finish(const std::filesystem::path& json) {
  const Lecture& lecture = player_->lecture();
  if (!json.empty()) {
    nlohmann::json j;
    j["title"] = lecture.title;
    j["steps_in_file"] = lecture.steps.size();
    for (const StepRecord& r : records_)
      j["steps"].push_back({{"index", r.index},
                            {"title", r.title},
                            {"lesson", r.lesson},
                            {"variant", r.variant},
                            {"error", r.error},
                            {"panels_visible", r.panels_visible},
                            {"differences", r.differences}});
    if (Status s = WriteFileAtomically(json, j.dump(2) + "\n"); !s.ok()) return s;
  }
  if (dir_.empty()) return {};
  std::string md = "# " + lecture.title + "\n\n";
  std::string html =
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\" />\n<title>" +
      EscapeHtml(lecture.title) +
      "</title>\n<style>\nbody { font-family: sans-serif; max-width: 60em; margin: 2em auto; "
      "padding: 0 1em; color: #222; }\nfigure { margin: 1em 0; }\nimg { max-width: 100%; "
      "border: 1px solid #ccc; }\nfigcaption, .run { color: #555; font-size: 0.9em; }\n"
      "</style>\n</head>\n<body>\n<h1>" +
      EscapeHtml(lecture.title) + "</h1>\n";
  if (!lecture.deck.empty()) {
    md += "Follows: " + lecture.deck + "\n\n";
    html += "<p>Follows: " + EscapeHtml(lecture.deck) + "</p>\n";
  }
  for (const StepRecord& r : records_) {
    const std::string heading = std::to_string(r.index + 1) + ". " + r.title;
    md += "## " + heading + "\n\n";
    html += "<h2>" + EscapeHtml(heading) + "</h2>\n";
    if (!r.caption.empty()) {
      md += r.caption + "\n\n";
      html += "<p>" + EscapeHtml(r.caption) + "</p>\n";
    }
    if (!r.described.empty()) {
      md += "*Run: " + r.described + "*\n\n";
      html += "<p class=\"run\">Run: " + EscapeHtml(r.described) + "</p>\n";
    }
    if (!r.error.empty()) {
      md += "**This step did not run:** " + r.error + "\n\n";
      html += "<p><strong>This step did not run:</strong> " + EscapeHtml(r.error) + "</p>\n";
    }
    if (!r.differences.empty()) {
      html += "<ul>\n";
      for (const std::string& d : r.differences) {
        md += "- " + d + "\n";
        html += "<li>" + EscapeHtml(d) + "</li>\n";
      }
      md += "\n";
      html += "</ul>\n";
    }
    for (const auto& [file, what] : r.figures) {
      const bool svg = file.size() > 4 && file.compare(file.size() - 4, 4, ".svg") == 0;
      if (svg) {
        md += "[" + what + "](" + file + ")\n\n";
        html += "<p><a href=\"" + EscapeHtml(file) + "\">" + EscapeHtml(what) + "</a></p>\n";
      } else {
        md += "![" + what + "](" + file + ")\n\n";
        html += "<figure><img src=\"" + EscapeHtml(file) + "\" alt=\"" + EscapeHtml(what) +
                "\" /><figcaption>" + EscapeHtml(what) + "</figcaption></figure>\n";
      }
    }
  }
  html += "</body>\n</html>\n";
  if (Status s = WriteFileAtomically(dir_ / "index.md", md); !s.ok()) return s;
  return WriteFileAtomically(dir_ / "index.html", html);
}

}  // namespace ws
