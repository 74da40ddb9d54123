// The timing view: one point per run of a lesson, so that dragging a slider in the lesson panel
// draws the curve the slides draw by hand: time, effective bandwidth or sectors per request
// against the parameter being changed, one series per variant. Modeled times (the emulator:
// sectors moved at the preset's DRAM bandwidth) and measured ones (a GPU, CUDA events) are never
// joined in one series: they answer different questions.
//
// Runs are noticed when the panel is drawn: one that comes and goes while the panel is closed
// or behind another tab adds no point. The runs' points, series and ticks are in timing_series.cpp.
// Index:
//   [SECTION] CSV helpers
//   [SECTION] A lesson's runs: the panel's frame (controls, plot, export)
//   [SECTION] Recording runs: a new run, a sweep's runs
//   [SECTION] Controls: the axes, Reset, Sweep
//   [SECTION] The plot: series, ticks, the current run, the captions
//   [SECTION] CSV export
#include <imgui.h>
#include <implot.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "timing_series.h"
#include "warpscope/trace/file_io.h"
#include "warpscope/viz/palette.h"
#include "warpscope/viz/views.h"

namespace ws {
namespace timing_view {
namespace {

const ImVec4 kErrorColour(1.0f, 0.45f, 0.4f, 1.0f);
const ImVec4 kOkColour(0.6f, 0.9f, 0.6f, 1.0f);

// [SECTION] CSV helpers ---------------------------------------------------------------------------

std::string CsvField(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string quoted = "\"";
  for (char c : s) {
    if (c == '"') quoted += '"';
    quoted += c;
  }
  return quoted + "\"";
}

std::string DefaultCsvName(const std::string& lesson) {
  return "warpscope-timing-" + lesson + ".csv";
}

std::string CurrentFolder() {
  std::error_code ec;
  const std::filesystem::path cwd = std::filesystem::current_path(ec);
  return ec ? std::string(".") : cwd.string();
}

class TimingPanel : public Panel {
 public:
  explicit TimingPanel(Session* s) : Panel("timing", "Timing"), session_(s) {}

 protected:
  // [SECTION] A lesson's runs ---------------------------------------------------------------------

  void DrawContents() override {
    RecordNewRun();
    TakeSweepRuns();
    const LessonRun* run = session_->run.get();
    if (run == nullptr) {
      ImGui::TextDisabled("No run yet: pick a lesson in the lesson panel.");
      return;
    }
    if (!run->has_launch()) {
      ImGui::TextWrapped("%s", run->info != nullptr && !run->info->runs_kernel()
                                   ? "This lesson is a calculator or a model: it runs no kernel, "
                                     "so there is nothing to time."
                                   : "This run launched no kernel: nothing to time.");
      return;
    }
    if (run->lesson != shown_lesson_) {
      shown_lesson_ = run->lesson;
      export_message_.clear();
      fit_ = true;
      path_edited_ = false;
    }
    // The CSV's file: the export folder's warpscope-timing-LESSON.csv until the user types one.
    if (!path_edited_) {
      const std::filesystem::path folder =
          session_->export_folder.empty() ? CurrentFolder() : session_->export_folder;
      const std::string path = (folder / DefaultCsvName(run->lesson)).string();
      std::snprintf(path_.data(), path_.size(), "%s", path.c_str());
    }
    LessonHistory& h = histories_[run->lesson];
    const LessonInfo* info = run->info;
    const std::vector<std::string> names = ParamNames(info, h);
    const std::string x = XParam(h, info, names);
    own_size_ = OwnSize(info, x);

    ImGui::PushID(run->lesson.c_str());
    DrawControls(h, info, names, x);
    DrawPlot(*run, h, info, x);
    DrawExport(*run, h, names);
    ImGui::PopID();
    if (!session_->export_timing_csv.empty()) {
      const std::string path =
          (std::filesystem::path(session_->export_timing_csv) / DefaultCsvName(run->lesson))
              .string();
      std::snprintf(path_.data(), path_.size(), "%s", path.c_str());
      path_edited_ = true;
      session_->export_timing_csv.clear();
      ExportCsv(run->lesson, h, names);
    }
  }

 private:
  // [SECTION] Recording runs ----------------------------------------------------------------------

