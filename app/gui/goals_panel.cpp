#include "gui/goals_panel.h"
#include "gui/html.h"

#include <imgui.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>

#include "warpscope/program/program.h"
#include "warpscope/trace/file_io.h"
#include "warpscope/trace/units.h"
#include "warpscope/viz/palette.h"

namespace ws {
namespace {

std::string FileSafe(const std::string& s) {
  std::string out;
  for (char c : s) out += std::isalnum(static_cast<unsigned char>(c)) != 0 ? c : '-';
  return out;
}

}  // namespace

GoalsPanel::GoalsPanel(Session* session, Assignment assignment)
    : Panel("goals", "Goals"), session_(session), assignment_(std::move(assignment)) {
  if (assignment_.needs_start()) {
    const std::filesystem::path start = assignment_.start;
    start_future_ = std::async(std::launch::async, [start] { return RunProgramFile(start, {}); });
  }
}

void GoalsPanel::Refresh() {
  if (start_future_.valid() &&
      start_future_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
    start_ = start_future_.get();
    generation_ = ~0ull;  // check again, now with the start's figures
  }
  const auto& run = session_->as_written();
  if (!run || session_->generation == generation_) return;
  generation_ = session_->generation;
  verdict_ = run->program ? CheckAssignment(assignment_, *run, start_ ? &*start_ : nullptr)
                          : std::optional<Verdict>();
}

Panel::State GoalsPanel::Shown() const {
  State s = {{"title", assignment_.title}};
  if (!verdict_) return s;
  for (std::size_t i = 0; i < verdict_->goals.size(); ++i) {
    const GoalResult& g = verdict_->goals[i];
    s.emplace_back("goal_" + std::to_string(i), g.met ? "met" : g.skipped ? "skipped" : "not met");
    s.emplace_back("value_" + std::to_string(i), FormatNumber(g.value, 6));
  }
  s.emplace_back("all_met", verdict_->met ? "yes" : "no");
  return s;
}

void GoalsPanel::SelectGoalSite(const GoalResult& g) {
  const auto& run = session_->run;
  if (!run || !run->program || !run->has_launch() || g.goal->site.empty()) return;
  const std::vector<std::uint32_t> lines = MarkerLines(run->program->source, g.goal->site);
  const LaunchTrace& t = run->main_launch();
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    const SiteInfo& s = t.sites[i];
    if (std::find(lines.begin(), lines.end(), s.line) == lines.end()) continue;
    if (!g.goal->op.empty() && g.goal->op != ToString(s.op)) continue;
    const bool shared = s.space == MemorySpace::kShared;
    const GoalFigure f = g.goal->figure;
    if ((f == GoalFigure::kSectorsPerRequest && shared) ||
        ((f == GoalFigure::kBankConflictWays || f == GoalFigure::kBankConflicts) && !shared))
      continue;
    session_->SelectSite(static_cast<int>(i));
    session_->focus_panel = shared ? "banks" : "coalescing";
    note_.clear();
    return;
  }
  note_ = "`// goal: " + g.goal->site +
          "` is not in the launch the views show; pick its launch in "
          "the lesson panel";
}

std::string GoalsPanel::ExportReport() {
  const auto& run = session_->as_written();
  if (!verdict_ || !run || !run->program) return "";
  std::string h = "<!doctype html>\n<html><head><meta charset=\"utf-8\"><title>" +
                  EscapeHtml(assignment_.title) + "</title></head><body>\n<h1>" +
                  EscapeHtml(assignment_.title) + "</h1>\n<p>" + EscapeHtml(assignment_.task) +
                  "</p>\n";
  h += "<p>Program: " + EscapeHtml(run->program->file) + ", on " + EscapeHtml(run->device) + ". " +
       (verdict_->met ? "Every goal is met." : "Not every goal is met.") + "</p>\n<table>\n";
  h += "<tr><th>goal</th><th>figure</th><th>met</th></tr>\n";
  for (const GoalResult& g : verdict_->goals)
    h += "<tr><td>" + EscapeHtml(g.goal->name) + "</td><td>" + EscapeHtml(g.text) + "</td><td>" +
         (g.met       ? "yes"
          : g.skipped ? "skipped"
                      : "no") +
         "</td></tr>\n";
  h += "</table>\n<h2>The goal sites</h2>\n<pre>\n";
  for (const GoalResult& g : verdict_->goals) {
    if (g.goal->site.empty()) continue;
    for (std::uint32_t line : MarkerLines(run->program->source, g.goal->site))
      h += EscapeHtml(std::to_string(line) + ": " + SourceLine(run->program->source, line)) + "\n";
  }
  h += "</pre>\n</body></html>\n";
  const std::filesystem::path dir = session_->export_folder.empty()
                                        ? std::filesystem::temp_directory_path()
                                        : std::filesystem::path(session_->export_folder);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::filesystem::path file = dir / ("assignment-" + FileSafe(assignment_.title) + ".html");
  if (Status s = WriteFileAtomically(file, h); !s.ok()) {
    note_ = s.message();
    return "";
  }
  return file.string();
}

void GoalsPanel::DrawContents() {
  Refresh();
  ImGui::TextWrapped("%s", assignment_.title.c_str());
  DrawGoals();
  if (ImGui::CollapsingHeader("The task", ImGuiTreeNodeFlags_DefaultOpen))
    ImGui::TextWrapped("%s", assignment_.task.c_str());
}

// Each goal, its figure and verdict (a click selects its site), then "every goal is met".
void GoalsPanel::DrawGoals() {
  if (!verdict_) {
    ImGui::TextDisabled("Open the assignment's program (or your copy of it) to check its goals.");
    return;
  }
  if (!verdict_->failure.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(palette::WarpU32(4)));
    ImGui::TextWrapped("The program %s", verdict_->failure.c_str());
    ImGui::PopStyleColor();
  }
  if (start_future_.valid())
    ImGui::TextDisabled(
        "Running the starting program for the goals "
        "relative to it...");
  for (std::size_t i = 0; i < verdict_->goals.size(); ++i) {
    const GoalResult& g = verdict_->goals[i];
    const ImU32 colour = g.met       ? IM_COL32(110, 200, 120, 255)
                         : g.skipped ? palette::TextDim()
                                     : IM_COL32(240, 120, 90, 255);
    ImGui::PushID(static_cast<int>(i));
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::ColorConvertU32ToFloat4(colour));
    const std::string label = std::string(g.met       ? "[met] "
                                          : g.skipped ? "[skipped] "
                                                      : "[not met] ") +
                              g.text;
    if (ImGui::Selectable(label.c_str())) SelectGoalSite(g);
    ImGui::PopStyleColor();
    if (!g.goal->site.empty())
      ImGui::SetItemTooltip("Click: select `// goal: %s` in every view", g.goal->site.c_str());
    ImGui::PopID();
  }
  if (verdict_->met) {
    ImGui::Separator();
    ImGui::PushStyleColor(ImGuiCol_Text,
                          ImGui::ColorConvertU32ToFloat4(IM_COL32(110, 200, 120, 255)));
    ImGui::TextWrapped("Every goal is met.");
    ImGui::PopStyleColor();
    if (ImGui::Button("Export the report (HTML)")) {
      const std::string path = ExportReport();
      if (!path.empty()) note_ = "Wrote " + path;
    }
  }
  if (!note_.empty()) ImGui::TextWrapped("%s", note_.c_str());
}

}  // namespace ws
