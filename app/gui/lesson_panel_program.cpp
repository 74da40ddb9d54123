// The lesson panel in program mode: the user's own CUDA program opened, watched, re-run with
// its sliders and arguments, and its launches listed (split from lesson_panel.cpp).
#include <imgui.h>
#include <algorithm>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include "core/capture.h"
#include "gui/lesson_panel.h"
#include "warpscope/kernels/catalog.h"
#include "warpscope/trace/kernel_table.h"
#include "warpscope/trace/printed_text.h"
#include "warpscope/trace/units.h"
#include "warpscope/viz/palette.h"
#include "warpscope/viz/source_panel.h"

namespace ws {

std::string LessonPanel::OpenProgram(const std::string& path) {
  if (!ProgramsSupported())
    return "this Warpscope was built without clang 14's C++ API (libclang-14-dev), so it cannot "
           "open programs; run scripts/setup.sh and rebuild";
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec))
    return "cannot open " + path + ": " + (ec ? ec.message() : "no such file");
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (!ec && size > kMaxProgramBytes)
    return path + " is " + std::to_string(size) + " bytes, over the limit of " +
           std::to_string(kMaxProgramBytes) + " bytes for a program";
  // Another program than the one open gets fresh fields; the command line's (set before the
  // first program opens) are kept.
  if (program_open()) ClearProgramFields();
  program_path_ = path;
  program_values_.clear();
  program_files_seen_.clear();
  program_launch_ = ~std::size_t{0};
  program_mtime_ = std::filesystem::last_write_time(path, ec);
  program_size_ = size;
  showing_trace_ = false;
  use_gpu_ = std::exchange(open_on_gpu_, false);
  session_->error.clear();
  ReadProgramParams();
  SlidersTakeTheirDefines();
  Rerun();
  return "";
}

// A -D NAME=VALUE of the command line whose NAME is a slider's, with a VALUE in its range, moves
// the slider; any other stays in the Defines field (and wins over a slider of its name).
void LessonPanel::SlidersTakeTheirDefines() {
  std::istringstream in(program_defines_);
  std::string rest;
  for (std::string d; in >> d;) {
    const std::size_t eq = d.find('=');
    const auto p = std::find_if(program_params_.begin(), program_params_.end(),
                                [&](const ProgramParam& q) { return q.name == d.substr(0, eq); });
    long long v = 0;
    std::size_t used = 0;
    bool number = false;
    try {
      v = eq == std::string::npos ? 0 : std::stoll(d.substr(eq + 1), &used);
      number = eq != std::string::npos && used == d.size() - eq - 1;
    } catch (const std::exception&) {
    }
    if (p != program_params_.end() && number && v >= p->min && v <= p->max) {
      program_values_[p->name] = v;
    } else {
      rest += (rest.empty() ? "" : " ") + d;
    }
  }
  std::snprintf(program_defines_, sizeof program_defines_, "%s", rest.c_str());
}

void LessonPanel::SetProgramIncludes(const std::vector<std::string>& dirs) {
  std::string joined;
  for (const std::string& d : dirs) joined += (joined.empty() ? "" : ";") + d;
  std::snprintf(program_includes_, sizeof program_includes_, "%s", joined.c_str());
}

std::string LessonPanel::SetProgramRunOptions(const std::vector<std::string>& defines,
                                              const std::vector<std::string>& args,
                                              double timeout_s, const std::string& backend) {
  if (backend == "cuda" && !have_gpu_) return "--backend cuda needs a GPU: " + why_no_gpu_;
  open_on_gpu_ = backend == "cuda";
  // Space-separated, as the fields take them (an argument with a space in it cannot be given).
  const auto joined = [](const std::vector<std::string>& v) {
    std::string out;
    for (const std::string& s : v) out += (out.empty() ? "" : " ") + s;
    return out;
  };
  std::snprintf(program_defines_, sizeof program_defines_, "%s", joined(defines).c_str());
  std::snprintf(program_args_, sizeof program_args_, "%s", joined(args).c_str());
  if (timeout_s > 0) program_timeout_s_ = static_cast<float>(timeout_s);
  return "";
}