  // Appends a point when the session holds a run this panel has not seen.
  void RecordNewRun() {
    if (session_->generation == seen_generation_) return;
    seen_generation_ = session_->generation;
    const LessonRun* run = session_->run.get();
    if (run == nullptr || !run->has_launch()) return;
    LessonHistory& h = histories_[run->lesson];
    if (h.has_last) {
      const LessonInfo* info = run->info;
      for (const std::string& name : ParamNames(info, h)) {
        const auto before = h.last_params.find(name);
        const auto now = run->params.find(name);
        const bool was = before != h.last_params.end(), is = now != run->params.end();
        if (was != is || (was && before->second != now->second)) {
          h.changed = name;
          break;
        }
      }
    }
    h.last_params = run->params;
    h.has_last = true;
    TimingPoint p = MakePoint(*run);
    p.run = ++h.runs;
    h.points.push_back(std::move(p));
    if (h.points.size() > kMaxPointsPerLesson) h.points.erase(h.points.begin());
    fit_ = true;
  }

  // [SECTION] Controls ----------------------------------------------------------------------------

  // Goes on the same line when an item `width` wide still fits there (narrow panels: at 1280x720
  // with a 150 % UI scale the controls take two lines instead of being cut off).
  void SameLineIfRoom(float width) const {
    const float right = controls_right_;
    const float x = ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x;
    if (x + width <= right) ImGui::SameLine();
  }
  static float ButtonWidth(const char* label) {
    return ImGui::CalcTextSize(label).x + 2 * ImGui::GetStyle().FramePadding.x;
  }

  // Runs a sweep made (the lesson panel runs them; see Session::Sweep) become points.
  void TakeSweepRuns() {
    for (const auto& r : session_->sweep.runs) {
      if (r == nullptr || !r->has_launch()) continue;
      LessonHistory& h = histories_[r->lesson];
      h.x_choice = session_->sweep.param;  // the axis stays on the swept parameter
      TimingPoint p = MakePoint(*r);
      p.run = ++h.runs;
      h.points.push_back(std::move(p));
      if (h.points.size() > kMaxPointsPerLesson) h.points.erase(h.points.begin());
      fit_ = true;
    }
    session_->sweep.runs.clear();
  }

  // The Sweep button (or, while one runs, its progress and Cancel): every variant of the lesson
  // over the x parameter's values, so that the curve appears in one click.
  void DrawSweep(const LessonRun& run, const LessonInfo* info, const std::string& x) {
    Session::Sweep& sw = session_->sweep;
    SameLineIfRoom(sw.active ? ImGui::GetFontSize() * 10 + ButtonWidth("Cancel")
                             : ButtonWidth("Sweep"));
    if (sw.active) {
      const float frac = sw.total > 0 ? static_cast<float>(sw.done) / sw.total : 0.0f;
      const std::string text =
          sw.param + ": " + std::to_string(sw.done) + " / " + std::to_string(sw.total);
      ImGui::ProgressBar(frac, ImVec2(ImGui::GetFontSize() * 10, 0), text.c_str());
      ImGui::SameLine();
      if (ImGui::Button("Cancel")) sw.cancel = true;
      ImGui::SetItemTooltip("Stop the sweep after the run under way");
      return;
    }
    const ParamSpec* spec = x == kRunOrder ? nullptr : FindParam(info, x);
    const bool can = spec != nullptr && !run.program && !run.capture;
    ImGui::BeginDisabled(!can);
    if (ImGui::Button("Sweep")) session_->RequestSweep(*spec, info->variants.size());
    ImGui::EndDisabled();
    if (can) {
      const std::vector<long long> values = SweepValues(*spec);
      ImGui::SetItemTooltip(
          "Run %s over %zu values from %lld to %lld, for each of the lesson's %zu variant(s), the "
          "other parameters as they are; the curves appear as the runs finish.",
          x.c_str(), values.size(), values.front(), values.back(), info->variants.size());
    } else {
      ImGui::SetItemTooltip("%s", run.program || run.capture
                                      ? "Sweeps run built-in lessons (not programs or traces)"
                                      : "Pick a lesson parameter for the x axis to sweep it");
    }
  }

