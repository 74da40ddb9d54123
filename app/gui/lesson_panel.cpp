// The lesson panel: pick a lesson, its variant and parameters, and the backend; every change
// re-runs the lesson (lesson_runner.cpp) and the views follow. Program mode is in
// lesson_panel_program.cpp, the last run's summary in lesson_panel_run.cpp. Index:
//   [SECTION] Choosing what runs: a lesson, a parameter, a trace, the GPU
//   [SECTION] Running: re-runs, sweeps, polling the runner, waiting
//   [SECTION] Drawing: the lesson, its parameters, the backend, the thread order, exercises
#include "gui/lesson_panel.h"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>
#include <utility>

#include "core/capture.h"
#include "core/shipped.h"
#include "gui/lesson_exercises.h"
#include "warpscope/kernels/catalog.h"
#include "warpscope/trace/units.h"
#include "warpscope/viz/palette.h"
#include "warpscope/viz/source_panel.h"

namespace ws {

LessonPanel::LessonPanel(Session* session, const DeviceQuery& devices)
    : Panel("lesson", "Lesson & parameters"),
      session_(session),
      have_gpu_(!devices.gpus.empty()),
      gpu_name_(have_gpu_ ? devices.gpus.front().name : ""),
      why_no_gpu_(devices.why_no_gpu) {}

// [SECTION] Choosing what runs --------------------------------------------------------------------

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
  Params params = info->DefaultParams();
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
  CloseProgram();
  lesson_ = lesson;
  variant_ = chosen;
  params_ = std::move(params);
  exercise_ = -1;
  Rerun();
  return "";
}

std::string LessonPanel::SetParam(const std::string& name, long long value) {
  if (program_open()) {
    for (const ProgramParam& p : program_params_) {
      if (p.name != name) continue;
      if (value < p.min || value > p.max || (value - p.min) % p.step != 0)
        return name + " must be in " + std::to_string(p.min) + ".." + std::to_string(p.max) +
               " in steps of " + std::to_string(p.step) + ", not " + std::to_string(value);
      program_values_[name] = value;
      Rerun();
      return "";
    }
    return "the program has no slider '" + name + "' (a // warpscope: param comment)";
  }
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
  return ShowTrace(LoadTraceAsRun(path));
}