void LessonPanel::ClearProgramFields() {
  program_args_[0] = '\0';
  program_defines_[0] = '\0';
  program_timeout_s_ = 30;
}

void LessonPanel::CloseProgram() {
  if (!program_open()) return;
  ClearProgramFields();
  program_path_.clear();
  program_params_.clear();
  program_values_.clear();
  session_->compile_errors.clear();
  session_->compile_errors_source.clear();
}

void LessonPanel::ReadProgramParams() {
  std::ifstream in(program_path_, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  auto params = ProgramParams(text.str());
  program_params_error_.clear();
  std::map<std::string, long long> values;
  if (!params.ok()) {
    program_params_error_ = params.status().message();
    program_params_.clear();
  } else {
    program_params_ = *params;
    for (const ProgramParam& p : program_params_) {
      auto it = program_values_.find(p.name);  // the user's value, while it is still allowed
      values[p.name] = it != program_values_.end() && it->second >= p.min && it->second <= p.max
                           ? it->second
                           : p.value;
    }
  }
  program_values_ = std::move(values);
}

void LessonPanel::WatchProgramFile() {
  if (!program_open()) return;
  const auto now = std::chrono::steady_clock::now();
  if (now < next_file_check_) return;
  next_file_check_ = now + std::chrono::milliseconds(50);  // a few stat() calls
  std::error_code ec;
  const auto mtime = std::filesystem::last_write_time(program_path_, ec);
  if (ec) return;  // an editor replacing the file: look again next time
  const std::uintmax_t size = std::filesystem::file_size(program_path_, ec);
  // The program's own headers and other units, as its last run read them: saving one of them
  // runs it again too.
  bool header_changed = false;
  if (const LessonRun* run = session_->run.get(); run != nullptr && run->program) {
    const std::filesystem::path dir = std::filesystem::path(program_path_).parent_path();
    for (const auto& [name, text] : run->program->files) {
      const auto t = std::filesystem::last_write_time(dir / name, ec);
      if (ec) continue;
      auto [it, fresh] = program_files_seen_.try_emplace(name, t);
      if (!fresh && it->second != t) {
        it->second = t;
        header_changed = true;
      }
    }
  }
  if (mtime == program_mtime_ && size == program_size_ && !header_changed) return;
  program_mtime_ = mtime;
  program_size_ = size;
  ReadProgramParams();
  Rerun();
}

void LessonPanel::SelectLaunch(std::size_t index) {
  const LessonRun* run = session_->as_written().get();  // a what-if is applied to it again
  if (run == nullptr || !run->program || index >= run->launches.size()) return;
  program_launch_ = index;
  // A launch that kept no block records (past its kernel's first launches) is drawn from the
  // nearest launch of its kernel that did; the launch list says so.
  index = NearestLaunchWithRecords(run->launches, index);
  // A what-if of another kernel is left there: the launch picked is shown as written.
  const auto& shown = session_->run;
  bool left = false;
  if (!session_->what_if.empty() && shown && shown->what_if &&
      shown->what_if->kernel != run->launches[index].kernel) {
    session_->what_if.clear();
    session_->what_if_error.clear();
    left = true;
  }
  // Nothing to do when that launch is shown already (as written, or under the what-if kept).
  if (!left && shown && shown->program && shown->program->launch == index) return;
  auto copy = std::make_shared<LessonRun>(*run);
  copy->program->launch = index;
  const LaunchTrace& t = copy->main_launch();
  const std::uint32_t block = session_->sel.block < t.grid.count() ? session_->sel.block : 0u;
  BlockView view = BuildBlockView(t, block);
  session_->Install(std::move(copy), std::move(view));
}

void LessonPanel::SetProgramArgs(const std::string& args) {
  std::snprintf(program_args_, sizeof program_args_, "%s", args.c_str());
  Rerun();
}

// The open program's sliders, its arguments field and how its last run went.
void LessonPanel::DrawProgramControls() {
  bool changed = false;
  if (!program_params_error_.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
    ImGui::TextWrapped("Sliders: %s", program_params_error_.c_str());
    ImGui::PopStyleColor();
  }
  for (const ProgramParam& p : program_params_) {
    long long& value = program_values_[p.name];
    int v = static_cast<int>(value);
    if (ImGui::SliderInt(p.name.c_str(), &v, static_cast<int>(p.min), static_cast<int>(p.max), "%d",
                         ImGuiSliderFlags_AlwaysClamp)) {
      v = static_cast<int>(p.min + (v - p.min) / p.step * p.step);
      if (v != value) {
        value = v;
        changed = true;
      }
    }
    ImGui::SetItemTooltip("%s (line %u): %lld..%lld, step %lld", p.name.c_str(), p.line, p.min,
                          p.max, p.step);
  }
  // The arguments field, for a main(int argc, char** argv) (or when some are set already).
  const LessonRun* last = session_->run.get();
  const bool takes_args = last != nullptr && last->program && last->program->takes_args;
  if (takes_args || program_args_[0] != '\0') {
    if (ImGui::InputText("Arguments", program_args_, sizeof program_args_,
                         ImGuiInputTextFlags_EnterReturnsTrue))
      changed = true;
    ImGui::SetItemTooltip("argv[1..] for main(), separated by spaces; Enter runs it again");
  }
  // The fields leave their labels room at any UI scale.
  const float field_width =
      std::max(ImGui::GetFontSize() * 4, ImGui::GetContentRegionAvail().x -
                                             ImGui::CalcTextSize("Include folders").x -
                                             ImGui::GetStyle().ItemInnerSpacing.x);
  ImGui::SetNextItemWidth(field_width);
  if (ImGui::InputText("Include folders", program_includes_, sizeof program_includes_,
                       ImGuiInputTextFlags_EnterReturnsTrue))
    changed = true;
  ImGui::SetItemTooltip(
      "-I: folders the program's #includes are searched in (cuda-samples' Common, a course's "
      "include folder), separated by ';', relative to where Warpscope started; Enter runs it "
      "again");
  ImGui::SetNextItemWidth(field_width);
  if (ImGui::InputText("Defines", program_defines_, sizeof program_defines_,
                       ImGuiInputTextFlags_EnterReturnsTrue))
    changed = true;
  ImGui::SetItemTooltip(
      "-D NAME=VALUE, separated by spaces: set in the program's own #define or constexpr (over "
      "its slider), else passed to the compiler; Enter runs it again");
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 6);
  if (ImGui::InputFloat("Time limit (s)", &program_timeout_s_, 0, 0, "%.1f",
                        ImGuiInputTextFlags_EnterReturnsTrue)) {
    // The CLI's --timeout range.
    program_timeout_s_ = std::clamp(program_timeout_s_, static_cast<float>(kMinProgramTimeoutS),
                                    static_cast<float>(kMaxProgramTimeoutS));
    changed = true;
  }
  ImGui::SetItemTooltip(
      "--timeout: seconds the program may run before it is stopped (%.1f to %.0f); Enter runs it "
      "again",
      kMinProgramTimeoutS, kMaxProgramTimeoutS);
  changed |= DrawBackendChoice();  // on a GPU: nvcc compiles the same rewritten program
  if (changed) Rerun();
  DrawStatus();
  if (!session_->compile_errors.empty()) {
    // The views keep the last good run of this program, when there was one.
    const LessonRun* good = session_->run.get();
    const bool kept = good != nullptr && good->program && good->program->path == program_path_;
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.45f, 0.4f, 1.0f));
    ImGui::TextWrapped(
        "%zu compile error%s: see the source view. %s", session_->compile_errors.size(),
        session_->compile_errors.size() == 1 ? "" : "s",
        kept ? "The views show the last run that compiled." : "Nothing of it has run yet.");
    ImGui::PopStyleColor();
  }
}

