// The Kernels view: every kernel of the run, one row each over all its launches, slowest first
// (trace/kernel_table.h): its time (modeled on the emulator, measured on a GPU), global sectors
// per request against the ideal, shared wavefronts against the ideal with the worst conflict, and
// races. Each row's worst figure is marked; a click shows the kernel's launch in every view.
// Under it, the roofline: each kernel's FLOPs per DRAM byte against its GFLOP/s, under the
// preset's DRAM and FP32 roofs (modeled on the emulator, measured time on a GPU), as Nsight
// Compute draws it: left of the ridge a kernel is bound by memory, right of it by arithmetic.
#include <imgui.h>
#include <implot.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include "view_util.h"
#include "warpscope/trace/kernel_table.h"
#include "warpscope/trace/units.h"
#include "warpscope/viz/palette.h"
#include "warpscope/viz/views.h"

namespace ws {
namespace {

class KernelsPanel : public Panel {
 public:
  explicit KernelsPanel(Session* session) : Panel("kernels", "Kernels"), session_(session) {}

  State Shown() const override {
    State s = {{"kernels", std::to_string(rows_.size())},
               {"note", note_},
               {"on_roofline", std::to_string(on_roofline_)},
               {"compact", compact_ ? "1" : "0"}};
    for (std::size_t i = 0; i < rows_.size(); ++i) {
      const std::string k = "row" + std::to_string(i);
      s.emplace_back(k, rows_[i].kernel);
      s.emplace_back(k + ".launches", std::to_string(rows_[i].launches));
      s.emplace_back(k + ".worst", rows_[i].worst);
      s.emplace_back(k + ".drawn_from",
                     rows_[i].has_records ? std::to_string(rows_[i].first_with_records + 1) : "");
      if (rows_[i].OnRoofline()) s.emplace_back(k + ".flops", std::to_string(rows_[i].flops));
      if (!rows_[i].engine.empty()) s.emplace_back(k + ".engine", rows_[i].engine);
      if (rows_[i].uncovered_launches > 0) s.emplace_back(k + ".coverage", rows_[i].coverage);
      if (rows_[i].tma_pieces > 0)
        s.emplace_back(k + ".tma_sectors", std::to_string(rows_[i].tma_sectors));
      if (!rows_[i].gpu_counters.empty()) {
        std::size_t differ = 0;
        for (const KernelRow::GpuCounter& c : rows_[i].gpu_counters) differ += c.Differs() ? 1 : 0;
        s.emplace_back(k + ".gpu_counters", std::to_string(rows_[i].gpu_counters.size()));
        s.emplace_back(k + ".gpu_counters_differ", std::to_string(differ));
      }
      if (rows_[i].gpu_counted_zero) s.emplace_back(k + ".gpu_counters_all_zero", "1");
      if (!rows_[i].gpu_counters_missing.empty())
        s.emplace_back(k + ".gpu_counters_missing", rows_[i].gpu_counters_missing);
    }
    return s;
  }

 protected:
  void DrawContents() override {
    if (view::NoLaunch(*session_,
                       "Every kernel the run launched, slowest first: its time, sectors per "
                       "request, bank conflicts and races over all its launches."))
      return;
    Refresh();
    view::UpdatingBadge(*session_);
    ImGui::TextWrapped("%s", note_.c_str());
    ImGui::SetItemTooltip("%s", model_.c_str());
    const ImGuiTableFlags flags = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH |
                                  ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollY |
                                  ImGuiTableFlags_ScrollX;
    // The table takes what its rows need, up to half the view when the roofline is drawn below.
    const float rows_h = ImGui::GetFrameHeightWithSpacing() * static_cast<float>(rows_.size() + 2);
    const float avail_h = ImGui::GetContentRegionAvail().y;
    const float table_h = on_roofline_ > 0 ? std::min(rows_h, avail_h * 0.5f) : avail_h;
    // A narrow view (a small screen at a large UI scale) keeps the columns that say which kernel
    // is slow and why: its name, its time, its worst figure and its launches; the rest in the
    // row's tooltip.
    compact_ = ImGui::GetContentRegionAvail().x < ImGui::GetFontSize() * 52;
    if (ImGui::BeginTable("##kernels", compact_ ? 4 : 7, flags, ImVec2(0, table_h))) {
      if (compact_)
        DrawCompactTable();
      else
        DrawTable();
      ImGui::EndTable();
    }
    DrawRoofline();
  }

