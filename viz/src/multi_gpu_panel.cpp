// The multi-GPU view: one modelled time step of the multi-gpu lesson, a lane per GPU with its
// compute, its sends and receives of ghost planes and its idle time until the slowest GPU is
// done; and the speedup over one GPU against the number of planes for 2, 4 and 8 GPUs, with the
// point where compute covers communication marked on each: the slides' "linear scaling is
// achieved when computation time exceeds communication time".
#include <imgui.h>
#include <implot.h>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "view_util.h"
#include "warpscope/trace/lesson_figures.h"
#include "warpscope/trace/units.h"
#include "warpscope/viz/palette.h"
#include "warpscope/viz/views.h"

namespace ws {
namespace {

using view::Colour;

ImU32 WorkColour(GpuWork w) {
  switch (w) {
    case GpuWork::kCompute:
      return palette::WarpU32(0);
    case GpuWork::kSend:
      return palette::WarpU32(1);
    case GpuWork::kReceive:
      return palette::WarpU32(5);
    case GpuWork::kIdle:
      break;
  }
  return IM_COL32(128, 128, 128, 140);
}

std::string Printf(const char* fmt, ...) IM_FMTARGS(1);
std::string Printf(const char* fmt, ...) {
  char text[1024];
  va_list args;
  va_start(args, fmt);
  std::vsnprintf(text, sizeof text, fmt, args);
  va_end(args);
  return text;
}

// The view's paragraph: whole where there is room; where the panel is short (docked at 1280 x
// 720 and 150 %) its first sentence, the rest on hover, so that the plots keep their height.
void Summary(const std::string& line, const std::string& full) {
  if (ImGui::GetContentRegionAvail().y > 18 * ImGui::GetTextLineHeightWithSpacing()) {
    ImGui::TextWrapped("%s", full.c_str());
    return;
  }
  ImGui::TextWrapped("%s", line.c_str());
  ImGui::SetItemTooltip("%s", full.c_str());
}

class MultiGpuPanel : public view::FiguresPanel<MultiGpuFigures> {
 public:
  explicit MultiGpuPanel(Session* s)
      : FiguresPanel("multigpu", "Multi-GPU", s,
                     "Choose the lesson \"Multi-GPU\": a 3D stencil split along z over several "
                     "GPUs, each step's compute and ghost-plane exchange per GPU, and the "
                     "speedup against the problem's size.") {}

 protected:
  void Load(const LessonRun&, const MultiGpuFigures& f) override {
    for (auto& c : curves_) {
      c.x.clear();
      c.y.clear();
    }
    for (const ScalingPoint& p : f.scaling) {
      const int k = p.gpus == 2 ? 0 : p.gpus == 4 ? 1 : p.gpus == 8 ? 2 : -1;
      if (k < 0) continue;
      curves_[k].x.push_back(std::log2(static_cast<double>(p.nz)));
      curves_[k].y.push_back(p.speedup);
    }
    measured_.clear();
    if (!f.measured) return;
    for (const MeasuredScalingPoint& p : f.measured->scaling) {
      auto it = std::find_if(measured_.begin(), measured_.end(),
                             [&](const MeasuredCurve& c) { return c.transport == p.transport; });
      if (it == measured_.end()) it = measured_.insert(measured_.end(), {p.transport, {}, {}});
      const double x = std::log2(static_cast<double>(p.nz));
      it->measured.x.push_back(x);
      it->measured.y.push_back(p.step_us > 0 ? p.single_us / p.step_us : 0);
      it->model.x.push_back(x);
      it->model.y.push_back(p.model_us > 0 ? p.single_us / p.model_us : 0);
    }
  }

