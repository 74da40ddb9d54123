// The kernel source view: the lesson's kernel file exactly as compiled, with line numbers; lines
// that hold access sites are tinted, the selected site's line highlighted, and each site line
// carries its figures in the margin (sectors per request for global memory, the bank conflict
// degree for shared memory). Clicking a line selects its first site in every view. Index:
//   [SECTION] Compile errors: the program as saved, the compiler's messages under their lines
//   [SECTION] The code view: figures per line, the file picker, one line of code
//   [SECTION] The code font
#include <imgui.h>

#include <algorithm>
#include <map>
#include <sstream>

#include "warpscope/trace/compiled_code.h"
#include "warpscope/trace/hazards.h"
#include "warpscope/trace/kernel_resources.h"
#include "warpscope/viz/palette.h"
#include "warpscope/viz/source_panel.h"
#include "warpscope/viz/text_wrap.h"

namespace ws {

SourcePanel::SourcePanel(Session* session) : Panel("source", "Kernel source"), session_(session) {}

// [SECTION] Compile errors ------------------------------------------------------------------------

// The user's program as saved, with the compiler's messages under their lines (the other views
// keep the last good run meanwhile).
void SourcePanel::DrawCompileErrors() {
  const ImVec4 red =
      palette::LightTheme() ? ImVec4(0.75f, 0.1f, 0.05f, 1.0f) : ImVec4(1.0f, 0.45f, 0.4f, 1.0f);
  ImGui::TextColored(red, "%s: %zu compile error%s (the other views show the last good run)",
                     session_->compile_errors_file.c_str(), session_->compile_errors.size(),
                     session_->compile_errors.size() == 1 ? "" : "s");
  std::map<std::uint32_t, std::vector<const SourceNote*>> by_line;
  for (const SourceNote& n : session_->compile_errors) {
    if (n.line == 0) {
      ImGui::PushStyleColor(ImGuiCol_Text, red);
      ImGui::TextWrapped("%s", n.message.c_str());
      ImGui::PopStyleColor();
    } else {
      by_line[n.line].push_back(&n);
    }
  }
  ImFont* code_font = CodeFont();
  if (code_font != nullptr) ImGui::PushFont(code_font, 0.0f);
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetStyle().ItemSpacing.x, 0.0f));
  if (ImGui::BeginChild("##errors", ImVec2(0, 0), ImGuiChildFlags_None,
                        ImGuiWindowFlags_HorizontalScrollbar)) {
    std::istringstream in{session_->compile_errors_source};
    std::string text;
    bool scrolled = false;
    for (std::uint32_t line = 1; std::getline(in, text); ++line) {
      auto it = by_line.find(line);
      const ImVec2 pos = ImGui::GetCursorScreenPos();
      const float h = ImGui::GetTextLineHeight();
      if (it != by_line.end()) {
        if (!scrolled && scrolled_errors_ != session_->compile_errors_source.size()) {
          ImGui::SetScrollHereY(0.3f);  // bring the first error into view, once
          scrolled = true;
        }
        ImGui::GetWindowDrawList()->AddRectFilled(
            pos, ImVec2(pos.x + ImGui::GetContentRegionAvail().x, pos.y + h),
            palette::LightTheme() ? IM_COL32(240, 120, 110, 70) : IM_COL32(200, 60, 50, 90));
      }
      ImGui::TextDisabled("%3u ", line);
      ImGui::SameLine(0, 0);
      ImGui::TextUnformatted(text.c_str());
      if (it == by_line.end()) continue;
      for (const SourceNote* n : it->second) {
        // A caret under the column, then the message.
        const std::string caret =
            std::string(4 + (n->column > 0 ? n->column - 1 : 0), ' ') + "^ " + n->message;
        ImGui::TextColored(red, "%s", caret.c_str());
      }
    }
    if (scrolled) scrolled_errors_ = session_->compile_errors_source.size();
  }
  ImGui::EndChild();
  ImGui::PopStyleVar();
  if (code_font != nullptr) ImGui::PopFont();
}

