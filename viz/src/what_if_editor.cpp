// The what-if strip the banks and coalescing views share (what_if_editor.h): which array, which
// layout and its values; every change re-derives the run's figures (Session::SetWhatIf), so the
// views follow the sliders.
#include "what_if_editor.h"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "view_util.h"
#include "warpscope/trace/file_io.h"
#include "warpscope/trace/kernel_table.h"
#include "warpscope/viz/palette.h"

namespace ws::view {
namespace {

constexpr WhatIfKind kKinds[] = {WhatIfKind::kPad,   WhatIfKind::kSwizzle,   WhatIfKind::kMorton,
                                 WhatIfKind::kTiled, WhatIfKind::kTranspose, WhatIfKind::kVector};
constexpr const char* kKindNames[] = {"pad",   "XOR swizzle", "Morton (Z-order)",
                                      "tiled", "transpose",   "vector width"};

bool SliderU(const char* label, std::uint32_t* v, int lo, int hi, const char* tip) {
  int x = static_cast<int>(*v);
  const bool changed = ImGui::SliderInt(label, &x, lo, hi);
  ImGui::SetItemTooltip("%s", tip);
  if (changed) *v = static_cast<std::uint32_t>(std::clamp(x, lo, hi));
  return changed;
}

}  // namespace

void WhatIfEditor::Reload(const Session& s) {
  generation_ = s.generation;
  const auto& base = s.as_written();
  arrays_.clear();
  kernels_.clear();
  if (!base || !base->has_launch() || !s.run || !s.run->has_launch()) return;
  // The launch shown: the what-if's own (it may name another kernel than the run as written's).
  const std::size_t shown = s.run->main_launch_index();
  arrays_ = WhatIfArrays(*base, shown);
  if (s.run->what_if) {
    if (auto w = ParseWhatIf(s.run->what_if->spec, *base); w.ok()) edit_ = *w;
  }
  if (base->program) {
    edit_.kernel = base->launches[shown].kernel;
    for (std::size_t i = 0; i < base->launches.size(); ++i) {
      const std::string& k = base->launches[i].kernel;
      if (std::none_of(kernels_.begin(), kernels_.end(),
                       [&](const auto& e) { return e.first == k; }))
        kernels_.emplace_back(k, NearestLaunchWithRecords(base->launches, i));
    }
  }
}

// A program's kernel; true when the user picked another (the what-if moves to its launch, or the
// views do when none is on).
bool WhatIfEditor::DrawKernel(Session* s) {
  if (kernels_.size() < 2) return false;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 14);
  bool changed = false;
  if (ImGui::BeginCombo("kernel", edit_.kernel.c_str())) {
    for (const auto& [name, launch] : kernels_) {
      if (ImGui::Selectable(name.c_str(), name == edit_.kernel) && name != edit_.kernel) {
        edit_.kernel = name;
        changed = true;
        if (s->what_if.empty()) {
          s->show_launch = static_cast<int>(launch);  // the lesson panel shows it
          changed = false;
        }
      }
    }
    ImGui::EndCombo();
  }
  ImGui::SetItemTooltip("The kernel whose records the what-if re-addresses (its launch is shown)");
  return changed;
}

void WhatIfEditor::WriteIntoProgram(Session* s) {
  const LessonRun& base = *s->written;
  auto w = ParseWhatIf(s->what_if, base);
  Result<std::string> text = w.ok() ? WriteWhatIf(*w, base) : Result<std::string>(w.status());
  if (!text.ok()) {
    written_note_ = "Not written: " + text.status().message();
    return;
  }
  const std::string path = base.program->path;
  if (Status st = WriteFileAtomically(path, *text); !st.ok()) {
    written_note_ = "Not written: " + st.message();
    return;
  }
  written_note_ = "Written into " + base.program->file +
                  ": its slider selects the layout; the program runs again with it.";
  s->SetWhatIf("");  // the program's own run shows the layout now
}

// The banner while a what-if is on, with its buttons; false when it was cleared.
bool WhatIfEditor::DrawBanner(Session* s, const char* view) {
  const auto& w = s->run->what_if;
  if (w) {
    ImGui::PushStyleColor(ImGuiCol_Text, Colour(palette::WarpU32(1)));
    ImGui::TextWrapped("What-if: %s%s%s, over %s. The kernel did not run this way.",
                       w->label.c_str(), s->run->program ? " in " : "",
                       s->run->program ? w->where.c_str() : "", w->scope.c_str());
    ImGui::PopStyleColor();
    if (ImGui::SmallButton("Clear what-if")) {
      s->SetWhatIf("");
      return false;
    }
    ImGui::SameLine();
    if (ImGui::SmallButton("Compare A | B")) {
      s->pinned = s->written;
      s->compare_view = view;
      s->focus_panel = "compare";
    }
    ImGui::SetItemTooltip("The run as written (A) beside the what-if (B)");
    if (s->written && s->written->program && !s->written->program->path.empty()) {
      ImGui::SameLine();
      if (ImGui::SmallButton("Write into the program")) WriteIntoProgram(s);
      ImGui::SetItemTooltip(
          "Adds a slider (// warpscope: param) that selects this layout, at 1; saving runs the "
          "program again, so a real run confirms the what-if");
    }
  }
  // A what-if that could not be applied (a bad --what-if, a lecture's, the strip's) is said
  // here, where the view shows, not only inside the strip.
  if (!s->what_if_error.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, Colour(palette::WarpU32(4)));
    ImGui::TextWrapped("What-if not applied: %s", s->what_if_error.c_str());
    ImGui::PopStyleColor();
    if (!w && ImGui::SmallButton("Dismiss")) {
      s->what_if.clear();
      s->what_if_error.clear();
    }
  }
  if (!written_note_.empty()) ImGui::TextWrapped("%s", written_note_.c_str());
  return true;
}

