#include "warpscope/kernels/catalog.h"

#include <algorithm>
#include <cstdio>
#include <sstream>

#include "lesson_entry_points.h"
#include "warpscope/kernels/devices.h"
#include "warpscope/kernels/lesson_sources.h"
#include "warpscope/kernels/transfers.h"
#include "warpscope/trace/device_preset.h"
#include "warpscope/trace/occupancy.h"

namespace ws {
namespace {

// The occupancy calculator's generations (cc1.0 ... cc9.0), the `device` choices of the lessons
// that use its rules; `and_gpu` adds "gpu", this machine's GPU.
std::vector<std::string> DeviceChoices(bool and_gpu) {
  std::vector<std::string> names;
  for (const OccupancyDevice& d : OccupancyDevices()) names.push_back(d.name);
  if (and_gpu) names.push_back("gpu");
  return names;
}

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
               "request moves 5 sectors for 4 sectors of data, back to 4 at multiples of 8. The "
               "slides' GTX 280 (compute 1.3) lost bandwidth with the offset and compute 1.0 lost "
               "coalescing altogether (one transaction per thread, the cc1.0 column). A modern GPU "
               "hardly notices: on an H200 the measured bandwidth moved by about 5 %, because the "
               "fifth sector is the next warp's first and the L2 cache serves it.",
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

