#include "core/capture.h"

#include "core/report.h"
#include "warpscope/kernels/catalog.h"

namespace ws {
namespace {

std::string IsoUtc(std::time_t when) {
  std::tm tm{};
  gmtime_r(&when, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

nlohmann::json GpuJson(const GpuDevice& g) {
  return {{"name", g.name},
          {"compute_capability", std::to_string(g.cc_major) + "." + std::to_string(g.cc_minor)},
          {"multiprocessors", g.multiprocessors},
          {"warp_size", g.warp_size},
          {"max_threads_per_block", g.max_threads_per_block},
          {"max_threads_per_multiprocessor", g.max_threads_per_multiprocessor},
          {"max_blocks_per_multiprocessor", g.max_blocks_per_multiprocessor},
          {"registers_per_block", g.registers_per_block},
          {"registers_per_multiprocessor", g.registers_per_multiprocessor},
          {"shared_mem_per_block", g.shared_mem_per_block},
          {"shared_mem_per_multiprocessor", g.shared_mem_per_multiprocessor},
          {"global_mem", g.global_mem},
          {"clock_khz", g.clock_khz},
          {"memory_clock_khz", g.memory_clock_khz},
          {"memory_bus_width_bits", g.memory_bus_width_bits}};
}

}  // namespace

TraceContents TraceOfRun(const LessonRun& run, const GpuDevice* gpu, std::time_t when) {
  TraceContents c;
  nlohmann::json& h = c.header;
  h["format"] = "warpscope-trace";
  h["warpscope_version"] = WARPSCOPE_VERSION;
  h["captured_at"] = run.capture ? run.capture->captured_at : IsoUtc(when);
  h["lesson"] = run.lesson;
  h["variant"] = run.variant;
  h["backend"] = run.backend;
  h["device"] = run.device;
  h["params"] = run.params;
  h["check"] = {{"ok", run.check.ok}, {"message", run.check.message}};
  h["timing"] = TimingJson(run.timing);
  h["metrics"] = run.metrics;
  if (gpu != nullptr)
    h["gpu"] = GpuJson(*gpu);
  else if (run.capture && !run.capture->gpu.is_null())
    h["gpu"] = run.capture->gpu;
  if (run.capture) {
    h["source_file"] = run.capture->source_file;
    h["source"] = run.capture->source;
  } else if (const LessonInfo* info = FindLesson(run.lesson)) {
    h["source_file"] = info->source_file;
    h["source"] = std::string(info->source);
  }
  c.launches = run.launches;
  return c;
}

Result<LessonRun> RunOfTrace(TraceContents c, const std::filesystem::path& file) {
  const nlohmann::json& h = c.header;
  LessonRun run;
  LessonRun::Capture cap;
  cap.file = file.string();
  try {
    if (h.value("format", "") != "warpscope-trace")
      return Status::Error(file.string() + ": the header is not a Warpscope trace header");
    run.lesson = h.at("lesson").get<std::string>();
    run.variant = h.at("variant").get<std::string>();
    run.backend = h.at("backend").get<std::string>();
    run.device = h.at("device").get<std::string>();
    run.params = h.at("params").get<Params>();
    run.check = {h.at("check").at("ok").get<bool>(),
                 h.at("check").at("message").get<std::string>()};
    run.timing = TimingFromJson(h.at("timing"));
    run.metrics = h.value("metrics", nlohmann::json::object());
    cap.captured_at = h.at("captured_at").get<std::string>();
    cap.source_file = h.value("source_file", "");
    cap.source = h.value("source", "");
    if (h.contains("gpu") && h["gpu"].is_object()) cap.gpu = h["gpu"];
  } catch (const std::exception& e) {
    return Status::Error(file.string() + ": the trace header lacks a field the views need (" +
                         e.what() + ")");
  }
  run.launches = std::move(c.launches);
  run.capture = std::move(cap);
  return run;
}

Status SaveRunAsTrace(const LessonRun& run, const GpuDevice* gpu,
                      const std::filesystem::path& path) {
  return WriteTraceFile(path, TraceOfRun(run, gpu, std::time(nullptr)));
}

Result<LessonRun> LoadTraceAsRun(const std::filesystem::path& path) {
  auto c = ReadTraceFile(path);
  if (!c.ok()) return c.status();
  return RunOfTrace(std::move(c).value(), path);
}

}  // namespace ws
