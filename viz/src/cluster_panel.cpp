// The Cluster view (issue 53): a thread-block cluster launch's grid, its blocks boxed by cluster
// (the selected block's cluster highlighted; click a block to select it), and the distributed
// shared memory between a cluster's blocks, every cluster added up: the ranks on a circle, an
// arrow from each rank to each rank whose shared memory its blocks reached, as wide as its share
// of the bytes, and the pairs in a table. The numbers come from MakeClusterMap.
#include <imgui.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>

#include "view_util.h"
#include "warpscope/trace/units.h"
#include "warpscope/viz/cluster_map.h"
#include "warpscope/viz/palette.h"
#include "warpscope/viz/views.h"

namespace ws {
namespace {

class ClusterPanel : public Panel {
 public:
  explicit ClusterPanel(Session* session) : Panel("cluster", "Cluster"), session_(session) {}

 protected:
  void DrawContents() override {
    if (view::NoLaunch(*session_,
                       "A thread-block cluster launch's blocks by cluster, and the bytes each "
                       "block's threads moved in the shared memory of the others (distributed "
                       "shared memory)."))
      return;
    const LaunchTrace& t = session_->run->main_launch();
    const ClusterMap m = MakeClusterMap(t, session_->sel.block);
    if (m.blocks <= 1) {
      ImGui::TextWrapped("%s", m.message.c_str());
      return;
    }
    ImGui::Text("Clusters of %u x %u x %u blocks: %s clusters", m.dims.x, m.dims.y, m.dims.z,
                FormatNumber(static_cast<double>(m.clusters)).c_str());
    view::UpdatingBadge(*session_);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("Distributed shared memory over %s: %s B in %s accesses", m.coverage.c_str(),
                       FormatNumber(static_cast<double>(m.bytes)).c_str(),
                       FormatNumber(static_cast<double>(m.accesses)).c_str());
    ImGui::PopStyleColor();
    const float font = ImGui::GetFontSize();
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    // The ranks' circle at least 12 lines across (the panel scrolls below that).
    const float side = std::max(font * 12.0f, std::min(avail.x * 0.45f, avail.y - font * 6.0f));
    // (Room for the blocks' labels right of the circle.)
    DrawGrid(t, m, std::max(font * 8.0f, avail.x - side - font * 5.0f), side);
    ImGui::SameLine();
    DrawRanks(m, side);
    DrawTable(m);
  }

 private:
  // The grid's blocks (x across, y and z down), boxed by cluster; at most 64 x 64 drawn.
  void DrawGrid(const LaunchTrace& t, const ClusterMap& m, float width, float height) {
    const std::uint64_t across = std::min<std::uint64_t>(t.grid.x, 64);
    const std::uint64_t down = std::min<std::uint64_t>(std::uint64_t{t.grid.y} * t.grid.z, 64);
    const float cell = std::max(
        4.0f, std::min(width / static_cast<float>(across), height / static_cast<float>(down)));
    const ImVec2 o = ImGui::GetCursorScreenPos();
    ImGui::InvisibleButton("grid", ImVec2(width, height));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const std::uint64_t selected_cluster = m.cluster;
    for (std::uint64_t row = 0; row < down; ++row) {
      for (std::uint64_t x = 0; x < across; ++x) {
        const std::uint64_t y = row % t.grid.y, z = row / t.grid.y;
        const std::uint64_t b = x + t.grid.x * (y + std::uint64_t{t.grid.y} * z);
        const ImVec2 a(o.x + cell * static_cast<float>(x), o.y + cell * static_cast<float>(row));
        const ImVec2 e(a.x + cell - 1, a.y + cell - 1);
        const std::uint32_t rank = t.ClusterRank(b);
        const bool mine = std::find(m.members.begin(), m.members.end(), b) != m.members.end();
        dl->AddRectFilled(a, e, palette::WarpU32(rank, mine ? 255 : 90));
        if (b == session_->sel.block) dl->AddRect(a, e, palette::Text(), 0.0f, 2.0f);
        (void)selected_cluster;
      }
    }
    // Each cluster's box.
    for (std::uint64_t row = 0; row < down; row += t.cluster.y) {
      for (std::uint64_t x = 0; x < across; x += t.cluster.x) {
        const ImVec2 a(o.x + cell * static_cast<float>(x), o.y + cell * static_cast<float>(row));
        dl->AddRect(a,
                    ImVec2(a.x + cell * static_cast<float>(t.cluster.x) - 1,
                           a.y + cell * static_cast<float>(t.cluster.y) - 1),
                    palette::Grid(), 0.0f, 1.5f);
      }
    }
    if (ImGui::IsItemClicked()) {
      const ImVec2 p = ImGui::GetMousePos();
      const auto x = static_cast<std::uint64_t>((p.x - o.x) / cell);
      const auto row = static_cast<std::uint64_t>((p.y - o.y) / cell);
      if (x < across && row < down) {
        const std::uint64_t b =
            x + t.grid.x * (row % t.grid.y + std::uint64_t{t.grid.y} * (row / t.grid.y));
        session_->sel.block = static_cast<std::uint32_t>(b);
      }
    }
    if (ImGui::IsItemHovered()) {
      ImGui::SetTooltip(
          "Colour: each block's rank in its cluster; bright: the selected block's "
          "cluster (%" PRIu64 "). Click a block to select it.",
          m.cluster);
    }
  }

