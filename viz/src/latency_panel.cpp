// The latency view: the warp-scheduler model's timeline (a lane per warp: issuing, waiting on
// memory, ready but not picked; and a lane of idle issue slots) and utilisation against the
// number of warps, with the slides' estimate and the model's answer marked.
#include <imgui.h>
#include <implot.h>

#include <algorithm>
#include <string>
#include <vector>

#include "view_util.h"
#include "warpscope/trace/lesson_figures.h"
#include "warpscope/viz/palette.h"
#include "warpscope/viz/views.h"

namespace ws {
namespace {

struct Segment {
  int warp;  // -1: idle issue slot
  double start, end;
  int kind;  // WarpSegment::Kind: 0 issue, 1 load, 2 waiting, 3 ready, 4 register dependency
};

using view::Colour;

class LatencyPanel : public view::FiguresPanel<LatencyFigures> {
 public:
  explicit LatencyPanel(Session* s)
      : FiguresPanel("latency", "Latency", s,
                     "Choose the lesson \"Warps hiding memory latency\": a model of one "
                     "multiprocessor issuing warps while others wait on memory, with "
                     "utilisation against the number of warps.") {}

 protected:
  void DrawFigures(const LessonRun&, const LatencyFigures&) override {
    ImGui::PushStyleColor(ImGuiCol_Text, palette::TextDim());
    ImGui::TextWrapped("A model of the warp scheduler, not a measurement.");
    ImGui::PopStyleColor();
    view::BigText(1.6f, palette::WarpU32(utilisation_ >= 0.9999 ? 2 : 5), "%.1f %%",
                  utilisation_ * 100);
    ImGui::SameLine();
    ImGui::TextWrapped(
        "busy with %d warps. Saturates at %d warps in this model; the slides' estimate, "
        "%s, is %d.",
        warps_, saturate_,
        dependency_ ? "dependency latency / issue cycles"
                    : "latency / (instructions x issue cycles)",
        slide_);
    view::UpdatingBadge(*session_);
    // Side by side when the panel is wide, else one above the other.
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float min_h = 9 * ImGui::GetFontSize();
    if (avail.x > 1.6f * avail.y) {
      const float w = avail.x * 0.62f;
      ImGui::BeginChild("##timeline_column", ImVec2(w, 0));
      DrawTimeline(ImVec2(-1, std::max(min_h, ImGui::GetContentRegionAvail().y -
                                                  3.2f * ImGui::GetTextLineHeightWithSpacing())));
      ImGui::EndChild();
      ImGui::SameLine();
      DrawCurve(ImVec2(-1, std::max(min_h, avail.y)));
    } else {
      DrawTimeline(ImVec2(-1, std::max(min_h, avail.y * 0.5f)));
      DrawCurve(ImVec2(-1, std::max(min_h, ImGui::GetContentRegionAvail().y)));
    }
  }

 private:
  void Load(const LessonRun&, const LatencyFigures& f) override {
    segments_.clear();
    curve_x_.clear();
    curve_y_.clear();
    utilisation_ = f.utilisation;
    saturate_ = f.warps_to_saturate;
    slide_ = f.slide_estimate;
    dependency_ = f.dependency_latency > 0;
    // The run's warps and a warp's period come in the figures; a file from before they did:
    // the warps the timeline shows, and the default period.
    warps_ = f.warps;
    for (const LatencySegmentFigure& seg : f.timeline) {
      if (f.warps == 0) warps_ = std::max(warps_, seg.warp + 1);
    }
    period_ = f.period_cycles > 0 ? f.period_cycles : 216;
    for (const LatencySegmentFigure& seg : f.timeline) {
      segments_.push_back(
          {seg.warp, static_cast<double>(seg.start), static_cast<double>(seg.end), seg.kind});
    }
    for (const LatencyCurvePoint& p : f.vary_warps) {
      curve_x_.push_back(p.warps);
      curve_y_.push_back(p.utilisation * 100);
    }
    cycles_ = static_cast<double>(f.cycles);
  }