// [SECTION] The code view -------------------------------------------------------------------------

// Figures per line, by line number: the margin's text ("ld 4.0s", "ld 32w") and the sites of each
// line in order; a racing line pair's badge and the hazards of each line.
struct SourcePanel::LineFigures {
  std::map<std::uint32_t, std::string> margin;
  std::map<std::uint32_t, std::vector<int>> line_sites;  // the sites of each line, in order
  std::map<std::uint32_t, std::string> hazard_text;
  std::map<std::uint32_t, std::vector<int>> hazard_groups;
};

namespace {

// Figures per line: "4.00 sect/req", "32-way" (none for a lesson without recorded accesses,
// such as transfers, whose file is host code).
void CollectSiteFigures(const LaunchTrace& t, const std::string& source_file,
                        std::map<std::uint32_t, std::string>& margin,
                        std::map<std::uint32_t, std::vector<int>>& line_sites) {
  for (std::size_t i = 0; i < t.sites.size() && i < t.stats.sites.size(); ++i) {
    const SiteInfo& s = t.sites[i];
    const SiteStats& st = t.stats.sites[i];
    if (!s.file.empty() && s.file != source_file) continue;  // a site in another file (a header)
    char buf[64];
    // Compact, for a margin column: "ld 4.0s" (sectors per request), "ld 32w" (banks).
    const char* op = s.op == AccessOp::kLoad ? "ld" : s.op == AccessOp::kStore ? "st" : "at";
    if (s.bulk_copy) {  // the TMA's: its read's sectors ("tma 64s"), its write nothing (the LSU's)
      if (s.space == MemorySpace::kShared) {
        line_sites[s.line].push_back(static_cast<int>(i));
        continue;
      }
      std::snprintf(buf, sizeof buf, "tma %llus", static_cast<unsigned long long>(st.sectors));
    } else if (s.space == MemorySpace::kShared && CompiledRunsMet(s, st)) {
      // Served wider as compiled (SiteInfo::compiled_width): "ld.128 1w", as the SASS's LDS.128.
      std::snprintf(buf, sizeof buf, "%s.%u %uw", op, 8u * s.compiled_width, st.bank_conflict_max);
    } else if (s.space == MemorySpace::kShared) {
      std::snprintf(buf, sizeof buf, "%s %uw", op, st.bank_conflict_max);
    } else {
      std::snprintf(buf, sizeof buf, "%s %.1fs", op, st.SectorsPerRequest());
    }
    std::string& m = margin[s.line];
    if (!m.empty()) m += ' ';
    m += buf;  // appended in place: "x" + std::string(buf) tripped GCC 12's -Wrestrict at -O3
    line_sites[s.line].push_back(static_cast<int>(i));
  }
}

// Racing line pairs (trace/hazards.h): both lines tinted, each with its badge ("RAW 1024 -> 13"
// on the first, "RAW 1024 <- 11" on the second); a click on one selects the hazard.
void CollectHazardBadges(const LaunchTrace& t, const std::string& source_file,
                         std::map<std::uint32_t, std::string>& hazard_text,
                         std::map<std::uint32_t, std::vector<int>>& hazard_groups) {
  for (std::size_t i = 0; i < t.hazards.groups.size(); ++i) {
    const HazardGroup& g = t.hazards.groups[i];
    const bool here = [&] {
      for (std::uint16_t s : {g.first_site, g.second_site}) {
        if (s >= t.sites.size() || (!t.sites[s].file.empty() && t.sites[s].file != source_file))
          return false;
      }
      return true;
    }();
    if (!here) continue;
    const std::string badge = HazardBadge(g);
    auto add = [&](std::uint32_t line, const std::string& text) {
      std::string& m = hazard_text[line];
      m += (m.empty() ? "" : " ") + text;
      hazard_groups[line].push_back(static_cast<int>(i));
    };
    if (g.first_line == g.second_line) {
      add(g.first_line, badge);
    } else {
      add(g.first_line, badge + " -> " + std::to_string(g.second_line));
      add(g.second_line, badge + " <- " + std::to_string(g.first_line));
    }
  }
}

// The lines above the code: the file and kernel, and what the compiler gave the kernel.
void DrawCodeHeader(const LessonRun& run, const LaunchTrace& t, const std::string& source_file) {
  if (run.has_launch()) {
    if (run.what_if) {
      // The figures beside the code are the what-if's; the code is as written.
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette::WarpU32(1)),
                         "What-if: %s (figures re-derived; the code is as written)",
                         run.what_if->label.c_str());
      ImGui::SetItemTooltip("To get this layout:\n%s", run.what_if->code.c_str());
    }
    // ".128": a line the compiled kernel reads 16 bytes a lane at (SiteInfo::compiled_width).
    bool compiled = false;
    for (std::size_t i = 0; i < t.sites.size() && i < t.stats.sites.size(); ++i)
      compiled = compiled || CompiledRunsMet(t.sites[i], t.stats.sites[i]);
    ImGui::TextDisabled("%s  (%s)   s = sectors per request, w = bank conflict ways%s",
                        source_file.c_str(), t.kernel.c_str(),
                        compiled ? ", ld.128 / ld.64 = as compiled (LDS.128, LDS.64)" : "");
    if (t.resources.known()) {
      // What the compiler gave the kernel: its registers bound occupancy, its stack frame is
      // local memory (device memory: spills, arrays indexed at run time). One short line; the
      // whole of it, and where it comes from, on hover.
      const KernelResources& r = t.resources;
      std::string line = "Compiler: " + std::to_string(r.registers) + " registers, " +
                         std::to_string(r.local_bytes) + " B local";
      if (r.spills_known && r.spill_stores > 0)
        line += ", " + std::to_string(r.spill_stores) + " B spilled";
      ImGui::TextDisabled("%s", line.c_str());
      ImGui::SetItemTooltip("%s\n(%s)", ResourceSummary(r).c_str(), r.source.c_str());
    }
  } else {
    ImGui::TextDisabled("%s  (host code and kernel; no accesses recorded)", source_file.c_str());
  }
}

