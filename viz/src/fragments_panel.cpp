// The Fragments view (issue 53): for a wmma fragment's load or store in the run, the fragment's
// tile element by element, coloured by the lane that holds it (the table measured on an H200,
// kernels/tensor/fragments.tsv: the emulator's lanes hold what the GPU's do), and what each lane
// of the selected block's first warp asked for at that site: the tile's element at its address,
// its bank, and the request's wavefronts. Colours: a lane's hue is its group of four (lane / 4,
// PTX's groupID), its shade its place in the group (lane % 4). Model: fragment_map.h.
#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

#include "view_util.h"
#include "warpscope/viz/fragment_map.h"
#include "warpscope/viz/palette.h"
#include "warpscope/viz/views.h"

namespace ws {
namespace {

ImU32 LaneColour(std::uint32_t lane, std::uint8_t alpha = 255) {
  const auto c = palette::Warp(lane / 4);
  const float shade = 1.0f - 0.12f * static_cast<float>(lane % 4);
  auto s = [&](std::uint8_t v) { return static_cast<int>(static_cast<float>(v) * shade); };
  return IM_COL32(s(c.r), s(c.g), s(c.b), alpha);
}

class FragmentsPanel : public Panel {
 public:
  explicit FragmentsPanel(Session* session) : Panel("fragments", "Fragments"), session_(session) {}

 protected:
  void DrawContents() override {
    if (view::NoLaunch(*session_,
                       "A wmma fragment's tile coloured by the lane that holds each element, and "
                       "the shared-memory rows each lane's load_matrix_sync read."))
      return;
    const LaunchTrace& t = session_->run->main_launch();
    const auto is_fragment = [](const SiteInfo& s) { return !s.fragment.empty(); };
    const int site = view::ViewSite(t, session_->sel.site, is_fragment, nullptr);
    if (site < 0) {
      ImGui::TextWrapped("%s", NoFragmentText(session_->run->backend).c_str());
      return;
    }
    view::SiteCombo(session_, t, site, is_fragment);
    const SiteInfo& s = t.sites[static_cast<std::size_t>(site)];
    const std::optional<FragmentNote> note = ParseFragmentNote(s.fragment);
    const FragmentType* type = note ? FindFragmentType(note->type) : nullptr;
    if (s.fragment == "several") {
      ImGui::TextWrapped(
          "Calls at this site loaded or stored fragments of more than one type or leading "
          "dimension (a helper called for A and for B, say): the view shows a site of one.");
      return;
    }
    if (type == nullptr) {
      ImGui::TextWrapped("The site's fragment (%s) is not in the table measured on the GPU.",
                         s.fragment.c_str());
      return;
    }
    const BlockView& bv = session_->block_view();
    if (site != cached_site_) {
      selected_lane_ = -1;
      request_ = 0;
    }
    if (site != cached_site_ || &t != cached_launch_ || bv.block != cached_block_ ||
        session_->generation != cached_generation_ || request_ != cached_request_) {
      map_ = MakeFragmentMap(*type);
      row_major_ = type->RowMajor();
      accesses_ = MakeFragmentAccesses(t, bv.block, static_cast<std::uint16_t>(site), *type,
                                       note->ldm, request_);
      if (!accesses_.message.empty() && request_ > 0) {  // fewer requests in this block
        request_ = 0;
        accesses_ =
            MakeFragmentAccesses(t, bv.block, static_cast<std::uint16_t>(site), *type, note->ldm);
      }
      cached_request_ = request_;
      cached_site_ = site;
      cached_launch_ = &t;
      cached_block_ = bv.block;
      cached_generation_ = session_->generation;
    }
    view::UpdatingBadge(*session_);
    ImGui::Text("%s", type->Title().c_str());
    const std::string held =
        std::to_string(type->elements) + " elements a lane" +
        (map_.copies > 1 ? ", each held " + std::to_string(map_.copies) + " times" : "") +
        "; rows " + std::to_string(note->ldm) + " elements apart in memory (ldm)";
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", held.c_str());
    ImGui::PopStyleColor();
    // Wide: the tile on the left as tall as the panel, the lanes' accesses beside it; else one
    // over the other.
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const bool side = avail.x > avail.y * 1.3f;
    const float tile_w = side ? std::min(avail.x * 0.5f, avail.y * 1.15f) : avail.x;
    const float tile_h = side ? avail.y : avail.y * 0.6f;
    if (ImGui::BeginChild("tile", ImVec2(tile_w, tile_h))) DrawTile();
    ImGui::EndChild();
    if (side) ImGui::SameLine();
    if (ImGui::BeginChild("accesses", ImVec2(0, 0))) DrawAccesses(s, *type, bv.block);
    ImGui::EndChild();
  }