  void DrawFigures(const LessonRun&, const MultiGpuFigures& f) override {
    if (f.measured) {
      DrawMeasured(f, *f.measured);
      return;
    }
    view::BigText(1.6f, palette::WarpU32(0), "%.2fx", f.speedup);
    ImGui::SameLine();
    // Linear scaling needs the overlap: without it the exchange adds to every step.
    const std::string linear =
        f.crossover_z <= 0 ? std::string("")
        : f.overlap
            ? "; linear from nz = " + std::to_string(f.crossover_z)
            : "; compute covers the exchange from nz = " + std::to_string(f.crossover_z) +
                  ", but without overlap the speedup only approaches " + std::to_string(f.gpus);
    Summary(
        Printf("%d GPU%s, %d planes: a step takes %s against %s on one GPU.", f.gpus,
               f.gpus == 1 ? "" : "s", f.nz, FormatDuration(f.step_us / 1e3).c_str(),
               FormatDuration(f.single_us / 1e3).c_str()),
        Printf("%d GPU%s, %d planes of %d x %d (%s), %s, %s: a step takes %s against %s on "
               "one GPU. Compute %s on the largest slab, exchange %s on an inner GPU%s.",
               f.gpus, f.gpus == 1 ? "" : "s", f.nz, f.nx, f.ny, SlabText(f).c_str(),
               f.overlap ? "overlapped" : "compute then exchange", f.link_label.c_str(),
               FormatDuration(f.step_us / 1e3).c_str(), FormatDuration(f.single_us / 1e3).c_str(),
               FormatDuration(f.compute_us / 1e3).c_str(), FormatDuration(f.comm_us / 1e3).c_str(),
               linear.c_str()));
    // The lesson measured on two real GPUs, shipped with Warpscope (assets/traces).
    if (ImGui::SmallButton("Show the run measured on two GPUs"))
      session_->open_shipped = f.overlap ? "overlap" : "serial";
    ImGui::SetItemTooltip(
        "Opens the capture shipped with Warpscope: this variant measured on two GPUs joined by "
        "NVLink, each GPU's compute, sends and receives over three time steps, and the speedup "
        "against nz beside the model's.");
    view::UpdatingBadge(*session_);
    DrawBody("one time step", f.timeline, f.gpus, f.step_us,
             "Modelled: compute at the GPU's points a second, messages at the link's bandwidth "
             "plus its latency (docs/MULTI-GPU.md).",
             [&](ImVec2 size) { DrawScaling(f, size); });
  }

  // A run on real GPUs: its measured steps, and its speedup against nz beside the model's with
  // the measured inputs.
  void DrawMeasured(const MultiGpuFigures& f, const MultiGpuMeasurement& m) {
    const double speedup = m.step_us > 0 ? m.single_us / m.step_us : 0;
    view::BigText(1.6f, palette::WarpU32(0), "%.2fx", speedup);
    ImGui::SameLine();
    std::string link;
    for (const MeasuredLink& l : m.links) {
      if (l.transport != m.transport) continue;
      link = Printf("%.0f GB/s and %.1f us a message", l.gbps, l.latency_us);
    }
    Summary(
        Printf("Measured on %s: a step takes %s against %s on one GPU; the model predicts "
               "%s.",
               m.device.c_str(), FormatDuration(m.step_us / 1e3).c_str(),
               FormatDuration(m.single_us / 1e3).c_str(), FormatDuration(m.model_us / 1e3).c_str()),
        Printf("Measured on %s (%s): %d planes of %d x %d, %s, %s copies. A step takes %s "
               "against %s on one GPU (medians of %d steps). The model, given one GPU's "
               "measured %.1f billion points a second%s%s, predicts %s.%s%s",
               m.device.c_str(), m.topology.c_str(), m.nz, m.nx, m.ny,
               f.overlap ? "overlapped" : "compute then exchange", m.transport.c_str(),
               FormatDuration(m.step_us / 1e3).c_str(), FormatDuration(m.single_us / 1e3).c_str(),
               m.steps, m.mpoints / 1e3, link.empty() ? "" : " and the link's measured ",
               link.c_str(), FormatDuration(m.model_us / 1e3).c_str(), m.note.empty() ? "" : " ",
               m.note.c_str()));
    if (!m.matches_one_gpu) {
      ImGui::PushStyleColor(ImGuiCol_Text, view::HazardColour(HazardKind::kRaw));
      ImGui::TextWrapped("The field on %d GPUs differs from one GPU's.", m.gpus);
      ImGui::PopStyleColor();
    }
    view::UpdatingBadge(*session_);
    double end = 0;
    for (const GpuSegment& seg : m.timeline) end = std::max(end, seg.end_us);
    DrawBody("measured: " + std::to_string(m.timeline_steps) + " time steps", m.timeline, m.gpus,
             end,
             "Measured: CUDA events on each GPU, all GPUs started together; a receive is its "
             "neighbour's copy into this GPU.",
             [&](ImVec2 size) { DrawMeasuredScaling(m, size); });
  }

