// What-if layouts: a layout is a function on recorded addresses (ARCHITECTURE.md). A what-if
// re-addresses every recorded access to one array of a run through a layout (pad, CuTe's XOR
// Swizzle<B,M,S>, Morton, tiled, transpose) or re-reads it as wider accesses (vector width), and
// derives the run's figures again from the re-addressed records, without running the kernel.
//
//   Result<WhatIf> w = ParseWhatIf("tile:swizzle=5,0,5", run);
//   Result<LessonRun> b = ApplyWhatIf(run, *w);  // b->what_if says what was done, over what
//
// Element (i, j) of an array `cols` wide, recorded at byte base + (i * pitch + j) * elem, moves
// to base + Place(i, j) * elem (plus the byte within the element). Accesses outside the logical
// rows x cols (a padded tile's spare column) keep their address.
//
// The figures are exact for the whole grid when the run kept every block's records (the app
// keeps them for launches up to RunOptions's keep_all_threads_up_to); otherwise they are those of
// the kept blocks, and the what-if's `scope` says so.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "warpscope/trace/lesson_run.h"
#include "warpscope/trace/status.h"

namespace ws {

// A what-if covers the whole grid when every block's records were kept: the app (while a what-if
// is on) and `run --what-if` keep them for launches up to this many threads (transpose 256²: 64
// blocks, 262,144 accesses, 5 MB).
inline constexpr std::uint64_t kWhatIfKeepAllThreads = std::uint64_t{1} << 18;

enum class WhatIfKind { kPad, kSwizzle, kMorton, kTiled, kTranspose, kVector };
const char* ToString(WhatIfKind k);  // "pad", "swizzle", "morton", "tiled", "transpose", "vector"

// One array of a run, as the what-if sees it: where its accesses are recorded and its logical
// shape (rows x cols elements of `elem` bytes, row i starting at element i * pitch).
struct WhatIfArray {
  MemorySpace space = MemorySpace::kShared;
  std::uint16_t id = 0;  // SiteInfo::buffer of its sites
  std::string name;      // "tile" (from the source's declaration), else the buffer's name
  std::uint32_t elem = 4;
  std::uint32_t rows = 1, cols = 1;
  std::uint32_t pitch = 0;  // 0: cols
  std::uint32_t base = 0;   // byte offset of element (0, 0) (shared: in the block's window)
  std::vector<std::uint16_t> sites;  // the main launch's sites that access it
  // Its declaration as the source writes it, when found: type "float", dims {"TILE_DIM",
  // "TILE_DIM"}.
  std::string type;
  std::vector<std::string> dims;
  std::uint32_t row_pitch() const { return pitch != 0 ? pitch : cols; }
};

struct WhatIf {
  // The launch it applies to (index into the run's launches) and, when the spec named it, its
  // kernel ("transposeCoalesced:tile:pad=1").
  static constexpr std::size_t kShownLaunch = ~std::size_t{0};  // the launch the views show
  std::size_t launch = kShownLaunch;
  std::string kernel;
  WhatIfKind kind = WhatIfKind::kPad;
  WhatIfArray array;
  std::uint32_t pad = 1;                             // kPad: elements added to each row
  std::uint32_t bits = 3, base_bits = 0, shift = 3;  // kSwizzle: CuTe's Swizzle<B, M, S>
  std::uint32_t tile_w = 8, tile_h = 8;              // kTiled
  std::uint32_t width = 16;                          // kVector: bytes per access (4, 8 or 16)
};

// The arrays the run's main launch accesses (shared arrays first, then global buffers), with a
// shape read from the source's declaration where it can be (`tile[32][32]`, with the run's
// parameters for names such as TILE_DIM), else from the records: square when the element count
// is a square, else one row.
std::vector<WhatIfArray> WhatIfArrays(const LessonRun& run);
// The same for another of the run's launches (index into its launches).
std::vector<WhatIfArray> WhatIfArrays(const LessonRun& run, std::size_t launch);

// "[KERNEL:]ARRAY:KIND[=ARGS][,shape=RxC]" where ARRAY is an array's name or `site=N` (the array
// of site N) and KIND is pad=K, swizzle=B,M,S, morton, tiled=WxH, transpose or vector=BYTES.
// KERNEL (a kernel's name, or launch=N counting from 1) chooses the launch: the kernel's launch
// the views show when it is one, else its first launch that kept block records; without it, the
// launch the views show. It is always applied to the records as written. Errors name the part
// that is wrong and what is allowed: "what-if 'tile:swizzle=9,0,5': B is 9, over the limit of 8
// bits", "the program launched no kernel 'transpose' (its kernels: copy, transposeNaive)".
Result<WhatIf> ParseWhatIf(const std::string& spec, const LessonRun& run);
// The form alone, with no run to name arrays from: ARRAY:LAYOUT with a known layout (a lecture
// file's what_if is checked so when it is read).
Status CheckWhatIfForm(const std::string& spec);
// Checks a what-if against its array (shape and parameters in range); what ParseWhatIf runs.
Status CheckWhatIf(const WhatIf& w);
std::string SpecOf(const WhatIf& w);     // parses back to `w`
std::string Describe(const WhatIf& w);   // "Swizzle<5,0,5> on tile", "pad +1 on tile"
std::string FormulaOf(const WhatIf& w);  // "(i, j) -> i*32 + (j ^ (i & 31))"
// The index expression a student would write to get the layout at one of the array's sites:
// "tile[threadIdx.x][threadIdx.y ^ (threadIdx.x & 31)]", or the declaration to change:
// "__shared__ float tile[32][32 + 1]".
std::string ProposedCode(const WhatIf& w, const SiteInfo& site);
// The access to array `name` as the site's code writes it ("tile[threadIdx.x][threadIdx.y]"),
// what ProposedCode's index expression replaces; "" when the code does not index `name`.
std::string AccessText(const SiteInfo& site, const std::string& name);

// Where element (i, j) lies under the what-if, in elements from the array's base.
std::uint64_t PlaceOf(const WhatIf& w, std::uint32_t i, std::uint32_t j);

// The run with the what-if applied to its main launch: re-addressed kept records, the figures
// derived from them (per site; the modeled time scaled by the global sectors), and `what_if`
// set. Refuses (with the reason) a vector width the array's accesses cannot be read with.
Result<LessonRun> ApplyWhatIf(const LessonRun& run, const WhatIf& w);
// A program's main file with a pad or row swizzle written in as a slider, so that a real run
// confirms the what-if: `#define WS_PAD 1  // warpscope: param WS_PAD 0..8` after its #includes
// and the declaration's last bracket `+ WS_PAD`; or `#define WS_SWIZZLE 1` and each access
// `tile[i][j]` as `tile[i][(j) ^ (WS_SWIZZLE * ((i) & 15))]`. At 0 the program runs as written.
// Refused, with why, for other layouts, a lesson, or an array in another of the program's files.
Result<std::string> WriteWhatIf(const WhatIf& w, const LessonRun& run);
// ParseWhatIf, then ApplyWhatIf.
Result<LessonRun> ApplyWhatIf(const LessonRun& run, const std::string& spec);

}  // namespace ws