  // The selected block's cluster: its ranks on a circle, and the grid's traffic between ranks.
  void DrawRanks(const ClusterMap& m, float side) {
    const ImVec2 o = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(side, side));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float font = ImGui::GetFontSize();
    const ImVec2 c(o.x + side * 0.5f, o.y + side * 0.5f);
    // Each rank's node holds its number, its block below it; the nodes never touch.
    const float radius = side * 0.5f - font * 2.6f;
    const float node =
        std::min(font * 1.1f, radius * std::sin(3.1416f / static_cast<float>(m.blocks)) * 0.8f);
    auto at = [&](std::uint32_t r) {
      const float angle = -1.5708f + 6.2832f * static_cast<float>(r) / static_cast<float>(m.blocks);
      return ImVec2(c.x + radius * std::cos(angle), c.y + radius * std::sin(angle));
    };
    const double most = m.links.empty() ? 1.0 : static_cast<double>(m.links.front().bytes);
    for (const ClusterLink& l : m.links) {  // lines first, heads over them
      const ImVec2 a = at(l.from), b = at(l.to);
      const float dx = b.x - a.x, dy = b.y - a.y, len = std::sqrt(dx * dx + dy * dy);
      if (len < 1.0f) continue;
      const float ux = dx / len, uy = dy / len;
      // Each direction of a pair on its own side, so that both show.
      const float off = font * 0.45f;
      const ImVec2 s(a.x + ux * node - uy * off, a.y + uy * node + ux * off);
      const ImVec2 e(b.x - ux * node - uy * off, b.y - uy * node + ux * off);
      const float w = 1.0f + 5.0f * static_cast<float>(static_cast<double>(l.bytes) / most);
      const ImU32 col = palette::WarpU32(l.from, 220);
      dl->AddLine(s, e, col, w);
      const float head = font * 0.6f;
      dl->AddTriangleFilled(
          e, ImVec2(e.x - ux * head - uy * head * 0.5f, e.y - uy * head + ux * head * 0.5f),
          ImVec2(e.x - ux * head + uy * head * 0.5f, e.y - uy * head - ux * head * 0.5f), col);
    }
    for (std::uint32_t r = 0; r < m.blocks; ++r) {
      const ImVec2 p = at(r);
      dl->AddCircleFilled(p, node, palette::WarpU32(r, 255));
      char label[48];
      std::snprintf(label, sizeof label, "%u", r);
      const ImVec2 ls = ImGui::CalcTextSize(label);
      dl->AddText(ImVec2(p.x - ls.x * 0.5f, p.y - ls.y * 0.5f), IM_COL32(20, 20, 24, 255), label);
      // Its block, outside the circle (away from the arrows).
      std::snprintf(label, sizeof label, "block %" PRIu64, r < m.members.size() ? m.members[r] : 0);
      const ImVec2 bs = ImGui::CalcTextSize(label);
      const float dx = (p.x - c.x) / radius, dy = (p.y - c.y) / radius;
      const ImVec2 q(p.x + dx * (node + font * 0.3f), p.y + dy * (node + font * 0.3f));
      dl->AddText(
          ImVec2(q.x - bs.x * 0.5f + dx * bs.x * 0.5f, q.y - bs.y * 0.5f + dy * bs.y * 0.5f),
          palette::TextDim(), label);
    }
  }

  void DrawTable(const ClusterMap& m) {
    if (m.links.empty()) {
      ImGui::TextWrapped("%s", m.message.c_str());
      return;
    }
    if (!ImGui::BeginTable("links", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_SizingFixedFit))
      return;
    ImGui::TableSetupColumn("from rank");
    ImGui::TableSetupColumn("into rank's shared memory");
    ImGui::TableSetupColumn("bytes");
    ImGui::TableSetupColumn("accesses");
    ImGui::TableHeadersRow();
    for (const ClusterLink& l : m.links) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::Text("%u", l.from);
      ImGui::TableNextColumn();
      ImGui::Text("%u", l.to);
      ImGui::TableNextColumn();
      ImGui::Text("%s", FormatNumber(static_cast<double>(l.bytes)).c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%s", FormatNumber(static_cast<double>(l.accesses)).c_str());
    }
    ImGui::EndTable();
  }

  Session* session_;
};

}  // namespace

std::unique_ptr<Panel> MakeClusterPanel(Session* session) {
  return std::make_unique<ClusterPanel>(session);
}

}  // namespace ws