  // The timeline with its key beside the scaling plot where the panel is wide, above it where
  // it is tall.
  void DrawBody(const std::string& title, const std::vector<GpuSegment>& segments, int gpus,
                double end_us, const char* key_text, const std::function<void(ImVec2)>& scaling) {
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float min_h = 8 * ImGui::GetFontSize();
    const float key = 3.6f * ImGui::GetTextLineHeightWithSpacing();  // the key wraps to 3 lines
    if (avail.x > 1.6f * avail.y) {
      ImGui::BeginChild("##timeline_column", ImVec2(avail.x * 0.5f, 0));
      DrawTimeline(title.c_str(), segments, gpus, end_us,
                   ImVec2(-1, std::max(min_h, ImGui::GetContentRegionAvail().y - key)));
      DrawKey(key_text);
      ImGui::EndChild();
      ImGui::SameLine();
      scaling(ImVec2(-1, std::max(min_h, avail.y)));
    } else {
      DrawTimeline(title.c_str(), segments, gpus, end_us,
                   ImVec2(-1, std::max(min_h, avail.y * 0.45f)));
      DrawKey(key_text);
      scaling(ImVec2(-1, std::max(min_h, ImGui::GetContentRegionAvail().y)));
    }
  }

  // Measured speedup (markers, solid) and the model's with the measured inputs (dashed), per
  // transport, against nz.
  void DrawMeasuredScaling(const MultiGpuMeasurement& m, ImVec2 size) {
    if (!ImPlot::BeginPlot("speedup against planes, measured", size,
                           ImPlotFlags_NoMenus | ImPlotFlags_NoBoxSelect))
      return;
    ImPlot::SetupAxes("planes along z (nz)", "speedup over one GPU");
    static const double kTicks[] = {5, 6, 7, 8, 9, 10, 11};
    static const char* const kNames[] = {"32", "64", "128", "256", "512", "1024", "2048"};
    ImPlot::SetupAxisTicks(ImAxis_X1, kTicks, 7, kNames);
    ImPlot::SetupAxisLimits(ImAxis_X1, 4.8, 11.2, ImPlotCond_Always);
    ImPlot::SetupAxisLimits(ImAxis_Y1, 0, m.gpus * 1.15, ImPlotCond_Always);
    ImPlot::SetupLegend(ImPlotLocation_SouthEast);
    std::uint32_t colour = 1;
    for (const MeasuredCurve& c : measured_) {
      const ImU32 col = palette::WarpU32(colour);
      colour = colour == 1 ? 2 : 3;
      ImPlotSpec line;
      line.LineColor = Colour(col);
      line.LineWeight = 2.5f;
      line.Marker = ImPlotMarker_Circle;
      line.MarkerSize = 4;
      line.MarkerFillColor = Colour(col);
      const std::string label = "measured, " + c.transport;
      ImPlot::PlotLine(label.c_str(), c.measured.x.data(), c.measured.y.data(),
                       static_cast<int>(c.measured.x.size()), line);
      ImPlotSpec model;
      model.LineColor = Colour(col);
      model.LineColor.w = 0.8f;
      model.LineWeight = 1.5f;
      model.Marker = ImPlotMarker_Square;
      model.MarkerSize = 2.5f;
      model.MarkerFillColor = model.LineColor;
      const std::string model_label = "model, " + c.transport;
      ImPlot::PlotLine(model_label.c_str(), c.model.x.data(), c.model.y.data(),
                       static_cast<int>(c.model.x.size()), model);
    }
    ImPlotSpec ideal;
    ideal.LineColor = Colour(palette::TextDim());
    ideal.Flags = ImPlotInfLinesFlags_Horizontal;
    const double n = m.gpus;
    ImPlot::PlotInfLines("##ideal", &n, 1, ideal);
    const double run = m.nz > 0 ? std::log2(static_cast<double>(m.nz)) : 0;
    ImPlotSpec now;
    now.LineColor = Colour(palette::TextDim());
    ImPlot::PlotInfLines("this run's nz", &run, 1, now);
    ImPlot::EndPlot();
  }