// A site line's figures and a racing line's badge, at `tag_x` on the line's first row.
void DrawLineTag(ImVec2 pos, float tag_x, bool is_site, const std::string& margin, bool racing,
                 const std::string& hazard) {
  ImGui::SetCursorScreenPos(ImVec2(tag_x + ImGui::CalcTextSize(" ").x, pos.y));
  if (is_site) {
    ImGui::TextColored(
        palette::LightTheme() ? ImVec4(0.62f, 0.36f, 0.0f, 1.0f) : ImVec4(0.95f, 0.8f, 0.4f, 1.0f),
        "%s", margin.c_str());
    ImGui::SameLine(0, 0);
  }
  if (racing) {
    ImGui::TextColored(
        palette::LightTheme() ? ImVec4(0.75f, 0.2f, 0.1f, 1.0f) : ImVec4(0.94f, 0.47f, 0.35f, 1.0f),
        "  %s", hazard.c_str());
  }
}

// A program's selected access, underlined from its column to its end (on its row).
void UnderlineSite(const SiteInfo& site, const std::string& text,
                   const std::vector<WrappedRow>& rows, ImVec2 code_at, float h) {
  const std::size_t from = site.column - 1u;
  const std::size_t to = site.end_column > site.column
                             ? std::min<std::size_t>(site.end_column - 1u, text.size())
                             : from + 1;
  std::size_t r = 0;
  while (r + 1 < rows.size() && rows[r + 1].begin <= from) ++r;
  const WrappedRow& row = rows[r];
  const char* base = text.c_str() + row.begin;
  const float y = code_at.y + h * (r + 1) - 1;
  const float x0 = code_at.x + row.indent + ImGui::CalcTextSize(base, text.c_str() + from).x;
  const float x1 =
      code_at.x + row.indent + ImGui::CalcTextSize(base, text.c_str() + std::min(to, row.end)).x;
  ImGui::GetWindowDrawList()->AddLine(
      ImVec2(x0, y), ImVec2(std::max(x1, x0 + 4), y),
      palette::LightTheme() ? IM_COL32(20, 60, 160, 255) : IM_COL32(250, 210, 90, 255), 2.0f);
}