 private:
  // The tile, a cell an element: the lane that holds it, and its x[] indices where they fit.
  void DrawTile() {
    const FragmentMap& m = map_;
    const float font = ImGui::GetFontSize();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float label = font * 1.8f;
    // Room below the tile for its two lines of legend.
    const float cell =
        std::clamp(std::min((avail.x - label) / static_cast<float>(m.cols),
                            (avail.y - label - font * 4.5f) / static_cast<float>(m.rows)),
                   font * 0.5f, font * 3.2f);
    const float small = std::min(font, cell * 0.62f);  // the numbers' size
    const ImVec2 o = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(label + cell * static_cast<float>(m.cols),
                        label + cell * static_cast<float>(m.rows)));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 mouse = ImGui::GetIO().MousePos;
    int hovered_lane = -1;
    std::string tip;
    char text[32];
    // Column numbers, every other one where two digits do not fit a cell.
    const std::uint32_t every = ImGui::CalcTextSize("10").x * small / font > cell - 2 ? 2 : 1;
    for (std::uint32_t c = 0; c < m.cols; c += every) {
      std::snprintf(text, sizeof text, "%u", c);
      dl->AddText(ImGui::GetFont(), small,
                  ImVec2(o.x + label + cell * static_cast<float>(c) + 1, o.y + label - small - 2),
                  palette::TextDim(), text);
    }
    for (std::uint32_t r = 0; r < m.rows; ++r) {
      std::snprintf(text, sizeof text, "%u", r);
      const float y = o.y + label + cell * static_cast<float>(r);
      dl->AddText(ImGui::GetFont(), small, ImVec2(o.x, y + (cell - small) * 0.5f),
                  palette::TextDim(), text);
      for (std::uint32_t c = 0; c < m.cols; ++c) {
        const FragmentCell& e = m.At(r, c);
        const ImVec2 a(o.x + label + cell * static_cast<float>(c), y);
        const ImVec2 b(a.x + cell - 1, a.y + cell - 1);
        dl->AddRectFilled(
            a, b,
            e.lane < 0 ? palette::ToU32(palette::kIdle)
                       : LaneColour(static_cast<std::uint32_t>(e.lane),
                                    selected_lane_ < 0 || selected_lane_ == e.lane ? 255 : 60));
        // The selected lane's access: what it reads or writes of the tile.
        if (selected_lane_ >= 0 && ReadBy(r, c) == selected_lane_)
          dl->AddRect(ImVec2(a.x + 1, a.y + 1), ImVec2(b.x - 1, b.y - 1), palette::Text(), 0.0f,
                      2.0f);
        if (e.lane >= 0 && cell >= font * 1.05f) {  // the lane's number, smaller where need be
          std::snprintf(text, sizeof text, "%d", e.lane);
          dl->AddText(ImGui::GetFont(), small, ImVec2(a.x + 2, a.y + 1), IM_COL32(20, 20, 24, 255),
                      text);
        }
        if (mouse.x >= a.x && mouse.x < b.x && mouse.y >= a.y && mouse.y < b.y) {
          hovered_lane = e.lane;
          tip = "(" + std::to_string(r) + ", " + std::to_string(c) + "): ";
          if (e.lane < 0) {
            tip += "held by no lane";
          } else {
            tip += "lane " + std::to_string(e.lane) + ", x[";
            for (std::size_t i = 0; i < e.x.size(); ++i)
              tip += (i > 0 ? "], x[" : "") + std::to_string(e.x[i]);
            tip += "]";
          }
          const int by = ReadBy(r, c);
          if (by >= 0) tip += "\nin lane " + std::to_string(by) + "'s access at this site";
        }
      }
    }
    if (!tip.empty()) {
      ImGui::SetTooltip("%s", tip.c_str());
      if (ImGui::IsMouseClicked(ImGuiMouseButton_Left))
        selected_lane_ = selected_lane_ == hovered_lane ? -1 : hovered_lane;
    }
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped(
        "Each element in the colour of the lane that holds it (the number; hue: lane / 4, shade: "
        "lane %% 4), as measured on an H200. Click an element or a lane in the table: its "
        "elements stay lit, and the part of the tile its access covers is outlined.");
    ImGui::PopStyleColor();
  }

