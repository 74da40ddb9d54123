#include "gui/lesson_panel.h"

#include <imgui.h>

#include <chrono>
#include <cstdio>
#include <thread>

#include "core/capture.h"
#include "warpscope/kernels/catalog.h"
#include "warpscope/viz/palette.h"

namespace ws {

LessonPanel::LessonPanel(Session* session, const DeviceQuery& devices)
    : Panel("lesson", "Lesson & parameters"),
      session_(session),
      have_gpu_(!devices.gpus.empty()),
      gpu_name_(have_gpu_ ? devices.gpus.front().name : ""),
      why_no_gpu_(devices.why_no_gpu) {}

std::string LessonPanel::Select(const std::string& lesson, const std::string& variant,
                                const Params& overrides, const std::string& backend) {
  const LessonInfo* info = FindLesson(lesson);
  if (info == nullptr) {
    std::string ids;
    for (const LessonInfo& l : Lessons()) ids += (ids.empty() ? "" : ", ") + l.id;
    return "unknown lesson '" + lesson + "'; lessons are: " + ids;
  }
  std::string chosen = variant.empty() ? info->variants.front().name : variant;
  bool known = false;
  std::string names;
  for (const VariantSpec& v : info->variants) {
    known |= v.name == chosen;
    names += (names.empty() ? "" : ", ") + v.name;
  }
  if (!known) return lesson + ": unknown variant '" + chosen + "'; variants are: " + names;
  Params params;
  for (const ParamSpec& p : info->params) params[p.name] = p.default_value;
  for (const auto& [name, value] : overrides) {
    const auto spec = std::find_if(info->params.begin(), info->params.end(),
                                   [&](const ParamSpec& p) { return p.name == name; });
    if (spec == info->params.end()) {
      std::string all;
      for (const ParamSpec& p : info->params) all += (all.empty() ? "" : ", ") + p.name;
      return lesson + ": unknown parameter '" + name + "'; parameters are: " + all;
    }
    if (Status s = CheckParam(*spec, value); !s.ok()) return lesson + ": " + s.message();
    params[name] = value;
  }
  if (backend == "cuda" && !have_gpu_) return "--backend cuda needs a GPU: " + why_no_gpu_;
  if (!backend.empty() && backend != "cuda" && backend != "emu")
    return "unknown backend '" + backend + "'; backends are: emu, cuda";
  if (!backend.empty()) use_gpu_ = backend == "cuda";
  lesson_ = lesson;
  variant_ = chosen;
  params_ = std::move(params);
  Rerun();
  return "";
}

std::string LessonPanel::SetParam(const std::string& name, long long value) {
  const LessonInfo* info = FindLesson(lesson_);
  if (info == nullptr) return "no lesson selected";
  for (const ParamSpec& p : info->params) {
    if (p.name != name) continue;
    if (Status s = CheckParam(p, value); !s.ok()) return lesson_ + ": " + s.message();
    params_[name] = value;
    Rerun();
    return "";
  }
  return lesson_ + ": unknown parameter '" + name + "'";
}

std::string LessonPanel::OpenTrace(const std::string& path) {
  auto run = LoadTraceAsRun(path);
  if (!run.ok()) return run.status().message();
  if (FindLesson(run->lesson) != nullptr) {
    lesson_ = run->lesson;
    variant_ = run->variant;
    params_ = run->params;
  }
  showing_trace_ = true;
  use_gpu_ = false;
  session_->error.clear();
  auto shared = std::make_shared<const LessonRun>(std::move(run).value());
  BlockView view = shared->has_launch() ? BuildBlockView(shared->main_launch(), 0) : BlockView{};
  session_->Install(std::move(shared), std::move(view));
  return "";
}

void LessonPanel::SetGpuIndex(int index) {
  if (index == gpu_index_) return;
  gpu_index_ = index;
  // GPU runs, and calculators (the occupancy calculator's "gpu" device is the picked GPU),
  // follow the pick.
  const LessonInfo* info = FindLesson(lesson_);
  const bool calculator = info != nullptr && info->kind == LessonKind::kCalculator;
  if ((use_gpu_ || calculator) && !showing_trace_) Rerun();
}

void LessonPanel::StepLesson(int delta) {
  const auto& all = Lessons();
  const int n = static_cast<int>(all.size());
  int at = 0;
  for (int i = 0; i < n; ++i) {
    if (all[static_cast<std::size_t>(i)].id == lesson_) at = i;
  }
  Select(all[static_cast<std::size_t>(((at + delta) % n + n) % n)].id, "");
}

void LessonPanel::Rerun() {
  showing_trace_ = false;
  session_->running = true;
  session_->running_what = lesson_ + " " + variant_;
  runner_.Submit(
      {lesson_, variant_, use_gpu_ ? "cuda" : "emu", params_, session_->sel.block, gpu_index_});
}

void LessonPanel::Poll() {
  auto result = runner_.Poll();
  session_->running = runner_.busy();
  // The user picked a block whose records were not kept: run again, keeping them (once).
  if (!result && !session_->running && session_->run && session_->run->has_launch() &&
      !session_->block_view().kept && recorded_for_block_ != session_->sel.block) {
    recorded_for_block_ = session_->sel.block;
    Rerun();
    return;
  }
  if (!result) return;
  last_run_ms_ = result->ms;
  if (!result->run) {
    session_->error = result->error;  // keep showing the last good run, and say why not this one
    return;
  }
  session_->error.clear();
  session_->Install(std::move(result->run), std::move(result->view));
}

bool LessonPanel::WaitIdle(double seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (runner_.busy()) {
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  Poll();
  return true;
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
  ImGui::SetItemTooltip("PageUp / PageDown: previous / next lesson");
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
  const VariantSpec* variant = info->FindVariant(variant_);
  for (const ParamSpec& p : info->params) {
    long long& value = params_[p.name];
    // A parameter the variant does not use is greyed out (it keeps its value for the others).
    const bool ignored =
        variant != nullptr && std::find(variant->ignores.begin(), variant->ignores.end(), p.name) !=
                                  variant->ignores.end();
    ImGui::BeginDisabled(ignored);
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
    ImGui::EndDisabled();
    if (ignored) {
      ImGui::SetItemTooltip("%s: the %s variant does not use it", p.meaning.c_str(),
                            variant_.c_str());
    } else {
      ImGui::SetItemTooltip("%s (%lld..%lld)", p.meaning.c_str(), p.min, p.max);
    }
  }
  ImGui::TextUnformatted("Backend:");
  ImGui::SameLine();
  if (ImGui::RadioButton("CPU emulator", !use_gpu_ && !showing_trace_)) {
    changed |= use_gpu_;
    use_gpu_ = false;
  }
  ImGui::SameLine();
  if (have_gpu_) {
    if (ImGui::RadioButton(gpu_name_.c_str(), use_gpu_ && !showing_trace_)) {
      changed |= !use_gpu_;
      use_gpu_ = true;
    }
  } else {
    ImGui::BeginDisabled();
    ImGui::RadioButton("GPU", false);
    ImGui::EndDisabled();
    ImGui::SetItemTooltip("No GPU here: %s", why_no_gpu_.c_str());
  }
  ImGui::SameLine();
  ImGui::BeginDisabled(!showing_trace_);
  ImGui::RadioButton("Trace file", showing_trace_);
  ImGui::EndDisabled();
  ImGui::SetItemTooltip(showing_trace_ ? "Showing a capture; move a slider to run it live here."
                                       : "File > Open trace... (or warpscope FILE.wstrace)");
  if (changed) Rerun();

  // A small progress line while a newer run is under way: the views mark theirs as old.
  if (session_->running) {
    const int dots = static_cast<int>(ImGui::GetTime() * 4.0) % 4;
    ImGui::TextColored(ImVec4(0.95f, 0.75f, 0.3f, 1.0f), "Running %s%.*s",
                       session_->running_what.c_str(), dots, "...");
  } else {
    ImGui::TextDisabled("Up to date");
  }
  if (!session_->error.empty())
    ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f), "%s", session_->error.c_str());
  if (!session_->run) {
    DrawExplanation(*info);
    return;
  }
  const LessonRun& run = *session_->run;
  if (run.capture && run.capture->shipped) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.95f, 0.7f, 0.3f, 1.0f));
    ImGui::TextWrapped(
        "No GPU here to measure this lesson: showing the capture shipped with Warpscope. Moving "
        "a slider cannot re-measure it.");
    ImGui::PopStyleColor();
  }
  if (run.capture) {
    ImGui::TextColored(ImVec4(0.45f, 0.7f, 1.0f, 1.0f), "Trace: %s", run.device.c_str());
    ImGui::Text("captured %s", run.capture->captured_at.c_str());
    ImGui::SetItemTooltip("%s", run.capture->file.c_str());
  }
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
    std::string cost;
    if (run.timing.record_ms > 0) {  // a GPU capture: what recording cost, against the time
      char line[160];
      std::snprintf(line, sizeof line, "\nRecording pass %.4g ms (%.2fx), counting pass %.4g ms.",
                    run.timing.record_ms,
                    run.timing.ms > 0 ? run.timing.record_ms / run.timing.ms : 0.0,
                    run.timing.count_ms);
      cost = line;
    }
    ImGui::SetItemTooltip("%s%s\nThe run took %.0f ms here.", run.timing.note.c_str(), cost.c_str(),
                          last_run_ms_);
    if (t.truncated)
      ImGui::TextColored(ImVec4(1.0f, 0.45f, 0.4f, 1.0f),
                         "Truncated: a record buffer filled up; figures may be partial.");
  }
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
  if (!figure_lines_ready_ || figure_lines_generation_ != session_->generation) {
    figure_lines_ready_ = true;  // once per run, not every frame
    figure_lines_generation_ = session_->generation;
    figure_lines_.clear();
    const nlohmann::json& figures = run.metrics();
    for (auto it = figures.begin(); it != figures.end(); ++it) {
      std::string text;
      if (it->is_number_float()) {  // 54.85618882236601 -> 54.8561888 (a float's 9 digits stay)
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.9g", it->get<double>());
        text = buf;
      } else if (it->is_primitive()) {
        text = it->dump();
      } else if (it->size() <= 8) {  // small arrays and objects; graphs belong to the views
        text = it->dump();
      }
      if (text.empty() || text.size() > 60) continue;
      figure_lines_.push_back(it.key() + ": " + text);
    }
  }
  for (const std::string& line : figure_lines_) ImGui::BulletText("%s", line.c_str());
  DrawExplanation(*info);
}

void LessonPanel::DrawExplanation(const LessonInfo& info) {
  ImGui::Separator();
  ImGui::TextWrapped("%s", info.explanation.c_str());
}

}  // namespace ws