// Every launch, a row each (a program may make hundreds: only the rows in view are drawn), and
// where the launch asked for kept no records, which launch the views draw instead.
void LessonPanel::DrawLaunchList(const LessonRun& run) {
  const std::size_t n = run.launches.size();
  ImGui::SeparatorText(("Launches (" + FormatNumber(static_cast<double>(n)) + ")").c_str());
  if (n == 0) {
    ImGui::TextDisabled("The program launched no kernel.");
    return;
  }
  const std::size_t asked = program_launch_ < n ? program_launch_ : n - 1;
  const std::size_t shown = run.program->launch;
  if (asked != shown && run.launches[asked].blocks.empty())
    ImGui::TextWrapped(
        "Launch %zu (%s) kept no block records (each kernel keeps its first %zu launches'); the "
        "views draw launch %zu, its kernel's nearest that did. Every launch is counted in the "
        "Kernels view.",
        asked + 1, run.launches[asked].kernel.c_str(), kRecordedLaunchesPerKernel, shown + 1);
  const float rows = static_cast<float>(std::min<std::size_t>(n, 8));
  if (!ImGui::BeginChild("##launches", ImVec2(0, ImGui::GetTextLineHeightWithSpacing() * rows + 4),
                         ImGuiChildFlags_None, ImGuiWindowFlags_HorizontalScrollbar)) {
    ImGui::EndChild();
    return;
  }
  ImGuiListClipper clip;
  clip.Begin(static_cast<int>(n));
  if (shown < n) clip.IncludeItemByIndex(static_cast<int>(shown));
  while (clip.Step()) {
    for (int k = clip.DisplayStart; k < clip.DisplayEnd; ++k) {
      const std::size_t i = static_cast<std::size_t>(k);
      const LaunchTrace& t = run.launches[i];
      char label[320];
      // A kernel written in one of the program's headers says which.
      const std::string file = run.program->KernelFile(t.kernel);
      std::snprintf(label, sizeof label, "%zu  %s<<<(%u,%u,%u), (%u,%u,%u)>>>%s%s%s%s", i + 1,
                    t.kernel.c_str(), t.grid.x, t.grid.y, t.grid.z, t.block.x, t.block.y, t.block.z,
                    file.empty() || file == run.program->file ? "" : "  in ",
                    file.empty() || file == run.program->file ? "" : file.c_str(),
                    t.blocks.empty() ? "  (counted)" : "",
                    t.uncovered_blocks > 0 ? "  (partial)" : "");
      if (ImGui::Selectable(label, shown == i)) SelectLaunch(i);
      ImGui::SetItemTooltip("%llu threads, %u B shared per block, %zu access sites%s%s%s",
                            static_cast<unsigned long long>(t.threads()), t.shared_bytes,
                            t.sites.size(),
                            t.blocks.empty() ? "; counted, no block records kept (its kernel's "
                                               "first launches keep them)"
                                             : "",
                            t.uncovered_blocks > 0 ? "; " : "", t.Coverage().c_str());
    }
  }
  ImGui::EndChild();
}

