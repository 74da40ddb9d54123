// The figures that views draw, one struct per kind (see figures.h for the pattern). A lesson
// whose figures only the lesson panel lists keeps its struct in its own folder; these are here
// because a view in viz/ reads them. JSON field names are the ones trace files have always used,
// so traces written before figures were typed still open.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "warpscope/trace/multi_gpu.h"
#include "warpscope/trace/occupancy.h"

namespace ws {

// [SECTION] latency: the warp-scheduler model (trace/latency_model.h) ------------------------
struct LatencyCurvePoint {
  int warps = 0;
  double utilisation = 0;
};
struct LatencySegmentFigure {  // JSON: [warp, start, end, kind]
  int warp = 0;                // -1: an idle issue slot
  std::int64_t start = 0, end = 0;
  int kind = 0;  // WarpSegment::Kind: 0 issue, 1 load, 2 waiting, 3 ready
};
struct LatencyFigures {
  static constexpr const char* kKind = "latency";
  static constexpr int kVersion = 1;
  double utilisation = 0;
  int slide_estimate = 0;  // ceil(latency / (instructions x issue cycles)): the slides' figure
  double issue_cycles_per_load = 0;
  std::int64_t cycles = 0, busy_cycles = 0;
  std::vector<LatencyCurvePoint> vary_warps;
  int warps_to_saturate = 0;
  std::vector<LatencySegmentFigure> timeline;
  int dependency_latency = 0;  // the register-dependency variant's; 0: memory only
  // The run's own warps, and one warp's period in cycles: its group of instructions and the
  // load's wait, or (register dependency) one instruction per dependency_latency (0 in files
  // from before these were kept: the view falls back on the timeline).
  int warps = 0;
  double period_cycles = 0;
};

// [SECTION] fp-order: a parallel float sum against the sequential and exact sums -------------
struct TreeSumPoint {
  int block = 0;
  float tree_sum = 0;
};
struct FpSumFigures {
  static constexpr const char* kKind = "fp-sum";
  static constexpr int kVersion = 1;
  float gpu_sum = 0, cpu_sum = 0;
  double exact_sum = 0;
  float tree_order_sum = 0;  // the kernel's order, reproduced on the host
  double error_bound = 0;
  std::vector<TreeSumPoint> vary_block;
  int block = 0;  // the run's threads per block (0 in files from before it was kept)
};

// [SECTION] scalability: blocks dealt to multiprocessors -------------------------------------
struct BlockOnSm {  // JSON: [block, sm, start, end]
  std::uint32_t block = 0;
  int sm = 0;
  double start = 0, end = 0;
};
struct MakespanPoint {
  int sms = 0;
  double makespan = 0;
};
struct ScheduleFigures {
  static constexpr const char* kKind = "block-schedule";
  static constexpr int kVersion = 1;
  std::string time_unit;  // "units" (the emulator's model) or "us" (a GPU's %globaltimer)
  int sms = 0;
  int blocks_per_sm_limit = 0;
  double makespan = 0;
  std::vector<int> blocks_per_sm;
  int most_resident = 0;
  double busy = 0;
  std::uint32_t waves = 0;
  std::vector<BlockOnSm> timeline;
  std::vector<MakespanPoint> vary_sms;  // the same blocks replayed on other SM counts
  // The emulator's model only.
  std::optional<std::string> emulated_device, limiter;
  std::optional<double> clock_ghz;
};

// [SECTION] transfers: copy bandwidth and the stream pipeline ---------------------------------
struct TransferPoint {
  double bytes = 0;
  double h2d_pageable = 0, h2d_pinned = 0, d2h_pageable = 0, d2h_pinned = 0;  // GB/s
  double h2d_pinned_ms = 0;
};
struct PipelineStep {  // JSON: [mode, stream, kind, chunk, start_ms, end_ms]
  int mode = 0;        // 0 one stream, 1 several
  int stream = 0;
  int kind = 0;  // 0 copy in, 1 kernel, 2 copy back
  int chunk = 0;
  double start = 0, end = 0;
};
struct PipelineFigures {
  std::string memory;  // "pinned" or "pageable"
  int streams = 1, chunks = 1, rounds = 0;
  double bytes = 0;
  double serial_ms = 0, overlapped_ms = 0, speedup = 0;
  std::vector<PipelineStep> ops;
};
// Zero copy against explicit copies, at one size: copy in + `passes` kernels + copy back, against
// `passes` kernels on mapped host memory.
struct ZeroCopyPoint {
  double bytes = 0, explicit_ms = 0, mapped_ms = 0;
};
struct ZeroCopyFigures {
  int passes = 0;           // 0: not measured (the pinned and pageable variants, older captures)
  bool integrated = false;  // cudaDeviceProp::integrated: the GPU shares the host's memory
  std::vector<ZeroCopyPoint> sweep;
  double explicit_ms = 0, mapped_ms = 0, speedup = 0;  // at the chosen size
};
struct TransferFigures {
  static constexpr const char* kKind = "transfers";
  static constexpr int kVersion = 1;
  std::vector<TransferPoint> sweep;
  double peak_gbps = 0;  // the fastest copy measured: what this link delivers
  double size_bytes = 0;
  double h2d_pageable_gbps = 0, h2d_pinned_gbps = 0, d2h_pageable_gbps = 0, d2h_pinned_gbps = 0;
  PipelineFigures overlap;
  ZeroCopyFigures zero_copy;
};

// [SECTION] occupancy: the calculator's answer and the slides' three graphs ------------------
struct OccupancyLimits {
  int warps = 0, registers = 0, shared = 0, blocks = 0;  // blocks each resource allows
};
struct OccupancyFigures {
  static constexpr const char* kKind = "occupancy";
  static constexpr int kVersion = 1;
  std::string device;  // the generation's name ("cc1.0" ... "cc9.0", or "gpu")
  int active_blocks = 0, active_warps = 0, active_threads = 0;
  double occupancy = 0;
  std::string limiter;
  int warps_per_block = 0, registers_per_block = 0, shared_per_block = 0;
  OccupancyLimits limits;
  int blocks_per_gpu = 0;
  std::vector<OccupancyPoint> vary_threads, vary_registers, vary_shared;
  // The run's input, marked on the three graphs (-1 in files from before it was kept: no mark).
  int threads = -1, registers = -1, shared_bytes = -1;
};

// [SECTION] texture-2d: the image, its layout and what the blur's reads cost -----------------
// The image reads of every block replayed through the cache model (trace/cache_model.h) with
// the texels placed by one layout.
struct TextureLayoutCost {
  std::string layout;  // "row-major", "morton", "tiled"
  std::uint64_t requests = 0, sectors = 0, hits = 0, dram_sectors = 0, compulsory = 0;
  double SectorsPerRequest() const { return requests ? double(sectors) / requests : 0.0; }
  double HitPercent() const { return sectors ? 100.0 * double(hits) / sectors : 0.0; }
};
struct Texture2DFigures {
  static constexpr const char* kKind = "texture-2d";
  static constexpr int kVersion = 1;
  // The image and the tiled layout's tiles (traces from before these were kept: the defaults).
  int width = 64, height = 64, block = 16;  // block: threads per block side
  int tile_width = 8, tile_height = 8, micro_width = 2, micro_height = 2;
  std::string pattern = "blur";  // "blur", "rotate", "row-sums" (older traces: blur)
  std::string layout;      // the layout the kernel read through: "row-major", "morton", "tiled"
  std::string read_space;  // "global" or "texture"
  double read_sectors_per_request = 0;
  // The cache model (0 and empty in traces from before it): its size, and the reads under each
  // layout, the run's own first among equals in `layouts` order. Replayed: every block of the
  // grid, `blocks_together` at a time on a multiprocessor with an empty cache each (traces from
  // before the whole grid was replayed: replayed_blocks 0, and the kept blocks, together).
  std::uint64_t cache_bytes = 0;
  std::uint32_t kept_blocks = 0;
  std::uint64_t replayed_blocks = 0, grid_blocks = 0;
  std::uint32_t blocks_together = 0;
  std::vector<TextureLayoutCost> costs;  // row-major, morton, tiled (tiled absent if invalid)
  // The run's own layout's figures, for the metrics table.
  double cache_hit_percent = 0;
  std::uint64_t dram_sectors = 0;
  // What the replay covered, in words: "every block (16), 4 at a time on a multiprocessor",
  // "blocks 12 of 16, 4 at a time ..." (a recording cut short), or "the kept blocks (4)".
  std::string ReplayedWhat() const;
  const TextureLayoutCost* CostOf(const std::string& layout_name) const {
    for (const TextureLayoutCost& c : costs)
      if (c.layout == layout_name) return &c;
    return nullptr;
  }
};

// [SECTION] multi-gpu: a stencil split along z, its modelled time step and scaling ----------
struct ScalingPoint {  // JSON: [gpus, nz, speedup]
  int gpus = 1, nz = 0;
  double speedup = 0;
};
// Measured on real GPUs (issue 20): what the GPU run of the lesson adds to the model's figures.
struct MeasuredLink {     // JSON: [transport, gbps, latency_us]
  std::string transport;  // "peer" (cudaMemcpyPeerAsync, peer access on) or "staged" (pinned host)
  double gbps = 0, latency_us = 0;  // one message (halo planes) timed alone: the model's inputs
};
struct MeasuredScalingPoint {  // JSON: [gpus, nz, transport, step_us, single_us, model_us]
  int gpus = 1, nz = 0;
  std::string transport;
  double step_us = 0;    // one time step on `gpus` GPUs, measured (median)
  double single_us = 0;  // the same nz on one GPU, measured (median)
  double model_us = 0;   // the model's step with the measured speed and link
};
struct MultiGpuMeasurement {
  int gpus = 1;           // GPUs it ran on
  std::string device;     // "2 x NVIDIA H200"
  std::string transport;  // of the run the timeline shows
  std::string topology;   // "peer access both ways" / "no peer access: staged through the host"
  int nx = 0, ny = 0, nz = 0;
  int steps = 0;         // time steps timed (after warm-up ones)
  double step_us = 0;    // median step on `gpus` GPUs
  double single_us = 0;  // median step on one GPU
  double model_us = 0;   // the model's step with the measured inputs
  double mpoints = 0;    // one GPU's measured speed, million points a second (model input)
  std::vector<MeasuredLink> links;            // per transport measured (model inputs)
  int timeline_steps = 0;                     // consecutive steps `timeline` shows
  std::vector<GpuSegment> timeline;           // per GPU, from events on each GPU's own clock
  std::vector<MeasuredScalingPoint> scaling;  // against nz, per transport
  bool matches_one_gpu = false;               // the field equals one GPU's, bit for bit
  std::string note;                           // "asked for 4 GPUs; this machine has 2"
};
struct MultiGpuFigures {
  static constexpr const char* kKind = "multi-gpu";
  static constexpr int kVersion = 1;
  int gpus = 1, nx = 0, ny = 0, nz = 0, halo = 4;
  std::string link, link_label;  // LinkSpec name and label
  bool overlap = false;
  double mpoints = 0;
  double step_us = 0, single_us = 0, speedup = 0, efficiency = 0;
  double compute_us = 0, comm_us = 0;
  int crossover_z = 0;                // where compute covers communication for `gpus` (0: one GPU)
  std::vector<int> slab_planes;       // per GPU, as emulated
  std::vector<GpuSegment> timeline;   // one modelled time step: compute, send, receive, idle
  std::vector<ScalingPoint> scaling;  // speedup against nz for 2, 4 and 8 GPUs
  std::optional<MultiGpuMeasurement> measured;  // a run on real GPUs
};

// JSON (the names trace files use) ----------------------------------------------------------
void to_json(nlohmann::json& j, const LatencyCurvePoint& p);
void from_json(const nlohmann::json& j, LatencyCurvePoint& p);
void to_json(nlohmann::json& j, const LatencySegmentFigure& s);
void from_json(const nlohmann::json& j, LatencySegmentFigure& s);
void to_json(nlohmann::json& j, const LatencyFigures& f);
void from_json(const nlohmann::json& j, LatencyFigures& f);
void to_json(nlohmann::json& j, const TreeSumPoint& p);
void from_json(const nlohmann::json& j, TreeSumPoint& p);
void to_json(nlohmann::json& j, const FpSumFigures& f);
void from_json(const nlohmann::json& j, FpSumFigures& f);
void to_json(nlohmann::json& j, const BlockOnSm& b);
void from_json(const nlohmann::json& j, BlockOnSm& b);
void to_json(nlohmann::json& j, const MakespanPoint& p);
void from_json(const nlohmann::json& j, MakespanPoint& p);
void to_json(nlohmann::json& j, const ScheduleFigures& f);
void from_json(const nlohmann::json& j, ScheduleFigures& f);
void to_json(nlohmann::json& j, const TransferPoint& p);
void from_json(const nlohmann::json& j, TransferPoint& p);
void to_json(nlohmann::json& j, const PipelineStep& s);
void from_json(const nlohmann::json& j, PipelineStep& s);
void to_json(nlohmann::json& j, const PipelineFigures& f);
void from_json(const nlohmann::json& j, PipelineFigures& f);
void to_json(nlohmann::json& j, const ZeroCopyFigures& f);
void from_json(const nlohmann::json& j, ZeroCopyFigures& f);
void to_json(nlohmann::json& j, const TransferFigures& f);
void from_json(const nlohmann::json& j, TransferFigures& f);
void to_json(nlohmann::json& j, const OccupancyFigures& f);
void from_json(const nlohmann::json& j, OccupancyFigures& f);
void to_json(nlohmann::json& j, const MultiGpuMeasurement& m);
void from_json(const nlohmann::json& j, MultiGpuMeasurement& m);
void to_json(nlohmann::json& j, const MultiGpuFigures& f);
void from_json(const nlohmann::json& j, MultiGpuFigures& f);
void to_json(nlohmann::json& j, const TextureLayoutCost& c);
void from_json(const nlohmann::json& j, TextureLayoutCost& c);
void to_json(nlohmann::json& j, const Texture2DFigures& f);
void from_json(const nlohmann::json& j, Texture2DFigures& f);

}  // namespace ws
