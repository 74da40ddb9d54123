#include "warpscope/trace/lesson_figures.h"

#include <climits>
#include <cmath>

namespace ws {
namespace {

using nlohmann::json;

template <typename T>
void Get(const json& j, const char* key, T& v) {
  j.at(key).get_to(v);
}
template <typename T>
void GetOptional(const json& j, const char* key, std::optional<T>& v) {
  if (j.contains(key)) v = j.at(key).get<T>();
}
template <typename T>
void GetOr(const json& j, const char* key, T& v) {
  if (j.contains(key)) j.at(key).get_to(v);
}
// An int that must be written as one (a float such as 1e300 would not fit: undefined to cast).
int IntOf(const json& v) {
  if (!v.is_number_integer() || v.get<long long>() < INT_MIN || v.get<long long>() > INT_MAX)
    throw std::out_of_range("expected a whole number, got " + v.dump());
  return static_cast<int>(v.get<long long>());
}
int IntAt(const json& a, std::size_t i) {
  return IntOf(a.at(i));
}

}  // namespace

void to_json(json& j, const LatencyCurvePoint& p) {
  j = {{"warps", p.warps}, {"utilisation", p.utilisation}};
}
void from_json(const json& j, LatencyCurvePoint& p) {
  Get(j, "warps", p.warps);
  Get(j, "utilisation", p.utilisation);
}
void to_json(json& j, const LatencySegmentFigure& s) {
  j = {s.warp, s.start, s.end, s.kind};
}
void from_json(const json& j, LatencySegmentFigure& s) {
  s = {j.at(0).get<int>(), j.at(1).get<std::int64_t>(), j.at(2).get<std::int64_t>(),
       j.at(3).get<int>()};
  if (s.kind < 0 || s.kind > 4)
    throw std::out_of_range("a timeline segment has kind " + std::to_string(s.kind) +
                            " (allowed: 0..4)");
}
void to_json(json& j, const LatencyFigures& f) {
  j = {{"utilisation", f.utilisation},
       {"slide_estimate", f.slide_estimate},
       {"issue_cycles_per_load", f.issue_cycles_per_load},
       {"cycles", f.cycles},
       {"busy_cycles", f.busy_cycles},
       {"vary_warps", f.vary_warps},
       {"warps_to_saturate", f.warps_to_saturate},
       {"timeline", f.timeline},
       {"dependency_latency", f.dependency_latency},
       {"warps", f.warps},
       {"period_cycles", f.period_cycles}};
}
void from_json(const json& j, LatencyFigures& f) {
  Get(j, "utilisation", f.utilisation);
  Get(j, "slide_estimate", f.slide_estimate);
  Get(j, "issue_cycles_per_load", f.issue_cycles_per_load);
  Get(j, "cycles", f.cycles);
  Get(j, "busy_cycles", f.busy_cycles);
  Get(j, "vary_warps", f.vary_warps);
  Get(j, "warps_to_saturate", f.warps_to_saturate);
  Get(j, "timeline", f.timeline);
  GetOr(j, "dependency_latency", f.dependency_latency);  // absent before the variant existed
  GetOr(j, "warps", f.warps);
  GetOr(j, "period_cycles", f.period_cycles);
}

void to_json(json& j, const TreeSumPoint& p) {
  j = {{"block", p.block}, {"tree_sum", p.tree_sum}};
}
void from_json(const json& j, TreeSumPoint& p) {
  Get(j, "block", p.block);
  Get(j, "tree_sum", p.tree_sum);
}
void to_json(json& j, const FpSumFigures& f) {
  j = {{"gpu_sum", f.gpu_sum},
       {"cpu_sum", f.cpu_sum},
       {"exact_sum", f.exact_sum},
       {"tree_order_sum", f.tree_order_sum},
       {"error_bound", f.error_bound},
       {"vary_block", f.vary_block},
       {"block", f.block}};
}
void from_json(const json& j, FpSumFigures& f) {
  Get(j, "gpu_sum", f.gpu_sum);
  Get(j, "cpu_sum", f.cpu_sum);
  Get(j, "exact_sum", f.exact_sum);
  Get(j, "tree_order_sum", f.tree_order_sum);
  Get(j, "error_bound", f.error_bound);
  Get(j, "vary_block", f.vary_block);
  GetOr(j, "block", f.block);
}

void to_json(json& j, const BlockOnSm& b) {
  j = {b.block, b.sm, b.start, b.end};
}
void from_json(const json& j, BlockOnSm& b) {
  b = {j.at(0).get<std::uint32_t>(), j.at(1).get<int>(), j.at(2).get<double>(),
       j.at(3).get<double>()};
}
void to_json(json& j, const MakespanPoint& p) {
  j = {{"sms", p.sms}, {"makespan", p.makespan}};
}
void from_json(const json& j, MakespanPoint& p) {
  Get(j, "sms", p.sms);
  Get(j, "makespan", p.makespan);
}
void to_json(json& j, const ScheduleFigures& f) {
  j = {{"time_unit", f.time_unit},
       {"sms", f.sms},
       {"blocks_per_sm_limit", f.blocks_per_sm_limit},
       {"makespan", f.makespan},
       {"blocks_per_sm", f.blocks_per_sm},
       {"most_resident", f.most_resident},
       {"busy", f.busy},
       {"waves", f.waves},
       {"timeline", f.timeline},
       {"vary_sms", f.vary_sms}};
  if (f.emulated_device) j["emulated_device"] = *f.emulated_device;
  if (f.limiter) j["limiter"] = *f.limiter;
  if (f.clock_ghz) j["clock_ghz"] = *f.clock_ghz;
}
void from_json(const json& j, ScheduleFigures& f) {
  Get(j, "time_unit", f.time_unit);
  Get(j, "sms", f.sms);
  Get(j, "blocks_per_sm_limit", f.blocks_per_sm_limit);
  Get(j, "makespan", f.makespan);
  Get(j, "blocks_per_sm", f.blocks_per_sm);
  Get(j, "most_resident", f.most_resident);
  Get(j, "busy", f.busy);
  Get(j, "waves", f.waves);
  Get(j, "timeline", f.timeline);
  Get(j, "vary_sms", f.vary_sms);
  GetOptional(j, "emulated_device", f.emulated_device);
  GetOptional(j, "limiter", f.limiter);
  GetOptional(j, "clock_ghz", f.clock_ghz);
  if (f.sms < 1 || f.sms > 4096)
    throw std::out_of_range("sms = " + std::to_string(f.sms) + " is outside 1..4096");
  for (const BlockOnSm& b : f.timeline) {
    if (b.sm < 0 || b.sm >= f.sms)
      throw std::out_of_range("block " + std::to_string(b.block) + " ran on SM " +
                              std::to_string(b.sm) + ", outside 0.." + std::to_string(f.sms - 1));
  }
}

void to_json(json& j, const TransferPoint& p) {
  j = {{"bytes", p.bytes},           {"h2d_pageable", p.h2d_pageable},
       {"h2d_pinned", p.h2d_pinned}, {"d2h_pageable", p.d2h_pageable},
       {"d2h_pinned", p.d2h_pinned}, {"h2d_pinned_ms", p.h2d_pinned_ms}};
}
void from_json(const json& j, TransferPoint& p) {
  Get(j, "bytes", p.bytes);
  GetOr(j, "h2d_pageable", p.h2d_pageable);
  GetOr(j, "h2d_pinned", p.h2d_pinned);
  GetOr(j, "d2h_pageable", p.d2h_pageable);
  GetOr(j, "d2h_pinned", p.d2h_pinned);
  GetOr(j, "h2d_pinned_ms", p.h2d_pinned_ms);
}
void to_json(json& j, const PipelineStep& s) {
  j = {s.mode, s.stream, s.kind, s.chunk, s.start, s.end};
}
void from_json(const json& j, PipelineStep& s) {
  s = {j.at(0).get<int>(), j.at(1).get<int>(),    j.at(2).get<int>(),
       j.at(3).get<int>(), j.at(4).get<double>(), j.at(5).get<double>()};
}
void to_json(json& j, const PipelineFigures& f) {
  j = {{"memory", f.memory},
       {"streams", f.streams},
       {"chunks", f.chunks},
       {"rounds", f.rounds},
       {"bytes", f.bytes},
       {"serial_ms", f.serial_ms},
       {"overlapped_ms", f.overlapped_ms},
       {"speedup", f.speedup},
       {"ops", f.ops}};
}
void from_json(const json& j, PipelineFigures& f) {
  Get(j, "memory", f.memory);
  Get(j, "streams", f.streams);
  Get(j, "chunks", f.chunks);
  GetOr(j, "rounds", f.rounds);
  GetOr(j, "bytes", f.bytes);
  Get(j, "serial_ms", f.serial_ms);
  Get(j, "overlapped_ms", f.overlapped_ms);
  GetOr(j, "speedup", f.speedup);
  Get(j, "ops", f.ops);
  if (f.streams < 1 || f.streams > 64)
    throw std::out_of_range("streams = " + std::to_string(f.streams) + " is outside 1..64");
  for (const PipelineStep& op : f.ops) {
    if (op.mode < 0 || op.mode > 1 || op.kind < 0 || op.kind > 2 || op.stream < 0 ||
        op.stream >= f.streams)
      throw std::out_of_range("a pipeline step has mode " + std::to_string(op.mode) + ", kind " +
                              std::to_string(op.kind) + ", stream " + std::to_string(op.stream) +
                              " (allowed: 0..1, 0..2, 0.." + std::to_string(f.streams - 1) + ")");
  }
}
void to_json(json& j, const ZeroCopyFigures& f) {
  json sweep = json::array();
  for (const ZeroCopyPoint& p : f.sweep) sweep.push_back({p.bytes, p.explicit_ms, p.mapped_ms});
  j = {{"passes", f.passes},           {"integrated", f.integrated}, {"sweep", sweep},
       {"explicit_ms", f.explicit_ms}, {"mapped_ms", f.mapped_ms},   {"speedup", f.speedup}};
}
void from_json(const json& j, ZeroCopyFigures& f) {
  f.passes = IntOf(j.at("passes"));
  GetOr(j, "integrated", f.integrated);
  f.sweep.clear();
  for (const json& p : j.at("sweep"))
    f.sweep.push_back({p.at(0).get<double>(), p.at(1).get<double>(), p.at(2).get<double>()});
  Get(j, "explicit_ms", f.explicit_ms);
  Get(j, "mapped_ms", f.mapped_ms);
  GetOr(j, "speedup", f.speedup);
  if (f.passes < 0 || f.passes > 64)
    throw std::out_of_range("zero copy passes = " + std::to_string(f.passes) + " is outside 0..64");
  for (const ZeroCopyPoint& p : f.sweep) {
    if (!(p.bytes > 0) || !(p.explicit_ms >= 0) || !(p.mapped_ms >= 0))
      throw std::out_of_range("a zero copy point has " + std::to_string(p.bytes) + " bytes, " +
                              std::to_string(p.explicit_ms) + " and " +
                              std::to_string(p.mapped_ms) +
                              " ms (bytes must be positive, times not negative)");
  }
}
void to_json(json& j, const TransferFigures& f) {
  j = {{"sweep", f.sweep},
       {"peak_gbps", f.peak_gbps},
       {"size_bytes", f.size_bytes},
       {"h2d_pageable_gbps", f.h2d_pageable_gbps},
       {"h2d_pinned_gbps", f.h2d_pinned_gbps},
       {"d2h_pageable_gbps", f.d2h_pageable_gbps},
       {"d2h_pinned_gbps", f.d2h_pinned_gbps},
       {"overlap", f.overlap}};
  if (f.zero_copy.passes > 0) j["zero_copy"] = f.zero_copy;
}
void from_json(const json& j, TransferFigures& f) {
  Get(j, "sweep", f.sweep);
  Get(j, "peak_gbps", f.peak_gbps);
  Get(j, "size_bytes", f.size_bytes);
  GetOr(j, "h2d_pageable_gbps", f.h2d_pageable_gbps);
  GetOr(j, "h2d_pinned_gbps", f.h2d_pinned_gbps);
  GetOr(j, "d2h_pageable_gbps", f.d2h_pageable_gbps);
  GetOr(j, "d2h_pinned_gbps", f.d2h_pinned_gbps);
  Get(j, "overlap", f.overlap);
  GetOr(j, "zero_copy", f.zero_copy);
  if (!(f.size_bytes >= 0 && f.size_bytes <= 281474976710656.0))  // 2^48: beyond any copy
    throw std::out_of_range("size_bytes = " + std::to_string(f.size_bytes) + " is outside 0..2^48");
}

namespace {
json Curve(const char* x_name, const std::vector<OccupancyPoint>& points) {
  json a = json::array();
  for (const OccupancyPoint& p : points)
    a.push_back({{x_name, p.x}, {"occupancy", p.occupancy}, {"active_blocks", p.active_blocks}});
  return a;
}
std::vector<OccupancyPoint> CurveOf(const json& a, const char* x_name) {
  std::vector<OccupancyPoint> v;
  for (const json& p : a)
    v.push_back({p.at(x_name).get<int>(), p.at("occupancy").get<double>(),
                 p.at("active_blocks").get<int>()});
  return v;
}
}  // namespace

void to_json(json& j, const OccupancyFigures& f) {
  j = {{"device", f.device},
       {"active_blocks", f.active_blocks},
       {"active_warps", f.active_warps},
       {"active_threads", f.active_threads},
       {"occupancy", f.occupancy},
       {"limiter", f.limiter},
       {"warps_per_block", f.warps_per_block},
       {"registers_per_block", f.registers_per_block},
       {"shared_per_block", f.shared_per_block},
       {"limits",
        {{"warps", f.limits.warps},
         {"registers", f.limits.registers},
         {"shared", f.limits.shared},
         {"blocks", f.limits.blocks}}},
       {"blocks_per_gpu", f.blocks_per_gpu},
       {"vary_threads", Curve("threads", f.vary_threads)},
       {"vary_registers", Curve("registers", f.vary_registers)},
       {"vary_shared", Curve("shared_bytes", f.vary_shared)},
       {"threads", f.threads},
       {"registers", f.registers},
       {"shared_bytes", f.shared_bytes}};
}
void from_json(const json& j, OccupancyFigures& f) {
  Get(j, "device", f.device);
  Get(j, "active_blocks", f.active_blocks);
  Get(j, "active_warps", f.active_warps);
  Get(j, "active_threads", f.active_threads);
  Get(j, "occupancy", f.occupancy);
  Get(j, "limiter", f.limiter);
  Get(j, "warps_per_block", f.warps_per_block);
  Get(j, "registers_per_block", f.registers_per_block);
  Get(j, "shared_per_block", f.shared_per_block);
  const json& l = j.at("limits");
  f.limits = {l.at("warps").get<int>(), l.at("registers").get<int>(), l.at("shared").get<int>(),
              l.at("blocks").get<int>()};
  Get(j, "blocks_per_gpu", f.blocks_per_gpu);
  f.vary_threads = CurveOf(j.at("vary_threads"), "threads");
  f.vary_registers = CurveOf(j.at("vary_registers"), "registers");
  f.vary_shared = CurveOf(j.at("vary_shared"), "shared_bytes");
  GetOr(j, "threads", f.threads);
  GetOr(j, "registers", f.registers);
  GetOr(j, "shared_bytes", f.shared_bytes);
}

void to_json(json& j, const TextureLayoutCost& c) {
  j = {{"layout", c.layout}, {"requests", c.requests},         {"sectors", c.sectors},
       {"hits", c.hits},     {"dram_sectors", c.dram_sectors}, {"compulsory", c.compulsory}};
}
void from_json(const json& j, TextureLayoutCost& c) {
  Get(j, "layout", c.layout);
  Get(j, "requests", c.requests);
  Get(j, "sectors", c.sectors);
  Get(j, "hits", c.hits);
  Get(j, "dram_sectors", c.dram_sectors);
  Get(j, "compulsory", c.compulsory);
}

std::string Texture2DFigures::ReplayedWhat() const {
  if (replayed_blocks == 0) return "the kept blocks (" + std::to_string(kept_blocks) + ")";
  const std::string at_a_time =
      ", " + std::to_string(blocks_together) + " at a time on a multiprocessor";
  if (replayed_blocks == grid_blocks)
    return "every block (" + std::to_string(grid_blocks) + ")" + at_a_time;
  return "blocks " + std::to_string(replayed_blocks) + " of " + std::to_string(grid_blocks) +
         at_a_time;
}

void to_json(json& j, const Texture2DFigures& f) {
  j = {{"width", f.width},
       {"height", f.height},
       {"block", f.block},
       {"tile_width", f.tile_width},
       {"tile_height", f.tile_height},
       {"micro_width", f.micro_width},
       {"micro_height", f.micro_height},
       {"pattern", f.pattern},
       {"layout", f.layout},
       {"read_space", f.read_space},
       {"read_sectors_per_request", f.read_sectors_per_request},
       {"cache_bytes", f.cache_bytes},
       {"kept_blocks", f.kept_blocks},
       {"replayed_blocks", f.replayed_blocks},
       {"grid_blocks", f.grid_blocks},
       {"blocks_together", f.blocks_together},
       {"costs", f.costs},
       {"cache_hit_percent", f.cache_hit_percent},
       {"dram_sectors", f.dram_sectors}};
}
void from_json(const json& j, Texture2DFigures& f) {
  GetOr(j, "width", f.width);
  GetOr(j, "height", f.height);
  GetOr(j, "block", f.block);
  GetOr(j, "tile_width", f.tile_width);
  GetOr(j, "tile_height", f.tile_height);
  GetOr(j, "micro_width", f.micro_width);
  GetOr(j, "micro_height", f.micro_height);
  Get(j, "layout", f.layout);
  Get(j, "read_space", f.read_space);
  Get(j, "read_sectors_per_request", f.read_sectors_per_request);
  GetOr(j, "pattern", f.pattern);
  GetOr(j, "cache_bytes", f.cache_bytes);
  GetOr(j, "kept_blocks", f.kept_blocks);
  GetOr(j, "replayed_blocks", f.replayed_blocks);
  GetOr(j, "grid_blocks", f.grid_blocks);
  GetOr(j, "blocks_together", f.blocks_together);
  GetOr(j, "costs", f.costs);
  GetOr(j, "cache_hit_percent", f.cache_hit_percent);
  GetOr(j, "dram_sectors", f.dram_sectors);
}

void to_json(json& j, const MultiGpuFigures& f) {
  json timeline = json::array(), scaling = json::array();
  for (const GpuSegment& g : f.timeline)
    timeline.push_back({g.gpu, static_cast<int>(g.kind), g.start_us, g.end_us});
  for (const ScalingPoint& p : f.scaling) scaling.push_back({p.gpus, p.nz, p.speedup});
  j = {{"gpus", f.gpus},
       {"nx", f.nx},
       {"ny", f.ny},
       {"nz", f.nz},
       {"halo", f.halo},
       {"link", f.link},
       {"link_label", f.link_label},
       {"overlap", f.overlap},
       {"mpoints", f.mpoints},
       {"step_us", f.step_us},
       {"single_us", f.single_us},
       {"speedup", f.speedup},
       {"efficiency", f.efficiency},
       {"compute_us", f.compute_us},
       {"comm_us", f.comm_us},
       {"crossover_z", f.crossover_z},
       {"slab_planes", f.slab_planes},
       {"timeline", timeline},
       {"scaling", scaling}};
  if (f.measured) j["measured"] = *f.measured;
}

void to_json(json& j, const MultiGpuMeasurement& m) {
  json links = json::array(), timeline = json::array(), scaling = json::array();
  for (const MeasuredLink& l : m.links) links.push_back({l.transport, l.gbps, l.latency_us});
  for (const GpuSegment& g : m.timeline)
    timeline.push_back({g.gpu, static_cast<int>(g.kind), g.start_us, g.end_us});
  for (const MeasuredScalingPoint& p : m.scaling)
    scaling.push_back({p.gpus, p.nz, p.transport, p.step_us, p.single_us, p.model_us});
  j = {{"gpus", m.gpus},
       {"device", m.device},
       {"transport", m.transport},
       {"topology", m.topology},
       {"nx", m.nx},
       {"ny", m.ny},
       {"nz", m.nz},
       {"steps", m.steps},
       {"step_us", m.step_us},
       {"single_us", m.single_us},
       {"model_us", m.model_us},
       {"mpoints", m.mpoints},
       {"links", links},
       {"timeline_steps", m.timeline_steps},
       {"timeline", timeline},
       {"scaling", scaling},
       {"matches_one_gpu", m.matches_one_gpu},
       {"note", m.note}};
}

namespace {

std::vector<GpuSegment> SegmentsOf(const json& a, int gpus) {
  std::vector<GpuSegment> out;
  for (const json& g : a) {
    const int gpu = IntAt(g, 0), kind = IntAt(g, 1);
    const double start = g.at(2).get<double>(), end = g.at(3).get<double>();
    if (!std::isfinite(start) || !std::isfinite(end) || start > end)
      throw std::out_of_range("a timeline segment runs from " + std::to_string(start) + " to " +
                              std::to_string(end) + " us");
    if (start < 0 || end > 1e12)
      throw std::out_of_range("a timeline segment runs from " + std::to_string(start) + " to " +
                              std::to_string(end) + " us, outside 0..1e12");
    if (gpu < 0 || gpu >= gpus || kind < 0 || kind > 3)
      throw std::out_of_range("a timeline segment has GPU " + std::to_string(gpu) + " and kind " +
                              std::to_string(kind) + " (allowed: 0.." + std::to_string(gpus - 1) +
                              " and 0..3)");
    out.push_back({gpu, static_cast<GpuWork>(kind), start, end});
  }
  return out;
}

void CheckTime(double us, const char* what) {
  if (!std::isfinite(us) || us < 0 || us > 1e12)
    throw std::out_of_range(std::string(what) + " = " + std::to_string(us) +
                            " us is outside 0..1e12");
}

}  // namespace

void from_json(const json& j, MultiGpuMeasurement& m) {
  m.gpus = IntOf(j.at("gpus"));
  if (m.gpus < 1 || m.gpus > 64)
    throw std::out_of_range("measured gpus = " + std::to_string(m.gpus) + " is outside 1..64");
  Get(j, "device", m.device);
  Get(j, "transport", m.transport);
  GetOr(j, "topology", m.topology);
  m.nx = IntOf(j.at("nx"));
  m.ny = IntOf(j.at("ny"));
  m.nz = IntOf(j.at("nz"));
  m.steps = IntOf(j.at("steps"));
  for (const int v : {m.nx, m.ny, m.nz, m.steps}) {
    if (v < 0) throw std::out_of_range("a measured size of " + std::to_string(v) + " is negative");
  }
  Get(j, "step_us", m.step_us);
  Get(j, "single_us", m.single_us);
  Get(j, "model_us", m.model_us);
  Get(j, "mpoints", m.mpoints);
  for (const auto& [v, name] : {std::pair{m.step_us, "step_us"},
                                {m.single_us, "single_us"},
                                {m.model_us, "model_us"},
                                {m.mpoints, "mpoints"}})
    CheckTime(v, name);
  m.links.clear();
  for (const json& l : j.at("links")) {
    MeasuredLink link{l.at(0).get<std::string>(), l.at(1).get<double>(), l.at(2).get<double>()};
    CheckTime(link.gbps, "a link's GB/s");
    CheckTime(link.latency_us, "a link's latency");
    m.links.push_back(link);
  }
  m.timeline_steps = IntOf(j.at("timeline_steps"));
  if (m.timeline_steps < 0 || m.timeline_steps > 1000)
    throw std::out_of_range("timeline_steps = " + std::to_string(m.timeline_steps) +
                            " is outside 0..1000");
  m.timeline = SegmentsOf(j.at("timeline"), m.gpus);
  m.scaling.clear();
  for (const json& p : j.at("scaling")) {
    MeasuredScalingPoint point{
        IntAt(p, 0),           IntAt(p, 1),           p.at(2).get<std::string>(),
        p.at(3).get<double>(), p.at(4).get<double>(), p.at(5).get<double>()};
    if (point.gpus < 1 || point.gpus > 64 || point.nz < 1)
      throw std::out_of_range("a measured scaling point has " + std::to_string(point.gpus) +
                              " GPUs and nz = " + std::to_string(point.nz));
    CheckTime(point.step_us, "a scaling point's step");
    CheckTime(point.single_us, "a scaling point's one-GPU step");
    CheckTime(point.model_us, "a scaling point's modelled step");
    m.scaling.push_back(point);
  }
  Get(j, "matches_one_gpu", m.matches_one_gpu);
  GetOr(j, "note", m.note);
}
void from_json(const json& j, MultiGpuFigures& f) {
  f.gpus = IntOf(j.at("gpus"));
  f.nx = IntOf(j.at("nx"));
  f.ny = IntOf(j.at("ny"));
  f.nz = IntOf(j.at("nz"));
  f.halo = IntOf(j.at("halo"));
  Get(j, "link", f.link);
  GetOr(j, "link_label", f.link_label);
  Get(j, "overlap", f.overlap);
  Get(j, "mpoints", f.mpoints);
  Get(j, "step_us", f.step_us);
  Get(j, "single_us", f.single_us);
  Get(j, "speedup", f.speedup);
  Get(j, "efficiency", f.efficiency);
  Get(j, "compute_us", f.compute_us);
  Get(j, "comm_us", f.comm_us);
  f.crossover_z = IntOf(j.at("crossover_z"));
  Get(j, "slab_planes", f.slab_planes);
  if (f.gpus < 1 || f.gpus > 64)
    throw std::out_of_range("gpus = " + std::to_string(f.gpus) + " is outside 1..64");
  for (const int v : {f.nx, f.ny, f.nz, f.halo}) {
    if (v < 0) throw std::out_of_range("a size of " + std::to_string(v) + " is negative");
  }
  f.timeline = SegmentsOf(j.at("timeline"), f.gpus);
  f.scaling.clear();
  for (const json& p : j.at("scaling")) {
    const ScalingPoint point{IntAt(p, 0), IntAt(p, 1), p.at(2).get<double>()};
    if (point.nz < 1 || !std::isfinite(point.speedup))
      throw std::out_of_range("a scaling point has nz = " + std::to_string(point.nz) +
                              " and speedup " + std::to_string(point.speedup));
    f.scaling.push_back(point);
  }
  f.measured.reset();
  if (j.contains("measured")) f.measured = j.at("measured").get<MultiGpuMeasurement>();
}

}  // namespace ws
