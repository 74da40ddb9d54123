// The "Blocks on SMs" view of the scalability lesson: a timeline with one lane per streaming
// multiprocessor and a box per block (blocks resident together on one SM share its lane in
// sub-lanes), the makespan against the number of SMs (the same blocks replayed by the model:
// transparent scalability), and how many blocks each SM ran. From the emulator's block-scheduler
// model, or from a GPU's %smid / %globaltimer stamps (a run or a trace).
#include <imgui.h>
#include <implot.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "view_util.h"
#include "warpscope/trace/lesson_figures.h"
#include "warpscope/viz/palette.h"
#include "warpscope/viz/views.h"

namespace ws {
namespace {

using view::Colour;

constexpr int kMaxSms = 4096;  // more in a trace is a damaged file, not a GPU

struct BlockBox {
  std::uint32_t block;
  int sm;
  double start, end;
  int sub = 0;  // sub-lane within the SM's lane (blocks resident at once)
};

class ScalabilityPanel : public view::FiguresPanel<ScheduleFigures> {
 public:
  explicit ScalabilityPanel(Session* s)
      : FiguresPanel("sms", "Blocks on SMs", s,
                     "Choose the lesson \"Transparent scalability\": the blocks of a grid "
                     "dealt out to the multiprocessors as slots free up, one lane per SM, "
                     "on the emulator's model or a GPU's own stamps.") {}

  // The timeline as drawn: SMs, blocks, how many an SM holds at once, and the rounds of dealing
  // (the colours: block / (SMs x blocks per SM)).
  State Shown() const override {
    if (boxes_.empty()) return {};
    std::uint32_t last = 0;
    for (const BlockBox& b : boxes_) last = std::max(last, b.block);
    const auto capacity = static_cast<std::uint32_t>(sms_ * per_sm_);
    return {{"sms", std::to_string(sms_)},
            {"blocks", std::to_string(boxes_.size())},
            {"blocks_per_sm", std::to_string(per_sm_)},
            {"rounds", std::to_string(capacity > 0 ? last / capacity + 1 : 0)},
            {"waves", std::to_string(waves_)}};
  }

 protected:
  void DrawFigures(const LessonRun& run, const ScheduleFigures&) override {
    DrawHeader(run);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float min_h = 8 * ImGui::GetFontSize();
    if (avail.x > 1.5f * avail.y) {  // wide: timeline left, the two small plots right
      ImGui::BeginChild("##timeline_column", ImVec2(avail.x * 0.64f, 0));
      DrawTimeline(ImVec2(-1, std::max(min_h, ImGui::GetContentRegionAvail().y -
                                                  2.3f * ImGui::GetTextLineHeightWithSpacing())));
      DrawTimelineKey();
      ImGui::EndChild();
      ImGui::SameLine();
      ImGui::BeginChild("##side_column", ImVec2(0, 0));
      const float h = std::max(
          min_h, ImGui::GetContentRegionAvail().y * 0.5f - ImGui::GetStyle().ItemSpacing.y);
      DrawScaling(ImVec2(-1, h));
      DrawPerSm(ImVec2(-1, std::max(min_h, ImGui::GetContentRegionAvail().y)));
      ImGui::EndChild();
    } else {
      DrawTimeline(ImVec2(-1, std::max(min_h, avail.y * 0.5f)));
      DrawTimelineKey();
      const float w = ImGui::GetContentRegionAvail().x * 0.5f - ImGui::GetStyle().ItemSpacing.x;
      const float h = std::max(min_h, ImGui::GetContentRegionAvail().y);
      DrawScaling(ImVec2(w, h));
      ImGui::SameLine();
      DrawPerSm(ImVec2(-1, h));
    }
  }

 private:
  void Load(const LessonRun&, const ScheduleFigures& fig) override {
    gpu_ = fig.time_unit == "us";
    unit_ = gpu_ ? "us" : "units";
    sms_ = std::clamp(fig.sms, 1, kMaxSms);  // the figures' reader checked every block's SM
    per_sm_ = std::max(1, fig.blocks_per_sm_limit);
    makespan_ = fig.makespan;
    device_ = fig.emulated_device.value_or("device");
    limiter_ = fig.limiter.value_or("?");
    waves_ = static_cast<int>(fig.waves);
    boxes_.clear();
    for (const BlockOnSm& b : fig.timeline) {
      if (b.sm < 0 || b.sm >= sms_) continue;
      boxes_.push_back({b.block, b.sm, b.start, b.end});
    }
    // Sub-lanes: on each SM, a block takes the first sub-lane free at its start.
    lanes_ = 1;
    std::vector<std::vector<double>> free_at(static_cast<std::size_t>(sms_));
    std::vector<std::size_t> order(boxes_.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return boxes_[a].start < boxes_[b].start;
    });
    for (std::size_t i : order) {
      std::vector<double>& f = free_at[static_cast<std::size_t>(boxes_[i].sm)];
      std::size_t k = 0;
      while (k < f.size() && f[k] > boxes_[i].start) ++k;
      if (k == f.size()) f.push_back(0);
      f[k] = boxes_[i].end;
      boxes_[i].sub = static_cast<int>(k);
      lanes_ = std::max(lanes_, static_cast<int>(f.size()));
    }
    scale_x_.clear();
    scale_y_.clear();
    for (const MakespanPoint& p : fig.vary_sms) {
      scale_x_.push_back(p.sms);
      scale_y_.push_back(p.makespan);
    }
    per_sm_x_.clear();
    per_sm_y_.clear();
    int sm = 0;
    for (const int n : fig.blocks_per_sm) {
      if (sm >= sms_) break;  // one bar per SM of the timeline
      per_sm_x_.push_back(sm++);
      per_sm_y_.push_back(n);
    }
  }

