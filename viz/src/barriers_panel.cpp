// The barriers view: for the selected block, one timeline per warp (or, zoomed in, per thread of
// the selected warp): work, arrival at each __syncthreads(), waiting, and departure, as in the
// textbook's barrier figure, made from the trace. Each barrier's skew (last arrival - first) and
// longest wait are written above it. Time is the emulator's logical clock or a GPU's nanoseconds.
#include <imgui.h>

#include <algorithm>
#include <cinttypes>
#include <limits>
#include <vector>

#include "view_util.h"
#include "warpscope/viz/palette.h"
#include "warpscope/viz/views.h"

namespace ws {
namespace {

constexpr std::uint64_t kNone = std::numeric_limits<std::uint64_t>::max();

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
    if (!bv.kept) {
      view::NotKept(bv);
      return;
    }
    if (bv.barriers.empty()) {
      ImGui::TextWrapped(
          "This kernel has no __syncthreads(). Try barrier, transpose (coalesced), reverse or "
          "matmul (tiled).");
      if (bv.end_time == 0) return;
    }
    const std::uint32_t warps = (bv.threads + 31) / 32;
    const int warp = std::clamp(session_->sel.warp, 0, static_cast<int>(warps) - 1);
    // Rows: warps, or the threads of one warp.
    struct RowSpec {
      std::uint32_t first, count;  // threads
      std::uint32_t warp;
      char label[24];
    };
    std::vector<RowSpec> rows;
    if (per_thread_) {
      for (std::uint32_t th = static_cast<std::uint32_t>(warp) * 32;
           th < std::min(bv.threads, static_cast<std::uint32_t>(warp + 1) * 32); ++th) {
        RowSpec r{th, 1, th / 32, {}};
        std::snprintf(r.label, sizeof r.label, "t%u", th);
        rows.push_back(r);
      }
    } else {
      for (std::uint32_t w = 0; w < warps; ++w) {
        RowSpec r{w * 32, std::min(32u, bv.threads - w * 32), w, {}};
        std::snprintf(r.label, sizeof r.label, "warp %u", w);
        rows.push_back(r);
      }
    }

    const float font = ImGui::GetFontSize();
    const float label_w = font * 4.0f;
    const float width = ImGui::GetContentRegionAvail().x - label_w - font;
    const float row_h = std::clamp(
        (ImGui::GetContentRegionAvail().y - font * 4.5f) / static_cast<float>(rows.size()), 3.0f,
        font * 1.3f);
    const float top_pad = font * 2.4f;
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const float height = top_pad + row_h * static_cast<float>(rows.size()) + font * 1.6f;
    ImGui::Dummy(ImVec2(label_w + width, height));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const double end = static_cast<double>(std::max<std::uint64_t>(bv.end_time, 1));
    auto X = [&](std::uint64_t time) {
      return o.x + label_w + static_cast<float>(static_cast<double>(time) / end) * width;
    };
    const ImU32 wait_colour =
        palette::LightTheme() ? IM_COL32(200, 200, 208, 255) : IM_COL32(70, 72, 82, 255);

    for (std::size_t r = 0; r < rows.size(); ++r) {
      const RowSpec& row = rows[r];
      const float y0 = o.y + top_pad + static_cast<float>(r) * row_h;
      const float y1 = y0 + std::max(2.0f, row_h - 2.0f);
      if (row_h >= font * 0.8f) dl->AddText(ImVec2(o.x, y0), palette::TextDim(), row.label);
      // The row's end: its threads' last recorded time.
      std::uint64_t row_end = 0;
      for (std::uint32_t th = row.first; th < row.first + row.count; ++th)
        row_end = std::max(row_end, bv.thread_end[th]);
      std::uint64_t from = 0;
      for (const BarrierInstance& b : bv.barriers) {
        std::uint64_t first = kNone, last = 0;
        for (std::uint32_t th = row.first; th < row.first + row.count; ++th) {
          if (b.arrival[th] == kNone) continue;
          first = std::min(first, b.arrival[th]);
          last = std::max(last, b.arrival[th]);
        }
        if (first == kNone) continue;
        // Work up to the first arrival, the warp's own spread, then waiting until release.
        dl->AddRectFilled(ImVec2(X(from), y0), ImVec2(std::max(X(first), X(from) + 1), y1),
                          palette::WarpU32(row.warp));
        if (last > first)
          dl->AddRectFilled(ImVec2(X(first), y0), ImVec2(X(last), y1),
                            palette::WarpU32(row.warp, 120));
        dl->AddRectFilled(ImVec2(X(last), y0), ImVec2(X(b.departure), y1), wait_colour);
        dl->AddLine(ImVec2(X(last), y0), ImVec2(X(last), y1), palette::Text(), 1.5f);
        from = b.departure;
      }
      if (row_end > from)
        dl->AddRectFilled(ImVec2(X(from), y0), ImVec2(X(row_end), y1), palette::WarpU32(row.warp));
      if (!per_thread_ && static_cast<int>(row.warp) == warp)
        dl->AddRect(ImVec2(X(0) - 1, y0 - 1), ImVec2(X(bv.end_time) + 1, y1 + 1), palette::Text());
    }
    // Each barrier's release, with its skew and longest wait over the block's threads.
    const float rows_bottom = o.y + top_pad + row_h * static_cast<float>(rows.size());
    float label_end = -1e9f;
    for (std::size_t i = 0; i < bv.barriers.size(); ++i) {
      const BarrierInstance& b = bv.barriers[i];
      const bool current = session_->sel.barrier_instance == static_cast<int>(i);
      const float x = X(b.departure);
      dl->AddLine(ImVec2(x, o.y + font * 1.2f), ImVec2(x, rows_bottom),
                  current ? IM_COL32(240, 120, 90, 255) : palette::Text(), current ? 3.0f : 1.0f);
      std::uint64_t max_wait = 0;
      for (std::size_t th = 0; th < b.arrival.size(); ++th) {
        if (b.arrival[th] != kNone) max_wait = std::max(max_wait, b.leave[th] - b.arrival[th]);
      }
      const std::uint32_t line = b.site < t.barrier_sites.size() ? t.barrier_sites[b.site].line : 0;
      char label[96];
      std::snprintf(label, sizeof label, "line %u: skew %" PRIu64 ", max wait %" PRIu64, line,
                    b.last_arrival - b.first_arrival, max_wait);
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
    // Time axis.
    const char* unit = t.time_unit == "ns" ? "ns" : "logical time";
    char axis[64];
    std::snprintf(axis, sizeof axis, "0 .. %" PRIu64 " %s", bv.end_time, unit);
    dl->AddText(ImVec2(o.x + label_w, rows_bottom + 4), palette::TextDim(), axis);
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