  // The parameter on the x axis: the user's pick, else the one changed last, else the first.
  static std::string XParam(const LessonHistory& h, const LessonInfo* info,
                            const std::vector<std::string>& names) {
    auto known = [&](const std::string& n) {
      return n == kRunOrder || std::find(names.begin(), names.end(), n) != names.end();
    };
    if (!h.x_choice.empty() && known(h.x_choice)) return h.x_choice;
    if (!h.changed.empty() && known(h.changed)) return h.changed;
    if (info != nullptr && !info->params.empty()) return info->params.front().name;
    return names.empty() ? std::string(kRunOrder) : names.front();
  }

  static std::string XLabel(const std::string& x) {
    return x == kRunOrder ? std::string("run (in the order they came)") : x;
  }

  void DrawControls(LessonHistory& h, const LessonInfo* info, const std::vector<std::string>& names,
                    const std::string& x) {
    controls_right_ = ImGui::GetCursorScreenPos().x + ImGui::GetContentRegionAvail().x;
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
    const std::string preview = h.x_choice.empty() ? "auto: " + XLabel(x) : XLabel(x);
    if (ImGui::BeginCombo("x axis", preview.c_str())) {
      if (ImGui::Selectable(("auto: " + XLabel(x)).c_str(), h.x_choice.empty())) {
        h.x_choice.clear();
        fit_ = true;
      }
      ImGui::SetItemTooltip("The parameter that changed between the last two runs");
      for (std::size_t i = 0; i <= names.size(); ++i) {
        const std::string name = i < names.size() ? names[i] : std::string(kRunOrder);
        ImGui::PushID(static_cast<int>(i));
        if (ImGui::Selectable(XLabel(name).c_str(), h.x_choice == name)) {
          h.x_choice = name;
          fit_ = true;
        }
        if (const ParamSpec* spec = FindParam(info, name))
          ImGui::SetItemTooltip("%s", spec->meaning.c_str());
        ImGui::PopID();
      }
      ImGui::EndCombo();
    }
    const ImGuiStyle& style = ImGui::GetStyle();
    SameLineIfRoom(ImGui::GetFontSize() * 9 + style.ItemInnerSpacing.x +
                   ImGui::CalcTextSize("y axis").x);
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
    if (ImGui::Combo("y axis", &measure_, kMeasureNames, IM_ARRAYSIZE(kMeasureNames))) fit_ = true;
    SameLineIfRoom(ButtonWidth("Reset"));
    if (ImGui::Button("Reset")) {
      h.points.clear();
      h.runs = 0;
      h.changed.clear();
      fit_ = true;
    }
    ImGui::SetItemTooltip("Forget this lesson's runs");
    DrawSweep(*session_->run, info, x);
    if (!session_->sweep.active && !session_->sweep.note.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
      ImGui::TextWrapped("Sweep of %s: %s", session_->sweep.param.c_str(),
                         session_->sweep.note.c_str());
      ImGui::PopStyleColor();
    }
    if (session_->running) {
      ImGui::SameLine();
      ImGui::TextDisabled("updating…");
    }
  }

  // [SECTION] The plot ----------------------------------------------------------------------------

  // The plot: one line per series, the current run ringed; then its captions.
  void DrawPlot(const LessonRun& run, const LessonHistory& h, const LessonInfo* info,
                const std::string& x) {
    SeriesCounts counts;
    const std::vector<Series> series = BuildSeries(run, h, info, x, measure_, own_size_, &counts);
    std::size_t drawn = 0;
    std::vector<double> distinct;
    bool positive = true;
    for (const Series& s : series) {
      drawn += s.xs.size();
      for (double v : s.xs) {
        distinct.push_back(v);
        positive = positive && v > 0;
      }
    }
    std::sort(distinct.begin(), distinct.end());
    distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());

    // Ticks: the choices' names for a parameter that picks from a list, else the x values the
    // runs used when there are few of them (slider steps are often powers of two).
    const ParamSpec* spec = x == kRunOrder ? nullptr : FindParam(info, x);
    const XTicks ticks = MakeXTicks(spec, distinct);
    std::vector<const char*> tick_labels;
    for (const std::string& t : ticks.text) tick_labels.push_back(t.c_str());
    // Sizes that grow by doubling read better on a logarithmic axis.
    const bool log_x = (spec == nullptr || spec->choices.empty()) && x != kRunOrder && positive &&
                       distinct.size() >= 3 && distinct.back() >= 32 * distinct.front();