 private:
  struct Curve {
    std::vector<double> x, y;
  };

  static std::string SlabText(const MultiGpuFigures& f) {
    if (f.slab_planes.empty()) return "?";
    const auto [lo, hi] = std::minmax_element(f.slab_planes.begin(), f.slab_planes.end());
    return *lo == *hi ? std::to_string(*lo) + " a GPU"
                      : std::to_string(*lo) + "-" + std::to_string(*hi) + " a GPU";
  }

  // A lane per GPU, GPU 0 on top: compute in the lower half, the sends above the receives in the
  // upper half (they run at once on the link's two directions), idle across the lane.
  void DrawTimeline(const char* title, const std::vector<GpuSegment>& segments, int gpus,
                    double end_us, ImVec2 size) {
    if (!ImPlot::BeginPlot(title, size, ImPlotFlags_NoLegend | ImPlotFlags_NoMenus)) return;
    ImPlot::SetupAxes("time (us)", nullptr, 0, ImPlotAxisFlags_Invert);
    lane_pos_.clear();
    lane_names_.clear();
    for (int g = 0; g < gpus; ++g) {
      lane_pos_.push_back(g);
      lane_names_.push_back("GPU " + std::to_string(g));
    }
    std::vector<const char*> names;
    for (const std::string& n : lane_names_) names.push_back(n.c_str());
    ImPlot::SetupAxisTicks(ImAxis_Y1, lane_pos_.data(), static_cast<int>(lane_pos_.size()),
                           names.data());
    ImPlot::SetupAxisLimits(ImAxis_Y1, -0.6, gpus - 0.4, ImPlotCond_Always);
    ImPlot::SetupAxisLimits(ImAxis_X1, 0, std::max(end_us, 1e-3) * 1.02, ImPlotCond_Always);
    ImDrawList* dl = ImPlot::GetPlotDrawList();
    ImPlot::PushPlotClipRect();
    const GpuSegment* hovered = nullptr;
    for (const GpuSegment& s : segments) {
      double top = s.gpu - 0.4, bottom = s.gpu + 0.4;
      if (s.kind == GpuWork::kCompute) top = s.gpu;
      if (s.kind == GpuWork::kSend) bottom = s.gpu - 0.2;
      if (s.kind == GpuWork::kReceive) top = s.gpu - 0.2, bottom = s.gpu;
      const ImVec2 a = ImPlot::PlotToPixels(s.start_us, top);
      const ImVec2 z = ImPlot::PlotToPixels(s.end_us, bottom);
      if (view::TimelineBox(dl, a, z, WorkColour(s.kind), "")) hovered = &s;
    }
    ImPlot::PopPlotClipRect();
    if (hovered != nullptr) {
      ImGui::SetTooltip("GPU %d, %s\n%s to %s (%s)", hovered->gpu, ToString(hovered->kind),
                        FormatDuration(hovered->start_us / 1e3).c_str(),
                        FormatDuration(hovered->end_us / 1e3).c_str(),
                        FormatDuration((hovered->end_us - hovered->start_us) / 1e3).c_str());
    }
    ImPlot::EndPlot();
  }

