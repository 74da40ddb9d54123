// The occupancy calculator of the "Optimizing CUDA" slides, live: how many blocks of a kernel one
// multiprocessor holds at once, which resource runs out first (warp slots, registers, shared
// memory or the block limit), and the slides' three graphs: occupancy against threads per block,
// registers per thread and shared memory per block, each with the current input marked.
//
// Inputs come from the occupancy lesson's sliders when that lesson ran; from the last launch of
// a kernel lesson (block size, static shared memory, and the registers the compiler gave the
// kernel: cudaFuncGetAttributes on a GPU, ptxas's table on the emulator); or from the panel's own
// sliders before any run. Index:
//   [SECTION] Inputs, curves and graphs: the calculator's inputs, one graph drawn with ImPlot
//   [SECTION] The panel's frame: the inputs in use, the device
//   [SECTION] Inputs: from a run (the lesson's sliders, a kernel's launch) or the panel's own
//   [SECTION] Result: blocks per multiprocessor and each resource's limit
//   [SECTION] Graphs: occupancy against threads, registers and shared memory
#include <imgui.h>
#include <implot.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "view_util.h"
#include "warpscope/trace/kernel_resources.h"
#include "warpscope/trace/lesson_figures.h"
#include "warpscope/trace/occupancy.h"
#include "warpscope/viz/palette.h"
#include "warpscope/viz/views.h"

