// The lesson panel's summary of the last run (split from lesson_panel.cpp): the running or
// up-to-date line, where a capture came from, the launch and its time, the output check, and the
// lesson's figures as labelled quantities.
#include <imgui.h>

#include <cstdio>
#include <string>
#include <utility>

#include "core/capture.h"
#include "gui/lesson_panel.h"
#include "warpscope/trace/units.h"
#include "warpscope/viz/palette.h"

namespace ws {

// A small progress line while a newer run is under way (the views mark theirs as old), then why
// the last run failed, if it did.
void LessonPanel::DrawStatus() {
  if (session_->running) {
    const int dots = static_cast<int>(ImGui::GetTime() * 4.0) % 4;
    ImGui::TextColored(ImVec4(0.95f, 0.75f, 0.3f, 1.0f), "Running %s%.*s",
                       session_->running_what.c_str(), dots, "...");
    // A program on the emulator: how far it has got (blocks done out of the grid), and Cancel.
    if (const std::optional<ProgramProgress> p = runner_.progress(); p && p->launch > 0) {
      const float f = p->blocks > 0 ? static_cast<float>(p->blocks_done) / p->blocks : 0.0f;
      ImGui::ProgressBar(f, ImVec2(-ImGui::GetFrameHeight() * 4.0f, 0.0f),
                         ProgressText(*p).c_str());
      ImGui::SameLine();
      if (ImGui::Button("Cancel")) runner_.Cancel();
      if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Stop the program; the launches that finished stay in the views");
    }
  } else if (session_->error.empty() && session_->compile_errors.empty()) {
    ImGui::TextDisabled("Up to date");
  }
  if (!session_->error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
    ImGui::TextWrapped("%s", session_->error.c_str());
    ImGui::PopStyleColor();
  }
}

// A shipped capture or a trace's origin, the launch, the output check, the lesson's figures.
void LessonPanel::DrawRunSummary(const LessonInfo* info, const LessonRun& run) {
  if (run.capture && run.capture->shipped) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.95f, 0.7f, 0.3f, 1.0f));
    if (info != nullptr && !info->needs_gpu())
      ImGui::TextWrapped(
          "Showing the capture shipped with Warpscope, measured on %s. Moving a slider runs "
          "the lesson here again.",
          run.device.c_str());
    else
      ImGui::TextWrapped(
          "No GPU here to measure this lesson: showing the capture shipped with Warpscope. "
          "Moving a slider cannot re-measure it.");
    ImGui::PopStyleColor();
  }
  if (run.capture) {
    ImGui::TextColored(ImVec4(0.45f, 0.7f, 1.0f, 1.0f), "Trace: %s", run.device.c_str());
    ImGui::Text("captured %s", run.capture->captured_at.c_str());
    ImGui::SetItemTooltip("%s", run.capture->file.c_str());
  }
  if (run.has_launch()) DrawLaunchLines(run);
  if (!run.has_launch()) {  // the occupancy calculator, the latency model: nothing to check
    ImGui::PushStyleColor(ImGuiCol_Text, palette::TextDim());
    ImGui::TextWrapped("%s", run.check.message.c_str());
    ImGui::PopStyleColor();
  } else {
    ImGui::TextColored(run.check.ok ? (palette::LightTheme() ? ImVec4(0.1f, 0.5f, 0.15f, 1.0f)
                                                             : ImVec4(0.6f, 0.9f, 0.6f, 1.0f))
                                    : ImVec4(0.85f, 0.2f, 0.15f, 1.0f),
                       "%s", run.check.ok ? "Output checked: correct" : "Output WRONG");
    ImGui::SetItemTooltip("%s", run.check.message.c_str());
  }
  DrawFigureLines(run);
}

// The launch's configuration, its size and time (what recording cost, in the tooltip), and a
// warning when its records were truncated.
void LessonPanel::DrawLaunchLines(const LessonRun& run) {
  const LaunchTrace& t = run.main_launch();
  ImGui::Text("%s<<<(%u,%u,%u), (%u,%u,%u)>>>", t.kernel.c_str(), t.grid.x, t.grid.y, t.grid.z,
              t.block.x, t.block.y, t.block.z);
  ImGui::Text("%llu threads, %llu warps, %u B shared per block",
              static_cast<unsigned long long>(t.threads()),
              static_cast<unsigned long long>(t.warps()), t.shared_bytes);
  const std::string took = FormatDuration(run.timing.ms);
  if (run.timing.timed_at.empty())
    ImGui::Text("Time: %s (%s)", took.c_str(), run.timing.kind.c_str());
  else
    ImGui::Text("Time: %s (%s, at %s)", took.c_str(), run.timing.kind.c_str(),
                run.timing.timed_at.c_str());
  // The wall time of the re-run goes in the tooltip: on screen it would make two screenshots
  // of the same state differ.
  std::string cost;
  if (run.timing.record_ms > 0) {  // a GPU capture: what recording cost, against the time
    char line[160];
    // count_ms: the passes before the one that recorded, only when the record budget ran out.
    const double plain = run.timing.own_ms > 0 ? run.timing.own_ms : run.timing.ms;
    const double ratio = plain > 0 ? run.timing.record_ms / plain : 0.0;
    if (run.timing.count_ms > 0)
      std::snprintf(line, sizeof line,
                    "\nRecording pass %s (%.2fx), after %s of passes that ran out of "
                    "record budget.",
                    FormatDuration(run.timing.record_ms).c_str(), ratio,
                    FormatDuration(run.timing.count_ms).c_str());
    else
      std::snprintf(line, sizeof line, "\nRecorded in one pass of %s (%.2fx).",
                    FormatDuration(run.timing.record_ms).c_str(), ratio);
    cost = line;
  }
  ImGui::SetItemTooltip("%s%s\nThe run took %.0f ms here.", run.timing.note.c_str(), cost.c_str(),
                        last_run_ms_);
  if (t.truncated)
    ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f),
                       "Truncated: a record buffer filled up; figures may be partial.");
}

// The lesson's figures as bullet lines, made once per run.
void LessonPanel::DrawFigureLines(const LessonRun& run) {
  if (!figure_lines_ready_ || figure_lines_generation_ != session_->generation) {
    figure_lines_ready_ = true;  // once per run, not every frame
    figure_lines_generation_ = session_->generation;
    figure_lines_.clear();
    // The lesson's figures as labelled quantities ("Global loads: 524,288 elements"); the
    // graphs and tables among them belong to the views. A program or a trace of a lesson this
    // build does not know lists none.
    const nlohmann::json& figures = run.metrics();
    if (run.info != nullptr) {
      for (const FigureSpec& spec : run.info->figures) {
        if (std::string line = FormatFigure(spec, figures); !line.empty())
          figure_lines_.push_back(std::move(line));
      }
    }
  }
  for (const std::string& line : figure_lines_) ImGui::BulletText("%s", line.c_str());
}

}  // namespace ws
