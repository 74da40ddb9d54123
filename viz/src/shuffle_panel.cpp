// The warp-exchange view: one meeting of a warp at a warp-level intrinsic. For a shuffle, two
// rows of the warp's 32 lanes, the values' lanes above and the readers below, with an arrow from
// each lane a value comes from to the lane that reads it (a lane that keeps its own value gets a
// short stub); for a vote (__ballot_sync, __any_sync, __all_sync, __activemask, __syncwarp), the
// lanes that took part and the result. Playback selects the meeting of its step; the site and
// the meeting can also be picked here.
#include <imgui.h>

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <string>

#include "view_util.h"
#include "warpscope/viz/palette.h"
#include "warpscope/viz/views.h"

namespace ws {
namespace {

std::string OpLabel(const LaunchTrace& t, std::size_t site) {
  const WarpOpSite& w = t.warp_op_sites[site];
  return "line " + std::to_string(w.line) + " " + ToString(w.kind);
}

// How the readers' sources relate, in words: "each lane reads the lane 16 above it; lanes 16-31
// keep their own value".
std::string Describe(const WarpOpInstance& op, WarpOpKind kind) {
  int moved = 0, kept = 0, delta = 0;
  bool same_delta = true, same_xor = true;
  int xor_mask = -1;
  for (int l = 0; l < 32; ++l) {
    if (!(op.mask >> l & 1u)) continue;
    const int src = op.source[l];
    if (src == l) {
      ++kept;
      continue;
    }
    if (moved == 0) {
      delta = src - l;
      xor_mask = src ^ l;
    }
    same_delta &= src - l == delta;
    same_xor &= (src ^ l) == xor_mask;
    ++moved;
  }
  char buf[160];
  if (moved == 0) {
    std::snprintf(buf, sizeof buf, "every lane keeps its own value");
  } else if (kind == WarpOpKind::kShflXor && same_xor) {
    std::snprintf(buf, sizeof buf, "lanes swap with lane ^ %d", xor_mask);
  } else if (same_delta) {
    std::snprintf(buf, sizeof buf, "%d lanes read the lane %d %s them; %d keep their own value",
                  moved, std::abs(delta), delta > 0 ? "above" : "below", kept);
  } else {
    std::snprintf(buf, sizeof buf, "%d lanes read another lane; %d keep their own value", moved,
                  kept);
  }
  return buf;
}

class ShufflePanel : public Panel {
 public:
  explicit ShufflePanel(Session* session) : Panel("shuffles", "Warp shuffles"), session_(session) {}

 protected:
  void DrawContents() override {
    if (view::NoLaunch(*session_,
                       "a warp's lanes exchanging values at __shfl_*_sync (arrows "
                       "from the lane a value comes from to the lane that reads it) "
                       "and the warp votes"))
      return;
    const LaunchTrace& t = session_->run->main_launch();
    if (t.warp_op_sites.empty()) {
      ImGui::TextWrapped(
          "Arrows from the lane a value comes from to the lane that reads it, for each "
          "__shfl_sync, __shfl_up_sync, __shfl_down_sync and __shfl_xor_sync; the lanes that "
          "vote in __ballot_sync, __any_sync and __all_sync.");
      ImGui::TextDisabled("This kernel uses no warp-level intrinsics.");
      return;
    }
    const BlockView& bv = session_->block_view();
    if (!bv.kept) {
      view::NotKept(*session_, bv);
      return;
    }
    // The meeting to show: playback's, else one of the picked site.
    int shown = session_->sel.warp_op;
    if (shown >= static_cast<int>(bv.warp_ops.size())) shown = -1;
    if (site_ >= static_cast<int>(t.warp_op_sites.size())) site_ = 0;
    if (shown >= 0) site_ = bv.warp_ops[static_cast<std::size_t>(shown)].site;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 16);
    if (ImGui::BeginCombo("Intrinsic", OpLabel(t, static_cast<std::size_t>(site_)).c_str())) {
      for (std::size_t i = 0; i < t.warp_op_sites.size(); ++i) {
        if (ImGui::Selectable(OpLabel(t, i).c_str(), static_cast<int>(i) == site_)) {
          site_ = static_cast<int>(i);
          session_->sel.warp_op = -1;
          shown = -1;
        }
        ImGui::SetItemTooltip("%s", t.warp_op_sites[i].code.c_str());
      }
      ImGui::EndCombo();
    }
    std::vector<int> of_site;
    for (std::size_t i = 0; i < bv.warp_ops.size(); ++i) {
      if (bv.warp_ops[i].site == site_) of_site.push_back(static_cast<int>(i));
    }
    if (of_site.empty()) {
      ImGui::TextDisabled("No warp of block %u met here.", bv.block);
      return;
    }
    int pick = 0;
    if (shown >= 0) {
      pick = static_cast<int>(std::find(of_site.begin(), of_site.end(), shown) - of_site.begin());
    } else {
      pick = std::clamp(pick_, 0, static_cast<int>(of_site.size()) - 1);
    }
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 12);
    int one_based = pick + 1;
    const std::string format = "%d of " + std::to_string(of_site.size());
    if (ImGui::SliderInt("Meeting", &one_based, 1, static_cast<int>(of_site.size()), format.c_str(),
                         ImGuiSliderFlags_AlwaysClamp)) {
      pick = one_based - 1;
      session_->sel.warp_op = -1;
    }
    pick_ = pick;
    ImGui::SetItemTooltip("Every time a warp of block %u met at this call, in time order",
                          bv.block);
    view::UpdatingBadge(*session_);
    const WarpOpInstance& op =
        bv.warp_ops[static_cast<std::size_t>(of_site[static_cast<std::size_t>(pick)])];
    const WarpOpSite& site = t.warp_op_sites[op.site];
    // Wrapped: at 1280x720 and 150 % the line ran past the panel's edge.
    ImGui::TextWrapped(
        "Warp %u of block %u, %s (time %" PRIu64 ", its meeting %u here): %s", op.warp, bv.block,
        ToString(site.kind), op.time, op.iteration + 1,
        IsShuffle(site.kind)
            ? Describe(op, site.kind).c_str()
            : (std::to_string(__builtin_popcount(op.mask)) + " lanes took part").c_str());
    ImGui::TextDisabled("%s", site.code.c_str());
    DrawLanes(op, site.kind);
  }

