#include "view_util.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>

#include <imgui_internal.h>
#include <implot.h>

#include "warpscope/trace/compiled_code.h"

namespace ws::view {

std::string SiteLabel(const LaunchTrace& t, int site) {
  if (site < 0 || site >= static_cast<int>(t.sites.size())) return "(none)";
  const SiteInfo& s = t.sites[static_cast<std::size_t>(site)];
  std::string array = s.space == MemorySpace::kShared  ? "shared"
                      : s.space == MemorySpace::kLocal ? "array"
                                                       : "buffer";
  if (s.space != MemorySpace::kShared && s.space != MemorySpace::kLocal &&
      s.buffer < t.buffers.size())
    array = t.buffers[s.buffer].name;
  // Served wider by the compiled kernel (SiteInfo::compiled_width): its instruction named.
  const std::string compiled =
      site < static_cast<int>(t.stats.sites.size()) &&
              CompiledRunsMet(s, t.stats.sites[static_cast<std::size_t>(site)])
          ? ", " + CompiledInstruction(s) + " as compiled"
          : "";
  char buf[240];
  std::snprintf(buf, sizeof buf, "line %u %s %s %s (%u B)%s%s", s.line, ToString(s.op),
                ToString(s.space), array.c_str(), s.size,
                s.bulk_copy ? ", a bulk copy through the TMA" : "", compiled.c_str());
  return buf;
}

int ViewSite(const LaunchTrace& t, int selected, const SitePredicate& pred,
             const std::function<double(const SiteStats&)>& score) {
  if (selected >= 0 && selected < static_cast<int>(t.sites.size()) &&
      pred(t.sites[static_cast<std::size_t>(selected)]))
    return selected;
  int best = -1;
  double best_score = 0;
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    if (!pred(t.sites[i])) continue;
    const double s = score && i < t.stats.sites.size() ? score(t.stats.sites[i]) : 0.0;
    // Ties go to the later site (a kernel's shared loads follow its stores), so the same role
    // is shown across variants.
    if (best < 0 || s > best_score || (score && s == best_score)) {
      best = static_cast<int>(i);
      best_score = s;
    }
  }
  return best;
}

float DegreeHeat(std::uint32_t words) {
  return words == 0 ? 0.0f
                    : std::min(1.0f, 0.15f + 0.85f * std::log2(static_cast<float>(words)) / 5.0f);
}

void SiteCombo(Session* session, const LaunchTrace& t, int shown, const SitePredicate& pred) {
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 22);
  if (ImGui::BeginCombo("Site", SiteLabel(t, shown).c_str())) {
    for (std::size_t i = 0; i < t.sites.size(); ++i) {
      if (!pred(t.sites[i])) continue;
      const std::string label = SiteLabel(t, static_cast<int>(i)) + "##" + std::to_string(i);
      if (ImGui::Selectable(label.c_str(), static_cast<int>(i) == shown))
        session->SelectSite(static_cast<int>(i));
      ImGui::SetItemTooltip("%s", t.sites[i].code.c_str());
    }
    ImGui::EndCombo();
  }
  if (shown >= 0)
    ImGui::SetItemTooltip("%s", t.sites[static_cast<std::size_t>(shown)].code.c_str());
}

bool NoLaunch(const Session& session, const char* what) {
  if (session.run && session.run->has_launch()) return false;
  ImGui::TextWrapped("%s", what);
  const LessonRun* run = session.run.get();
  if (run == nullptr)
    ImGui::TextDisabled("Nothing has run yet (or the program did not compile).");
  else if (run->program && !run->program->ok())  // a kernel that faulted finished no launch
    ImGui::TextWrapped("No launch of the program finished: %s", run->program->failure.c_str());
  else
    ImGui::TextDisabled(run->program ? "The program launched no kernel."
                                     : "This lesson runs no kernel.");
  // A library's calls ran instead (cuBLAS's on the emulator): the note that says so, here too.
  if (run != nullptr && run->program) {
    for (const ProgramDiagnostic& d : run->program->warnings) {
      if (d.message.rfind("cuBLAS ran ", 0) == 0) ImGui::TextWrapped("%s", d.message.c_str());
    }
  }
  return true;
}