  v.push_back(
      {"vecadd",
       "Vector add: chunked against interleaved threads",
       {{"chunked", "each thread adds values_per_thread contiguous elements (not coalesced)"},
        {"interleaved", "consecutive threads add consecutive elements (coalesced)"}},
       {{"values_per_thread", 4, 1, 64, 1, "elements each thread adds"},
        {"block", 128, 32, 1024, 32, "threads per block (blockDim.x)"},
        {"grid", 32, 1, 65535, 1, "blocks in the grid (gridDim.x)"}},
       "Both kernels add the same vectors; only the mapping of elements to threads differs. "
       "In the chunked kernel (the CSU slides' first version) neighbouring threads are "
       "values_per_thread floats apart, so one warp load touches values_per_thread times "
       "more 32-byte sectors than it needs. In the interleaved kernel the threads of a warp "
       "read 32 consecutive floats at every step: 4 sectors, fully coalesced. Raise "
       "values_per_thread and watch the chunked kernel's sectors per request grow to 32 while "
       "the interleaved one stays at 4.",
       "vecadd.cuh",
       lesson_sources::kVecaddCuh});
  v.push_back(
      {"picture",
       "2D picture kernel: threads outside the image",
       {{"picture", "one thread per pixel, with a bounds test"}},
       {{"width", 76, 1, 2048, 1, "image width n (pixels)"},
        {"height", 62, 1, 2048, 1, "image height m (pixels)"},
        {"block", 16, 1, 32, 1, "threads per block side (blockDim.x = blockDim.y)"}},
       "The textbook covers a 76x62 picture with 16x16 blocks: a 5x4 grid of 80x64 threads. "
       "Threads whose Row or Col falls outside the picture fail the bounds test and do "
       "nothing, so the grid has four kinds of blocks: inside, cut by the right edge, cut by "
       "the bottom edge, and the corner block cut by both. Of the 5120 threads, 4712 have a "
       "pixel and 408 are idle. Change the block size and see how many threads are wasted.",
       "picture.cuh",
       lesson_sources::kPictureCuh});
  v.push_back(
      {"barrier",
       "Barrier synchronization: waiting for the slowest thread",
       {{"uneven", "thread t works t * skew units, then all meet at __syncthreads()"},
        {"divergent-barrier", "a __syncthreads() inside a thread-dependent if (emulator only)"}},
       {{"threads", 32, 2, 1024, 1, "threads in the block"},
        {"skew", 10, 0, 1000, 1, "work units between consecutive threads"}},
       "All threads of a block must reach __syncthreads() before any leaves it, so the block "
       "moves at the pace of its slowest thread: the textbook's barrier figure, where early "
       "arrivals wait for the late ones. With skew units of work per thread index, thread 0 "
       "waits (threads - 1) x skew units on the emulator. On a GPU the lanes of one warp "
       "arrive together, because the warp runs until its longest lane is done: the waits "
       "show between warps, so use more than 32 threads there. The divergent-barrier "
       "variant puts the barrier inside an if that only half the threads take; the emulator "
       "stops and names the line and the threads, and a GPU run is refused (undefined "
       "behaviour that may hang).",
       "barrier.cuh",
       lesson_sources::kBarrierCuh});
  v.push_back(
      {"divergence",
       "Branch divergence: by thread against by warp",
       {{"by-thread", "if (threadIdx.x > 2): warp 0 of each block diverges"},
        {"by-warp", "if (threadIdx.x / WARP_SIZE > 2): whole warps take one side"}},
       {{"threads", 256, 32, 1024, 32, "threads per block"},
        {"blocks", 4, 1, 65535, 1, "blocks in the grid"}},
       "A warp executes one instruction for all its lanes; when lanes disagree on a branch, "
       "the warp runs both sides one after the other with part of its lanes switched off. "
       "The slides contrast if (threadIdx.x > 2), which splits warp 0 of every block (lanes "
       "0-2 on one side, 3-31 on the other), with if (threadIdx.x / WARP_SIZE > 2), whose "
       "condition is the same for all 32 lanes of a warp: no divergence at all. Look at the "
       "active lanes of each store. On a real GPU this branch is too short to diverge: nvcc "
       "turns it into a select and one store per warp (Nsight Compute counts 32 store "
       "requests where the source makes 36; docs/ncu-agreement.md). Warpscope shows what the "
       "source does; divergence costs where both sides do real work.",
       "divergence.cuh",
       lesson_sources::kDivergenceCuh});
  v.push_back(
      {"constant",
       "Constant memory: broadcast against serialized reads",
       {{"broadcast", "all threads of a warp read the same coefficient"},
        {"serialized", "each lane reads a different coefficient"}},
       {{"threads", 256, 32, 1024, 32, "threads per block"},
        {"blocks", 8, 1, 65535, 1, "blocks in the grid"}},
       "Constant memory is cached and broadcast: when every thread of a warp reads the same "
       "address, one read serves them all, which is why the slides say it saves bandwidth. "
       "When the threads read different addresses, the reads are served one after another: "
       "the slides' 16 serialized reads for a half-warp, 32 for a modern warp. Compare the "
       "serialized reads per request of the two variants.",
       "constant.cuh",
       lesson_sources::kConstantCuh});
  v.push_back(
      {"atomics",
       "Atomic histogram: lanes that collide on one bin",
       {{"histogram", "atomicAdd(&bins[data[i] % bins], 1)"}},
       {{"bins", 8, 1, 1024, 1, "number of histogram bins"},
        {"threads", 256, 32, 1024, 32, "threads per block"},
        {"blocks", 8, 1, 65535, 1, "blocks in the grid"}},
       "An atomic read-modify-write never loses an update, but the lanes of a warp that hit "
       "the same address are served one at a time. Element i goes to bin i % bins, so a warp "
       "puts 32 / bins lanes on each bin: 32-way with one bin, 4-way with eight, conflict "
       "free with 32 or more. The conflict histogram counts warp requests by their degree.",
       "atomics.cuh",
       lesson_sources::kAtomicsCuh});
  v.push_back(
      {"reverse",
       "Array reversal through static and dynamic shared memory",
       {{"static", "__shared__ int s[1024]: size fixed at compile time"},
        {"dynamic", "extern __shared__ int s[]: size from <<<1, n, n*sizeof(int)>>>"}},
       {{"n", 64, 1, 1024, 1, "elements (and threads)"}},
       "Each thread copies one element into shared memory, waits at __syncthreads() so that "
       "every element is there, then reads its mirror element: without the barrier a thread "
       "could read a slot nobody has written yet. The memory-model slides show the same "
       "kernel with a static array and with a dynamic one whose size is the launch's third "
       "parameter; the records and the result are the same, only the shared memory a block "
       "reserves differs.",
       "reverse.cuh",
       lesson_sources::kReverseCuh});
  v.push_back(
      {"matmul",
       "Matrix multiplication: global, tiled, and 2x2 tiles per thread",
       {{"naive", "one thread per P element, every operand from global memory"},
        {"tiled", "TILE_WIDTH x TILE_WIDTH tiles staged in shared memory"},
        {"tiled-2x2", "b_r = b_c = 2 t: each thread computes four P elements"}},
       {{"width", 64, 8, 4096, 8, "matrix width (square matrices)"},
        {"tile", 16, 8, 32, 8, "TILE_WIDTH t (8, 16 or 32)"}},
       "The naive kernel loads 2 x Width floats from global memory for every P element. The "
       "tiled kernel has the block load each tile of M and N once into shared memory and "
       "reuse it TILE_WIDTH times, so global loads fall by a factor of TILE_WIDTH (the "
       "textbook's factor of 16 for 16x16 tiles), for 2 x TILE_WIDTH^2 x 4 bytes of shared "
       "memory per block (2 KB at 16, 8 KB at 32) and two barriers per tile. The CSU slides "
       "count the communication of the whole product as m k n (b_r + b_c) / (b_r b_c); "
       "doubling b_r and b_c (tiled-2x2) halves it again.",
       "matmul.cuh",
       lesson_sources::kMatmulCuh});
  v.push_back(
      {"texture-2d",
       "2D blur: global memory against texture, row-major against Morton and tiles",
       {{"global", "reads the image row-major from global memory"},
        {"texture", "reads through tex2D (a real CUDA texture object on a GPU)"}},
       {{"width", 64, 8, 4096, 1, "image width (pixels)"},
        {"height", 64, 8, 4096, 1, "image height (pixels)"},
        {"block", 16, 4, 32, 1, "threads per block side"},
        {"layout",
         0,
         0,
         2,
         1,
         "texture variant: where texels lie in memory",
         {"row-major", "morton", "tiled"}},
        {"tile_width", 8, 1, 64, 1, "tiled layout: tile width"},
        {"tile_height", 8, 1, 64, 1, "tiled layout: tile height"},
        {"micro_width", 2, 1, 64, 1, "tiled layout: micro tile width inside a tile"},
        {"micro_height", 2, 1, 64, 1, "tiled layout: micro tile height"}},
       "Each thread averages its pixel's 3x3 neighbourhood, so a warp reads a small 2D "
       "patch, and the warps of a block read overlapping patches. Row-major storage lays a "
       "patch out as separate rows; Morton and tiled layouts keep pixels that are near in x "
       "and in y near in memory, which is the 2D spatial locality the slides credit the "
       "texture cache with. Per warp request the layouts come out close (a 32-byte sector "
       "holds 8 floats of a row or a 4x2 Morton block); the gain the slides mean is reuse "
       "in the texture cache across neighbouring rows, which these sector counts do not "
       "model. The slides' reordered-address table (24x16, captioned Z-order) is in fact "
       "the tiled layout with 8x8 tiles of 2x2 micro tiles (warpscope-cli layout --layout "
       "tiled --micro-width 2 --micro-height 2); true Z-order goes down a row after two 2x2 "
       "blocks.",
       "texture_2d.cuh",
       lesson_sources::kTexture_2dCuh});
  v.push_back(
      {"occupancy",
       "Occupancy calculator",
       {{"calculator", "blocks, warps and threads per multiprocessor; which limit binds"}},
       {{"threads", 192, 1, 1024, 1, "threads per block"},
        {"registers", 20, 0, 255, 1, "registers per thread"},
        {"shared_bytes", 68, 0, 232448, 1, "shared memory per block (bytes)"},
        {"device", 0, 0, 7, 1, "the GPU generation", DeviceChoices(/*and_gpu=*/true)}},
       "Occupancy is the number of warps a multiprocessor runs at once divided by the most it "
       "can run. A block only starts when all of its warps, registers and shared memory fit, "
       "so the scarcest resource sets how many blocks are resident. The slides' G80 example "
       "(192 threads, 20 registers, 68 bytes of shared memory) is limited by registers: 2 "
       "blocks, 12 warps, 50 %. The slide prints 3640 registers per block; 6 warps x 32 "
       "threads x 20 registers is 3840, the figure used here. Move one input at a time and "
       "watch which limit binds.",
       "",
       {}});
  v.push_back(
      {"fp-order",
       "Floating-point sums depend on the order",
       {{"tree", "block sums added pairwise in shared memory, then in block order"},
        {"atomic", "block sums added with atomicAdd as the blocks finish"}},
       {{"n", 65536, 3, 1 << 22, 1, "floats to add"},
        {"block", 3, 0, 5, 1, "threads per block", {"32", "64", "128", "256", "512", "1024"}},
        {"data", 1, 0, 2, 1, "the numbers", {"ramp", "mixed", "cancel"}}},
       "Float addition is not associative: (1e30 + -1e30) + 1 is 1, but 1e30 + (-1e30 + 1) is "
       "0, because -1e30 + 1 rounds back to -1e30 (the slides' example: data = cancel). A "
       "parallel sum adds in another order than the CPU loop, so its float result differs, "
       "and a different block size is a different order again. Compare the kernel's sum with "
       "the CPU's sequential sum and the exact sum of the same floats; with atomicAdd the "
       "blocks add in the order they finish, which on a GPU can change from run to run. "
       "Neither order is wrong: both are within the error bound of float summation.",
       "fp_order.cuh",
       lesson_sources::kFpOrderCuh});
  v.push_back(
      {"scalability",
       "Transparent scalability: blocks dealt out to multiprocessors",
       {{"deal", "blocks dealt to SMs as slots free up; each stamps its SM, start and end"}},
       {{"blocks", 12, 1, 4096, 1, "blocks in the grid (gridDim.x)"},
        {"threads", 256, 32, 1024, 32, "threads per block (blockDim.x)"},
        {"sms", 2, 1, 132, 1, "multiprocessors of the emulated device"},
        {"work", 100, 1, 5000, 1, "work units per block (a GPU spins 64 cycles a unit)"},
        {"skew", 0, 0, 1000, 1, "uneven work: block b does skew x (2b mod 5) units more"},
        {"device", 0, 0, 6, 1,
         "the emulated GPU generation, whose occupancy rules set the blocks per SM",
         DeviceChoices(/*and_gpu=*/false)},
        {"registers", 10, 0, 255, 1, "registers per thread (0: not counted)"}},
       "Blocks of a grid cannot wait for each other, so the hardware may run them in any order "
       "and deals them out to however many streaming multiprocessors it has, each holding as "
       "many blocks at once as its resources allow (the slides' G80: up to 8 blocks and 768 "
       "threads per SM, so 3 blocks of 256 threads). The default 12 blocks take two waves on 2 "
       "SMs and one on 4: twice the SMs, half the time, with no change to the kernel "
       "(transparent scalability). With 512 threads one block fits per SM, and with blocks = 8 "
       "that is the textbook's figure of 8 blocks run two or four at a time. A block starts as "
       "soon as a slot frees, so with skew the later blocks go to whichever SM finished first. The "
       "emulator deals the blocks with a model (a block takes its work whatever runs beside "
       "it; time in work units); on a GPU every block stamps %smid and %globaltimer, and the "
       "view shows how the real GPU dealt them (sms, device and registers are then its own).",
       "scalability.cuh",
       lesson_sources::kScalabilityCuh});
  {
    LessonInfo transfers{
        "transfers",
        "Host-device transfers: pageable, pinned, and overlap on streams",
        {{"pinned", "host buffer from cudaMallocHost: DMA copies, asynchronous on streams"},
         {"pageable", "host buffer from malloc: staged by the driver, cudaMemcpyAsync waits"}},
        {{"size", 5, 0, 6, 1, "bytes to copy (and the pipeline's data)", TransferSizeChoices()},
         {"streams", 4, 1, 8, 1, "streams of the overlapped pipeline"},
         {"chunks", 8, 1, 32, 1, "pieces the pipeline cuts the data into"}},
        "A kernel can only use data in GPU memory: cudaMemcpy carries it there over the link "
        "to the host (PCIe), and carries results back. The link is far slower than the GPU's "
        "own memory (the slides: 8 GB/s against 141 GB/s on a GTX 280; tens of GB/s against "
        "thousands on an H100), and each copy has a fixed cost of microseconds, so bandwidth "
        "climbs with size: group small transfers into large ones. Pageable memory (malloc) is "
        "staged by the driver through a pinned buffer; pinned memory (cudaMallocHost) is "
        "copied by DMA, faster. The pipeline cuts the data into chunks, each copied in, "
        "processed and copied back: on one stream every step waits for the one before; on "
        "several, copies overlap kernels. The slides say cudaMemcpyAsync requires pinned "
        "memory; it accepts pageable memory too, but then waits for the copy, and nothing "
        "overlaps (variant pageable). Measured on a GPU only: with none, the app shows the "
        "capture shipped with Warpscope.",
        "transfers.cuh",
        lesson_sources::kTransfersCuh};
    transfers.needs_gpu = true;
    v.push_back(std::move(transfers));
  }
  v.push_back(
      {"latency",
       "Warps hiding memory latency (a model)",
       {{"scheduler", "one multiprocessor issuing one warp instruction at a time"}},
       {{"warps", 8, 1, 48, 1, "warps resident on the multiprocessor"},
        {"instructions_between_loads", 4, 1, 32, 1, "instructions per global load"},
        {"latency", 200, 0, 1000, 10, "cycles from a load to its data"},
        {"issue_cycles", 4, 1, 16, 1, "cycles to issue one instruction for a warp"}},
       "A model of one multiprocessor's warp scheduler, not a measurement. Each warp runs "
       "instructions_between_loads - 1 instructions and a global load, then waits for the "
       "load's data; meanwhile the scheduler issues another ready warp, at no cost in cycles "
       "(zero-overhead warp scheduling). The G80 slides: one load every 4 instructions, 4 "
       "cycles per instruction, 200 cycles of latency, so 200 / (4 x 4) = 12.5: at least 13 "
       "warps. The model saturates at 14: while one warp waits 200 cycles, the other warps "
       "must issue for 200 cycles (12.5 warps' worth of 16 cycles), and the waiting warp "
       "itself spends 16 cycles issuing before it waits, so each warp's period is 16 + 200 = "
       "216 cycles and 216 / 16 = 13.5 warps are needed. The slide counts the others, not "
       "the waiting warp. With 13 warps the model is busy 13 x 16 / 216 = 96 % of the time.",
       "",
       {}});
  v.push_back({"fault",
               "A kernel that faults (for tests)",
               {{"write-past-end", "every thread writes `distance` floats past a 32-float array"}},
               {{"distance", 1 << 30, 0, 1 << 30, 1, "floats past the array's end"}},
               "Hidden: the tests' way to make a kernel fault. The emulator's bounds check names "
               "the line and the thread; a GPU faults with an illegal address, the runner resets "
               "it, and the next run works.",
               "fault.cuh",
               lesson_sources::kFaultCuh,
               /*hidden=*/true});
  return v;
}

std::string Names(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

const std::vector<LessonInfo>& AllLessons() {
  static const std::vector<LessonInfo> catalogue = MakeCatalogue();
  return catalogue;
}

}  // namespace

const std::vector<LessonInfo>& Lessons() {
  static const std::vector<LessonInfo> visible = [] {
    std::vector<LessonInfo> v;
    for (const LessonInfo& l : AllLessons()) {
      if (!l.hidden) v.push_back(l);
    }
    return v;
  }();
  return visible;
}

const LessonInfo* FindLesson(const std::string& id) {
  for (const LessonInfo& l : AllLessons()) {
    if (l.id == id) return &l;
  }
  return nullptr;
}

std::string NeedsGpuMessage(const LessonInfo& lesson) {
  return lesson.id +
         " measures a GPU and cannot run on the emulator: run it with --backend "
         "cuda on a machine with a GPU (the app shows the capture shipped with "
         "Warpscope instead)";
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

Result<LessonRequest> ResolveLesson(const std::string& id, const std::string& variant_in,
                                    const Params& overrides) {
  const LessonInfo* info = FindLesson(id);
  if (info == nullptr) {
    std::vector<std::string> ids;
    for (const auto& l : Lessons()) ids.push_back(l.id);
    return Status::Error("unknown lesson '" + id + "'; lessons are: " + Names(ids));
  }
  LessonRequest rq;
  rq.info = info;
  rq.variant = variant_in.empty() ? info->variants.front().name : variant_in;
  std::vector<std::string> variants;
  for (const auto& v : info->variants) variants.push_back(v.name);
  if (std::find(variants.begin(), variants.end(), rq.variant) == variants.end()) {
    return Status::Error("unknown variant '" + rq.variant + "' for " + id +
                         "; variants are: " + Names(variants));
  }
  std::vector<std::string> param_names;
  for (const ParamSpec& p : info->params) {
    rq.params[p.name] = p.default_value;
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
    rq.params[name] = value;
  }
  return rq;
}

Result<LessonRun> RunLesson(const std::string& id, const std::string& variant_in,
                            const Params& overrides, const std::string& backend,
                            const RunOptions& options) {
  auto request = ResolveLesson(id, variant_in, overrides);
  if (!request.ok()) return request.status();
  const LessonInfo* info = request->info;
  const std::string variant = request->variant;
  const Params params = request->params;
  auto preset = FindDevicePreset(options.preset);
  if (!preset) return preset.status();

  LessonRun run;
  run.lesson = id;
  run.variant = variant;
  run.backend = backend;
  run.params = params;
  Status s;
  RunOptions opts = options;
  if (id == "picture") opts.keep_all_blocks = true;  // its figures are per block
  if (id == "occupancy") {
    if (Status o = RunOccupancyLesson(params, options.gpu, &run); !o.ok())
      return Status::Error(id + ": " + o.message());
    return run;
  }
  if (info->needs_gpu) {  // measured on a GPU or not at all
    if (backend != "cuda") return Status::Error(NeedsGpuMessage(*info));
    if (Status o = RunTransfersCuda(variant, params, options, &run); !o.ok())
      return Status::Error(id + ": " + o.message());
    return run;
  }
  if (id == "latency") {  // a model: the same on every backend
    if (Status o = RunLatencyLesson(params, &run); !o.ok())
      return Status::Error(id + ": " + o.message());
    return run;
  }
  if (backend == "emu") {
    s = RunLessonEmu(id, variant, params, opts, *preset, &run);
  } else if (backend == "cuda") {
    s = RunLessonCuda(id, variant, params, opts, &run);
  } else {
    return Status::Error("unknown backend '" + backend + "'; backends are: emu, cuda");
  }
  if (!s.ok()) return Status::Error(id + ": " + s.message());
  if (run.launches.empty()) return Status::Error(id + ": the lesson launched no kernel");
  for (LaunchTrace& t : run.launches) {
    for (SiteInfo& site : t.sites) site.code = SourceLine(info->source, site.line);
    for (BarrierSite& b : t.barrier_sites) b.code = SourceLine(info->source, b.line);
  }
  if (backend == "emu" && id == "scalability") {
    // Modeled: the block schedule's makespan, a work unit being 64 cycles (as ws::work spins on
    // a GPU) at the emulated GPU's clock.
    const double units = run.metrics.value("makespan", 0.0);
    const double ghz = run.metrics.value("clock_ghz", preset->clock_ghz);
    const std::string device = run.metrics.value("emulated_device", preset->name);
    char note[200];
    std::snprintf(note, sizeof note,
                  "the makespan, %.0f work units of 64 cycles at %.3g GHz (%s); a model", units,
                  ghz, device.c_str());
    run.timing = {"modeled", units * 64.0 / (ghz * 1e6), note};
  } else if (backend == "emu") {
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