  // The lane whose access covers element (r, c) (its elements run along the memory's rows), or
  // -1.
  int ReadBy(std::uint32_t r, std::uint32_t c) const {
    const std::uint32_t n = std::max(1u, accesses_.elements_per_access);
    for (const FragmentLaneAccess& l : accesses_.lanes) {
      const bool in = row_major_ ? l.row == r && c >= l.col && c < l.col + n
                                 : l.col == c && r >= l.row && r < l.row + n;
      if (in) return static_cast<int>(l.lane);
    }
    return -1;
  }

  void DrawAccesses(const SiteInfo& s, const FragmentType& type, std::uint32_t block) {
    const FragmentAccesses& a = accesses_;
    if (!a.message.empty()) {
      ImGui::TextWrapped("%s", a.message.c_str());
      return;
    }
    const bool shared = s.space == MemorySpace::kShared;
    // The warp's requests at the site, one at a time (a row-major float accumulator: four a call).
    if (a.requests > 1) {
      ImGui::BeginDisabled(a.request == 0);
      if (ImGui::ArrowButton("##previous", ImGuiDir_Left)) request_ = a.request - 1;
      ImGui::EndDisabled();
      ImGui::SameLine();
      ImGui::BeginDisabled(a.request + 1 >= a.requests);
      if (ImGui::ArrowButton("##next", ImGuiDir_Right)) request_ = a.request + 1;
      ImGui::EndDisabled();
      ImGui::SameLine();
      ImGui::Text("request %u of the warp's %u here", a.request + 1, a.requests);
    }
    if (shared)
      ImGui::TextWrapped(
          "Block %u, warp 0: %zu lanes of %u bytes (%u element%s each): %u "
          "wavefront%s (the least: %u)",
          block, a.lanes.size(), s.size, a.elements_per_access,
          a.elements_per_access == 1 ? "" : "s", a.wavefronts, a.wavefronts == 1 ? "" : "s",
          a.ideal);
    else
      ImGui::TextWrapped("Block %u, warp 0: %zu lanes of %u bytes from global memory", block,
                         a.lanes.size(), s.size);
    const int columns = shared ? 5 : 3;
    if (!ImGui::BeginTable("lanes", columns,
                           ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY |
                               ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit))
      return;
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("lane");
    ImGui::TableSetupColumn("offset");
    ImGui::TableSetupColumn("the tile's elements");
    if (shared) {
      ImGui::TableSetupColumn("bank");
      ImGui::TableSetupColumn("phase");
    }
    ImGui::TableHeadersRow();
    for (const FragmentLaneAccess& l : a.lanes) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      char id[16];
      std::snprintf(id, sizeof id, "%u", l.lane);
      // The lane's hue at full brightness: its darkest shade is hard to read as text.
      ImGui::PushStyleColor(ImGuiCol_Text, view::Colour(palette::WarpU32(l.lane / 4)));
      if (ImGui::Selectable(id, selected_lane_ == static_cast<int>(l.lane),
                            ImGuiSelectableFlags_SpanAllColumns))
        selected_lane_ = selected_lane_ == static_cast<int>(l.lane) ? -1 : static_cast<int>(l.lane);
      ImGui::PopStyleColor();
      ImGui::TableNextColumn();
      ImGui::Text("%u", l.offset);
      ImGui::TableNextColumn();
      const std::uint32_t last = a.elements_per_access - 1;
      if (last == 0)
        ImGui::Text("(%u, %u)", l.row, l.col);
      else if (type.RowMajor())
        ImGui::Text("row %u, columns %u-%u", l.row, l.col, l.col + last);
      else
        ImGui::Text("column %u, rows %u-%u", l.col, l.row, l.row + last);
      if (shared) {
        ImGui::TableNextColumn();
        ImGui::Text("%u-%u", l.bank, (l.bank + std::max(1u, l.bytes / 4) - 1) % 32);
        ImGui::TableNextColumn();
        ImGui::Text("%u", l.phase);
      }
    }
    ImGui::EndTable();
  }

  Session* session_;
  FragmentMap map_;
  FragmentAccesses accesses_;
  int selected_lane_ = -1;
  std::uint32_t request_ = 0, cached_request_ = 0;
  bool row_major_ = true;
  int cached_site_ = -2;
  const LaunchTrace* cached_launch_ = nullptr;
  std::uint32_t cached_block_ = ~0u;
  std::uint64_t cached_generation_ = ~std::uint64_t{0};
};

}  // namespace

std::unique_ptr<Panel> MakeFragmentsPanel(Session* session) {
  return std::make_unique<FragmentsPanel>(session);
}

}  // namespace ws