    const std::string y_label = YLabel(series, measure_);
    if (fit_) {
      FitAxes(series, distinct, log_x);
      fit_ = false;
    }
    const float caption_room = 3 * ImGui::GetTextLineHeightWithSpacing();
    const float export_room = 2 * ImGui::GetFrameHeightWithSpacing();
    const float height =
        std::max(180.0f, ImGui::GetContentRegionAvail().y - caption_room - export_room);
    if (ImPlot::BeginPlot("##timing", ImVec2(-1, height))) {
      ImPlot::SetupAxes(XLabel(x).c_str(), y_label.c_str());
      if (log_x) ImPlot::SetupAxisScale(ImAxis_X1, ImPlotScale_Log10);
      if (!ticks.values.empty()) {
        ImPlot::SetupAxisTicks(ImAxis_X1, ticks.values.data(),
                               static_cast<int>(ticks.values.size()), tick_labels.data());
      }
      ImPlot::SetupAxisFormat(ImAxis_Y1, "%.3g");
      ImPlot::SetupLegend(ImPlotLocation_North,
                          ImPlotLegendFlags_Outside | ImPlotLegendFlags_Horizontal);
      for (const Series& s : series) {
        ImPlotSpec line;
        line.LineColor = ImGui::ColorConvertU32ToFloat4(
            palette::WarpU32(static_cast<std::uint32_t>(s.variant_index)));
        line.LineWeight = 2;
        line.Marker = s.kind == "measured"  ? ImPlotMarker_Diamond
                      : s.kind == "modeled" ? ImPlotMarker_Circle
                                            : ImPlotMarker_Square;
        line.MarkerSize = 5;
        ImPlot::PlotLine(s.label.c_str(), s.xs.data(), s.ys.data(), static_cast<int>(s.xs.size()),
                         line);
      }
      DrawCurrentRing(run, h, x);
      ImPlot::EndPlot();
    }
    DrawCaptions(run, h, x, drawn, counts);
  }

  // Captions: what the plot leaves out, and how to add to it.
  void DrawCaptions(const LessonRun& run, const LessonHistory& h, const std::string& x,
                    std::size_t drawn, const SeriesCounts& counts) const {
    if (!run.timing.timed_at.empty() && measure_ != kSectors) {
      if (own_size_)
        ImGui::TextDisabled(
            "Each run timed at its own %s (otherwise at %s): small sizes are "
            "mostly launch overhead on a GPU.",
            x.c_str(), run.timing.timed_at.c_str());
      else
        ImGui::TextDisabled(
            "Timed at %s: at the lesson's own size a GPU kernel is mostly "
            "launch overhead (the views draw the run's own size).",
            run.timing.timed_at.c_str());
    }
    if (drawn <= 1) {
      ImGui::TextDisabled("Drag a slider in the lesson panel to add points.");
    }
    if (counts.hidden > 0 && x != kRunOrder) {
      ImGui::TextDisabled(
          "Vary %s, keep the rest: only runs whose other parameters equal this run's are drawn "
          "(%zu of %zu hidden).",
          x.c_str(), counts.hidden, h.points.size());
    }
    if (counts.repeated > 0 || counts.no_value > 0) {
      std::string text;
      if (counts.repeated > 0)
        text += "Repeated runs of the same parameters: the latest is drawn. ";
      if (counts.no_value > 0)
        text += std::to_string(counts.no_value) + " run(s) have no " + kMeasureNames[measure_] +
                " (time 0 or no global-memory request).";
      ImGui::TextDisabled("%s", text.c_str());
    }
  }