namespace ws {
namespace {

constexpr float kWideLayout = 900;  // px: the three graphs side by side above this width
constexpr int kMaxThreadsSlider = 1024;
constexpr int kMaxRegistersSlider = 255;
constexpr int kMaxSharedSlider = 232448;  // the occupancy lesson's limit (227 KB, Hopper)
const ImVec4 kErrorColour(1.0f, 0.45f, 0.4f, 1.0f);

// [SECTION] Inputs, curves and graphs -------------------------------------------------------------

struct Inputs {
  int device = 0;  // index into OccupancyDevices()
  int threads = 256, registers = 32, shared_bytes = 0;
  friend bool operator==(const Inputs&, const Inputs&) = default;
};

// One of the slides' graphs: occupancy (%) as one input varies and the others stay.
struct Curve {
  std::vector<double> x, y;
};

enum class Source { kPanel, kLesson, kKernel };

int DeviceIndex(const std::string& name) {
  const auto& devices = OccupancyDevices();
  for (std::size_t i = 0; i < devices.size(); ++i) {
    if (devices[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

int DefaultDevice() {
  const int i = DeviceIndex("cc9.0");
  return i >= 0 ? i : static_cast<int>(OccupancyDevices().size()) - 1;
}

int ClampToInt(long long v, int lo, int hi) {
  return static_cast<int>(std::clamp<long long>(v, lo, hi));
}

Curve Percent(const std::vector<OccupancyPoint>& points) {
  Curve c;
  for (const OccupancyPoint& p : points) {
    c.x.push_back(p.x);
    c.y.push_back(p.occupancy * 100.0);
  }
  return c;
}

using view::Colour;

void DimText(const char* text) {
  ImGui::PushStyleColor(ImGuiCol_Text, palette::TextDim());
  ImGui::TextWrapped("%s", text);
  ImGui::PopStyleColor();
}

// One graph: the curve as stairs (every x in (x[i-1], x[i]] allocates like x[i], so the steps
// are exact), a vertical line at the current input and, when it computed, its point.
void DrawGraph(const char* title, const char* x_label, const Curve& curve, double x_max,
               double now_x, const double* now_y, ImVec2 size) {
  if (!ImPlot::BeginPlot(title, size,
                         ImPlotFlags_NoLegend | ImPlotFlags_NoMenus | ImPlotFlags_NoBoxSelect)) {
    return;
  }
  ImPlot::SetupAxes(x_label, "occupancy (%)");
  ImPlot::SetupAxisLimits(ImAxis_X1, 0, x_max, ImPlotCond_Always);
  ImPlot::SetupAxisLimits(ImAxis_Y1, 0, 105, ImPlotCond_Always);

  ImPlotSpec line;
  line.LineColor = Colour(palette::WarpU32(1));
  line.LineWeight = 2;
  line.Flags = ImPlotStairsFlags_PreStep;
  ImPlot::PlotStairs("occupancy", curve.x.data(), curve.y.data(), static_cast<int>(curve.x.size()),
                     line);

  const ImVec4 now_colour = Colour(palette::WarpU32(4));
  ImPlotSpec now_line;
  now_line.LineColor = now_colour;
  now_line.LineWeight = 1.5f;
  ImPlot::PlotInfLines("current", &now_x, 1, now_line);
  if (now_y != nullptr) {
    ImPlotSpec point;
    point.Marker = ImPlotMarker_Circle;
    point.MarkerSize = 6;
    point.MarkerFillColor = now_colour;
    point.MarkerLineColor = now_colour;
    ImPlot::PlotScatter("current##point", &now_x, now_y, 1, point);
    ImPlot::Annotation(now_x, *now_y, now_colour, ImVec2(10, -10), true, "%.0f %%", *now_y);
  }
  ImPlot::EndPlot();
}

class OccupancyPanel : public Panel {
 public:
  explicit OccupancyPanel(Session* s) : Panel("occupancy", "Occupancy"), session_(s) {
    own_.device = DefaultDevice();
    lesson_.device = own_.device;
  }

 protected:
  // [SECTION] The panel's frame -------------------------------------------------------------------

  void DrawContents() override {
    if (OccupancyDevices().empty()) {
      ImGui::TextColored(kErrorColour, "The calculator has no devices.");
      return;
    }
    SyncWithRun();
    DrawSource();
    DrawInputs();
    Recompute();
    ImGui::Separator();
    if (!error_.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, kErrorColour);
      ImGui::TextWrapped("%s", error_.c_str());
      ImGui::PopStyleColor();
    } else {
      DrawResult();
    }
    ImGui::Spacing();
    DrawGraphs();
  }

 private:
  // The inputs in use: the lesson's when the occupancy lesson ran, else the panel's own.
  const Inputs& in() const { return source_ == Source::kLesson ? lesson_ : own_; }

  const OccupancyDevice& device() const {
    const auto& devices = OccupancyDevices();
    return devices[static_cast<std::size_t>(
        std::clamp(in().device, 0, static_cast<int>(devices.size()) - 1))];
  }

  // [SECTION] Inputs ------------------------------------------------------------------------------

  // Takes the inputs from a new run: the occupancy lesson's parameters, or a kernel's launch.
  void SyncWithRun() {
    if (session_->generation == seen_generation_ && seen_any_) return;
    seen_generation_ = session_->generation;
    seen_any_ = true;
    computed_ = false;  // a new run: its curves, or new inputs
    const LessonRun* run = session_->run.get();
    const Source previous = source_;
    if (run == nullptr) {
      source_ = Source::kPanel;
      return;
    }
    if (const OccupancyFigures* f = run->figures_as<OccupancyFigures>()) {
      source_ = Source::kLesson;
      lesson_device_note_.clear();
      lesson_curves_ = OccupancyCurves{f->vary_threads, f->vary_registers, f->vary_shared};
      // The run's input, from its figures (-1 in files from before it was kept: left as is).
      if (f->threads >= 0) lesson_.threads = ClampToInt(f->threads, 0, 1 << 20);
      if (f->registers >= 0) lesson_.registers = ClampToInt(f->registers, 0, 1 << 20);
      if (f->shared_bytes >= 0) lesson_.shared_bytes = ClampToInt(f->shared_bytes, 0, 1 << 30);
      {
        const std::string& name = f->device;
        const int index = DeviceIndex(name);
        if (index >= 0) {
          lesson_.device = index;
        } else {
          lesson_device_note_ = "The lesson's device '" + name +
                                "' is not in the calculator's table of generations: these "
                                "figures use " +
                                device().name + "; the lesson panel has the device's own.";
        }
      }
      return;
    }
    if (!run->has_launch()) {
      source_ = Source::kPanel;
      return;
    }
    // A kernel lesson: take the block size and static shared memory of its launch when they
    // change (or the panel comes back from the occupancy lesson), so that the user's own
    // exploration survives re-runs of the same launch.
    source_ = Source::kKernel;
    const LaunchTrace& t = run->main_launch();
    const int threads = static_cast<int>(std::min<std::uint64_t>(t.block.count(), 1u << 20));
    const int shared = static_cast<int>(std::min<std::uint32_t>(t.shared_bytes, 1u << 30));
    const int registers = t.resources.known() ? t.resources.registers : -1;
    launch_kernel_ = t.kernel;
    launch_resources_ = t.resources;
    if (previous != Source::kKernel || run->lesson != launch_lesson_ ||
        threads != launch_threads_ || shared != launch_shared_ || registers != launch_registers_) {
      launch_lesson_ = run->lesson;
      launch_threads_ = threads;
      launch_shared_ = shared;
      launch_registers_ = registers;
      own_.threads = threads;
      own_.shared_bytes = shared;
      if (registers >= 0) own_.registers = registers;
    }
  }

  void DrawSource() {
    switch (source_) {
      case Source::kLesson:
        DimText("Inputs from the lesson's sliders (change them in the lesson panel).");
        if (!lesson_device_note_.empty()) {
          ImGui::PushStyleColor(ImGuiCol_Text, kErrorColour);
          ImGui::TextWrapped("%s", lesson_device_note_.c_str());
          ImGui::PopStyleColor();
        }
        break;
      case Source::kKernel: {
        std::string text = "Kernel " + launch_kernel_ + ": " + std::to_string(launch_threads_) +
                           " threads per block, " + std::to_string(launch_shared_) +
                           " B of static shared memory (from the launch)";
        if (launch_resources_.known()) {
          text += ", " + std::to_string(launch_resources_.registers) + " registers per thread (" +
                  launch_resources_.source + ")";
          if (launch_resources_.local_bytes > 0)
            text += "; " + std::to_string(launch_resources_.local_bytes) +
                    " B of local memory per thread (spills and arrays indexed at run time live "
                    "in device memory)";
          text += ". Change them here to see what more or fewer would do.";
        } else {
          text +=
              ". The compiler's registers per thread are not known for this kernel: set "
              "them here (nvcc -Xptxas -v prints them).";
        }
        DimText(text.c_str());
        break;
      }
      case Source::kPanel:
        DimText("No kernel run to take the inputs from: set them here.");
        break;
    }
  }

  void DrawInputs() {
    const bool from_lesson = source_ == Source::kLesson;
    const float width = std::min(ImGui::GetContentRegionAvail().x * 0.55f, 320.0f);
    // The lesson's inputs are shown, disabled, through a copy: they change only in its panel.
    Inputs shown = lesson_;
    Inputs& edit = from_lesson ? shown : own_;
    ImGui::PushID("inputs");
    ImGui::BeginDisabled(from_lesson);
    ImGui::SetNextItemWidth(width);
    if (ImGui::BeginCombo("Device", device().name.c_str())) {
      const auto& devices = OccupancyDevices();
      for (std::size_t i = 0; i < devices.size(); ++i) {
        const std::string label = devices[i].name + "  " + devices[i].description;
        const bool selected = static_cast<int>(i) == edit.device;
        if (ImGui::Selectable(label.c_str(), selected)) edit.device = static_cast<int>(i);
        if (selected) ImGui::SetItemDefaultFocus();
      }
      ImGui::EndCombo();
    }
    ImGui::SameLine();
    ImGui::TextDisabled("%s", device().description.c_str());
    const ImGuiSliderFlags flags = ImGuiSliderFlags_AlwaysClamp;
    ImGui::SetNextItemWidth(width);
    ImGui::SliderInt("Threads per block", &edit.threads, 1, kMaxThreadsSlider, "%d", flags);
    ImGui::SetNextItemWidth(width);
    ImGui::SliderInt("Registers per thread", &edit.registers, 0, kMaxRegistersSlider, "%d", flags);
    ImGui::SetNextItemWidth(width);
    ImGui::SliderInt("Shared bytes per block", &edit.shared_bytes, 0, kMaxSharedSlider, "%d",
                     flags);
    ImGui::EndDisabled();
    if (from_lesson) {
      ImGui::SameLine();
      ImGui::TextDisabled("(from the lesson's sliders)");
    }
    if (source_ == Source::kKernel &&
        (own_.threads != launch_threads_ || own_.shared_bytes != launch_shared_ ||
         (launch_registers_ >= 0 && own_.registers != launch_registers_))) {
      if (ImGui::SmallButton("Back to the launch's block")) {
        own_.threads = launch_threads_;
        own_.shared_bytes = launch_shared_;
        if (launch_registers_ >= 0) own_.registers = launch_registers_;
      }
    }
    ImGui::PopID();
  }

  State Shown() const override {
    const Inputs& i = in();
    const char* source = source_ == Source::kLesson   ? "lesson"
                         : source_ == Source::kKernel ? "kernel"
                                                      : "panel";
    return {{"source", source},
            {"device", device().name},
            {"threads", std::to_string(i.threads)},
            {"registers", std::to_string(i.registers)},
            {"shared_bytes", std::to_string(i.shared_bytes)},
            {"occupancy_percent", std::to_string(std::lround(result_.occupancy * 100.0))},
            {"active_blocks", std::to_string(result_.active_blocks)},
            {"active_warps", std::to_string(result_.active_warps)},
            {"limiter", result_.limiter}};
  }

  // [SECTION] Result ------------------------------------------------------------------------------

  // Recomputes the result and the three curves when an input changed.
  void Recompute() {
    if (computed_ && cached_ == in()) return;
    computed_ = true;
    cached_ = in();
    const OccupancyDevice& d = device();
    const OccupancyInput in{cached_.threads, cached_.registers, cached_.shared_bytes};
    auto r = ComputeOccupancy(d, in);
    if (r.ok()) {
      result_ = *r;
      error_.clear();
    } else {
      result_ = {};
      error_ = r.status().message();
    }

    // The lesson computed the curves with its run (for its own device, "gpu" included); for
    // a kernel's launch or the panel's own inputs they are computed here, the same way.
    const OccupancyCurves curves = source_ == Source::kLesson && lesson_curves_
                                       ? *lesson_curves_
                                       : ComputeOccupancyCurves(d, in);
    threads_curve_ = Percent(curves.threads);
    registers_curve_ = Percent(curves.registers);
    shared_curve_ = Percent(curves.shared);
  }

  void DrawResult() {
    const OccupancyDevice& d = device();
    const OccupancyResult& r = result_;
    ImGui::PushFont(nullptr, ImGui::GetStyle().FontSizeBase * 2.5f);
    ImGui::Text("%.0f %%", r.occupancy * 100.0);
    ImGui::PopFont();
    ImGui::Text("occupancy: %d of %d warp slots busy on each multiprocessor", r.active_warps,
                d.max_warps_per_sm);

    if (r.limiter == "threads_per_block") {
      ImGui::PushStyleColor(ImGuiCol_Text, kErrorColour);
      ImGui::TextWrapped(
          "%d threads per block is over %s's limit of %d: the launch fails, no block runs.",
          in().threads, d.name.c_str(), d.max_threads_per_block);
      ImGui::PopStyleColor();
      return;
    }
    ImGui::Text("Active per multiprocessor: %d blocks, %d warps, %d threads", r.active_blocks,
                r.active_warps, r.active_threads);
    ImGui::TextDisabled("Per block: %d warps, %d registers and %d B of shared memory allocated",
                        r.warps_per_block, r.registers_per_block, r.shared_per_block);
    ImGui::TextDisabled("On the whole %s: %d multiprocessors x %d blocks = %d blocks at once",
                        d.name.c_str(), d.multiprocessors, r.active_blocks,
                        d.multiprocessors * r.active_blocks);
    DrawLimits();
  }

  // Each resource's limit on blocks per multiprocessor; the smallest binds.
  void DrawLimits() {
    const OccupancyDevice& d = device();
    const OccupancyResult& r = result_;
    struct Row {
      const char* name;
      int blocks;
      std::string why;
    };
    const std::string reserved =
        d.shared_reserved_per_block > 0
            ? ", incl. " + std::to_string(d.shared_reserved_per_block) + " B reserved"
            : std::string();
    const Row rows[] = {
        {"warps", r.limit_warps,
         std::to_string(d.max_warps_per_sm) + " warp slots / " + std::to_string(r.warps_per_block) +
             " warps per block"},
        {"registers", r.limit_registers,
         in().registers == 0 ? std::string("0 registers per thread: not counted")
                             : std::to_string(d.registers_per_sm) + " registers / " +
                                   std::to_string(r.registers_per_block) + " per block"},
        {"shared", r.limit_shared,
         std::to_string(d.shared_per_sm) + " B / " + std::to_string(r.shared_per_block) +
             " B per block" + reserved},
        {"blocks", r.limit_blocks,
         "at most " + std::to_string(d.max_blocks_per_sm) + " blocks per multiprocessor"},
    };
    const ImGuiTableFlags flags = ImGuiTableFlags_BordersInnerH | ImGuiTableFlags_SizingFixedFit |
                                  ImGuiTableFlags_NoSavedSettings;
    if (!ImGui::BeginTable("limits", 4, flags)) return;
    ImGui::TableSetupColumn("Limit");
    ImGui::TableSetupColumn("Blocks / SM");
    ImGui::TableSetupColumn("From");
    ImGui::TableSetupColumn("");
    ImGui::TableHeadersRow();
    for (const Row& row : rows) {
      const bool binds = r.limiter == row.name;
      ImGui::TableNextRow();
      if (binds) ImGui::TableSetBgColor(ImGuiTableBgTarget_RowBg0, palette::WarpU32(0, 70));
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(row.name);
      ImGui::TableNextColumn();
      ImGui::Text("%d", row.blocks);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(row.why.c_str());
      ImGui::TableNextColumn();
      if (binds) ImGui::TextColored(Colour(palette::WarpU32(0)), "binds");
    }
    ImGui::EndTable();
  }

  // [SECTION] Graphs ------------------------------------------------------------------------------

  void DrawGraphs() {
    const OccupancyDevice& d = device();
    const bool ok = error_.empty() && result_.limiter != "threads_per_block";
    const double now = result_.occupancy * 100.0;
    const double* now_y = ok ? &now : nullptr;
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float spacing = ImGui::GetStyle().ItemSpacing.x;
    const bool wide = avail.x > kWideLayout;
    const ImVec2 size =
        wide ? ImVec2((avail.x - 2 * spacing) / 3, std::clamp(avail.y, 200.0f, 340.0f))
             : ImVec2(avail.x, 220.0f);
    ImGui::PushID("graphs");
    DrawGraph("Occupancy vs threads per block##threads", "threads per block", threads_curve_,
              std::max(d.max_threads_per_block, in().threads) + 16.0, in().threads, now_y, size);
    if (wide) ImGui::SameLine();
    DrawGraph("Occupancy vs registers per thread##registers", "registers per thread",
              registers_curve_, std::max(d.max_registers_per_thread, in().registers) + 4.0,
              in().registers, now_y, size);
    if (wide) ImGui::SameLine();
    DrawGraph("Occupancy vs shared memory per block##shared", "shared bytes per block",
              shared_curve_, std::max(d.shared_per_sm, in().shared_bytes) * 1.02, in().shared_bytes,
              now_y, size);
    ImGui::PopID();
  }

  Session* session_;
  std::uint64_t seen_generation_ = 0;
  bool seen_any_ = false;
  Source source_ = Source::kPanel;
  Inputs own_;     // the panel's sliders (kernel lessons, no run)
  Inputs lesson_;  // the occupancy lesson's parameters
  std::string lesson_device_note_;
  std::optional<OccupancyCurves> lesson_curves_;  // the lesson run's own graphs
  // The kernel launch the inputs were last taken from.
  std::string launch_lesson_, launch_kernel_;
  int launch_threads_ = -1, launch_shared_ = -1, launch_registers_ = -1;
  KernelResources launch_resources_;  // the compiler's figures for the kernel
  // The cache: what was computed for `cached_`.
  bool computed_ = false;
  Inputs cached_;
  OccupancyResult result_;
  std::string error_;
  Curve threads_curve_, registers_curve_, shared_curve_;
};

}  // namespace

std::unique_ptr<Panel> MakeOccupancyPanel(Session* session) {
  return std::make_unique<OccupancyPanel>(session);
}

}  // namespace ws