// The array and layout combos and the shape; true when one changed.
bool WhatIfEditor::DrawArrayAndLayout(bool shared_first) {
  // The array: the one edited, else the first shared one (or global one) for this view.
  int pick = -1;
  for (std::size_t i = 0; i < arrays_.size(); ++i) {
    if (arrays_[i].name == edit_.array.name) pick = static_cast<int>(i);
  }
  if (pick < 0) {
    for (std::size_t i = 0; i < arrays_.size() && pick < 0; ++i)
      if ((arrays_[i].space == MemorySpace::kShared) == shared_first) pick = static_cast<int>(i);
    if (pick < 0) pick = 0;
    edit_.array = arrays_[static_cast<std::size_t>(pick)];
  }
  bool changed = false;
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
  if (ImGui::BeginCombo("array", edit_.array.name.c_str())) {
    for (std::size_t i = 0; i < arrays_.size(); ++i) {
      const WhatIfArray& a = arrays_[i];
      char label[160];
      std::snprintf(label, sizeof label, "%s (%s, %ux%u x %u B)", a.name.c_str(), ToString(a.space),
                    a.rows, a.cols, a.elem);
      if (ImGui::Selectable(label, static_cast<int>(i) == pick)) {
        edit_.array = a;
        changed = true;
      }
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  int kind = static_cast<int>(std::find(std::begin(kKinds), std::end(kKinds), edit_.kind) - kKinds);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
  if (ImGui::Combo("layout", &kind, kKindNames, IM_ARRAYSIZE(kKindNames))) {
    edit_.kind = kKinds[kind];
    changed = true;
  }
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12);
  int shape[2] = {static_cast<int>(edit_.array.rows), static_cast<int>(edit_.array.cols)};
  if (ImGui::InputInt2("rows x columns", shape) && shape[0] > 0 && shape[1] > 0) {
    edit_.array.rows = static_cast<std::uint32_t>(shape[0]);
    edit_.array.cols = static_cast<std::uint32_t>(shape[1]);
    if (edit_.array.pitch < edit_.array.cols) edit_.array.pitch = 0;
    changed = true;
  }
  ImGui::SetItemTooltip("The array's logical shape, in elements of %u bytes", edit_.array.elem);
  return changed;
}

// The layout's own values; true when one changed.
bool WhatIfEditor::DrawValues() {
  bool changed = false;
  ImGui::PushItemWidth(ImGui::GetFontSize() * 10);
  switch (edit_.kind) {
    case WhatIfKind::kPad:
      changed |= SliderU("elements per row", &edit_.pad, 1, 8, "Added to the end of every row");
      break;
    case WhatIfKind::kSwizzle:
      changed |= SliderU("B", &edit_.bits, 1, 8, "Bits XORed: 2^B columns are permuted");
      ImGui::SameLine();
      changed |= SliderU("M", &edit_.base_bits, 0, 4, "Elements kept together: 2^M");
      ImGui::SameLine();
      changed |= SliderU("S", &edit_.shift, 1, 10, "Shift: the row bits sit S bits above");
      break;
    case WhatIfKind::kTiled:
      changed |= SliderU("tile width", &edit_.tile_w, 1, 32, "Tile width in elements");
      ImGui::SameLine();
      changed |= SliderU("tile height", &edit_.tile_h, 1, 32, "Tile height in elements");
      break;
    case WhatIfKind::kVector: {
      int bytes = edit_.width == 8 ? 0 : 1;
      changed |= ImGui::RadioButton("8 bytes", &bytes, 0);
      ImGui::SameLine();
      changed |= ImGui::RadioButton("16 bytes", &bytes, 1);
      edit_.width = bytes == 0 ? 8 : 16;
      break;
    }
    default:
      break;
  }
  ImGui::PopItemWidth();
  return changed;
}

void WhatIfEditor::Draw(Session* s, const char* view, bool shared_first) {
  if (!s->run || !s->run->has_launch()) return;
  if (s->generation != generation_) Reload(*s);
  if (!DrawBanner(s, view)) return;
  if (!ImGui::CollapsingHeader("What-if layout")) return;
  if (arrays_.empty()) {
    ImGui::TextDisabled(
        "This kernel accesses no shared array or global buffer a layout applies to.");
    return;
  }
  if (DrawKernel(s)) {
    // The same layout on the other kernel's array of the same name, in the shape its own
    // declaration gives (an error, in the banner, when it has none of that name).
    std::string spec = SpecOf(edit_);
    spec.erase(spec.find(",shape="));
    s->SetWhatIf(spec);
    return;
  }
  const bool changed = DrawArrayAndLayout(shared_first);
  if (DrawValues() || changed) s->SetWhatIf(SpecOf(edit_));
  if (!s->what_if_error.empty()) return;  // said in the banner above
  if (const auto& note = s->run->what_if) {
    ImGui::TextDisabled("layout: %s", note->formula.c_str());
    ImGui::TextWrapped("code: %s", note->code.c_str());
  } else if (ImGui::Button("Try it")) {
    s->SetWhatIf(SpecOf(edit_));
  }
}

}  // namespace ws::view
