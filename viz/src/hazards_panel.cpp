// The hazards view: the races the records show (trace/hazards.h), one row per pair of source
// lines and kind, with a count and a worked example. Selecting a row selects the hazard
// everywhere: the block and both threads in the grid, the second access's request in the bank
// and coalescing views, and the playback step of that access. With none it says so, and what
// was checked.
#include <imgui.h>

#include <string>

#include "view_util.h"
#include "warpscope/trace/hazards.h"
#include "warpscope/trace/units.h"
#include "warpscope/viz/palette.h"
#include "warpscope/viz/views.h"

namespace ws {
namespace {

ImU32 KindColour(HazardKind k) {
  switch (k) {
    case HazardKind::kRaw:
      return IM_COL32(240, 120, 90, 255);  // the palette's conflict red
    case HazardKind::kWar:
      return IM_COL32(240, 180, 70, 255);  // amber
    case HazardKind::kWaw:
      return IM_COL32(200, 120, 230, 255);  // violet
    case HazardKind::kWawSameValue:
      return IM_COL32(150, 150, 160, 255);  // benign: grey
  }
  return IM_COL32(255, 255, 255, 255);
}

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
    const std::uint64_t harmful = h.Total() - h.Count(HazardKind::kWawSameValue);
    view::BigText(1.6f, KindColour(HazardKind::kRaw), "%s",
                  (FormatNumber(static_cast<double>(harmful)) +
                   (harmful == 1 ? " racing pair" : " racing pairs"))
                      .c_str());
    ImGui::TextWrapped("Checked %s%s.", h.Checked().c_str(),
                       h.values_known ? "" : "; values not recorded (a GPU capture)");
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
      ImGui::PushStyleColor(ImGuiCol_Text, KindColour(g.kind));
      const bool selected = session_->sel.hazard == static_cast<int>(i);
      if (ImGui::Selectable(ToString(g.kind), selected, ImGuiSelectableFlags_SpanAllColumns))
        session_->SelectHazard(selected ? -1 : static_cast<int>(i));
      ImGui::PopStyleColor();
      ImGui::PopID();
      ImGui::TableNextColumn();
      ImGui::Text("%u -> %u", g.first_line, g.second_line);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(ToString(g.space));
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(FormatNumber(static_cast<double>(g.count)).c_str());
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(g.SameWarpOnly() ? "all"
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
  Session* session_;
};

}  // namespace

std::unique_ptr<Panel> MakeHazardsPanel(Session* session) {
  return std::make_unique<HazardsPanel>(session);
}

}  // namespace ws