  void DrawHeader(const LessonRun& run) {
    view::BigText(1.6f, palette::WarpU32(4), "%.6g %s", makespan_, gpu_ ? "\xc2\xb5s" : "units");
    ImGui::SameLine();
    char what[256];
    if (gpu_) {
      std::snprintf(what, sizeof what,
                    "from the first block's start to the last one's end: %zu blocks on %s "
                    "(%d SMs; at most %d blocks at once on one SM).",
                    boxes_.size(), run.device.c_str(), sms_, per_sm_);
    } else {
      std::snprintf(what, sizeof what,
                    "%zu blocks on %d SMs of a %s, %d blocks at once per SM (%s bind): %d "
                    "wave%s.",
                    boxes_.size(), sms_, device_.c_str(), per_sm_, limiter_.c_str(), waves_,
                    waves_ == 1 ? "" : "s");
    }
    ImGui::TextWrapped("%s", what);
    ImGui::PushStyleColor(ImGuiCol_Text, palette::TextDim());
    ImGui::TextWrapped(gpu_ ? "Measured: each block stamped %%smid and %%globaltimer."
                            : "A model of the block scheduler (work units), not a measurement.");
    ImGui::PopStyleColor();
    view::UpdatingBadge(*session_);
  }

  // Lanes top to bottom: SM 0 .. SM n-1; a box per block, coloured by the round of dealing it
  // belongs to (block / (SMs x blocks per SM)).
  void DrawTimeline(ImVec2 size) {
    if (!ImPlot::BeginPlot("##sm_timeline", size, ImPlotFlags_NoLegend | ImPlotFlags_NoMenus))
      return;
    ImPlot::SetupAxes(gpu_ ? "time (\xc2\xb5s)" : "time (work units)", nullptr, 0,
                      ImPlotAxisFlags_Invert);
    tick_pos_.clear();
    tick_names_.clear();
    const int every = sms_ <= 16 ? 1 : sms_ <= 40 ? 4 : 16;
    for (int s = 0; s < sms_; s += every) {
      tick_pos_.push_back(s);
      tick_names_.push_back("SM " + std::to_string(s));
    }
    std::vector<const char*> names;
    for (const std::string& n : tick_names_) names.push_back(n.c_str());
    ImPlot::SetupAxisTicks(ImAxis_Y1, tick_pos_.data(), static_cast<int>(tick_pos_.size()),
                           names.data());
    ImPlot::SetupAxisLimits(ImAxis_X1, 0, std::max(makespan_, 1.0) * 1.02, ImPlotCond_Always);
    ImPlot::SetupAxisLimits(ImAxis_Y1, -0.6, sms_ - 0.4, ImPlotCond_Always);
    ImDrawList* dl = ImPlot::GetPlotDrawList();
    ImPlot::PushPlotClipRect();
    const std::uint32_t capacity = static_cast<std::uint32_t>(sms_ * per_sm_);
    const double lane_h = 0.84 / lanes_;
    const BlockBox* hovered = nullptr;
    for (const BlockBox& b : boxes_) {
      const double top = b.sm - 0.42 + b.sub * lane_h;
      const ImVec2 a = ImPlot::PlotToPixels(b.start, top);
      const ImVec2 z = ImPlot::PlotToPixels(b.end, top + lane_h);
      const std::uint32_t round = capacity > 0 ? b.block / capacity : 0;
      const bool selected = b.block == session_->sel.block;
      char label[16];
      std::snprintf(label, sizeof label, "%u", b.block);
      if (view::TimelineBox(dl, a, z, palette::WarpU32(round), label,
                            selected ? palette::Text() : IM_COL32(0, 0, 0, 90),
                            selected ? 2.0f : 1.0f))
        hovered = &b;
    }
    ImPlot::PopPlotClipRect();
    if (hovered != nullptr) {
      ImGui::SetTooltip(
          "block %u on SM %d\n%.6g to %.6g %s (%.6g %s)\nclick: select it in every view",
          hovered->block, hovered->sm, hovered->start, hovered->end, unit_.c_str(),
          hovered->end - hovered->start, unit_.c_str());
      if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) session_->sel.block = hovered->block;
    }
    ImPlot::EndPlot();
  }