  void DrawKey(const char* how) {
    for (GpuWork w : {GpuWork::kCompute, GpuWork::kSend, GpuWork::kReceive, GpuWork::kIdle}) {
      if (w != GpuWork::kCompute) ImGui::SameLine();
      ImGui::ColorButton(ToString(w), Colour(WorkColour(w)), ImGuiColorEditFlags_NoTooltip,
                         ImVec2(ImGui::GetFontSize(), ImGui::GetFontSize()));
      ImGui::SameLine();
      ImGui::TextUnformatted(ToString(w));
    }
    ImGui::PushStyleColor(ImGuiCol_Text, palette::TextDim());
    ImGui::TextWrapped("%s", how);
    ImGui::PopStyleColor();
  }

  // Speedup against nz (log2), a line per GPU count with its ideal dashed and the point where
  // compute covers communication; the run's nz as a vertical line.
  void DrawScaling(const MultiGpuFigures& f, ImVec2 size) {
    if (!ImPlot::BeginPlot("speedup against planes", size,
                           ImPlotFlags_NoMenus | ImPlotFlags_NoBoxSelect))
      return;
    ImPlot::SetupAxes("planes along z (nz)", "speedup over one GPU");
    static const double kTicks[] = {5, 6, 7, 8, 9, 10, 11, 12, 13, 14};
    static const char* const kNames[] = {"32",   "64",   "128",  "256",  "512",
                                         "1024", "2048", "4096", "8192", "16384"};
    ImPlot::SetupAxisTicks(ImAxis_X1, kTicks, 10, kNames);
    ImPlot::SetupAxisLimits(ImAxis_X1, 5, 14, ImPlotCond_Always);
    ImPlot::SetupAxisLimits(ImAxis_Y1, 0, 8.8, ImPlotCond_Always);
    ImPlot::SetupLegend(ImPlotLocation_NorthWest);
    const int gpus[] = {2, 4, 8};
    const std::uint32_t colours[] = {2, 3, 5};  // 4 marks the crossover
    for (int k = 0; k < 3; ++k) {
      const ImU32 colour = palette::WarpU32(colours[k]);
      ImPlotSpec line;
      line.LineColor = Colour(colour);
      line.LineWeight = gpus[k] == f.gpus ? 3.0f : 1.8f;
      const std::string label = std::to_string(gpus[k]) + " GPUs";
      ImPlot::PlotLine(label.c_str(), curves_[k].x.data(), curves_[k].y.data(),
                       static_cast<int>(curves_[k].x.size()), line);
      ImPlotSpec ideal;
      ideal.LineColor = Colour(colour);
      ideal.LineColor.w = 0.45f;
      ideal.Flags = ImPlotInfLinesFlags_Horizontal;
      const double n = gpus[k];
      ImPlot::PlotInfLines(("##ideal" + label).c_str(), &n, 1, ideal);
    }
    const double run = f.nz > 0 ? std::log2(static_cast<double>(f.nz)) : 0;
    ImPlotSpec now;
    now.LineColor = Colour(palette::TextDim());
    ImPlot::PlotInfLines("this run's nz", &run, 1, now);
    if (f.crossover_z > 0 && f.overlap) {  // serial never reaches gpus: no point to mark
      const double cx = std::log2(static_cast<double>(f.crossover_z)), cy = f.gpus;
      ImPlotSpec mark;
      mark.Marker = ImPlotMarker_Diamond;
      mark.MarkerSize = 7;
      mark.MarkerFillColor = Colour(palette::WarpU32(4));
      mark.LineColor = Colour(palette::WarpU32(4));
      ImPlot::PlotScatter("compute = communication", &cx, &cy, 1, mark);
      ImPlot::Annotation(cx, cy, Colour(palette::WarpU32(4)), ImVec2(8, 14), true, "nz = %d",
                         f.crossover_z);
    }
    ImPlot::EndPlot();
  }

  struct MeasuredCurve {
    std::string transport;
    Curve measured, model;
  };

  Curve curves_[3];                      // 2, 4 and 8 GPUs
  std::vector<MeasuredCurve> measured_;  // a run on real GPUs: per transport
  std::vector<double> lane_pos_;
  std::vector<std::string> lane_names_;
};

}  // namespace

std::unique_ptr<Panel> MakeMultiGpuPanel(Session* session) {
  return std::make_unique<MultiGpuPanel>(session);
}

}  // namespace ws
