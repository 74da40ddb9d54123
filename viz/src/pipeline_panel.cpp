// The pipeline view (issue 53): for the selected block, one row per warp that copied into shared
// memory asynchronously or waited for such a copy. Above the row's line, each stage's (or commit
// group's) copies in flight, from the warp's first issue to its last landing; below it, the warp
// waiting (for copies, or a producer for a free stage) and holding each stage it waited for until
// it releases it, which is when it computes on it. Colour: the stage (a group pipeline's use
// modulo its stages, else the commit group). Time is the emulator's logical clock.
#include <imgui.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <string>

#include "view_util.h"
#include "warpscope/viz/palette.h"
#include "warpscope/viz/pipeline_timeline.h"
#include "warpscope/viz/views.h"

namespace ws {
namespace {

class PipelinePanel : public Panel {
 public:
  explicit PipelinePanel(Session* session) : Panel("pipeline", "Pipeline"), session_(session) {}

 protected:
  void DrawContents() override {
    if (view::NoLaunch(*session_,
                       "One row per warp of the selected block: each stage's asynchronous copies "
                       "in flight, the waits for them, and the stage held while it is used."))
      return;
    const LaunchTrace& t = session_->run->main_launch();
    const BlockView& bv = session_->block_view();
    // The model again only for a new run, launch or block (a kept block of 1,024 threads holds
    // tens of thousands of events).
    if (session_->generation != cached_generation_ || &t != cached_launch_ ||
        bv.block != cached_block_) {
      model_ = MakePipelineTimeline(t, bv.block);
      cached_generation_ = session_->generation;
      cached_launch_ = &t;
      cached_block_ = bv.block;
    }
    const PipelineTimeline& m = model_;
    ImGui::Text("Block %u", bv.block);
    view::UpdatingBadge(*session_);
    if (!m.message.empty()) {
      ImGui::TextWrapped(
          "%s", bv.kept ? m.message.c_str() : view::NotKeptText(*session_, bv.block).c_str());
      return;
    }
    ImGui::SameLine();
    if (m.stages > 0)
      ImGui::TextDisabled("a pipeline of %u stage%s, %" PRIu64 " copies", m.stages,
                          m.stages == 1 ? "" : "s", m.copies);
    else
      ImGui::TextDisabled("%" PRIu64 " copies, coloured by commit group", m.copies);
    const float font = ImGui::GetFontSize();
    const float label_w = font * 4.0f;
    const float width = ImGui::GetContentRegionAvail().x - label_w - font;
    std::uint32_t tracks = 1;
    for (const PipelineRow& row : m.rows) tracks = std::max(tracks, row.tracks);
    // The legend under the rows, whole: the rows take the height it leaves (at 1280x720 and 150 %
    // it wraps to four lines, and a fixed allowance of four cut its last).
    // On a GPU a copy's landing is not observed: it is the end of the wait that covered it.
    const std::string legend =
        std::string("Above each line: a stage's copies in flight, ") +
        (t.time_unit == "ns" ? "from their issue to the end of the wait that landed them (the GPU "
                               "does not say when a copy lands; times from %globaltimer)"
                             : "issued to landed") +
        ". Below: waiting (grey; slashed: a producer waiting for a free stage) and the stage held "
        "until released (faded), when the warp computes on it. Numbers: the stage use.";
    const float legend_h =
        ImGui::CalcTextSize(legend.c_str(), nullptr, false, ImGui::GetContentRegionAvail().x).y;
    const float row_h = std::clamp((ImGui::GetContentRegionAvail().y - font * 2.0f - legend_h) /
                                       static_cast<float>(std::max<std::size_t>(m.rows.size(), 1)),
                                   font * 0.8f, font * (1.6f + static_cast<float>(tracks)));
    const ImVec2 o = ImGui::GetCursorScreenPos();
    const float height = row_h * static_cast<float>(m.rows.size()) + font * 1.6f;
    ImGui::Dummy(ImVec2(label_w + width, height));
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const double end = static_cast<double>(std::max<std::uint64_t>(m.end_time, 1));
    auto X = [&](std::uint64_t time) {
      return o.x + label_w + static_cast<float>(static_cast<double>(time) / end) * width;
    };
    auto colour = [&](std::uint32_t group, std::uint8_t alpha) {
      const std::uint32_t stage = m.stages > 0 ? group % m.stages : group;
      return palette::WarpU32(stage, alpha);
    };
    const ImU32 wait_colour =
        palette::LightTheme() ? IM_COL32(190, 190, 200, 255) : IM_COL32(80, 82, 94, 255);
    for (std::size_t r = 0; r < m.rows.size(); ++r) {
      const PipelineRow& row = m.rows[r];
      const float y0 = o.y + static_cast<float>(r) * row_h;
      const float mid = y0 + row_h * 0.5f, y1 = y0 + row_h - 2.0f;
      dl->AddText(ImVec2(o.x, y0 + (row_h - font) * 0.5f), palette::TextDim(), row.label.c_str());
      dl->AddLine(ImVec2(X(0), mid), ImVec2(X(m.end_time), mid), palette::Grid());
      for (const PipelineSpan& s : row.spans) {
        const float a = X(s.from), b = std::max(X(s.to), X(s.from) + 1.0f);
        switch (s.kind) {
          case PipelineSpan::Kind::kInFlight: {  // on its track of the upper half
            const float th = (mid - y0) / static_cast<float>(row.tracks);
            const float ty0 = y0 + th * static_cast<float>(s.track);
            dl->AddRectFilled(ImVec2(a, ty0 + 1), ImVec2(b, ty0 + th - 1), colour(s.group, 255));
            break;
          }
          case PipelineSpan::Kind::kHolding:
            dl->AddRectFilled(ImVec2(a, mid + 1), ImVec2(b, y1), colour(s.group, 110));
            dl->AddRect(ImVec2(a, mid + 1), ImVec2(b, y1), colour(s.group, 255));
            break;
          case PipelineSpan::Kind::kWaiting:
          case PipelineSpan::Kind::kAcquiring:
            dl->AddRectFilled(ImVec2(a, mid + 1), ImVec2(b, y1), wait_colour);
            if (s.kind == PipelineSpan::Kind::kAcquiring)
              dl->AddLine(ImVec2(a, y1), ImVec2(b, mid + 1), palette::Text());
            break;
        }
        // The stage use's number where it fits.
        char label[16];
        std::snprintf(label, sizeof label, "%u", s.group);
        const float w = ImGui::CalcTextSize(label).x;
        if (s.kind != PipelineSpan::Kind::kWaiting && s.kind != PipelineSpan::Kind::kAcquiring &&
            b - a > w + 4 && row_h >= font * 1.6f) {
          const float half = row_h * 0.5f;
          const float th = s.kind == PipelineSpan::Kind::kInFlight
                               ? half / static_cast<float>(row.tracks)
                               : half;
          const float ty =
              s.kind == PipelineSpan::Kind::kInFlight ? y0 + th * static_cast<float>(s.track) : mid;
          if (th >= font * 0.9f)
            dl->AddText(ImVec2(a + 2, ty + (th - font) * 0.5f), IM_COL32(20, 20, 24, 255), label);
        }
      }
    }
    const float rows_bottom = o.y + row_h * static_cast<float>(m.rows.size());
    dl->AddText(ImVec2(o.x + label_w, rows_bottom + 4), palette::TextDim(), m.axis.c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("%s", legend.c_str());
    ImGui::PopStyleColor();
  }

 private:
  Session* session_;
  PipelineTimeline model_;
  std::uint64_t cached_generation_ = ~std::uint64_t{0};
  const LaunchTrace* cached_launch_ = nullptr;
  std::uint32_t cached_block_ = ~0u;
};

}  // namespace

std::unique_ptr<Panel> MakePipelinePanel(Session* session) {
  return std::make_unique<PipelinePanel>(session);
}

}  // namespace ws
