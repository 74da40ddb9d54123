// The transfers view: copy bandwidth between host and GPU against size (host to device and back,
// pageable and pinned, with the fastest copy measured), and the copy-in / kernel / copy-back
// pipeline on one stream against several, each step a box on its stream's lane (CUDA events);
// for the zero-copy variant, the time of copies against a kernel on mapped host memory instead.
// Measured on a GPU; with none, the lesson panel loads the capture shipped with Warpscope.
#include <imgui.h>
#include <implot.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

#include "view_util.h"
#include "warpscope/trace/lesson_figures.h"
#include "warpscope/trace/transfer_sizes.h"
#include "warpscope/trace/units.h"
#include "warpscope/viz/palette.h"
#include "warpscope/viz/views.h"

namespace ws {
namespace {

using view::Colour;

struct Op {
  int mode, stream, kind, chunk;  // mode 0: one stream, 1: several; kind 0 in, 1 kernel, 2 back
  double start, end;
};

const char* const kKindNames[] = {"copy in", "kernel", "copy back"};

ImU32 KindColour(int kind) {
  return palette::WarpU32(kind == 0 ? 1 : kind == 1 ? 0 : 5);
}

class TransfersPanel : public view::FiguresPanel<TransferFigures> {
 public:
  explicit TransfersPanel(Session* s)
      : FiguresPanel("transfers", "Transfers", s,
                     "Choose the lesson \"Host-device transfers\": copy bandwidth between "
                     "host and GPU against size, pageable against pinned memory, and "
                     "copies overlapping kernels on streams.") {}

  State Shown() const override {
    if (memory_.empty()) return {};
    auto ms = [](double v) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.3f", v);
      return std::string(buf);
    };
    std::size_t lanes[2] = {0, 0};  // boxes on one stream, and on the overlapped streams
    for (const Op& op : ops_) ++lanes[op.mode == 0 ? 0 : 1];
    return {{"memory", memory_},
            {"streams", std::to_string(streams_)},
            {"chunks", std::to_string(chunks_)},
            {"serial_ms", ms(serial_ms_)},
            {"overlapped_ms", ms(overlapped_ms_)},
            {"serial_boxes", std::to_string(lanes[0])},
            {"overlapped_boxes", std::to_string(lanes[1])}};
  }

 protected:
  void DrawFigures(const LessonRun& run, const TransferFigures&) override {
    DrawHeader(run);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float min_h = 8 * ImGui::GetFontSize();
    // The second plot: zero copy against copies (variant zero-copy), else the pipeline.
    auto second = [&] {
      const float key = 3.3f * ImGui::GetTextLineHeightWithSpacing();
      const ImVec2 size(-1, std::max(min_h, ImGui::GetContentRegionAvail().y - key));
      if (zero_copy_.passes > 0) {
        DrawZeroCopy(size);
        DrawZeroCopyKey();
      } else {
        DrawPipeline(size);
        DrawPipelineKey();
      }
    };
    if (avail.x > 1.6f * avail.y) {
      const float w = avail.x * 0.45f;
      DrawBandwidth(ImVec2(w, std::max(min_h, avail.y)));
      ImGui::SameLine();
      ImGui::BeginChild("##pipeline_column", ImVec2(0, 0));
      second();
      ImGui::EndChild();
    } else {
      DrawBandwidth(ImVec2(-1, std::max(min_h, avail.y * 0.48f)));
      second();
    }
  }

