#include "gui/lesson_panel.h"

#include <imgui.h>

#include <chrono>

#include "warpscope/kernels/catalog.h"

namespace ws {

LessonPanel::LessonPanel(Session* session, const DeviceQuery& devices)
    : Panel("lesson", "Lesson & parameters"),
      session_(session),
      have_gpu_(!devices.gpus.empty()),
      gpu_name_(have_gpu_ ? devices.gpus.front().name : "") {}

std::string LessonPanel::Select(const std::string& lesson, const std::string& variant) {
  const LessonInfo* info = FindLesson(lesson);
  if (info == nullptr) return "unknown lesson '" + lesson + "'";
  lesson_ = lesson;
  variant_ = variant.empty() ? info->variants.front().name : variant;
  params_.clear();
  for (const ParamSpec& p : info->params) params_[p.name] = p.default_value;
  session_->selected_site = -1;
  Rerun();
  return session_->error;
}

void LessonPanel::Rerun() {
  const auto start = std::chrono::steady_clock::now();
  auto run = RunLesson(lesson_, variant_, params_, use_gpu_ ? "cuda" : "emu", RunOptions{});
  last_run_ms_ =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (!run.ok()) {
    session_->error = run.status().message();  // keep showing the last good run
    return;
  }
  session_->error.clear();
  const bool same_kernel =
      session_->run && session_->run->lesson == lesson_ && session_->run->has_launch() &&
      run->has_launch() &&
      session_->run->main_launch().sites.size() == run->main_launch().sites.size();
  if (!same_kernel) session_->selected_site = -1;
  session_->run = std::make_shared<const LessonRun>(std::move(run).value());
  ++session_->generation;
}

void LessonPanel::DrawContents() {
  const LessonInfo* info = FindLesson(lesson_);
  bool changed = false;
  if (ImGui::BeginCombo("Lesson", info ? info->title.c_str() : "(pick a lesson)")) {
    for (const LessonInfo& l : Lessons()) {
      if (ImGui::Selectable(l.title.c_str(), l.id == lesson_)) Select(l.id, "");
    }
    ImGui::EndCombo();
  }
  info = FindLesson(lesson_);
  if (info == nullptr) return;
  if (info->variants.size() > 1 && ImGui::BeginCombo("Variant", variant_.c_str())) {
    for (const VariantSpec& v : info->variants) {
      if (ImGui::Selectable(v.name.c_str(), v.name == variant_)) {
        variant_ = v.name;
        changed = true;
      }
      ImGui::SetItemTooltip("%s", v.summary.c_str());
    }
    ImGui::EndCombo();
  }
  for (const ParamSpec& p : info->params) {
    long long& value = params_[p.name];
    if (!p.choices.empty()) {
      int index = static_cast<int>(value);
      if (ImGui::BeginCombo(p.name.c_str(), p.choices[static_cast<std::size_t>(index)].c_str())) {
        for (std::size_t i = 0; i < p.choices.size(); ++i) {
          if (ImGui::Selectable(p.choices[i].c_str(), static_cast<int>(i) == index)) {
            value = static_cast<long long>(i);
            changed = true;
          }
        }
        ImGui::EndCombo();
      }
    } else {
      int v = static_cast<int>(value);
      if (ImGui::SliderInt(p.name.c_str(), &v, static_cast<int>(p.min), static_cast<int>(p.max),
                           "%d",
                           ImGuiSliderFlags_AlwaysClamp |
                               ImGuiSliderFlags_Logarithmic * (p.max / (p.min + 1) > 64))) {
        v = static_cast<int>(p.min + (v - p.min) / p.step * p.step);  // snap to the step
        if (v != value) {
          value = v;
          changed = true;
        }
      }
    }
    ImGui::SetItemTooltip("%s (%lld..%lld)", p.meaning.c_str(), p.min, p.max);
  }
  if (have_gpu_) {
    if (ImGui::RadioButton("CPU emulator", !use_gpu_)) {
      use_gpu_ = false;
      changed = true;
    }
    ImGui::SameLine();
    if (ImGui::RadioButton(gpu_name_.c_str(), use_gpu_)) {
      use_gpu_ = true;
      changed = true;
    }
  } else {
    ImGui::TextDisabled("Backend: CPU emulator (no GPU here)");
  }
  if (changed) Rerun();

  ImGui::Separator();
  ImGui::TextWrapped("%s", info->explanation.c_str());
  ImGui::Separator();
  if (!session_->error.empty())
    ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", session_->error.c_str());
  if (!session_->run) return;
  const LessonRun& run = *session_->run;
  if (run.has_launch()) {
    const LaunchTrace& t = run.main_launch();
    ImGui::Text("%s<<<(%u,%u,%u), (%u,%u,%u)>>>", t.kernel.c_str(), t.grid.x, t.grid.y, t.grid.z,
                t.block.x, t.block.y, t.block.z);
    ImGui::Text("%llu threads, %llu warps, %u B shared per block",
                static_cast<unsigned long long>(t.threads()),
                static_cast<unsigned long long>(t.warps()), t.shared_bytes);
    ImGui::Text("Time: %.4g ms (%s)", run.timing.ms, run.timing.kind.c_str());
    // The wall time of the re-run goes in the tooltip: on screen it would make two screenshots
    // of the same state differ.
    ImGui::SetItemTooltip("%s\nThe run took %.0f ms here.", run.timing.note.c_str(), last_run_ms_);
  }
  ImGui::TextColored(
      run.check.ok ? ImVec4(0.6f, 0.9f, 0.6f, 1.0f) : ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s",
      run.check.ok ? "Output matches the CPU" : "Output WRONG");
  ImGui::SetItemTooltip("%s", run.check.message.c_str());
  for (auto it = run.metrics.begin(); it != run.metrics.end(); ++it) {
    std::string text = it->dump();
    if (text.size() > 60) continue;  // graphs and per-block arrays belong to the views
    ImGui::BulletText("%s: %s", it.key().c_str(), text.c_str());
  }
}

}  // namespace ws
