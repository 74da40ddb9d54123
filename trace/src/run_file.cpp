#include "warpscope/trace/run_file.h"

#include <algorithm>
#include <cmath>

#include "warpscope/trace/build_info.h"
#include "warpscope/trace/printed_text.h"
#include "warpscope/trace/units.h"

namespace ws {
namespace {

std::string IsoUtc(std::time_t when) {
  std::tm tm{};
  gmtime_r(&when, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

}  // namespace

nlohmann::json TimingJson(const Timing& t) {
  nlohmann::json j = {{"kind", t.kind}, {"ms", RoundForJson(t.ms, 6)}, {"note", t.note}};
  if (!t.timed_at.empty()) {
    j["timed_at"] = t.timed_at;
    j["work_scale"] = t.work_scale;
    j["own_ms"] = RoundForJson(t.own_ms, 6);
  }
  if (t.record_ms > 0) {
    const double plain = t.own_ms > 0 ? t.own_ms : t.ms;
    j["capture"] = {
        {"count_ms", RoundForJson(t.count_ms, 6)},
        {"hazard_ms", RoundForJson(t.hazard_ms, 6)},
        {"record_ms", RoundForJson(t.record_ms, 6)},
        {"plain_ms", RoundForJson(plain, 6)},
        {"overhead", plain > 0 ? nlohmann::json(RoundForJson(t.record_ms / plain)) : nullptr},
        {"records", t.records},
        {"record_bytes", t.record_bytes},
        {"tally_shapes", t.tally_shapes},
        {"tally_steps_shaped", t.tally_steps_shaped},
        {"tally_by_steps", t.tally_by_steps},
        {"lane_rows", t.lane_rows},
        {"lane_wide", t.lane_wide},
        {"lane_pattern_rows", t.lane_pattern_rows},
        {"hazard_lean", t.hazard_lean},
        {"record_warm", t.record_warm},
        {"direct_requests", t.direct_requests},
        {"access_times", t.access_times_placed ? "placed" : "read"},
        {"records_per_s", std::round(t.records / (t.record_ms / 1e3))}};
  }
  return j;
}

Timing TimingFromJson(const nlohmann::json& j) {
  Timing t;
  t.kind = j.at("kind").get<std::string>();
  t.ms = j.at("ms").get<double>();
  t.note = j.at("note").get<std::string>();
  if (j.contains("timed_at")) {
    t.timed_at = j.at("timed_at").get<std::string>();
    t.work_scale = j.at("work_scale").get<double>();
    t.own_ms = j.at("own_ms").get<double>();
  }
  if (j.contains("capture")) {
    const nlohmann::json& c = j.at("capture");
    t.count_ms = c.at("count_ms").get<double>();
    t.hazard_ms = c.value("hazard_ms", 0.0);  // traces from before the device's check
    t.record_ms = c.at("record_ms").get<double>();
    if (t.own_ms == 0) t.own_ms = c.value("plain_ms", t.ms);  // older traces: the run's time
    t.records = c.at("records").get<std::uint64_t>();
    t.record_bytes = c.at("record_bytes").get<std::uint64_t>();
    t.tally_shapes = c.value("tally_shapes", std::uint64_t{0});  // traces from before them
    t.tally_steps_shaped = c.value("tally_steps_shaped", std::uint64_t{0});
    t.tally_by_steps = c.value("tally_by_steps", std::uint64_t{0});
    t.lane_rows = c.value("lane_rows", std::uint64_t{0});  // traces from before the lane log
    t.lane_wide = c.value("lane_wide", false);             // and before its two builds
    t.lane_pattern_rows = c.value("lane_pattern_rows", std::uint64_t{0});  // and its patterns
    t.hazard_lean = c.value("hazard_lean", false);  // and before the hazard check's
    t.record_warm = c.value("record_warm", false);  // and before its warm run's flag
    t.direct_requests = c.value("direct_requests", std::uint64_t{0});  // and its direct road
    t.access_times_placed = c.value("access_times", std::string("read")) == "placed";
  }
  return t;
}

nlohmann::json ParamsJson(const Params& params, const LessonInfo* info) {
  nlohmann::json p = nlohmann::json::object();
  for (const auto& [name, value] : params) {
    p[name] = value;
    const ParamSpec* spec = info != nullptr ? info->FindParam(name) : nullptr;
    if (spec != nullptr && !spec->choices.empty() && value >= 0 &&
        value < static_cast<long long>(spec->choices.size()))
      p[name] = spec->choices[static_cast<std::size_t>(value)];
  }
  return p;
}

Result<Params> ParamsFromJson(const nlohmann::json& j, const LessonInfo* info) {
  Params params;
  if (!j.is_object()) return Status::Error("the parameters are not an object");
  for (auto it = j.begin(); it != j.end(); ++it) {
    if (it->is_number_integer()) {
      params[it.key()] = it->get<long long>();
      continue;
    }
    if (!it->is_string())
      return Status::Error("parameter " + it.key() + " is neither a number nor a choice's name");
    const std::string name = it->get<std::string>();
    const ParamSpec* spec = info != nullptr ? info->FindParam(it.key()) : nullptr;
    if (spec == nullptr)
      return Status::Error("parameter " + it.key() + " = '" + name +
                           "' names a choice, but this build's lesson has no such parameter");
    auto c = std::find(spec->choices.begin(), spec->choices.end(), name);
    if (c == spec->choices.end())
      return Status::Error("parameter " + it.key() + " = '" + name + "' is not one of its choices");
    params[it.key()] = c - spec->choices.begin();
  }
  return params;
}

TraceContents TraceOfLessonRun(const LessonRun& run, const nlohmann::json& gpu, std::time_t when) {
  TraceContents c;
  nlohmann::json& h = c.header;
  h["format"] = "warpscope-trace";
  h["schema"] = kRunHeaderSchema;
  h["warpscope_version"] = Build().version;
  h["warpscope_commit"] = Build().commit;
  h["captured_at"] = run.capture ? run.capture->captured_at : IsoUtc(when);
  h["lesson"] = run.lesson;
  h["variant"] = run.variant;
  h["backend"] = run.backend;
  h["device"] = run.device;
  h["schedule"] = run.schedule.Name();
  h["params"] = ParamsJson(run.params, run.info);
  h["check"] = {{"ok", run.check.ok}, {"message", run.check.message}};
  h["timing"] = TimingJson(run.timing);
  if (run.figures != nullptr) {
    h["figures"] = {{"kind", std::string(run.figures->kind())},
                    {"version", run.figures->version()},
                    {"values", run.figures->json()}};
  }
  if (!gpu.is_null())
    h["gpu"] = gpu;
  else if (run.capture && !run.capture->gpu.is_null())
    h["gpu"] = run.capture->gpu;
  h["source_file"] = std::string(run.source_file());
  h["source"] = std::string(run.source());
  if (run.program) {  // the user's own program: its file, output and which launch is shown
    const ProgramRecord& p = *run.program;
    // Its output as valid UTF-8 (printed_text.h), with how many bytes that replaced, and how many
    // past the output limit were not kept.
    const PrintedText printed = ProgramStdout(p);
    h["program"] = {{"file", p.file},          {"path", p.path},     {"launch", p.launch},
                    {"stdout", printed.text},  {"notes", p.Notes()}, {"exited", p.exited()},
                    {"exit_code", p.exit_code}};
    if (printed.not_utf8 > 0) h["program"]["stdout_not_utf8_bytes"] = printed.not_utf8;
    if (p.stdout_cut_bytes > 0) h["program"]["stdout_cut_bytes"] = p.stdout_cut_bytes;
    // Its stderr as shown (a failure's own lines are the run's check message).
    const PrintedText err = ProgramStderr(p);
    if (!err.text.empty()) h["program"]["stderr"] = err.text;
    if (err.not_utf8 > 0) h["program"]["stderr_not_utf8_bytes"] = err.not_utf8;
    if (p.stderr_cut_bytes > 0) h["program"]["stderr_cut_bytes"] = p.stderr_cut_bytes;
    // Its headers and other units as run, so that a laptop shows the sites in kern.cuh too.
    nlohmann::json files = nlohmann::json::array();
    for (const auto& [name, text] : p.files) files.push_back({{"name", name}, {"text", text}});
    nlohmann::json kernels = nlohmann::json::array();
    for (const ProgramKernel& k : p.kernel_files)
      kernels.push_back({{"kernel", k.name}, {"file", k.file}});
    h["program"]["files"] = std::move(files);
    h["program"]["kernel_files"] = std::move(kernels);
    h["program"]["kernels"] = p.kernels;
    if (!p.preset.empty()) h["program"]["preset"] = p.preset;
    if (!p.kernel_times.empty() || !p.kernel_times_missing.empty()) {
      nlohmann::json times = nlohmann::json::array();
      for (const ProgramRecord::KernelTime& t : p.kernel_times)
        times.push_back({{"kernel", t.kernel}, {"ms", t.ms}});
      h["program"]["kernel_times"] = std::move(times);
      h["program"]["kernel_times_missing"] = p.kernel_times_missing;
    }
    if (!p.kernel_counters.empty() || !p.kernel_counters_missing.empty() ||
        !p.kernels_not_counted.empty()) {
      nlohmann::json counted = nlohmann::json::array();
      for (const ProgramRecord::KernelCounters& k : p.kernel_counters) {
        nlohmann::json values = nlohmann::json::object();
        for (const auto& [metric, value] : k.values) values[metric] = value;
        counted.push_back({{"kernel", k.kernel}, {"values", std::move(values)}});
      }
      h["program"]["kernel_counters"] = std::move(counted);
      h["program"]["kernel_counters_missing"] = p.kernel_counters_missing;
      h["program"]["counters_unavailable"] = p.counters_unavailable;
      nlohmann::json not_counted = nlohmann::json::array();
      for (const ProgramRecord::NotCounted& k : p.kernels_not_counted)
        not_counted.push_back({{"kernel", k.kernel}, {"why", k.why}});
      h["program"]["kernels_not_counted"] = std::move(not_counted);
    }
  }
  c.launches = run.launches;
  return c;
}

Result<LessonRun> LessonRunOfTrace(TraceContents c, const std::filesystem::path& file,
                                   const LessonLookup& lookup) {
  const nlohmann::json& h = c.header;
  LessonRun run;
  LessonRun::Capture cap;
  cap.file = file.string();
  try {
    if (h.value("format", "") != "warpscope-trace")
      return Status::Error(file.string() + ": the header is not a Warpscope trace header");
    const int schema = h.value("schema", 1);
    if (schema > kRunHeaderSchema)
      return Status::Error(file.string() + ": the trace header is schema " +
                           std::to_string(schema) + ", newer than this build's " +
                           std::to_string(kRunHeaderSchema) + "; update Warpscope to open it");
    run.lesson = h.at("lesson").get<std::string>();
    run.info = lookup ? lookup(run.lesson) : nullptr;
    run.variant = h.at("variant").get<std::string>();
    run.backend = h.at("backend").get<std::string>();
    run.device = h.at("device").get<std::string>();
    if (h.contains("schedule")) {  // traces before schedules: in-order
      auto s = ParseSchedule(h.at("schedule").get<std::string>());
      if (!s.ok()) throw std::runtime_error(s.status().message());
      run.schedule = *s;
    }
    auto params = ParamsFromJson(h.at("params"), run.info);
    if (!params.ok()) return Status::Error(file.string() + ": " + params.status().message());
    run.params = std::move(params).value();
    run.check = {h.at("check").at("ok").get<bool>(),
                 h.at("check").at("message").get<std::string>()};
    run.timing = TimingFromJson(h.at("timing"));
    // The figures: schema 2 names their kind and version; schema 1 kept the same values,
    // untyped, under "metrics" (version 1 of the lesson's kind).
    nlohmann::json values;
    std::string kind;
    int version = 1;
    if (h.contains("figures")) {
      const nlohmann::json& f = h.at("figures");
      kind = f.at("kind").get<std::string>();
      version = f.at("version").get<int>();
      values = f.at("values");
    } else if (h.contains("metrics") && !h.at("metrics").empty()) {
      values = h.at("metrics");
    }
    if (!values.is_null()) {
      if (run.info != nullptr && run.info->read_figures != nullptr) {
        run.figures = run.info->read_figures(values, version);
        if (!kind.empty() && run.figures->kind() != kind)
          run.figures = std::make_shared<const UnreadFigures>(
              kind, version, values,
              "the file's figures are of kind '" + kind + "', this build's lesson makes '" +
                  std::string(run.figures->kind()) + "'");
      } else {
        run.figures = std::make_shared<const UnreadFigures>(
            kind.empty() ? run.lesson : kind, version, values,
            "this build has no reader for " + run.lesson + "'s figures");
      }
    }
    cap.captured_at = h.at("captured_at").get<std::string>();
    if (h.contains("warpscope_version") && h["warpscope_version"].is_string())
      cap.warpscope_version = h["warpscope_version"].get<std::string>();
    if (h.contains("warpscope_commit") && h["warpscope_commit"].is_string())
      cap.warpscope_commit = h["warpscope_commit"].get<std::string>();
    cap.source_file = h.value("source_file", "");
    cap.source = h.value("source", "");
    if (h.contains("gpu") && h["gpu"].is_object()) cap.gpu = h["gpu"];
    if (h.contains("program")) {  // a program's trace: its source is shown, nothing is run
      const nlohmann::json& p = h.at("program");
      ProgramRecord prog;
      prog.file = p.at("file").get<std::string>();
      prog.path = p.value("path", "");
      prog.source = cap.source;
      prog.launch = p.value("launch", std::size_t{0});
      prog.stdout_text = p.value("stdout", "");
      prog.stdout_replaced_bytes = p.value("stdout_not_utf8_bytes", std::uint64_t{0});
      prog.stdout_cut_bytes = p.value("stdout_cut_bytes", std::uint64_t{0});
      prog.stderr_text = p.value("stderr", "");  // absent from traces before 2026-12-05
      prog.stderr_replaced_bytes = p.value("stderr_not_utf8_bytes", std::uint64_t{0});
      prog.stderr_cut_bytes = p.value("stderr_cut_bytes", std::uint64_t{0});
      // The notes as the file wrote them, each whole ("kern.cuh:12: ...").
      for (std::string& n : p.value("notes", std::vector<std::string>{}))
        prog.warnings.push_back({0, 0, false, std::move(n)});
      // A program that did not exit by itself: how it ended is in the run's check.
      prog.ran = true;
      if (!p.value("exited", false)) {
        prog.stage = ProgramStage::kRun;
        prog.failure = run.check.message;
      }
      prog.exit_code = p.value("exit_code", 0);
      // Absent from traces written before they were kept: the main file's sites only.
      for (const auto& f : p.value("files", nlohmann::json::array()))
        prog.files.emplace_back(f.at("name").get<std::string>(), f.at("text").get<std::string>());
      prog.kernels = p.value("kernels", std::vector<std::string>{});
      prog.preset = p.value("preset", "");
      for (const auto& k : p.value("kernel_files", nlohmann::json::array()))
        prog.kernel_files.push_back(
            {k.at("kernel").get<std::string>(), k.at("file").get<std::string>(), 0});
      for (const auto& t : p.value("kernel_times", nlohmann::json::array()))
        prog.kernel_times.push_back({t.at("kernel").get<std::string>(), t.at("ms").get<double>()});
      prog.kernel_times_missing = p.value("kernel_times_missing", "");
      for (const auto& k : p.value("kernel_counters", nlohmann::json::array())) {
        ProgramRecord::KernelCounters counted;
        counted.kernel = k.at("kernel").get<std::string>();
        for (const auto& [metric, value] : k.at("values").items())
          if (value.is_number()) counted.values.emplace_back(metric, value.get<double>());
        prog.kernel_counters.push_back(std::move(counted));
      }
      prog.kernel_counters_missing = p.value("kernel_counters_missing", "");
      prog.counters_unavailable = p.value("counters_unavailable", std::vector<std::string>{});
      for (const auto& k : p.value("kernels_not_counted", nlohmann::json::array()))
        prog.kernels_not_counted.push_back(
            {k.value("kernel", std::string()), k.value("why", std::string())});
      if (!c.launches.empty() && prog.launch >= c.launches.size())
        prog.launch = c.launches.size() - 1;
      run.program = std::move(prog);
      run.lesson.clear();  // traces before the one run record named programs "program"
    }
  } catch (const std::exception& e) {
    return Status::Error(file.string() + ": the trace header lacks a field the views need (" +
                         e.what() + ")");
  }
  run.launches = std::move(c.launches);
  run.capture = std::move(cap);
  return run;
}

Status WriteRunTrace(const LessonRun& run, const nlohmann::json& gpu,
                     const std::filesystem::path& path, std::time_t when) {
  return WriteTraceFile(path, TraceOfLessonRun(run, gpu, when));
}

Result<LessonRun> ReadRunTrace(const std::filesystem::path& path, const LessonLookup& lookup) {
  auto c = ReadTraceFile(path);
  if (!c.ok()) return c.status();
  return LessonRunOfTrace(std::move(c).value(), path, lookup);
}

}  // namespace ws