 private:
  void Load(const LessonRun&, const TransferFigures& f) override {
    x_.clear();
    for (auto& series : series_) series.clear();
    for (const TransferPoint& p : f.sweep) {
      x_.push_back(std::log2(p.bytes));
      series_[0].push_back(p.h2d_pinned);
      series_[1].push_back(p.h2d_pageable);
      series_[2].push_back(p.d2h_pinned);
      series_[3].push_back(p.d2h_pageable);
    }
    tick_pos_ = x_;  // both plots' x axis: the sweep's sizes, named
    tick_names_.clear();
    for (double x : x_)
      tick_names_.push_back(TransferSizeName(static_cast<std::size_t>(std::exp2(x))));
    peak_ = f.peak_gbps;
    size_ = f.size_bytes;
    ops_.clear();
    const PipelineFigures& o = f.overlap;  // its reader checked every step's stream and kind
    streams_ = o.streams;
    chunks_ = o.chunks;
    serial_ms_ = o.serial_ms;
    overlapped_ms_ = o.overlapped_ms;
    memory_ = o.memory;
    for (const PipelineStep& a : o.ops)
      ops_.push_back({a.mode, a.stream, a.kind, a.chunk, a.start, a.end});
    pinned_ = memory_ != "pageable";
    h2d_ = pinned_ ? f.h2d_pinned_gbps : f.h2d_pageable_gbps;
    h2d_other_ = pinned_ ? f.h2d_pageable_gbps : f.h2d_pinned_gbps;
    d2h_pinned_ = f.d2h_pinned_gbps;
    d2h_pageable_ = f.d2h_pageable_gbps;
    zero_copy_ = f.zero_copy;
    zx_.clear();
    for (auto& series : zy_) series.clear();
    for (const ZeroCopyPoint& p : f.zero_copy.sweep) {
      zx_.push_back(std::log2(p.bytes));
      zy_[0].push_back(p.explicit_ms);
      zy_[1].push_back(p.mapped_ms);
    }
  }

  // The x axis of both plots (inside BeginPlot): a tick per size of the sweep, log2 spaced.
  void SetupSizeAxis() {
    std::vector<const char*> names;
    for (const std::string& n : tick_names_) names.push_back(n.c_str());
    if (tick_pos_.empty()) return;
    ImPlot::SetupAxisTicks(ImAxis_X1, tick_pos_.data(), static_cast<int>(tick_pos_.size()),
                           names.data());
    ImPlot::SetupAxisLimits(ImAxis_X1, tick_pos_.front() - 0.5, tick_pos_.back() + 0.5,
                            ImPlotCond_Always);
  }

  // Time against size, log-log: copy in + kernels + copy back, and the kernels on mapped memory.
  void DrawZeroCopy(ImVec2 size) {
    if (!ImPlot::BeginPlot("zero copy against copies", size,
                           ImPlotFlags_NoMenus | ImPlotFlags_NoBoxSelect))
      return;
    ImPlot::SetupAxes("bytes", "time (ms)");
    ImPlot::SetupAxisScale(ImAxis_Y1, ImPlotScale_Log10);
    SetupSizeAxis();
    ImPlot::SetupLegend(ImPlotLocation_NorthWest);
    const std::string labels[] = {
        "copy in + " + std::to_string(zero_copy_.passes) + " kernel(s) + copy back",
        std::to_string(zero_copy_.passes) + " kernel(s) on mapped host memory"};
    const int colours[] = {1, 3};  // 4 is the "this size" line
    for (int i = 0; i < 2; ++i) {
      ImPlotSpec line;
      line.LineColor = Colour(palette::WarpU32(static_cast<std::uint32_t>(colours[i])));
      line.LineWeight = 2.5f;
      line.Marker = i == 0 ? ImPlotMarker_Circle : ImPlotMarker_Diamond;
      line.MarkerSize = 4;
      ImPlot::PlotLine(labels[i].c_str(), zx_.data(), zy_[i].data(), static_cast<int>(zx_.size()),
                       line);
    }
    const double chosen = size_ > 0 ? std::log2(size_) : 0;
    ImPlotSpec now;
    now.LineColor = Colour(palette::WarpU32(4));
    now.LineWeight = 1.5f;
    ImPlot::PlotInfLines("this size", &chosen, 1, now);
    ImPlot::EndPlot();
  }