 private:
  // Row `i`'s kernel, a new row of the table: a click shows its launch in every view (when one
  // kept records). The cell is the last item (for its tooltip).
  void KernelCell(std::size_t i) {
    const KernelRow& r = rows_[i];
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::PushID(static_cast<int>(i));
    const std::size_t shown = session_->run->main_launch_index();
    const bool selected = session_->run->launches[shown].kernel == r.kernel;
    if (ImGui::Selectable(r.kernel.c_str(), selected, ImGuiSelectableFlags_SpanAllColumns) &&
        r.has_records)
      session_->show_launch = static_cast<int>(r.first_with_records);
    ImGui::PopID();
    // Launches whose figures miss blocks (a GPU's record budget): said on the row, and how much.
    if (r.uncovered_launches > 0) {
      ImGui::SameLine();
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette::WarpU32(4)), "(partial)");
      ImGui::SetItemTooltip("In %zu of %zu launches the figures cover only part of the grid: %s",
                            r.uncovered_launches, r.launches, r.coverage.c_str());
    }
    if (r.partial) {  // a what-if over the kept blocks only: that launch is theirs, not the grid's
      ImGui::SameLine();
      ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette::WarpU32(4)), "(kept blocks)");
    }
    // Bulk copies through the TMA: outside the row's LSU figures, said on the row, and how much.
    if (r.tma_pieces > 0) {
      ImGui::SameLine();
      ImGui::TextDisabled("(TMA copies)");
      ImGui::SetItemTooltip(
          "Its bulk copies through the TMA read %s sectors (%s B), outside the sectors and "
          "wavefronts of this row: compute 9.0 makes a cuda::memcpy_async of 16-byte alignment "
          "into a block's cuda::barrier one cp.async.bulk, which takes no LSU request and no "
          "shared wavefront.",
          FormatNumber(static_cast<double>(r.tma_sectors)).c_str(),
          FormatNumber(static_cast<double>(r.tma_bytes)).c_str());
    }
    // The GPU's own counters for its first launch (CUPTI, the program as written): said on the
    // row, the figures more than 2 % from the recorded ones in the warning colour, and each
    // figure beside the recorded in the tooltip.
    if (!r.gpu_counters.empty()) {
      std::size_t differ = 0;
      std::string tip =
          "The GPU's own counters for its first launch (CUPTI's range profiler reading the "
          "metrics Nsight Compute reads, the program as written in a run of its own), beside the "
          "recorded first launch's:\n";
      for (const KernelRow::GpuCounter& c : r.gpu_counters) {
        differ += c.Differs() ? 1 : 0;
        tip += "\n" + c.figure + ": GPU " + FormatNumber(c.gpu) + ", recorded " +
               FormatNumber(static_cast<double>(c.recorded)) +
               (c.Differs() ? "  (more than 2 % apart)" : "");
      }
      ImGui::SameLine();
      if (differ > 0)
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(palette::WarpU32(4)),
                           "(GPU: %zu of %zu apart)", differ, r.gpu_counters.size());
      else
        ImGui::TextDisabled("(GPU agrees)");
      ImGui::SetItemTooltip("%s", tip.c_str());
    } else if (r.gpu_counted_zero) {
      ImGui::SameLine();
      ImGui::TextDisabled("(GPU agrees)");
      ImGui::SetItemTooltip(
          "The GPU's own counters for its first launch (CUPTI's range profiler reading the "
          "metrics Nsight Compute reads) give every figure as 0, as the recorded launch does.");
    } else if (!r.gpu_counters_missing.empty()) {
      ImGui::SameLine();
      ImGui::TextDisabled("(GPU: not read)");
      ImGui::SetItemTooltip(
          "The GPU's own counters were read for other kernels, not for this "
          "one: %s.",
          r.gpu_counters_missing.c_str());
    }
    // The emulator's SIMT engine could not run it a warp at a time (docs/ENGINE.md): said, and why.
    if (!r.engine.empty() && r.engine != "simt") {
      ImGui::SameLine();
      ImGui::TextDisabled("(thread by thread)");
      ImGui::SetItemTooltip(
          "The emulator ran this kernel one thread at a time, not a warp's 32 "
          "lanes together (the same figures, slower): %s",
          r.engine_reason.c_str());
    }
  }

  void DrawTable() {
    ImGui::TableSetupScrollFreeze(1, 1);
    ImGui::TableSetupColumn("kernel");
    ImGui::TableSetupColumn("launches");
    ImGui::TableSetupColumn("time");
    ImGui::TableSetupColumn("sectors/req (ideal)");
    ImGui::TableSetupColumn("shared wavefronts");
    ImGui::TableSetupColumn("races");
    ImGui::TableSetupColumn("drawn from");
    ImGui::TableHeadersRow();
    const ImU32 worst_bg = (palette::WarpU32(4) & 0x00FFFFFFu) | 0x50000000u;
    for (std::size_t i = 0; i < rows_.size(); ++i) {
      const KernelRow& r = rows_[i];
      KernelCell(i);
      ImGui::SetItemTooltip("%s", r.has_records ? "click: show its launch in every view"
                                                : "none of its launches kept block records");
      ImGui::TableNextColumn();
      ImGui::Text("%zu", r.launches);
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(FormatDuration(r.ms).c_str());
      ImGui::SetItemTooltip("%s over %zu launch%s; DRAM %s, shared memory %s%s%s%s%s",
                            r.time_kind.c_str(), r.launches, r.launches == 1 ? "" : "es",
                            FormatDuration(r.dram_ms).c_str(), FormatDuration(r.shared_ms).c_str(),
                            r.ClockBoundSaid() ? "; the clock its threads read adds " : "",
                            r.ClockBoundSaid() ? FormatDuration(r.clock_extra_ms).c_str() : "",
                            r.overhead_ms > 0 ? "; launch overhead apart: " : "",
                            r.overhead_ms > 0 ? FormatDuration(r.overhead_ms).c_str() : "");
      ImGui::TableNextColumn();
      if (r.worst == "sectors") ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, worst_bg);
      if (r.global_requests > 0)
        ImGui::Text("%.2f (%.2f)", r.SectorsPerRequest(), r.IdealSectorsPerRequest());
      else
        ImGui::TextDisabled("-");
      ImGui::TableNextColumn();
      if (r.worst == "banks") ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, worst_bg);
      if (r.shared_requests > 0) {
        ImGui::Text("%s, %u-way", FormatNumber(double(r.wavefronts)).c_str(), r.worst_bank_degree);
        ImGui::SetItemTooltip(
            "%s wavefronts for %s requests: %s needed, %s bank conflicts; the "
            "worst request %u-way",
            FormatNumber(double(r.wavefronts)).c_str(),
            FormatNumber(double(r.shared_requests)).c_str(),
            FormatNumber(double(r.ideal_wavefronts)).c_str(),
            FormatNumber(double(r.bank_conflicts())).c_str(), r.worst_bank_degree);
      } else {
        ImGui::TextDisabled("-");
      }
      ImGui::TableNextColumn();
      if (r.worst == "hazards") ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, worst_bg);
      ImGui::TextUnformatted(FormatNumber(static_cast<double>(r.hazards)).c_str());
      ImGui::TableNextColumn();
      if (r.has_records)
        ImGui::Text("%zu", r.first_with_records + 1);
      else
        ImGui::TextDisabled("no records");
    }
  }

  // The row's worst figure in words ("18.0 sectors a request, ideal 4.0").
  static std::string WorstText(const KernelRow& r) {
    char text[128];
    if (r.worst == "sectors")
      std::snprintf(text, sizeof text, "%.1f sectors a request, ideal %.1f", r.SectorsPerRequest(),
                    r.IdealSectorsPerRequest());
    else if (r.worst == "banks")
      std::snprintf(text, sizeof text, "%u-way: %s wavefronts, ideal %s", r.worst_bank_degree,
                    FormatNumber(double(r.wavefronts)).c_str(),
                    FormatNumber(double(r.ideal_wavefronts)).c_str());
    else if (r.worst == "hazards")
      std::snprintf(text, sizeof text, "%s races", FormatNumber(double(r.hazards)).c_str());
    else
      std::snprintf(text, sizeof text, "every figure at its ideal");
    return text;
  }

  void DrawCompactTable() {
    ImGui::TableSetupScrollFreeze(1, 1);
    ImGui::TableSetupColumn("kernel");
    ImGui::TableSetupColumn("time");
    ImGui::TableSetupColumn("worst figure");
    ImGui::TableSetupColumn("launches");
    ImGui::TableHeadersRow();
    const ImU32 worst_bg = (palette::WarpU32(4) & 0x00FFFFFFu) | 0x50000000u;
    for (std::size_t i = 0; i < rows_.size(); ++i) {
      const KernelRow& r = rows_[i];
      KernelCell(i);
      ImGui::SetItemTooltip(
          "sectors a request %.2f (ideal %.2f); shared wavefronts %s (ideal %s), worst %u-way; "
          "%s races; %s",
          r.SectorsPerRequest(), r.IdealSectorsPerRequest(),
          FormatNumber(double(r.wavefronts)).c_str(),
          FormatNumber(double(r.ideal_wavefronts)).c_str(), r.worst_bank_degree,
          FormatNumber(double(r.hazards)).c_str(),
          r.has_records ? ("drawn from launch " + std::to_string(r.first_with_records + 1)).c_str()
                        : "none of its launches kept block records");
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(FormatDuration(r.ms).c_str());
      ImGui::TableNextColumn();
      if (!r.worst.empty()) ImGui::TableSetBgColor(ImGuiTableBgTarget_CellBg, worst_bg);
      ImGui::TextUnformatted(WorstText(r).c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%zu", r.launches);
    }
  }

  // Log-log: FLOP/B across, GFLOP/s up; the roofs, and a point per kernel with its name.
  void DrawRoofline() {
    if (on_roofline_ == 0) {
      ImGui::TextDisabled(
          "Roofline: no kernel here counted its floating-point operations (a program's kernels "
          "do; a lesson's do not).");
      return;
    }
    const Roofline& roof = roof_;
    if (!ImPlot::BeginPlot("##roofline", ImVec2(-1, -1))) return;
    ImPlot::SetupAxes("FLOPs per DRAM byte", "GFLOP/s");
    ImPlot::SetupAxisScale(ImAxis_X1, ImPlotScale_Log10);
    ImPlot::SetupAxisScale(ImAxis_Y1, ImPlotScale_Log10);
    // From 1/100 of the smallest intensity (or the ridge) to 100 times the largest.
    double lo = roof.ridge(), hi = roof.ridge();
    for (const KernelRow& r : rows_) {
      if (!r.OnRoofline()) continue;
      lo = std::min(lo, r.ArithmeticIntensity());
      hi = std::max(hi, r.ArithmeticIntensity());
    }
    lo /= 10, hi *= 10;
    ImPlot::SetupAxesLimits(lo, hi, roof.Attainable(lo) / 100, roof.peak_gflops * 3,
                            ImPlotCond_Always);
    const double xs[3] = {lo, roof.ridge(), hi};
    const double ys[3] = {roof.Attainable(lo), roof.peak_gflops, roof.peak_gflops};
    ImPlotSpec line;
    line.LineColor = ImGui::ColorConvertU32ToFloat4(palette::TextDim());
    line.LineWeight = 2;
    line.Flags = ImPlotItemFlags_NoLegend;
    ImPlot::PlotLine("roof", xs, ys, 3, line);
    ImPlot::PlotText("DRAM", std::sqrt(lo * roof.ridge()),
                     roof.Attainable(std::sqrt(lo * roof.ridge())), ImVec2(0, -12));
    ImPlot::PlotText("FP32 peak", std::sqrt(roof.ridge() * hi), roof.peak_gflops, ImVec2(0, -12));
    for (std::size_t i = 0; i < rows_.size(); ++i) {
      const KernelRow& r = rows_[i];
      if (!r.OnRoofline()) continue;
      const double x = r.ArithmeticIntensity(), y = r.Gflops();
      ImPlotSpec dot;
      dot.Marker = ImPlotMarker_Circle;
      dot.MarkerSize = 6;
      dot.MarkerFillColor = ImGui::ColorConvertU32ToFloat4(palette::WarpU32(static_cast<int>(i)));
      dot.Flags = ImPlotItemFlags_NoLegend;
      ImPlot::PlotScatter(r.kernel.c_str(), &x, &y, 1, dot);
      ImPlot::PlotText(r.kernel.c_str(), x, y, ImVec2(0, 12));
    }
    ImPlot::EndPlot();
  }

  void Refresh() {
    if (generation_ == session_->generation) return;
    generation_ = session_->generation;
    const LessonRun& run = *session_->run;
    auto preset = FindDevicePreset(PresetOf(run));
    const DevicePreset p = preset.ok() ? *preset : DevicePreset{};
    rows_ = KernelTable(run, p);
    roof_ = RooflineOf(p);
    on_roofline_ = 0;
    for (const KernelRow& r : rows_) on_roofline_ += r.OnRoofline() ? 1 : 0;
    const bool measured = !rows_.empty() && rows_.front().time_kind == "measured";
    note_ = std::to_string(rows_.size()) + (rows_.size() == 1 ? " kernel, " : " kernels, ") +
            std::to_string(run.launches.size()) +
            (run.launches.size() == 1 ? " launch" : " launches") + ", slowest first; times " +
            (measured ? "measured on the GPU." : "modeled on " + p.name + " (hover).") +
            " Shaded: the row's worst figure. Drawn from: the launch its views show.";
    // On a GPU: why the GPU's own counters were not read (for some kernels, or at all).
    if (run.program && run.backend == "cuda" && !run.program->kernel_counters_missing.empty())
      note_ += " The GPU's own counters: " + run.program->kernel_counters_missing + ".";
    model_ = measured ? "CUPTI's kernel times in the program's run as written (no recording)"
                      : "Times " + ModelNote(p) +
                            ". The overhead of the launches is in each row's tooltip.";
  }

  Session* session_;
  std::uint64_t generation_ = ~0ull;
  std::vector<KernelRow> rows_;
  std::string note_, model_;
  Roofline roof_;
  std::size_t on_roofline_ = 0;  // rows with counted FLOPs and DRAM bytes
  bool compact_ = false;         // the last frame drew the narrow table
};

}  // namespace

std::unique_ptr<Panel> MakeKernelsPanel(Session* session) {
  return std::make_unique<KernelsPanel>(session);
}

}  // namespace ws