void LessonPanel::DrawProgram() {
  const LessonRun* shown = session_->run.get();
  if (!program_open() && shown != nullptr && shown->capture) {
    // A trace of a program: what was captured, where; nothing here compiles or runs it.
    ImGui::TextColored(ImVec4(0.45f, 0.7f, 1.0f, 1.0f), "Trace: %s, captured %s",
                       shown->device.c_str(), shown->capture->captured_at.c_str());
    ImGui::SetItemTooltip(
        "%s\nThe program's source as captured is in the source view. Open "
        "the .cu file itself (File > Open program) to run it here.",
        shown->capture->file.c_str());
  } else {
    ImGui::TextDisabled("%s", program_path_.c_str());
    ImGui::SetItemTooltip("Save the file in your editor: Warpscope compiles and runs it again.");
  }
  ImGui::SameLine();
  if (ImGui::SmallButton("Close")) {
    const std::string back = FindLesson(lesson_) == nullptr ? Lessons().front().id : lesson_;
    Select(back, variant_, params_);
    return;
  }
  ImGui::SetItemTooltip("Back to the lessons");
  if (program_open()) DrawProgramControls();  // a trace has no sliders and no arguments
  const LessonRun* run = session_->run.get();
  if (run == nullptr || !run->program) return;
  DrawLaunchList(*run);
  ImGui::TextColored(run->check.ok ? (palette::LightTheme() ? ImVec4(0.1f, 0.5f, 0.15f, 1.0f)
                                                            : ImVec4(0.6f, 0.9f, 0.6f, 1.0f))
                                   : ImVec4(0.85f, 0.2f, 0.15f, 1.0f),
                     "%s",
                     run->check.ok ? "Ran to the end"
                     : run->program->exited()
                         ? ("Exited with status " + std::to_string(run->program->exit_code)).c_str()
                         : "Did not finish");
  ImGui::SetItemTooltip("%s", run->check.message.c_str());
  // Wrapped: a note can be a paragraph (a library's calls, a model's times), clipped at 1280x720.
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
  for (const std::string& n : run->program->Notes()) ImGui::TextWrapped("Note: %s", n.c_str());
  ImGui::PopStyleColor();
  // As printed_text.h shows them: valid UTF-8, NUL and escape codes written out (ImGui would stop
  // at a NUL), and a note when bytes were replaced or cut at the output limit. Once per run.
  if (output_shown_generation_ != session_->generation) {
    PrintedText printed = ProgramStdout(*run->program);
    output_shown_ = VisibleControls(printed.text);
    output_note_ = std::move(printed.note);
    PrintedText errors = ProgramStderr(*run->program);
    errors_shown_ = VisibleControls(errors.text);
    errors_note_ = std::move(errors.note);
    output_shown_generation_ = session_->generation;
  }
  // Each stream in a box of its own: stdout, then what it wrote on stderr (a CUDA check's
  // message before it exits), which helper_cuda.h sends there.
  auto stream = [&](const char* title, const char* id, const std::string& text,
                    const std::string& note, float lines) {
    ImGui::SeparatorText(title);
    if (!note.empty()) ImGui::TextDisabled("(%s)", note.c_str());
    ImFont* code = CodeFont();
    if (code != nullptr) ImGui::PushFont(code, 0.0f);
    const float h = ImGui::GetTextLineHeightWithSpacing() * lines;
    if (ImGui::BeginChild(id, ImVec2(0, h), ImGuiChildFlags_Borders,
                          ImGuiWindowFlags_HorizontalScrollbar))
      ImGui::TextUnformatted(text.data(), text.data() + text.size());
    ImGui::EndChild();
    if (code != nullptr) ImGui::PopFont();
  };
  // A program that exited with a status of its own says why on stderr, as a rule: that box first.
  const bool out = !run->program->stdout_text.empty() || run->program->stdout_cut_bytes > 0;
  const bool err = !errors_shown_.empty() || !errors_note_.empty();
  const bool failed = run->program->exited() && run->program->exit_code != 0;
  if (err && failed) stream("Written on stderr", "##stderr", errors_shown_, errors_note_, 3.5f);
  if (out) stream("Output", "##stdout", output_shown_, output_note_, 6.5f);
  if (err && !failed) stream("Written on stderr", "##stderr", errors_shown_, errors_note_, 3.5f);
  ImGui::Separator();
  std::size_t partial = 0;
  for (const LaunchTrace& t : run->launches) partial += t.uncovered_blocks > 0 ? 1 : 0;
  const std::string recorded =
      partial == 0
          ? std::string("every launch recorded")
          : "every launch recorded, " + std::to_string(partial) + " of them only in part " +
                "(the record budget ran out: hover a launch marked partial)";
  ImGui::TextWrapped(
      "Your own program, run on %s: %s. Pick a launch to see it in every view; %s",
      run->backend == "cuda" ? run->device.c_str() : "the CPU emulator", recorded.c_str(),
      program_open() ? "save the file to run it again."
                     : "open the .cu file itself (File > Open program) to run it here.");
}

}  // namespace ws