  void DrawTimelineKey() {
    ImGui::PushStyleColor(ImGuiCol_Text, palette::TextDim());
    ImGui::TextWrapped(
        "A box per block (its number inside), on the lane of the SM that ran it; blocks an SM "
        "holds at once share its lane. Colour: the round of dealing, block / (SMs x blocks per "
        "SM).");
    ImGui::PopStyleColor();
  }

  // Makespan against SMs: the model replays this run's blocks (their durations as run) on other
  // SM counts; "half the time with twice the SMs" until every block has a slot of its own.
  void DrawScaling(ImVec2 size) {
    if (!ImPlot::BeginPlot("makespan against SMs", size,
                           ImPlotFlags_NoMenus | ImPlotFlags_NoBoxSelect))
      return;
    ImPlot::SetupAxes("SMs", gpu_ ? "makespan (\xc2\xb5s)" : "makespan (units)");
    ImPlot::SetupAxisScale(ImAxis_X1, ImPlotScale_Log10);
    ImPlot::SetupAxisScale(ImAxis_Y1, ImPlotScale_Log10);  // T(1) / n: a straight line
    ImPlot::SetupLegend(ImPlotLocation_South,
                        ImPlotLegendFlags_Outside | ImPlotLegendFlags_Horizontal);
    ImPlotSpec line;  // not a wave's colour (the timeline's boxes)
    line.LineColor = Colour(palette::WarpU32(6));
    line.LineWeight = 2;
    line.Marker = ImPlotMarker_Circle;
    line.MarkerSize = 3;
    ImPlot::PlotLine("same blocks, model", scale_x_.data(), scale_y_.data(),
                     static_cast<int>(scale_x_.size()), line);
    if (!scale_y_.empty()) {  // perfect scaling from one SM: T(1) / n
      std::vector<double> ideal(scale_x_.size());
      for (std::size_t i = 0; i < ideal.size(); ++i) ideal[i] = scale_y_.front() / scale_x_[i];
      ImPlotSpec dashed;
      dashed.LineColor = Colour(palette::TextDim());
      dashed.LineWeight = 1;
      ImPlot::PlotLine("T(1) / SMs", scale_x_.data(), ideal.data(), static_cast<int>(ideal.size()),
                       dashed);
    }
    const double x = sms_, y = makespan_;
    ImPlotSpec now;
    now.Marker = ImPlotMarker_Diamond;
    now.MarkerSize = 9;
    now.MarkerFillColor = Colour(palette::WarpU32(4));
    now.MarkerLineColor = Colour(palette::WarpU32(4));
    ImPlot::PlotScatter("this run", &x, &y, 1, now);
    ImPlot::EndPlot();
  }

  void DrawPerSm(ImVec2 size) {
    if (!ImPlot::BeginPlot("blocks each SM ran", size,
                           ImPlotFlags_NoMenus | ImPlotFlags_NoBoxSelect | ImPlotFlags_NoLegend))
      return;
    ImPlot::SetupAxes("SM", "blocks", 0, ImPlotAxisFlags_AutoFit);
    ImPlot::SetupAxisLimits(ImAxis_X1, -0.7, sms_ - 0.3, ImPlotCond_Always);
    if (sms_ <= 16) {  // a tick per SM; ImPlot's own ticks past that
      std::vector<std::string> labels;
      for (std::size_t sm = 0; sm < per_sm_x_.size(); ++sm) labels.push_back(std::to_string(sm));
      std::vector<const char*> names;
      for (const std::string& l : labels) names.push_back(l.c_str());
      ImPlot::SetupAxisTicks(ImAxis_X1, per_sm_x_.data(), static_cast<int>(per_sm_x_.size()),
                             names.data());
    }
    ImPlotSpec bars;
    bars.FillColor = Colour(palette::WarpU32(5));
    bars.LineColor = Colour(palette::WarpU32(5));
    ImPlot::PlotBars("blocks", per_sm_x_.data(), per_sm_y_.data(),
                     static_cast<int>(per_sm_x_.size()), 0.7, bars);
    ImPlot::EndPlot();
  }

  bool gpu_ = false;
  std::string unit_ = "units", device_, limiter_;
  int sms_ = 1, per_sm_ = 1, lanes_ = 1, waves_ = 0;
  double makespan_ = 0;
  std::vector<BlockBox> boxes_;
  std::vector<double> scale_x_, scale_y_, per_sm_x_, per_sm_y_;
  std::vector<double> tick_pos_;
  std::vector<std::string> tick_names_;
};

}  // namespace

std::unique_ptr<Panel> MakeScalabilityPanel(Session* session) {
  return std::make_unique<ScalabilityPanel>(session);
}

}  // namespace ws