  // Lanes top to bottom: warp 0 .. warp n-1, then the idle issue slots.
  void DrawTimeline(ImVec2 size) {
    if (!ImPlot::BeginPlot("##timeline", size, ImPlotFlags_NoLegend | ImPlotFlags_NoMenus)) return;
    ImPlot::SetupAxes("cycles", nullptr, 0, ImPlotAxisFlags_Invert);
    // Lane labels: every warp while they fit, then every 4th; "idle" for the bottom lane.
    lane_pos_.clear();
    lane_names_.clear();
    const int every = warps_ <= 16 ? 1 : 4;
    for (int w = 0; w < warps_; w += every) {
      lane_pos_.push_back(w);
      lane_names_.push_back("w" + std::to_string(w));
    }
    lane_pos_.push_back(warps_ + 0.25);
    lane_names_.push_back("idle");
    std::vector<const char*> names;
    for (const std::string& n : lane_names_) names.push_back(n.c_str());
    ImPlot::SetupAxisTicks(ImAxis_Y1, lane_pos_.data(), static_cast<int>(lane_pos_.size()),
                           names.data());
    // Three periods of a warp (issue + latency) show the pattern; zoom out for the rest.
    ImPlot::SetupAxisLimits(ImAxis_X1, 0, std::min(cycles_, 3 * period_ + 16), ImPlotCond_Always);
    ImPlot::SetupAxisLimits(ImAxis_Y1, -0.5, warps_ + 1.0, ImPlotCond_Always);
    ImDrawList* dl = ImPlot::GetPlotDrawList();
    ImPlot::PushPlotClipRect();
    const ImU32 waiting = IM_COL32(120, 120, 128, 110);
    const ImU32 idle = IM_COL32(230, 60, 50, 255);
    const ImU32 dependency = IM_COL32(240, 180, 70, 220);
    for (const Segment& s : segments_) {
      const double lane = s.warp < 0 ? warps_ + 0.25 : s.warp;
      const double top = lane - 0.38, bottom = lane + 0.38;
      ImVec2 a = ImPlot::PlotToPixels(s.start, top);
      ImVec2 b = ImPlot::PlotToPixels(s.end, bottom);
      if (s.warp < 0) {
        dl->AddRectFilled(a, b, idle);
      } else if (s.kind == 2) {
        dl->AddRectFilled(ImVec2(a.x, (a.y + b.y) / 2 - 1), ImVec2(b.x, (a.y + b.y) / 2 + 1),
                          waiting);
      } else if (s.kind == 4) {  // waiting for a register: a dashed line
        const float mid = (a.y + b.y) / 2;
        for (float x = a.x; x < b.x; x += 6.0f)
          dl->AddLine(ImVec2(x, mid), ImVec2(std::min(x + 3.0f, b.x), mid), dependency, 2.0f);
      } else if (s.kind == 3) {
        dl->AddRect(a, b, palette::WarpU32(static_cast<std::uint32_t>(s.warp), 120));
      } else {
        dl->AddRectFilled(a, b, palette::WarpU32(static_cast<std::uint32_t>(s.warp)));
        if (s.kind == 1) dl->AddRect(a, b, IM_COL32(255, 255, 255, 200), 0.0f, 1.5f);
      }
    }
    ImPlot::PopPlotClipRect();
    ImPlot::EndPlot();
    ImGui::PushStyleColor(ImGuiCol_Text, palette::TextDim());
    ImGui::TextWrapped(
        "One lane per warp: filled, issuing (outlined white: the load); thin grey line, waiting "
        "for memory; dashed amber, waiting for the previous instruction's result (a register "
        "dependency); hollow, ready but another warp is issuing. Bottom lane, red: issue slots "
        "no warp could use.");
    ImGui::PopStyleColor();
  }

  void DrawCurve(ImVec2 size) {
    if (!ImPlot::BeginPlot("utilisation against warps", size,
                           ImPlotFlags_NoMenus | ImPlotFlags_NoBoxSelect)) {
      return;
    }
    ImPlot::SetupAxes("warps", "busy (%)");
    ImPlot::SetupLegend(ImPlotLocation_SouthEast);
    ImPlot::SetupAxisLimits(ImAxis_X1, 0, curve_x_.empty() ? 48 : curve_x_.back() + 1,
                            ImPlotCond_Always);
    ImPlot::SetupAxisLimits(ImAxis_Y1, 0, 105, ImPlotCond_Always);
    ImPlotSpec line;
    line.LineColor = Colour(palette::WarpU32(1));
    line.LineWeight = 2;
    line.Marker = ImPlotMarker_Circle;
    line.MarkerSize = 3;
    ImPlot::PlotLine("model", curve_x_.data(), curve_y_.data(), static_cast<int>(curve_x_.size()),
                     line);
    const double slide = slide_, model = saturate_, now = warps_;
    ImPlotSpec slide_line;
    slide_line.LineColor = Colour(palette::WarpU32(0));
    slide_line.LineWeight = 1.5f;
    ImPlot::PlotInfLines("slides' estimate", &slide, 1, slide_line);
    ImPlotSpec model_line;
    model_line.LineColor = Colour(palette::WarpU32(2));
    model_line.LineWeight = 1.5f;
    ImPlot::PlotInfLines("model saturates", &model, 1, model_line);
    ImPlotSpec now_spec;
    now_spec.Marker = ImPlotMarker_Diamond;
    now_spec.MarkerSize = 8;
    now_spec.MarkerFillColor = Colour(palette::WarpU32(4));
    now_spec.MarkerLineColor = Colour(palette::WarpU32(4));
    const double now_y = utilisation_ * 100;
    ImPlot::PlotScatter("this run", &now, &now_y, 1, now_spec);
    ImPlot::EndPlot();
  }

  std::vector<Segment> segments_;
  std::vector<double> curve_x_, curve_y_;
  std::vector<double> lane_pos_;
  std::vector<std::string> lane_names_;
  double utilisation_ = 0, cycles_ = 1, period_ = 216;
  bool dependency_ = false;  // the register-dependency variant
  int saturate_ = 0, slide_ = 0, warps_ = 0;
};

}  // namespace

std::unique_ptr<Panel> MakeLatencyPanel(Session* session) {
  return std::make_unique<LatencyPanel>(session);
}

}  // namespace ws