 private:
  void DrawLanes(const WarpOpInstance& op, WarpOpKind kind) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const ImVec2 origin = ImGui::GetCursorScreenPos();
    const float avail = ImGui::GetContentRegionAvail().x;
    const float margin = ImGui::CalcTextSize("readers ").x;
    const float cell = std::max(6.0f, (avail - margin) / 32.0f);
    const float box_h = ImGui::GetFontSize() * 1.3f;
    const float gap =
        std::max(ImGui::GetFontSize() * 5.0f,
                 ImGui::GetContentRegionAvail().y - 2 * box_h - ImGui::GetFontSize() * 2.5f);
    const float top = origin.y, bottom = origin.y + box_h + gap;
    const ImU32 text = palette::Text(), dim = palette::TextDim(), grid = palette::Grid();
    dl->AddText(ImVec2(origin.x, top + box_h * 0.15f), dim, IsShuffle(kind) ? "values" : "lanes");
    if (IsShuffle(kind)) dl->AddText(ImVec2(origin.x, bottom + box_h * 0.15f), dim, "readers");
    const bool numbers = cell >= ImGui::CalcTextSize("31").x + 2;
    auto box = [&](int lane, float y, bool in) {
      const ImVec2 a(origin.x + margin + lane * cell, y);
      const ImVec2 z(a.x + cell - 1, y + box_h);
      const ImU32 fill = in ? palette::WarpU32(op.warp) : palette::ToU32({120, 120, 120}, 70);
      dl->AddRectFilled(a, z, fill);
      dl->AddRect(a, z, grid);
      if (numbers) {
        const std::string s = std::to_string(lane);
        const ImVec2 ts = ImGui::CalcTextSize(s.c_str());
        dl->AddText(ImVec2(a.x + (cell - 1 - ts.x) / 2, a.y + (box_h - ts.y) / 2),
                    in ? IM_COL32(20, 20, 20, 255) : dim, s.c_str());
      }
    };
    for (int l = 0; l < 32; ++l) box(l, top, op.mask >> l & 1u);
    if (IsShuffle(kind)) {
      for (int l = 0; l < 32; ++l) box(l, bottom, op.mask >> l & 1u);
      // Arrows: from the bottom edge of the source (values) to the top edge of the reader.
      const float arrow = std::max(4.0f, ImGui::GetFontSize() * 0.35f);
      for (int l = 0; l < 32; ++l) {
        if (!(op.mask >> l & 1u)) continue;
        const int src = op.source[l];
        const ImVec2 from(origin.x + margin + (src + 0.5f) * cell, top + box_h + 1);
        const ImVec2 to(origin.x + margin + (l + 0.5f) * cell, bottom - 1);
        const ImU32 colour = src == l ? dim : text;
        dl->AddLine(from, to, colour, src == l ? 1.0f : 1.5f);
        // The head: two short strokes back along the line.
        const float dx = to.x - from.x, dy = to.y - from.y;
        const float len = std::sqrt(dx * dx + dy * dy);
        if (len < 1) continue;
        const float ux = dx / len, uy = dy / len;
        dl->AddTriangleFilled(
            to,
            ImVec2(to.x - ux * arrow - uy * arrow * 0.5f, to.y - uy * arrow + ux * arrow * 0.5f),
            ImVec2(to.x - ux * arrow + uy * arrow * 0.5f, to.y - uy * arrow - ux * arrow * 0.5f),
            colour);
      }
      ImGui::Dummy(ImVec2(avail, 2 * box_h + gap + 4));
      ImGui::TextDisabled(
          "Grey lines: lanes that keep their own value (no lane to read in "
          "range). Lanes outside the mask are greyed.");
    } else {
      ImGui::Dummy(ImVec2(avail, box_h + 4));
      char mask[16];
      std::snprintf(mask, sizeof mask, "0x%08x", op.mask);
      ImGui::Text("Lanes that took part: %s (%d)", mask, __builtin_popcount(op.mask));
    }
  }

  Session* session_;
  int site_ = 0;
  int pick_ = 0;
};

}  // namespace

std::unique_ptr<Panel> MakeShufflePanel(Session* session) {
  return std::make_unique<ShufflePanel>(session);
}

}  // namespace ws