std::string LessonPanel::ShowTrace(Result<LessonRun> run) {
  if (!run.ok()) return run.status().message();
  if (const LessonInfo* info = FindLesson(run->lesson)) {
    lesson_ = run->lesson;
    variant_ = run->variant;
    // What a slider moved next starts from: the trace's parameters, as the emulator can run them.
    params_ = info->replay_params != nullptr && run->capture
                  ? info->replay_params(run->params, run->capture->gpu)
                  : run->params;
  }
  CloseProgram();
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

// [SECTION] Running -------------------------------------------------------------------------------

void LessonPanel::Rerun() {
  showing_trace_ = false;
  session_->running = true;
  if (program_open()) {
    RunRequest rq;
    rq.backend = use_gpu_ ? "cuda" : "emu";
    rq.gpu = gpu_index_;
    rq.schedule = schedule_;
    rq.block = session_->sel.block;
    rq.keep_all = !session_->what_if.empty();
    rq.program = program_path_;
    // The sliders' values, then the Defines field's: a name in both is the field's (the slider's
    // is left out).
    std::vector<std::string> typed;
    std::istringstream defines(program_defines_);
    for (std::string d; defines >> d;) typed.push_back(d);
    for (const auto& [name, value] : program_values_) {
      const bool overridden = std::any_of(typed.begin(), typed.end(), [&](const std::string& d) {
        return d.substr(0, d.find('=')) == name;
      });
      if (!overridden) rq.program_defines.push_back(name + "=" + std::to_string(value));
    }
    rq.program_defines.insert(rq.program_defines.end(), typed.begin(), typed.end());
    rq.program_timeout_s = program_timeout_s_;
    std::istringstream args(program_args_);
    for (std::string a; args >> a;) rq.program_args.push_back(a);
    std::stringstream includes(program_includes_);
    for (std::string d; std::getline(includes, d, ';');) {
      while (!d.empty() && d.back() == ' ') d.pop_back();
      while (!d.empty() && d.front() == ' ') d.erase(0, 1);
      if (!d.empty()) rq.program_include_dirs.push_back(d);
    }
    rq.program_launch = program_launch_;
    session_->running_what = std::filesystem::path(program_path_).filename().string();
    runner_.Submit(std::move(rq));
    return;
  }
  session_->running_what = lesson_ + " " + variant_;
  RunRequest rq;
  rq.lesson = lesson_;
  rq.variant = variant_;
  rq.backend = use_gpu_ ? "cuda" : "emu";
  rq.params = params_;
  rq.block = session_->sel.block;
  rq.keep_all = !session_->what_if.empty();
  rq.gpu = gpu_index_;
  rq.schedule = schedule_;
  runner_.Submit(std::move(rq));
}

// The timing view asked for a sweep: every variant of the lesson over the parameter's values,
// the other parameters as the sliders have them, on the backend in use.
void LessonPanel::PollSweep() {
  Session::Sweep& sw = session_->sweep;
  if (sw.requested) {
    sw.requested = false;
    const LessonInfo* info = FindLesson(lesson_);
    if (info != nullptr && !program_open()) {
      RunRequest base;
      base.lesson = lesson_;
      base.backend = use_gpu_ ? "cuda" : "emu";
      base.params = params_;
      base.gpu = gpu_index_;
      base.schedule = schedule_;
      std::vector<std::string> variants;
      for (const VariantSpec& v : info->variants) variants.push_back(v.name);
      sweeper_.Start(base, std::move(variants), sw.param, sw.values);
      sw.active = true;
      sw.note.clear();
    }
  }
  if (sw.cancel) {
    sw.cancel = false;
    sweeper_.Cancel();
  }
  if (!sw.active) return;
  SweepRunner::Progress p = sweeper_.Poll();
  for (auto& r : p.runs) sw.runs.push_back(std::move(r));
  sw.done = p.done;
  sw.total = p.total;
  sw.active = p.active;
  if (!p.active) sw.note = p.note;
}

void LessonPanel::Poll() {
  WatchProgramFile();
  PollSweep();
  if (!session_->open_shipped.empty()) {  // a view asked for a shipped capture
    const std::string variant = std::exchange(session_->open_shipped, std::string());
    if (std::string err = ShowTrace(ShippedCapture(lesson_, variant)); !err.empty())
      session_->error = err;
  }
  if (session_->show_launch >= 0) {  // a view asked for another launch, and a site of it
    SelectLaunch(static_cast<std::size_t>(std::exchange(session_->show_launch, -1)));
    if (const int site = std::exchange(session_->site_in_launch, -1); site >= 0)
      session_->SelectSite(site);
  }
  auto result = runner_.Poll();
  session_->running = runner_.busy();
  // The user picked a block whose records were not kept: run again, keeping them (once).
  if (!result && !session_->running && session_->run && session_->run->has_launch() &&
      !session_->block_view().kept && recorded_for_block_ != session_->sel.block) {
    recorded_for_block_ = session_->sel.block;
    Rerun();
    return;
  }
  // A what-if was turned on over a run that kept only some blocks: run it again as written,
  // keeping every block, so that the what-if covers the whole grid (once per run).
  if (!result && !session_->running && !showing_trace_ && !session_->what_if.empty() &&
      session_->written && session_->written->has_launch() &&
      recorded_all_for_ != session_->generation) {
    const LaunchTrace& t = session_->written->main_launch();
    if (t.blocks.size() < t.grid.count() && t.threads() <= kWhatIfKeepAllThreads) {
      recorded_all_for_ = session_->generation;
      Rerun();
      return;
    }
  }
  if (!result) return;
  last_run_ms_ = result->ms;
  session_->compile_errors = std::move(result->compile_errors);
  session_->compile_errors_file = std::move(result->compile_errors_file);
  session_->compile_errors_source = std::move(result->compile_errors_source);
  if (!result->run) {
    session_->error = result->error;  // keep showing the last good run, and say why not this one
    return;
  }
  session_->error = result->error;  // a program that failed after some launches: both show
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

bool LessonPanel::WaitSweep(double seconds) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  for (;;) {
    PollSweep();
    if (!session_->sweep.requested && !session_->sweep.active) return true;
    if (std::chrono::steady_clock::now() > until) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
}

// [SECTION] Drawing -------------------------------------------------------------------------------

Panel::State LessonPanel::Shown() const {
  const LessonRun* run = session_->run.get();
  State state = {{"lesson", run != nullptr ? run->lesson : ""}};
  if (run != nullptr)
    state.insert(state.end(), {{"variant", run->variant},
                               {"check", run->check.ok ? "correct" : "wrong"},
                               {"check_message", run->check.message},
                               {"error", session_->error}});
  if (program_open())  // what the program runs with: its fields, as the CLI's options say them
    state.insert(state.end(), {{"program_args", program_args_},
                               {"program_defines", program_defines_},
                               {"program_includes", program_includes_},
                               {"program_timeout_s", FormatNumber(program_timeout_s_)},
                               {"program_backend", use_gpu_ ? "cuda" : "emu"}});
  return state;
}

void LessonPanel::DrawContents() {
  const LessonInfo* info = FindLesson(lesson_);
  // A trace of a program shows like an open program, read-only (nothing is compiled or run).
  const bool program_trace = !program_open() && session_->run && session_->run->program &&
                             session_->run->capture && showing_trace_;
  const std::string program_title =
      "Program: " + (program_trace ? session_->run->program->file
                                   : std::filesystem::path(program_path_).filename().string());
  if (ImGui::BeginCombo("Lesson", program_open() || program_trace ? program_title.c_str()
                                  : info                          ? info->title.c_str()
                                                                  : "(pick a lesson)")) {
    for (const LessonInfo& l : Lessons()) {
      if (ImGui::Selectable(l.title.c_str(), l.id == lesson_)) Select(l.id, "");
    }
    ImGui::EndCombo();
  }
  ImGui::SetItemTooltip("PageUp / PageDown: previous / next lesson");
  if (program_open() || program_trace) {
    DrawProgram();
    return;
  }
  info = FindLesson(lesson_);
  if (info == nullptr) return;
  bool changed = DrawVariantAndParams(*info);
  changed |= DrawBackendChoice();
  if (changed) exercise_ = -1;  // moved by hand: no longer the exercise's setting
  if (const int pick = DrawExerciseButtons(*info, exercise_); pick >= 0) {
    ApplyExercise(*info, pick);  // runs it
  }
  // The chosen exercise's question and answer, where the eye is: under its button.
  if (exercise_ >= 0 && exercise_ < static_cast<int>(info->presets.size())) {
    const LessonRun* shown = session_->run.get();
    DrawExercise(*info, info->presets[static_cast<std::size_t>(exercise_)],
                 shown != nullptr && shown->lesson == info->id && !session_->running && !changed
                     ? shown
                     : nullptr);
  }
  if (schedule_.kind != Schedule::Kind::kInOrder && !use_gpu_) {
    ImGui::TextColored(ImVec4(0.95f, 0.75f, 0.3f, 1.0f), "Thread order: %s (Run menu)",
                       schedule_.Name().c_str());
  }
  if (changed) Rerun();

  DrawStatus();
  if (!session_->run) {
    DrawExplanation(*info);
    return;
  }
  DrawRunSummary(info, *session_->run);
  DrawExplanation(*info);
}

// The variant combo and a slider (or a combo of choices) per parameter. True when one changed.
bool LessonPanel::DrawVariantAndParams(const LessonInfo& info) {
  bool changed = false;
  if (info.variants.size() > 1 && ImGui::BeginCombo("Variant", variant_.c_str())) {
    for (const VariantSpec& v : info.variants) {
      if (ImGui::Selectable(v.name.c_str(), v.name == variant_)) {
        variant_ = v.name;
        changed = true;
      }
      ImGui::SetItemTooltip("%s", v.summary.c_str());
    }
    ImGui::EndCombo();
  }
  const VariantSpec* variant = info.FindVariant(variant_);
  for (const ParamSpec& p : info.params) {
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
      ImGui::SetItemTooltip("%s\nNot used by the %s variant (%s)", p.meaning.c_str(),
                            variant_.c_str(), variant->summary.c_str());
    } else {
      ImGui::SetItemTooltip("%s (%lld..%lld)", p.meaning.c_str(), p.min, p.max);
    }
  }
  return changed;
}

// The backend row: the CPU emulator, this machine's GPU, or (not chosen here) a trace file.
// True when the choice changed.
bool LessonPanel::DrawBackendChoice() {
  bool changed = false;
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
  return changed;
}

// The Run menu's thread order (trace/schedule.h): where a race shows in the output. A GPU keeps
// its own order, so the items are greyed out there.
void LessonPanel::DrawScheduleMenu() {
  static const char* const kNames[] = {"In order", "Reverse", "Lockstep (G80 warps)", "Random"};
  static const char* const kTips[] = {
      "Thread 0 runs until it reaches a barrier or ends, then thread 1, ...",
      "The last thread first, then the one before it, ...",
      "The G80 picture: a warp's 32 lanes take each access together; warps take turns, each "
      "running until a barrier or its end. Lanes of one warp never race each other here.",
      "At every access a thread is drawn at random among those that can go on (the seed makes "
      "it repeatable)."};
  const bool gpu = use_gpu_ && !showing_trace_;
  ImGui::TextDisabled("Thread order (the emulator's)");
  ImGui::BeginDisabled(gpu);
  Schedule next = schedule_;
  for (int k = 0; k < 4; ++k) {
    if (ImGui::MenuItem(kNames[k], nullptr, static_cast<int>(schedule_.kind) == k)) {
      next.kind = static_cast<Schedule::Kind>(k);
      if (next.kind == Schedule::Kind::kRandom && next.seed == 0) next.seed = 1;
    }
    ImGui::SetItemTooltip("%s", kTips[k]);
  }
  int seed = static_cast<int>(schedule_.seed);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  if (ImGui::InputInt("random seed", &seed) && seed >= 0) {
    next.kind = Schedule::Kind::kRandom;
    next.seed = static_cast<std::uint64_t>(seed);
  }
  ImGui::EndDisabled();
  if (gpu) ImGui::TextDisabled("A GPU runs its threads in its own order.");
  if (!(next == schedule_)) SetSchedule(next);
}

std::string LessonPanel::ApplyExercise(const LessonInfo& info, int index) {
  const Preset& p = info.presets[static_cast<std::size_t>(index)];
  auto schedule = ParseSchedule(p.schedule.empty() ? "in-order" : p.schedule);
  if (schedule.ok()) schedule_ = *schedule;
  std::string err = Select(info.id, p.variant, p.params, "");
  if (err.empty()) exercise_ = index;  // after Select, which lets go of the last one
  return err;
}

std::string LessonPanel::SelectExercise(const std::string& name) {
  const LessonInfo* info = FindLesson(lesson_);
  if (info == nullptr || program_open()) return "no lesson is open";
  auto preset = info->FindExercise(name);
  if (!preset.ok()) return preset.status().message();
  return ApplyExercise(*info, static_cast<int>(*preset - info->presets.data()));
}

void LessonPanel::SetSchedule(const Schedule& schedule, bool rerun) {
  schedule_ = schedule;
  if (rerun) Rerun();
}

void LessonPanel::DrawExplanation(const LessonInfo& info) {
  ImGui::Separator();
  ImGui::TextWrapped("%s", info.explanation.c_str());
}

}  // namespace ws
