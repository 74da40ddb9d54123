// The playback strip: steps through the selected block's requests and barriers in time order,
// with play/pause; each step selects its request (or barrier) so every view follows it.
#include <imgui.h>

#include <cinttypes>
#include <string>

#include "view_util.h"
#include "warpscope/viz/views.h"

namespace ws {
namespace {

class PlaybackPanel : public Panel {
 public:
  explicit PlaybackPanel(Session* session) : Panel("playback", "Playback"), session_(session) {}

  State Shown() const override {
    if (!session_->run || !session_->run->has_launch()) return {};
    const BlockView& bv = session_->block_view();
    State st = {{"block", std::to_string(bv.block)},
                {"steps", std::to_string(bv.steps.size())},
                {"step", std::to_string(session_->step < 0 ? 0 : session_->step + 1)},
                {"playing", session_->playing ? "true" : "false"}};
    const int step = session_->step;
    if (step >= 0 && step < static_cast<int>(bv.steps.size())) {
      const PlaybackStep& s = bv.steps[static_cast<std::size_t>(step)];
      st.emplace_back("time", std::to_string(s.time));
      st.emplace_back("kind", s.barrier ? "barrier" : s.warp_op ? "warp meeting" : "request");
      if (!s.barrier && !s.warp_op) {
        st.emplace_back("warp",
                        std::to_string(bv.requests[static_cast<std::size_t>(s.index)].warp));
        st.emplace_back("time_placed",
                        session_->run->timing.access_times_placed ? "true" : "false");
      }
    }
    return st;
  }

 protected:
  void DrawContents() override {
    if (view::NoLaunch(*session_, "Nothing to step through.")) {
      return;
    }
    const LaunchTrace& t = session_->run->main_launch();
    const BlockView& bv = session_->block_view();
    if (!bv.kept) {
      view::NotKept(*session_, bv);
      return;
    }
    if (bv.steps.empty()) {
      ImGui::TextDisabled("Block %u made no access and met no barrier.", bv.block);
      return;
    }
    const int n = static_cast<int>(bv.steps.size());
    const int step = session_->step;
    if (ImGui::Button("|<")) session_->SelectStep(0);
    ImGui::SetItemTooltip("First step");
    ImGui::SameLine();
    if (ImGui::Button("<") && step > 0) session_->SelectStep(step - 1);
    ImGui::SetItemTooltip("Previous step (Ctrl+Left)");
    ImGui::SameLine();
    if (ImGui::Button(session_->playing ? "Pause" : "Play ", ImVec2(ImGui::GetFontSize() * 4, 0))) {
      session_->playing = !session_->playing;
      if (session_->playing && (step < 0 || step >= n - 1)) session_->SelectStep(0);
    }
    ImGui::SetItemTooltip("Play or pause (P)");
    ImGui::SameLine();
    if (ImGui::Button(">")) session_->SelectStep(std::min(step + 1, n - 1));
    ImGui::SetItemTooltip("Next step (Ctrl+Right)");
    ImGui::SameLine();
    if (ImGui::Button(">|")) session_->SelectStep(n - 1);
    ImGui::SameLine();
    int pick = std::max(step, 0) + 1;  // 1-based on screen
    const std::string format = step < 0 ? "not stepping" : "step %d of " + std::to_string(n);
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.45f);
    if (ImGui::SliderInt("##step", &pick, 1, n, format.c_str(), ImGuiSliderFlags_AlwaysClamp))
      session_->SelectStep(pick - 1);
    ImGui::SameLine();
    float speed = static_cast<float>(1.0 / session_->seconds_per_step);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 7);
    if (ImGui::SliderFloat("steps/s", &speed, 0.5f, 20.0f, "%.1f", ImGuiSliderFlags_Logarithmic))
      session_->seconds_per_step = 1.0 / std::max(0.5f, speed);
    if (step >= 0) {
      ImGui::SameLine();
      if (ImGui::SmallButton("Leave playback")) {
        session_->SelectStep(-1);
        session_->playing = false;
      }
    }
    view::UpdatingBadge(*session_);

    if (step < 0 || step >= n) {
      ImGui::TextDisabled(
          "Block %u: %d steps (%zu requests, %zu barriers, %zu warp meetings). Press Play or P.",
          bv.block, n, bv.requests.size(), bv.barriers.size(), bv.warp_ops.size());
      return;
    }
    const PlaybackStep& s = bv.steps[static_cast<std::size_t>(step)];
    if (s.warp_op) {
      const WarpOpInstance& w = bv.warp_ops[static_cast<std::size_t>(s.index)];
      const WarpOpSite& site = t.warp_op_sites[w.site];
      ImGui::TextWrapped("Step %d/%d, time %" PRIu64
                         ": warp %u meets at %s on line %u (%d lanes) - "
                         "see Warp shuffles",
                         step + 1, n, s.time, w.warp, ToString(site.kind), site.line,
                         __builtin_popcount(w.mask));
    } else if (s.barrier) {
      const BarrierInstance& b = bv.barriers[static_cast<std::size_t>(s.index)];
      const std::uint32_t line = b.site < t.barrier_sites.size() ? t.barrier_sites[b.site].line : 0;
      ImGui::TextWrapped("Step %d/%d, time %" PRIu64
                         ": all threads of block %u released from "
                         "__syncthreads() on line %u (skew %" PRIu64 ")",
                         step + 1, n, s.time, bv.block, line, b.last_arrival - b.first_arrival);
    } else {
      const BlockRequest& r = bv.requests[static_cast<std::size_t>(s.index)];
      const SiteInfo& si = t.sites[r.site];
      const std::uint32_t cost =
          si.space == MemorySpace::kShared ? ViewSharedCost(t, bv, r).wavefronts : Sectors(r.lanes);
      const bool placed = session_->run->timing.access_times_placed;
      ImGui::TextWrapped("Step %d/%d, time %" PRIu64 "%s: warp %u %s (%s, %zu lanes) - %u %s",
                         step + 1, n, s.time, placed ? " (placed)" : "", r.warp,
                         view::SiteLabel(t, r.site).c_str(), si.code.c_str(), r.lanes.size(), cost,
                         si.space == MemorySpace::kShared ? "wavefront(s)" : "sector(s)");
      if (placed)
        ImGui::SetItemTooltip(
            "On the GPU a request's time is not read at each access (a clock read there kept the "
            "kernel's loads from overlapping): it is placed evenly between its warp's start, "
            "meetings, barriers and the pass's end. Barriers' and meetings' times are measured.");
    }
  }

 private:
  Session* session_;
};

}  // namespace

std::unique_ptr<Panel> MakePlaybackPanel(Session* session) {
  return std::make_unique<PlaybackPanel>(session);
}

}  // namespace ws
