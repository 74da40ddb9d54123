// The float-sums view of the fp-order lesson: the kernel's sum, the CPU's sequential sum and the
// exact sum side by side (with their distance from the exact sum), and the kernel's order of
// additions tried at every block size, so the student sees the result move with the order.
#include <imgui.h>
#include <implot.h>

#include <cmath>
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

// Distance from the exact sum in units in the last place of a float of that size.
double FloatUlps(double value, double exact) {
  const double ulp = std::ldexp(1.0, std::ilogb(std::fabs(exact) > 0 ? exact : 1.0) - 23);
  return (value - exact) / ulp;
}

class SumsPanel : public view::FiguresPanel<FpSumFigures> {
 public:
  explicit SumsPanel(Session* s)
      : FiguresPanel("sums", "Float sums", s,
                     "Choose the lesson \"Floating-point sums depend on the order\": a "
                     "parallel sum against the CPU's sequential sum and the exact sum, at "
                     "every block size.") {}

  State Shown() const override {
    if (!loaded_) return {};
    // A float sum has up to 9 significant digits.
    return {{"kernel_sum", FormatNumber(gpu_, 9)},
            {"cpu_sum", FormatNumber(cpu_, 9)},
            {"exact_sum", FormatNumber(exact_, 9)},
            {"threads_per_block", FormatNumber(std::exp2(block_))}};
  }

 protected:
  void Load(const LessonRun&, const FpSumFigures& f) override {
    loaded_ = true;
    gpu_ = f.gpu_sum;
    cpu_ = f.cpu_sum;
    exact_ = f.exact_sum;
    x_.clear();
    y_.clear();
    for (const TreeSumPoint& p : f.vary_block) {
      x_.push_back(std::log2(static_cast<double>(p.block)));
      y_.push_back(p.tree_sum);
    }
    // log2 of the run's threads per block (a file from before it was kept: 256).
    block_ = std::log2(static_cast<double>(f.block > 0 ? f.block : 256));
  }
  void DrawFigures(const LessonRun& run, const FpSumFigures&) override {
    const double gpu = gpu_, cpu = cpu_, exact = exact_;
    const std::string kernel = "kernel, " + run.variant;
    if (ImGui::BeginTable("##sums", 3, ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_RowBg)) {
      ImGui::TableSetupColumn("sum");
      ImGui::TableSetupColumn("value");
      ImGui::TableSetupColumn("minus exact");
      ImGui::TableHeadersRow();
      Row(kernel.c_str(), gpu, exact, palette::WarpU32(4));
      Row("CPU, one after another", cpu, exact, palette::WarpU32(0));
      Row("exact", exact, exact, palette::WarpU32(2));
      ImGui::EndTable();
    }
    view::UpdatingBadge(*session_);
    DrawCurve(gpu, cpu, exact);
  }

 private:
  static void Row(const char* name, double v, double exact, ImU32 colour) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextColored(Colour(colour), "%s", name);
    ImGui::TableNextColumn();
    view::BigText(1.3f, ImGui::GetColorU32(ImGuiCol_Text), "%.9g", v);
    ImGui::TableNextColumn();
    if (v == exact) {
      ImGui::TextUnformatted("0");
    } else {
      ImGui::Text("%+.6g  (%+.1f float ulps)", v - exact, FloatUlps(v, exact));
    }
  }

  void DrawCurve(double gpu, double cpu, double exact) {
    if (!ImPlot::BeginPlot("the kernel's order at each block size", ImVec2(-1, -1),
                           ImPlotFlags_NoMenus | ImPlotFlags_NoBoxSelect)) {
      return;
    }
    static const double ticks[] = {5, 6, 7, 8, 9, 10};
    static const char* const labels[] = {"32", "64", "128", "256", "512", "1024"};
    ImPlot::SetupAxes("threads per block", "sum");
    ImPlot::SetupAxisTicks(ImAxis_X1, ticks, 6, labels);
    ImPlot::SetupAxisLimits(ImAxis_X1, 4.5, 10.5, ImPlotCond_Always);
    ImPlot::SetupLegend(ImPlotLocation_NorthEast);
    ImPlotSpec line;
    line.LineColor = Colour(palette::WarpU32(1));
    line.LineWeight = 2;
    line.Marker = ImPlotMarker_Circle;
    line.MarkerSize = 5;
    ImPlot::PlotLine("tree order", x_.data(), y_.data(), static_cast<int>(x_.size()), line);
    ImPlotSpec cpu_spec;
    cpu_spec.LineColor = Colour(palette::WarpU32(0));
    cpu_spec.LineWeight = 1.5f;
    cpu_spec.Flags = ImPlotInfLinesFlags_Horizontal;
    ImPlot::PlotInfLines("CPU", &cpu, 1, cpu_spec);
    ImPlotSpec exact_spec;
    exact_spec.LineColor = Colour(palette::WarpU32(2));
    exact_spec.LineWeight = 1.5f;
    exact_spec.Flags = ImPlotInfLinesFlags_Horizontal;
    ImPlot::PlotInfLines("exact", &exact, 1, exact_spec);
    const double block = block_;
    ImPlotSpec now;
    now.Marker = ImPlotMarker_Diamond;
    now.MarkerSize = 9;
    now.MarkerFillColor = Colour(palette::WarpU32(4));
    now.MarkerLineColor = Colour(palette::WarpU32(4));
    ImPlot::PlotScatter("this run", &block, &gpu, 1, now);
    ImPlot::EndPlot();
  }

  double gpu_ = 0, cpu_ = 0, exact_ = 0, block_ = 8;
  bool loaded_ = false;
  std::vector<double> x_, y_;  // log2(block size), the tree order's sum there
};

}  // namespace

std::unique_ptr<Panel> MakeSumsPanel(Session* session) {
  return std::make_unique<SumsPanel>(session);
}

}  // namespace ws