// The next of `here` after `current` (the first after the last, or when `current` is not there).
int NextOf(const std::vector<int>& here, int current) {
  auto at = std::find(here.begin(), here.end(), current);
  return at == here.end() || at + 1 == here.end() ? here.front() : *(at + 1);
}

}  // namespace

// A program with headers of its own (or several units): the file of the selected site, or the
// one picked here, replaces `source_file` and `source`.
void SourcePanel::PickProgramFile(const LessonRun& run, std::string& source_file,
                                  std::string& source) {
  const LessonRun::Program& prog = *run.program;
  if (run.has_launch() &&
      (session_->sel.site != followed_site_ || session_->generation != followed_generation_)) {
    followed_site_ = session_->sel.site;
    followed_generation_ = session_->generation;
    const LaunchTrace& t = run.main_launch();
    // The selected site's file; with none selected, the file the launch's kernel is in.
    std::string f = prog.KernelFile(t.kernel);
    if (session_->sel.site >= 0 && session_->sel.site < static_cast<int>(t.sites.size()))
      f = t.sites[static_cast<std::size_t>(session_->sel.site)].file;
    if (!f.empty() && !prog.TextOf(f).empty()) shown_file_ = f == prog.file ? "" : f;
  }
  if (!shown_file_.empty() && prog.TextOf(shown_file_).empty()) shown_file_.clear();
  const std::string current = shown_file_.empty() ? prog.file : shown_file_;
  ImGui::SetNextItemWidth(
      std::max(4 * ImGui::GetFontSize(),
               std::min(24 * ImGui::GetFontSize(), ImGui::GetContentRegionAvail().x -
                                                       ImGui::CalcTextSize("File").x -
                                                       ImGui::GetStyle().ItemInnerSpacing.x)));
  if (ImGui::BeginCombo("File", current.c_str())) {
    if (ImGui::Selectable(prog.file.c_str(), shown_file_.empty())) shown_file_.clear();
    for (const auto& [name, text] : prog.files) {
      if (ImGui::Selectable(name.c_str(), shown_file_ == name)) shown_file_ = name;
    }
    ImGui::EndCombo();
  }
  ImGui::SetItemTooltip("The program's own files: its headers and other units, as run");
  if (!shown_file_.empty()) {
    source_file = shown_file_;
    source = std::string(prog.TextOf(shown_file_));
  }
}

