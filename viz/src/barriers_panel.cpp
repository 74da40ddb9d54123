// The barriers view: for the selected block, one timeline per warp (or, zoomed in, per thread of
// the selected warp): work, arrival at each __syncthreads(), waiting, and departure, as in the
// textbook's barrier figure, made from the trace. Each barrier's skew (last arrival - first) and
// longest wait are written above it. Time is the emulator's logical clock or a GPU's nanoseconds.
#include <imgui.h>

#include <algorithm>
#include <cinttypes>
#include <vector>

#include "view_util.h"
#include "warpscope/viz/barrier_timeline.h"
#include "warpscope/viz/palette.h"
#include "warpscope/viz/views.h"

namespace ws {
namespace {

class BarriersPanel : public Panel {
 public:
  explicit BarriersPanel(Session* session) : Panel("barriers", "Barriers"), session_(session) {}

 protected:
  void DrawContents() override {
    if (view::NoLaunch(
            *session_,
            "One timeline per warp of the selected block: work, arrival at each __syncthreads(), "
            "waiting, departure; skew and waits labelled."))
      return;
    const LaunchTrace& t = session_->run->main_launch();
    const BlockView& bv = session_->block_view();
    ImGui::Text("Block %u", bv.block);
    ImGui::SameLine();
    ImGui::Checkbox("Per thread (selected warp)", &per_thread_);
    view::UpdatingBadge(*session_);
    const BarrierTimeline m = MakeBarrierTimeline(t, bv, per_thread_, session_->sel.warp);
    if (!m.message.empty()) {
      ImGui::TextWrapped(
          "%s", bv.kept ? m.message.c_str() : view::NotKeptText(*session_, bv.block).c_str());
      return;
    }
    const float font = ImGui::GetFontSize();
    const float label_w = font * 4.0f;
    const float width = ImGui::GetContentRegionAvail().x - label_w - font;
    const float row_h = std::clamp(
        (ImGui::GetContentRegionAvail().y - font * 4.5f) / static_cast<float>(m.rows.size()), 3.0f,
        font * 1.3f);
    const float top_pad = font * 2.4f;
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const float height = top_pad + row_h * static_cast<float>(m.rows.size()) + font * 1.6f;
    ImGui::Dummy(ImVec2(label_w + width, height));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const double end = static_cast<double>(std::max<std::uint64_t>(m.end_time, 1));
    auto X = [&](std::uint64_t time) {
      return o.x + label_w + static_cast<float>(static_cast<double>(time) / end) * width;
    };
    const ImU32 wait_colour =
        palette::LightTheme() ? IM_COL32(200, 200, 208, 255) : IM_COL32(70, 72, 82, 255);
    for (std::size_t r = 0; r < m.rows.size(); ++r) {
      const TimelineRow& row = m.rows[r];
      const float y0 = o.y + top_pad + static_cast<float>(r) * row_h;
      const float y1 = y0 + std::max(2.0f, row_h - 2.0f);
      if (row_h >= font * 0.8f) dl->AddText(ImVec2(o.x, y0), palette::TextDim(), row.label.c_str());
      for (const TimelineSpan& span : row.spans) {
        const ImVec2 a(X(span.from), y0), b(std::max(X(span.to), X(span.from) + 1), y1);
        switch (span.kind) {
          case TimelineSpan::Kind::kWork:
            dl->AddRectFilled(a, b, palette::WarpU32(row.warp));
            break;
          case TimelineSpan::Kind::kArriving:
            dl->AddRectFilled(a, b, palette::WarpU32(row.warp, 120));
            break;
          case TimelineSpan::Kind::kWaiting:
            dl->AddRectFilled(a, b, wait_colour);
            dl->AddLine(ImVec2(a.x, y0), ImVec2(a.x, y1), palette::Text(), 1.5f);
            break;
        }
      }
      if (!per_thread_ && row.warp == m.selected_warp)
        dl->AddRect(ImVec2(X(0) - 1, y0 - 1), ImVec2(X(m.end_time) + 1, y1 + 1), palette::Text());
    }
    // Each barrier's release, with its skew and longest wait over the block's threads.
    const float rows_bottom = o.y + top_pad + row_h * static_cast<float>(m.rows.size());
    float label_end = -1e9f;
    for (std::size_t i = 0; i < m.releases.size(); ++i) {
      const TimelineRelease& rel = m.releases[i];
      const bool current = session_->sel.barrier_instance == static_cast<int>(i);
      const float x = X(rel.at);
      dl->AddLine(ImVec2(x, o.y + font * 1.2f), ImVec2(x, rows_bottom),
                  current ? IM_COL32(240, 120, 90, 255) : palette::Text(), current ? 3.0f : 1.0f);
      char label[128];
      if (rel.tile != 0)  // a multi-warp tile's sync: its own threads' skew
        std::snprintf(label, sizeof label,
                      "line %u (a tile of %u): skew %" PRIu64 ", max wait %" PRIu64, rel.line,
                      rel.tile, rel.skew, rel.max_wait);
      else
        std::snprintf(label, sizeof label, "line %u: skew %" PRIu64 ", max wait %" PRIu64, rel.line,
                      rel.skew, rel.max_wait);
      const float w = ImGui::CalcTextSize(label).x;
      const float lx = std::min(x - w / 2, o.x + label_w + width - w);
      if (lx > label_end) {
        dl->AddText(ImVec2(lx, o.y), current ? IM_COL32(240, 120, 90, 255) : palette::Text(),
                    label);
        label_end = lx + w + font;
      }
    }
    // Playback: the current step's time.
    if (session_->step >= 0 && session_->step < static_cast<int>(bv.steps.size())) {
      const float x = X(bv.steps[static_cast<std::size_t>(session_->step)].time);
      dl->AddLine(ImVec2(x, o.y + top_pad - 4), ImVec2(x, rows_bottom + 4),
                  IM_COL32(240, 120, 90, 200), 2.0f);
    }
    dl->AddText(ImVec2(o.x + label_w, rows_bottom + 4), palette::TextDim(), m.axis.c_str());
    ImGui::TextDisabled(
        "solid: working; faded: the warp's own threads arriving; grey: waiting at the barrier; "
        "line: release");
  }

 private:
  Session* session_;
  bool per_thread_ = false;
};

}  // namespace

std::unique_ptr<Panel> MakeBarriersPanel(Session* session) {
  return std::make_unique<BarriersPanel>(session);
}

}  // namespace ws
