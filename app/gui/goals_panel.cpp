#include "gui/goals_panel.h"
#include "core/assignment_report.h"

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
  if (!run || !run->program || g.goal->site.empty()) return;
  const GoalSitesIn in = GoalSites(*g.goal, *run);
  if (in.sites.empty()) {
    note_ = "No access at `// goal: " + g.goal->site + "` was recorded";
    return;
  }
  const int site = static_cast<int>(in.sites.front());
  const bool shared =
      run->launches[in.launch].sites[in.sites.front()].space == MemorySpace::kShared;
  session_->focus_panel = shared ? "banks" : "coalescing";
  if (&run->launches[in.launch] == &run->main_launch()) {
    session_->SelectSite(site);
    note_.clear();
    return;
  }
  // The lesson panel shows that launch on its next frame, then selects the site.
  session_->show_launch = static_cast<int>(in.launch);
  session_->site_in_launch = site;
  note_ = "`// goal: " + g.goal->site + "` is in launch " + std::to_string(in.launch + 1) + " (" +
          run->launches[in.launch].kernel + "): showing that launch";
}

std::string GoalsPanel::ExportReport() {
  const auto& run = session_->as_written();
  if (!verdict_ || !run || !run->program) return "";
  const std::filesystem::path dir = session_->export_folder.empty()
                                        ? std::filesystem::temp_directory_path()
                                        : std::filesystem::path(session_->export_folder);
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  const std::filesystem::path file = dir / ("assignment-" + FileSafe(assignment_.title) + ".html");
  if (Status s = WriteFileAtomically(file, AssignmentReportHtml(assignment_, *verdict_, *run));
      !s.ok()) {
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
    // Why there is nothing to check yet, in the program's words: it is running, it did not
    // compile, or none is open.
    if (session_->running)
      ImGui::TextDisabled("Running %s: its goals are checked when it ends.",
                          session_->running_what.c_str());
    else if (!session_->compile_errors.empty())
      ImGui::TextWrapped("The program did not compile (see the source view): nothing to check.");
    else if (!session_->error.empty())
      ImGui::TextWrapped("The program did not run: %s", session_->error.c_str());
    else
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
  const bool focused = ImGui::IsWindowFocused(ImGuiFocusedFlags_RootAndChildWindows);
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
    // A click, or its number (1-9) while the panel has the keyboard, selects its site.
    const bool key =
        focused && i < 9 &&
        ImGui::IsKeyPressed(static_cast<ImGuiKey>(ImGuiKey_1 + static_cast<int>(i)), false);
    if (ImGui::Selectable(label.c_str()) || key) SelectGoalSite(g);
    ImGui::PopStyleColor();
    if (!g.goal->site.empty())
      ImGui::SetItemTooltip("Click (or press %d): select `// goal: %s` in every view",
                            static_cast<int>(i + 1), g.goal->site.c_str());
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
