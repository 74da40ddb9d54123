#include "warpscope/kernels/catalog.h"

#include <algorithm>
#include <sstream>

#include "lesson_entry_points.h"
#include "warpscope/kernels/devices.h"
#include "warpscope/kernels/lesson_sources.h"
#include "warpscope/trace/device_preset.h"

namespace ws {
namespace {

std::vector<LessonInfo> MakeCatalogue() {
  std::vector<LessonInfo> v;
  const ParamSpec threads{"threads", 256, 32, 1024, 32, "threads per block (blockDim.x)"};
  v.push_back({"offset-copy",
               "Offset copy: misaligned accesses",
               {{"copy", "consecutive threads copy consecutive floats, shifted by `offset`"}},
               {{"offset", 1, 0, 32, 1, "elements between the buffer start and thread 0's element"},
                threads,
                {"blocks", 64, 1, 65535, 1, "blocks in the grid (gridDim.x)"}},
               "Each warp copies 32 consecutive floats: 128 bytes. With offset 0 they fill four "
               "aligned 32-byte sectors; with any other offset they straddle a fifth, so every "
               "request moves 5 sectors for 4 sectors of data. The slides' GTX 280 (compute 1.3) "
               "lost bandwidth gently with the offset, while compute 1.0 lost coalescing "
               "altogether (one transaction per thread): switch the model in the coalescing view "
               "to see all three on the same trace. Drag `offset` from 0 to 32 and watch sectors "
               "per request jump to 5 and come back to 4 at multiples of 8.",
               "copy.cuh",
               lesson_sources::kCopyCuh});
  v.push_back({"stride-copy",
               "Stride copy: strided accesses",
               {{"copy", "thread i copies float i * stride"}},
               {{"stride", 2, 1, 64, 1, "elements between consecutive threads' elements"},
                threads,
                {"blocks", 64, 1, 65535, 1, "blocks in the grid (gridDim.x)"}},
               "Thread i copies element i * stride. At stride 1 a warp's 32 floats fill 4 sectors; "
               "at stride 2 they spread over 8, half of every sector wasted; from stride 8 on each "
               "lane needs a sector of its own (32 per request), and effective bandwidth falls "
               "toward 1/8 of the peak, as in the slides' bandwidth-versus-stride figure. Strided "
               "access is natural in multidimensional data; staging through shared memory avoids "
               "it (see transpose).",
               "copy.cuh",
               lesson_sources::kCopyCuh});
  v.push_back(
      {"bank-stride",
       "Shared-memory banks: stride, permutation, broadcast",
       {{"stride", "thread t reads shared word t * stride"},
        {"permutation", "each warp reads its 32 words in a random 1:1 order"},
        {"broadcast", "every thread reads the same word (`stride` picks which)"}},
       {{"stride", 2, 0, 64, 1, "words between consecutive threads (broadcast: the word read)"},
        threads,
        {"blocks", 4, 1, 65535, 1, "blocks in the grid (gridDim.x)"}},
       "Shared memory has 32 banks, each serving one 4-byte word per cycle; word w lives in "
       "bank w mod 32. With stride 1 or a 1:1 permutation every thread of a warp hits a "
       "different bank: no conflict. Stride 2 puts two different words in each even bank "
       "(2-way), stride 8 eight (8-way), as in the slides' bank addressing examples; any "
       "odd stride is conflict free. When all threads read one word it is broadcast: no "
       "conflict either. The slides count per half-warp over 16 banks (compute 1.x); the "
       "bank view shows both models.",
       "bank_stride.cuh",
       lesson_sources::kBankStrideCuh});
  v.push_back({"transpose",
               "Matrix transpose: coalescing through shared memory",
               {{"naive", "loads coalesced, stores strided by the height"},
                {"coalesced", "tile staged in shared memory: coalesced, but bank conflicts"},
                {"padded", "tile padded to TILE_DIM+1 columns: coalesced and conflict free"}},
               {{"tile", 32, 8, 32, 8, "TILE_DIM: threads per block side (8, 16 or 32)"},
                {"width", 256, 8, 8192, 8, "matrix width (a multiple of tile)"},
                {"height", 256, 8, 8192, 8, "matrix height (a multiple of tile)"}},
               "The naive kernel reads rows (coalesced) but writes columns: each lane's store "
               "lands `height` floats from its neighbour's, so a warp's store needs 32 sectors "
               "instead of 4. The coalesced kernel reads a tile into shared memory, waits at "
               "__syncthreads(), and writes it out by rows; now global memory is coalesced both "
               "ways, but reading a tile column puts every word in the same bank (32-way with a "
               "32-wide tile; the slides' 16-way is the 16x16 tile under the half-warp model). "
               "Padding the tile to TILE_DIM+1 columns turns that column into a diagonal across "
               "all banks. Compare the three in the bank view and the timing plot.",
               "transpose.cuh",
               lesson_sources::kTransposeCuh});
  return v;
}

std::string Names(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

}  // namespace

const std::vector<LessonInfo>& Lessons() {
  static const std::vector<LessonInfo> catalogue = MakeCatalogue();
  return catalogue;
}

const LessonInfo* FindLesson(const std::string& id) {
  for (const LessonInfo& l : Lessons()) {
    if (l.id == id) return &l;
  }
  return nullptr;
}

Status CheckParam(const ParamSpec& spec, long long value) {
  if (value < spec.min || value > spec.max) {
    return Status::Error(spec.name + " = " + std::to_string(value) + " is outside its range " +
                         std::to_string(spec.min) + ".." + std::to_string(spec.max));
  }
  if (spec.step > 1 && (value - spec.min) % spec.step != 0) {
    return Status::Error(spec.name + " = " + std::to_string(value) + " must be " +
                         std::to_string(spec.min) + " plus a multiple of " +
                         std::to_string(spec.step));
  }
  return {};
}

std::string SourceLine(std::string_view source, std::uint32_t line) {
  std::size_t start = 0;
  for (std::uint32_t l = 1; l < line && start != std::string_view::npos; ++l) {
    start = source.find('\n', start);
    if (start != std::string_view::npos) ++start;
  }
  if (start == std::string_view::npos || start >= source.size()) return {};
  std::size_t end = source.find('\n', start);
  std::string_view text =
      source.substr(start, end == std::string_view::npos ? source.size() - start : end - start);
  const auto b = text.find_first_not_of(" \t");
  const auto e = text.find_last_not_of(" \t\r");
  return b == std::string_view::npos ? std::string() : std::string(text.substr(b, e - b + 1));
}

Result<LessonRun> RunLesson(const std::string& id, const std::string& variant_in,
                            const Params& overrides, const std::string& backend,
                            const RunOptions& options) {
  const LessonInfo* info = FindLesson(id);
  if (info == nullptr) {
    std::vector<std::string> ids;
    for (const auto& l : Lessons()) ids.push_back(l.id);
    return Status::Error("unknown lesson '" + id + "'; lessons are: " + Names(ids));
  }
  std::string variant = variant_in.empty() ? info->variants.front().name : variant_in;
  std::vector<std::string> variants;
  for (const auto& v : info->variants) variants.push_back(v.name);
  if (std::find(variants.begin(), variants.end(), variant) == variants.end()) {
    return Status::Error("unknown variant '" + variant + "' for " + id +
                         "; variants are: " + Names(variants));
  }
  Params params;
  std::vector<std::string> param_names;
  for (const ParamSpec& p : info->params) {
    params[p.name] = p.default_value;
    param_names.push_back(p.name);
  }
  for (const auto& [name, value] : overrides) {
    auto spec = std::find_if(info->params.begin(), info->params.end(),
                             [&](const ParamSpec& p) { return p.name == name; });
    if (spec == info->params.end()) {
      return Status::Error("unknown parameter '" + name + "' for " + id +
                           "; parameters are: " + Names(param_names));
    }
    if (Status s = CheckParam(*spec, value); !s.ok()) return Status::Error(id + ": " + s.message());
    params[name] = value;
  }
  auto preset = FindDevicePreset(options.preset);
  if (!preset) return preset.status();

  LessonRun run;
  run.lesson = id;
  run.variant = variant;
  run.backend = backend;
  run.params = params;
  Status s;
  if (backend == "emu") {
    s = RunLessonEmu(id, variant, params, options, *preset, &run);
  } else if (backend == "cuda") {
    s = RunLessonCuda(id, variant, params, options, &run);
  } else {
    return Status::Error("unknown backend '" + backend + "'; backends are: emu, cuda");
  }
  if (!s.ok()) return Status::Error(id + ": " + s.message());
  if (run.launches.empty()) return Status::Error(id + ": the lesson launched no kernel");
  for (LaunchTrace& t : run.launches) {
    for (SiteInfo& site : t.sites) site.code = SourceLine(info->source, site.line);
    for (BarrierSite& b : t.barrier_sites) b.code = SourceLine(info->source, b.line);
  }
  if (backend == "emu") {
    // Modeled: the bytes the sectors move at the preset's DRAM bandwidth.
    const LaunchTrace& t = run.main_launch();
    std::uint64_t sectors = 0;
    for (std::size_t i = 0; i < t.sites.size(); ++i) {
      if (t.sites[i].space != MemorySpace::kShared) sectors += t.stats.sites[i].sectors;
    }
    run.timing = {"modeled", sectors * 32.0 / (preset->bandwidth_gbps * 1e6),
                  "sectors x 32 B at " + std::to_string(static_cast<int>(preset->bandwidth_gbps)) +
                      " GB/s (" + preset->name + "); a model, not a measurement"};
  }
  return run;
}

}  // namespace ws