std::string NotKeptText(const Session& session, std::uint32_t block) {
  const LessonRun* run = session.run.get();
  const std::string b = "Block " + std::to_string(block) + "'s records were not kept";
  if (run != nullptr && run->capture)
    return b + " in this trace (it holds " + std::to_string(run->main_launch().blocks.size()) +
           " blocks' records); pick one of those.";
  return b + (run != nullptr && run->program ? "; the program runs again to record them."
                                             : "; the lesson runs again to record them.");
}

void NotKept(const Session& session, const BlockView& view) {
  ImGui::TextDisabled("%s", NotKeptText(session, view.block).c_str());
}

void UpdatingBadge(const Session& session) {
  if (!session.running) return;
  ImGui::SameLine();
  ImGui::TextColored(ImVec4(0.95f, 0.75f, 0.3f, 1.0f), "updating...");
}

ImU32 HazardColour(HazardKind k) {
  switch (k) {
    case HazardKind::kRaw:
      return IM_COL32(240, 120, 90, 255);  // the palette's conflict red
    case HazardKind::kWar:
      return IM_COL32(240, 180, 70, 255);  // amber
    case HazardKind::kWaw:
      return IM_COL32(200, 120, 230, 255);  // violet
    case HazardKind::kWawSameValue:
      return IM_COL32(150, 150, 160, 255);  // benign: grey
    case HazardKind::kEarlyRead:
      return IM_COL32(90, 190, 230, 255);  // sky blue: one thread against its own copy
  }
  return IM_COL32(255, 255, 255, 255);
}

void HazardOutline(ImDrawList* dl, ImVec2 a, ImVec2 b, HazardKind k) {
  dl->AddRect(a, b, IM_COL32(0, 0, 0, 255), 0.0f, 5.0f);
  dl->AddRect(a, b, HazardColour(k), 0.0f, 3.0f);
}

bool BigText(float scale, ImU32 colour, const char* fmt, ...) {
  char buf[256];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(buf, sizeof buf, fmt, args);
  va_end(args);
  // As large as asked, but never wider than the room there is (down to the body text's size):
  // a narrow view keeps its figure whole rather than cut at the edge.
  const float base = ImGui::GetStyle().FontSizeBase;
  const float avail = ImGui::GetContentRegionAvail().x;
  ImGui::PushFont(nullptr, base * scale);
  const float wide = ImGui::CalcTextSize(buf).x;
  ImGui::PopFont();
  if (wide > avail && avail > 0) scale = std::max(1.0f, scale * avail / wide);
  ImGui::PushFont(nullptr, base * scale);
  ImGui::PushStyleColor(ImGuiCol_Text, colour);
  ImGui::TextUnformatted(buf);
  ImGui::PopStyleColor();
  ImGui::PopFont();
  // Whole when the text lies inside the window's visible area (tests read it: Panel::Shown).
  const ImRect clip = ImGui::GetCurrentWindow()->ClipRect;
  return clip.Contains(ImRect(ImGui::GetItemRectMin(), ImGui::GetItemRectMax()));
}

bool TimelineBox(ImDrawList* dl, ImVec2 a, ImVec2 z, ImU32 fill, const char* label, ImU32 outline,
                 float thickness) {
  dl->AddRectFilled(a, z, fill);
  // Thin boxes (a lane of 132 SMs) stay plain: an outline would be all there is of them.
  if (z.x - a.x > 6 && z.y - a.y > 6) dl->AddRect(a, z, outline, 0.0f, thickness);
  const ImVec2 ts = ImGui::CalcTextSize(label);
  if (z.x - a.x > ts.x + 4 && z.y - a.y > ts.y)
    dl->AddText(ImVec2((a.x + z.x - ts.x) / 2, (a.y + z.y - ts.y) / 2), IM_COL32(0, 0, 0, 230),
                label);
  const ImVec2 m = ImGui::GetMousePos();
  return ImPlot::IsPlotHovered() && m.x >= a.x && m.x <= z.x && m.y >= a.y && m.y <= z.y;
}

}  // namespace ws::view
