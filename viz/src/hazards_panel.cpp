// The hazards view: the races the records show (trace/hazards.h), one row per pair of source
// lines and kind, with a count and a worked example. Selecting a row selects the hazard
// everywhere: the block and both threads in the grid, the second access's request in the bank
// and coalescing views, and the playback step of that access. With none it says so, and what
// was checked.
#include <imgui.h>

#include <algorithm>
#include <string>

#include "view_util.h"
#include "warpscope/trace/hazards.h"
#include "warpscope/trace/units.h"
#include "warpscope/viz/palette.h"
#include "warpscope/viz/views.h"

namespace ws {
namespace {

class HazardsPanel : public Panel {
 public:
  explicit HazardsPanel(Session* session) : Panel("hazards", "Hazards"), session_(session) {}

 protected:
  void DrawContents() override {
    if (view::NoLaunch(*session_,
                       "Races: two accesses to the same bytes by different threads, one a "
                       "write, with no __syncthreads() between them; by source line, with an "
                       "example."))
      return;
    const LaunchTrace& t = session_->run->main_launch();
    const HazardReport& h = t.hazards;
    view::UpdatingBadge(*session_);
    if (h.groups.empty()) {
      view::BigText(1.6f, IM_COL32(110, 200, 120, 255), "no hazards found");
      ImGui::TextWrapped(
          "Checked %s. No two threads touch the same bytes, one of them writing, "
          "without a barrier between them.",
          h.Checked().c_str());
      return;
    }
    // Races between threads, and a thread's own reads before its asynchronous copy landed.
    const std::uint64_t early = h.Count(HazardKind::kEarlyRead);
    const std::uint64_t harmful = h.Total() - h.Count(HazardKind::kWawSameValue) - early;
    std::string headline;
    if (harmful > 0 || early == 0)
      headline = FormatNumber(static_cast<double>(harmful)) +
                 (harmful == 1 ? " racing pair" : " racing pairs");
    if (early > 0)
      headline += (headline.empty() ? "" : ", ") + FormatNumber(static_cast<double>(early)) +
                  (early == 1 ? " read before its copy landed" : " reads before their copy landed");
    view::BigText(1.6f, view::HazardColour(harmful > 0 ? HazardKind::kRaw : HazardKind::kEarlyRead),
                  "%s", headline.c_str());
    ImGui::TextWrapped("Checked %s%s.", h.Checked().c_str(),
                       h.values_known ? "" : "; values not recorded (a GPU capture)");
    StepButtons(t);
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH |
                                  ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollY;
    if (!ImGui::BeginTable("##hazards", 6, flags, ImVec2(0, ImGui::GetContentRegionAvail().y)))
      return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("kind");
    ImGui::TableSetupColumn("lines");
    ImGui::TableSetupColumn("memory");
    ImGui::TableSetupColumn("pairs");
    ImGui::TableSetupColumn("same warp");
    ImGui::TableSetupColumn("example", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableHeadersRow();
    for (std::size_t i = 0; i < h.groups.size(); ++i) {
      const HazardGroup& g = h.groups[i];
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::PushID(static_cast<int>(i));
      ImGui::PushStyleColor(ImGuiCol_Text, view::HazardColour(g.kind));
      const bool selected = session_->sel.hazard == static_cast<int>(i);
      // (A short name where the table is narrow; the example's words say it in full.)
      const char* kind = g.kind == HazardKind::kEarlyRead ? "early read" : ToString(g.kind);
      if (ImGui::Selectable(kind, selected, ImGuiSelectableFlags_SpanAllColumns))
        session_->SelectHazard(selected ? -1 : static_cast<int>(i));
      ImGui::SetItemTooltip("%s", selected ? "click to let go of it"
                                           : "click: select both threads in the grid, the "
                                             "address in the banks and coalescing views, and "
                                             "step playback to the second access");
      ImGui::PopStyleColor();
      ImGui::PopID();
      ImGui::TableNextColumn();
      ImGui::Text("%u -> %u", g.first_line, g.second_line);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(ToString(g.space));
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(FormatNumber(static_cast<double>(g.count)).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(g.kind == HazardKind::kEarlyRead ? "one thread"
                             : g.SameWarpOnly()               ? "all"
                             : g.same_warp == 0
                                 ? "none"
                                 : FormatNumber(static_cast<double>(g.same_warp)).c_str());
      ImGui::TableNextColumn();
      const std::string text = DescribeHazard(g, t);
      const auto cut = text.find(". E.g. ");
      ImGui::TextWrapped("%s", cut == std::string::npos ? text.c_str() : text.c_str() + cut + 2);
    }
    ImGui::EndTable();
  }

 private:
  // With a hazard selected: playback steps to either of its example's two accesses.
  void StepButtons(const LaunchTrace& t) {
    const HazardGroup* g = session_->selected_hazard();
    if (g == nullptr) {
      ImGui::TextDisabled("Select a row to see both threads and step to their accesses.");
      return;
    }
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted("Step to:");
    for (int side = 0; side < 2; ++side) {
      const HazardAccess& a = side == 0 ? g->example_first : g->example_second;
      const std::uint32_t line = side == 0 ? g->first_line : g->second_line;
      char label[96];
      std::snprintf(label, sizeof label, "%s access: thread %s, line %u##side%d",
                    side == 0 ? "first" : "second", ThreadName(a.thread, t.block).c_str(), line,
                    side);
      ImGui::SameLine();
      if (ImGui::RadioButton(label, session_->sel.hazard_side == side))
        session_->SelectHazard(session_->sel.hazard, side);
    }
    // Every block is checked, but only the kept ones' steps are recorded.
    const HazardAccess& a = session_->sel.hazard_side == 0 ? g->example_first : g->example_second;
    const bool kept = std::any_of(t.blocks.begin(), t.blocks.end(),
                                  [&](const BlockRecords& b) { return b.block == a.block; });
    if (!kept)
      ImGui::TextDisabled(
          "Block %u's steps are not kept (only the kept blocks' are), so playback cannot step to "
          "this access; the grid shows both threads.",
          a.block);
  }

  Session* session_;
};

}  // namespace

std::unique_ptr<Panel> MakeHazardsPanel(Session* session) {
  return std::make_unique<HazardsPanel>(session);
}

}  // namespace ws