void SourcePanel::DrawContents() {
  if (!session_->compile_errors.empty()) {
    DrawCompileErrors();
    return;
  }
  // A trace carries the source it was captured with; a live run's is the catalogue's.
  const LessonRun* run = session_->run.get();
  std::string source_file, source;
  if (run != nullptr) {
    source_file = std::string(run->source_file());
    source = std::string(run->source());
  }
  // A program with headers of its own (or several units): the file of the selected site, or the
  // one picked here.
  if (run != nullptr && run->program && !run->program->files.empty())
    PickProgramFile(*run, source_file, source);
  if (run == nullptr || source.empty()) {
    ImGui::TextWrapped(
        "The lesson's kernel exactly as it runs, with line numbers; the selected access site is "
        "highlighted and each line carries its figures (sectors per request, bank conflicts).");
    ImGui::TextDisabled(run != nullptr ? "This lesson runs no kernel."
                                       : "Nothing has run yet (or the program did not compile).");
    return;
  }
  const LaunchTrace empty;
  const LaunchTrace& t = run->has_launch() ? run->main_launch() : empty;
  LineFigures figures;
  CollectSiteFigures(t, source_file, figures.margin, figures.line_sites);
  CollectHazardBadges(t, source_file, figures.hazard_text, figures.hazard_groups);
  int selected_line = -1;
  const SiteInfo* selected_site = nullptr;
  if (session_->sel.site >= 0 && session_->sel.site < static_cast<int>(t.sites.size())) {
    const SiteInfo& s = t.sites[static_cast<std::size_t>(session_->sel.site)];
    if (s.file.empty() || s.file == source_file) {
      selected_line = static_cast<int>(s.line);
      selected_site = &s;
    }
  }
  const HazardGroup* chosen = session_->selected_hazard();
  DrawCodeHeader(*run, t, source_file);
  ImFont* code_font = CodeFont();
  if (code_font != nullptr) ImGui::PushFont(code_font, 0.0f);
  ImGui::PushStyleVar(ImGuiStyleVar_ItemSpacing, ImVec2(ImGui::GetStyle().ItemSpacing.x, 0.0f));
  if (ImGui::BeginChild("##code", ImVec2(0, 0), ImGuiChildFlags_None)) {
    // The view was resized (a layout built over the first frames, a lecture step's panels):
    // bring the line into view again, so where it lands does not depend on when the run came.
    const ImVec2 size = ImGui::GetWindowSize();
    if (size.x != scrolled_size_[0] || size.y != scrolled_size_[1]) {
      scrolled_size_[0] = size.x;
      scrolled_size_[1] = size.y;
      scrolled_generation_ = ~0ull;
    }
    std::istringstream in{source};
    std::string text;
    // Columns: line number, code; a site line's figures (s = sectors per request, w = bank
    // conflict ways) right-aligned on its first row, the code wrapping before them.
    for (std::uint32_t line = 1; std::getline(in, text); ++line)
      DrawCodeLine(line, text, figures, chosen, selected_line, selected_site);
  }
  ImGui::EndChild();
  ImGui::PopStyleVar();
  if (code_font != nullptr) ImGui::PopFont();
}

// A new run: bring the selected site's line (else the kernel's first access site) into view; a
// site selected elsewhere (a table, a lecture step) too, when it is out of view.
void SourcePanel::ScrollToLine(bool selected_here, bool is_site, int selected_line) {
  if (scrolled_generation_ != session_->generation &&
      (selected_line > 0 ? selected_here : is_site)) {
    ImGui::SetScrollHereY(0.25f);
    scrolled_generation_ = session_->generation;
    scrolled_site_ = session_->sel.site;
  } else if (selected_here && scrolled_site_ != session_->sel.site) {
    scrolled_site_ = session_->sel.site;
    const ImVec2 at = ImGui::GetCursorScreenPos();
    if (!ImGui::IsRectVisible(at, ImVec2(at.x + 1, at.y + ImGui::GetTextLineHeight())))
      ImGui::SetScrollHereY(0.25f);
  }
}