  void DrawZeroCopyKey() {
    const ZeroCopyFigures& z = zero_copy_;
    ImGui::TextWrapped("%s, %d pass%s: zero copy %s, copies %s: %s %.2fx.",
                       TransferSizeName(static_cast<std::size_t>(size_)).c_str(), z.passes,
                       z.passes == 1 ? "" : "es", FormatDuration(z.mapped_ms).c_str(),
                       FormatDuration(z.explicit_ms).c_str(),
                       z.speedup >= 1.0 ? "zero copy wins," : "copies win, zero copy at",
                       z.speedup);
    ImGui::PushStyleColor(ImGuiCol_Text, palette::TextDim());
    ImGui::TextWrapped(
        "Zero copy reads and writes the data over the link as the kernel runs: once, it "
        "overlaps both ways; every further pass crosses the link again.%s",
        z.integrated ? " This GPU is integrated: it shares the host's memory." : "");
    ImGui::PopStyleColor();
  }

  void DrawHeader(const LessonRun& run) {
    if (run.capture && run.capture->shipped) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.95f, 0.7f, 0.3f, 1.0f));
      ImGui::TextWrapped(
          "No GPU here to measure: the capture shipped with Warpscope, made on %s, %s.",
          run.device.c_str(), run.capture->captured_at.c_str());
      ImGui::PopStyleColor();
    } else {
      ImGui::TextWrapped("Measured on %s with CUDA events.", run.device.c_str());
    }
    view::BigText(1.6f, palette::WarpU32(1), "%.1f GB/s", h2d_);
    ImGui::SameLine();
    ImGui::TextWrapped(
        "host to GPU, %s %s; %s %.1f GB/s. GPU to host: pinned %.1f, pageable %.1f GB/s. "
        "Fastest copy measured: %.1f GB/s.",
        TransferSizeName(static_cast<std::size_t>(size_)).c_str(), pinned_ ? "pinned" : "pageable",
        pinned_ ? "pageable" : "pinned", h2d_other_, d2h_pinned_, d2h_pageable_, peak_);
    view::UpdatingBadge(*session_);
  }

  void DrawBandwidth(ImVec2 size) {
    if (!ImPlot::BeginPlot("bandwidth against size", size,
                           ImPlotFlags_NoMenus | ImPlotFlags_NoBoxSelect))
      return;
    ImPlot::SetupAxes("bytes copied", "GB/s");
    SetupSizeAxis();
    ImPlot::SetupAxisLimits(ImAxis_Y1, 0, std::max(peak_, 1.0) * 1.15, ImPlotCond_Always);
    ImPlot::SetupLegend(ImPlotLocation_NorthWest);
    const char* const labels[] = {"to GPU, pinned", "to GPU, pageable", "to host, pinned",
                                  "to host, pageable"};
    const int colours[] = {1, 1, 5, 5};
    for (int i = 0; i < 4; ++i) {
      ImPlotSpec line;
      line.LineColor = Colour(palette::WarpU32(static_cast<std::uint32_t>(colours[i])));
      line.LineWeight = i % 2 == 0 ? 2.5f : 1.5f;
      line.Marker = i % 2 == 0 ? ImPlotMarker_Circle : ImPlotMarker_Square;
      line.MarkerSize = 3;
      if (i % 2 == 1) line.LineColor.w = 0.65f;
      ImPlot::PlotLine(labels[i], x_.data(), series_[static_cast<std::size_t>(i)].data(),
                       static_cast<int>(x_.size()), line);
    }
    ImPlotSpec peak;
    peak.LineColor = Colour(palette::TextDim());
    peak.Flags = ImPlotInfLinesFlags_Horizontal;
    ImPlot::PlotInfLines("fastest measured", &peak_, 1, peak);
    const double chosen = size_ > 0 ? std::log2(size_) : 0;
    ImPlotSpec now;
    now.LineColor = Colour(palette::WarpU32(4));
    now.LineWeight = 1.5f;
    ImPlot::PlotInfLines("this size", &chosen, 1, now);
    ImPlot::EndPlot();
  }

  // Lanes: "1 stream" on top, then one lane per stream of the overlapped run.
  void DrawPipeline(ImVec2 size) {
    if (!ImPlot::BeginPlot("##pipeline", size, ImPlotFlags_NoLegend | ImPlotFlags_NoMenus)) return;
    ImPlot::SetupAxes("time (ms)", nullptr, 0, ImPlotAxisFlags_Invert);
    lane_pos_ = {0};
    lane_names_ = {"1 stream"};
    for (int s = 0; s < streams_; ++s) {
      lane_pos_.push_back(1.5 + s);
      lane_names_.push_back("stream " + std::to_string(s));
    }
    std::vector<const char*> names;
    for (const std::string& n : lane_names_) names.push_back(n.c_str());
    ImPlot::SetupAxisTicks(ImAxis_Y1, lane_pos_.data(), static_cast<int>(lane_pos_.size()),
                           names.data());
    ImPlot::SetupAxisLimits(ImAxis_Y1, -0.6, 1.5 + streams_ - 0.4, ImPlotCond_Always);
    ImPlot::SetupAxisLimits(ImAxis_X1, 0, std::max({serial_ms_, overlapped_ms_, 1e-3}) * 1.02,
                            ImPlotCond_Always);
    ImDrawList* dl = ImPlot::GetPlotDrawList();
    ImPlot::PushPlotClipRect();
    const Op* hovered = nullptr;
    for (const Op& op : ops_) {
      const double lane = op.mode == 0 ? 0.0 : 1.5 + op.stream;
      // Copies in the top half of the lane, kernels in the bottom: a copy and a kernel of one
      // stream never overlap, but the eye should see each.
      const double top = lane - 0.4 + (op.kind == 1 ? 0.4 : 0.0);
      const ImVec2 a = ImPlot::PlotToPixels(op.start, top);
      const ImVec2 z = ImPlot::PlotToPixels(op.end, top + 0.4);
      char label[8];
      std::snprintf(label, sizeof label, "%d", op.chunk);
      if (view::TimelineBox(dl, a, z, KindColour(op.kind), label)) hovered = &op;
    }
    ImPlot::PopPlotClipRect();
    if (hovered != nullptr) {
      ImGui::SetTooltip(
          "chunk %d, %s, %s\n%.4g to %.4g ms (%.4g ms)", hovered->chunk, kKindNames[hovered->kind],
          hovered->mode == 0 ? "one stream" : ("stream " + std::to_string(hovered->stream)).c_str(),
          hovered->start, hovered->end, hovered->end - hovered->start);
    }
    ImPlot::EndPlot();
  }

  void DrawPipelineKey() {
    for (int k = 0; k < 3; ++k) {
      if (k > 0) ImGui::SameLine();
      ImGui::ColorButton(kKindNames[k], Colour(KindColour(k)), ImGuiColorEditFlags_NoTooltip,
                         ImVec2(ImGui::GetFontSize(), ImGui::GetFontSize()));
      ImGui::SameLine();
      ImGui::TextUnformatted(kKindNames[k]);
    }
    ImGui::SameLine();
    ImGui::TextWrapped("   %d chunks, %s memory: one stream %s, %d streams %s (%.2fx).", chunks_,
                       memory_.c_str(), FormatDuration(serial_ms_).c_str(), streams_,
                       FormatDuration(overlapped_ms_).c_str(),
                       overlapped_ms_ > 0 ? serial_ms_ / overlapped_ms_ : 0.0);
    ImGui::PushStyleColor(ImGuiCol_Text, palette::TextDim());
    ImGui::TextWrapped(
        "A box runs from when its stream reached the step to when the step was done (CUDA "
        "events), so a copy waiting for the link or the copy engine counts as running.");
    ImGui::PopStyleColor();
  }

  std::vector<double> x_;
  std::vector<double> series_[4];
  double peak_ = 0, size_ = 0, serial_ms_ = 0, overlapped_ms_ = 0;
  double h2d_ = 0, h2d_other_ = 0, d2h_pinned_ = 0, d2h_pageable_ = 0;
  bool pinned_ = true;
  int streams_ = 1, chunks_ = 1;
  std::string memory_;
  std::vector<Op> ops_;
  ZeroCopyFigures zero_copy_;
  std::vector<double> zx_, zy_[2];
  std::vector<double> tick_pos_, lane_pos_;
  std::vector<std::string> tick_names_, lane_names_;
};

}  // namespace

std::unique_ptr<Panel> MakeTransfersPanel(Session* session) {
  return std::make_unique<TransfersPanel>(session);
}

}  // namespace ws