  // Rings the current run's point, so that the student sees where the last drag landed.
  void DrawCurrentRing(const LessonRun& run, const LessonHistory& h, const std::string& x) const {
    if (h.points.empty()) return;
    const TimingPoint& last = h.points.back();
    if (last.variant != run.variant || last.params != run.params) return;
    const double px = XValue(last, x), py = YValue(last, measure_, own_size_);
    if (px != px || py != py) return;
    ImPlotSpec ring;
    ring.Marker = ImPlotMarker_Circle;
    ring.MarkerSize = 9;
    ring.LineWeight = 2;
    ring.MarkerLineColor = ImGui::ColorConvertU32ToFloat4(palette::Text());
    ring.MarkerFillColor = ImVec4(0, 0, 0, 0);
    ring.Flags = static_cast<int>(ImPlotItemFlags_NoLegend) | ImPlotItemFlags_NoFit;
    ImPlot::PlotScatter("this run", &px, &py, 1, ring);
  }

  // [SECTION] CSV export --------------------------------------------------------------------------

  void DrawExport(const LessonRun& run, const LessonHistory& h,
                  const std::vector<std::string>& names) {
    ImGui::SetNextItemWidth(std::max(160.0f, ImGui::GetContentRegionAvail().x -
                                                 ImGui::CalcTextSize("Export CSV").x -
                                                 ImGui::GetStyle().FramePadding.x * 4));
    if (ImGui::InputText("##csv", path_.data(), path_.size())) path_edited_ = true;
    ImGui::SetItemTooltip(
        "Save the CSV as this file (by default in the screenshot folder, File > Screenshot "
        "folder); a folder that does not exist is made");
    ImGui::SameLine();
    ImGui::BeginDisabled(h.points.empty());
    if (ImGui::Button("Export CSV")) ExportCsv(run.lesson, h, names);
    ImGui::EndDisabled();
    if (!export_message_.empty()) {
      ImGui::PushStyleColor(ImGuiCol_Text, export_ok_ ? kOkColour : kErrorColour);
      ImGui::TextWrapped("%s", export_message_.c_str());
      ImGui::PopStyleColor();
    }
  }

  // Writes every run of the lesson (hidden ones too): lesson, variant, backend, kind, each
  // parameter, ms, gbps, sectors_per_request. Empty cells where a value does not exist.
  void ExportCsv(const std::string& lesson, const LessonHistory& h,
                 const std::vector<std::string>& names) {
    std::string csv = "lesson,variant,backend,kind";
    for (const std::string& name : names) csv += "," + CsvField(name);
    csv += ",ms,gbps,sectors_per_request,own_size_ms\n";
    for (const TimingPoint& p : h.points) {
      csv += CsvField(lesson) + "," + CsvField(p.variant) + "," + CsvField(p.backend) + "," +
             CsvField(p.kind);
      for (const std::string& name : names) {
        const auto it = p.params.find(name);
        csv += "," + (it == p.params.end() ? std::string() : std::to_string(it->second));
      }
      csv += "," + FormatNumber(p.ms) + "," + FormatNumber(p.gbps) + "," +
             FormatNumber(p.sectors_per_request) + "," + FormatNumber(p.own_ms) + "\n";
    }
    std::filesystem::path path(path_.data());
    if (path.empty() || path.filename().empty()) path /= DefaultCsvName(lesson);
    std::error_code ec;
    if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path(), ec);
    const Status s = ec ? Status::Error("cannot create the folder " + path.parent_path().string() +
                                        ": " + ec.message())
                        : WriteFileAtomically(path, csv);
    export_ok_ = s.ok();
    export_message_ = s.ok() ? "Saved " + path.string() : s.message();
  }

  Session* session_;
  std::uint64_t seen_generation_ = 0;
  std::map<std::string, LessonHistory> histories_;  // lesson id -> its runs
  std::string shown_lesson_;
  int measure_ = kTime;
  bool own_size_ = false;          // OwnSize of the x axis drawn
  bool fit_ = true;                // fit the axes to the data on the next frame
  float controls_right_ = 0;       // screen x where the control rows end (SameLineIfRoom)
  std::array<char, 1024> path_{};  // the CSV's file
  bool path_edited_ = false;       // typed by the user (kept until the lesson changes)
  std::string export_message_;
  bool export_ok_ = false;
};

}  // namespace
}  // namespace timing_view

std::unique_ptr<Panel> MakeTimingPanel(Session* session) {
  return std::make_unique<timing_view::TimingPanel>(session);
}

}  // namespace ws