void SourcePanel::DrawCodeLine(std::uint32_t line, const std::string& text, LineFigures& figures,
                               const HazardGroup* chosen, int selected_line,
                               const SiteInfo* selected_site) {
  const bool is_site = figures.margin.count(line) > 0;
  const auto hz = figures.hazard_text.find(line);
  const bool racing = hz != figures.hazard_text.end();
  const bool racing_chosen =
      racing && chosen != nullptr && (chosen->first_line == line || chosen->second_line == line);
  ScrollToLine(static_cast<int>(line) == selected_line, is_site, selected_line);
  const bool selected = static_cast<int>(line) == selected_line;
  const ImVec2 pos = ImGui::GetCursorScreenPos();
  const float h = ImGui::GetTextLineHeight();
  // A line wider than the panel wraps (at a space where it can), its rows after the first
  // indented under it, so every line is read whole without scrolling sideways.
  const float number_w = ImGui::CalcTextSize("000 ").x;
  const float avail = ImGui::GetContentRegionAvail().x;
  const std::string tag = (is_site ? figures.margin[line] : std::string()) +
                          (racing ? "  " + hz->second : std::string());
  const float tag_w =
      is_site || racing ? ImGui::CalcTextSize(tag.c_str()).x + ImGui::CalcTextSize("  ").x : 0.0f;
  // In a narrow panel the figures take a row of their own above the code.
  const bool tag_row = tag_w > 0.4f * (avail - number_w);
  const std::vector<WrappedRow> rows =
      WrapCodeLine(text, avail - number_w - (tag_row ? 0.0f : tag_w), ImGui::CalcTextSize("M").x);
  const float code_y = tag_row ? h : 0.0f;
  const float rows_h = h * static_cast<float>(rows.size()) + code_y;
  if (is_site || selected || racing) {
    const bool light = palette::LightTheme();
    ImU32 colour = selected ? (light ? IM_COL32(120, 170, 240, 110) : IM_COL32(80, 120, 190, 150))
                            : (light ? IM_COL32(120, 130, 150, 50) : IM_COL32(80, 90, 110, 90));
    if (racing) colour = racing_chosen ? IM_COL32(240, 120, 90, 120) : IM_COL32(240, 120, 90, 60);
    ImGui::GetWindowDrawList()->AddRectFilled(
        pos, ImVec2(pos.x + ImGui::GetContentRegionAvail().x, pos.y + rows_h), colour);
  }
  ImGui::PushID(static_cast<int>(line));
  // The whole line is clickable: a button under the text, the text drawn over it.
  const bool clicked = ImGui::InvisibleButton(
      "##line", ImVec2(std::max(1.0f, ImGui::GetContentRegionAvail().x), rows_h));
  if (clicked && racing) {
    // A racing line selects its hazard (the next of the line's on a second click).
    session_->SelectHazard(NextOf(figures.hazard_groups[line], session_->sel.hazard));
  } else if (clicked && is_site) {
    // A second click on a line of several sites (a program's `o[i] = a[i] + b[i]`) selects
    // the next one.
    session_->SelectSite(NextOf(figures.line_sites[line], session_->sel.site));
  }
  ImGui::SetCursorScreenPos(pos);
  ImGui::TextDisabled("%3u ", line);
  if (is_site || racing) {
    DrawLineTag(pos, tag_row ? pos.x + number_w : pos.x + avail - tag_w, is_site,
                is_site ? figures.margin[line] : std::string(), racing,
                racing ? hz->second : std::string());
  }
  ImGui::SetCursorScreenPos(ImVec2(pos.x + number_w, pos.y + code_y));
  const ImVec2 code_at = ImGui::GetCursorScreenPos();
  for (std::size_t r = 0; r < rows.size(); ++r) {
    ImGui::SetCursorScreenPos(ImVec2(code_at.x + rows[r].indent, code_at.y + h * r));
    ImGui::TextUnformatted(text.c_str() + rows[r].begin, text.c_str() + rows[r].end);
  }
  if (selected && selected_site != nullptr && selected_site->column > 0 &&
      selected_site->column <= text.size() + 1)
    UnderlineSite(*selected_site, text, rows, code_at, h);
  ImGui::SetCursorScreenPos(ImVec2(pos.x, pos.y + rows_h));
  ImGui::Dummy(ImVec2(0, 0));
  ImGui::PopID();
}

// [SECTION] The code font -------------------------------------------------------------------------

namespace {
ImFont* g_code_font = nullptr;
}  // namespace

void SetCodeFont(ImFont* font) {
  g_code_font = font;
}
ImFont* CodeFont() {
  return g_code_font;
}

}  // namespace ws
