// The user's own CUDA programs on the emulator: the same figures as the built-in lessons for the
// same kernels, figures by hand, the warp-level intrinsics and trace files of programs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <tuple>

#include "program_test_util.h"
#include "warpscope/kernels/catalog.h"
#include "warpscope/program/program.h"
#include "warpscope/trace/trace_file.h"

namespace ws {
namespace {

using test::ReadExample;
using test::RunText;

// (space, op, size, requests, sectors, lines, wavefronts, worst conflict) of every site: what
// the program and the lesson must agree on.
using Figures = std::tuple<int, int, int, std::uint64_t, std::uint64_t, std::uint64_t,
                           std::uint64_t, std::uint32_t>;
std::vector<Figures> FiguresOf(const LaunchTrace& t) {
  std::vector<Figures> out;
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    const SiteInfo& s = t.sites[i];
    const SiteStats& st = t.stats.sites[i];
    out.emplace_back(int(s.space), int(s.op), int(s.size), st.requests, st.sectors, st.lines128,
                     st.wavefronts, st.bank_conflict_max);
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Programs, TransposeExampleGivesTheLessonsFigures) {
  ProgramOptions o;
  o.defines = {"TILE_DIM=32", "N=256"};
  LessonRun run = RunProgramText("transpose.cu", WARPSCOPE_SOURCE_DIR "/examples",
                                 ReadExample("transpose.cu"), o);
  ASSERT_TRUE(run.program->ok()) << run.program->failure << "\n" << run.program->stderr_text;
  ASSERT_EQ(run.launches.size(), 3u);
  EXPECT_NE(run.program->stdout_text.find("transposePadded: transposed 256x256 correctly"),
            std::string::npos);
  EXPECT_FALSE(run.program->takes_args);  // int main(): no arguments field
  EXPECT_EQ(run.program->kernels,
            (std::vector<std::string>{"transposeNaive", "transposeCoalesced", "transposePadded"}));
  const char* variants[] = {"naive", "coalesced", "padded"};
  for (int v = 0; v < 3; ++v) {
    auto lesson = RunLesson("transpose", variants[v],
                            {{"tile", 32}, {"width", 256}, {"height", 256}}, "emu", RunOptions{});
    ASSERT_TRUE(lesson.ok()) << lesson.status().message();
    EXPECT_EQ(FiguresOf(run.launches[v]), FiguresOf(lesson->main_launch())) << variants[v];
  }
  // By hand, 256x256 floats in 32x32 blocks: 65536 threads, 2048 warps, each warp one row of 32.
  const LaunchTrace& naive = run.launches[0];
  ASSERT_EQ(naive.sites.size(), 2u);
  // Sites in source order: the store `odata[index_out]` (column 5), then the load (column 24).
  EXPECT_EQ(naive.sites[0].column, 5u);
  EXPECT_EQ(naive.sites[0].op, AccessOp::kStore);
  EXPECT_EQ(naive.stats.sites[0].sectors, 2048u * 32);  // a column: 32 sectors per request
  EXPECT_EQ(naive.sites[1].column, 24u);
  EXPECT_EQ(naive.sites[1].end_column, 39u);           // `idata[index_in]`: 15 characters from 24
  EXPECT_EQ(naive.stats.sites[1].sectors, 2048u * 4);  // a row of 128 bytes: 4 sectors
  EXPECT_EQ(naive.buffers[0].name, "d_in");
  EXPECT_EQ(naive.buffers[1].name, "d_out");
  const LaunchTrace& coalesced = run.launches[1];
  EXPECT_EQ(coalesced.shared_bytes, 32u * 32 * 4);
  for (std::size_t i = 0; i < coalesced.sites.size(); ++i) {
    if (coalesced.sites[i].space == MemorySpace::kShared &&
        coalesced.sites[i].op == AccessOp::kLoad) {
      EXPECT_EQ(coalesced.stats.sites[i].bank_conflict_max, 32u);  // a column of the tile
    }
  }
  ASSERT_EQ(coalesced.barrier_sites.size(), 1u);
  EXPECT_EQ(coalesced.barrier_sites[0].line, 36u);
  EXPECT_EQ(coalesced.stats.barriers[0].instances, 64u);  // one per block
}

struct SameAsLesson {
  const char* example;
  std::vector<std::string> defines, args;
  const char* lesson;
  std::vector<std::string> variants;  // one per launch, in launch order
  Params params;
};

// Each example, run from its file, against the built-in lesson with the same kernel and sizes.
TEST(Programs, ExamplesGiveTheLessonsFigures) {
  const std::vector<SameAsLesson> cases = {
      {"vecadd.cu",
       {"GridWidth=32", "BlockWidth=128"},
       {"4"},
       "vecadd",
       {"chunked", "interleaved"},
       {{"values_per_thread", 4}, {"block", 128}, {"grid", 32}}},
      {"matmul.cu",
       {"WIDTH=128", "TILE_WIDTH=16"},
       {},
       "matmul",
       {"tiled"},
       {{"width", 128}, {"tile", 16}}},
      {"picture.cu",
       {},
       {},
       "picture",
       {"picture"},
       {{"width", 76}, {"height", 62}, {"block", 16}}},
  };
  for (const SameAsLesson& c : cases) {
    ProgramOptions o;
    o.defines = c.defines;
    o.args = c.args;
    // The lessons are compiled into Warpscope and count the source's accesses: so does the
    // example here, also where the toolkit could list it (matmul's LDS.128, program_compiled_test).
    o.compiled_code = false;
    LessonRun run =
        RunProgramText(c.example, WARPSCOPE_SOURCE_DIR "/examples", ReadExample(c.example), o);
    ASSERT_TRUE(run.program->ok()) << c.example << ": " << run.program->failure << "\n"
                                   << run.program->stderr_text;
    ASSERT_EQ(run.launches.size(), c.variants.size()) << c.example;
    // vecadd's main(int argc, char** argv) reads ValuesPerThread from argv[1].
    EXPECT_EQ(run.program->takes_args, std::string(c.example) == "vecadd.cu");
    for (std::size_t v = 0; v < c.variants.size(); ++v) {
      auto lesson = RunLesson(c.lesson, c.variants[v], c.params, "emu", RunOptions{});
      ASSERT_TRUE(lesson.ok()) << lesson.status().message();
      EXPECT_EQ(FiguresOf(run.launches[v]), FiguresOf(lesson->main_launch()))
          << c.example << " / " << c.variants[v];
    }
  }
}

// The picture kernel by hand: 76x62 pixels under a 5x4 grid of 16x16 blocks. A warp is two rows
// of 16 threads; 62 rows make 31 warp-rows per column of blocks, and 76 columns need 5 block
// columns, the last with 12 active lanes per row: 31 x 5 = 155 requests per access.
TEST(Programs, PictureKernelByHand) {
  LessonRun run =
      RunProgramText("picture.cu", WARPSCOPE_SOURCE_DIR "/examples", ReadExample("picture.cu"), {});
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  ASSERT_EQ(run.launches.size(), 1u);
  const LaunchTrace& t = run.launches[0];
  ASSERT_EQ(t.sites.size(), 2u);
  EXPECT_EQ(t.stats.sites[0].requests, 155u);
  EXPECT_EQ(t.stats.sites[0].accesses, 76u * 62);  // one per pixel
  EXPECT_EQ(t.sites[0].op, AccessOp::kStore);      // d_Pout[...] = ..., column 9
  EXPECT_EQ(t.sites[0].column, 9u);
  EXPECT_EQ(t.sites[1].column, 31u);  // 2*d_Pin[...]
  EXPECT_EQ(t.sites[1].code, "d_Pout[Row*n+Col] = 2*d_Pin[Row*n+Col];");
}

// A kernel declared `extern "C"` (cuda-samples' reductionMultiBlockCG and older samples) is in
// the kernels' table like any other: launched through its address (cudaLaunchKernel) it runs,
// and on the SIMT path. Before 2026-12-05 the table left out kernels inside a linkage block, so
// the launch failed with cudaErrorInvalidDeviceFunction and the <<<>>> launch ran thread by
// thread. Each launch writes p[t] = t + its count: 32 lanes, one request of 4 sectors.
TEST(Programs, AnExternCKernelLaunchesThroughItsAddressOnTheSimtPath) {
  const std::string text = R"(#include <cstdio>
extern "C" __global__ void k(int* p, int add) { p[threadIdx.x] = threadIdx.x + add; }
int main() {
  int* d; cudaMalloc(&d, 32 * sizeof(int));
  k<<<1, 32>>>(d, 0);
  int add = 100;
  void* args[] = {&d, &add};
  printf("%s\n", cudaGetErrorName(cudaLaunchKernel((void*)k, dim3(1), dim3(32), args, 0, 0)));
  int h[32]; cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("%d %d\n", h[0], h[31]);
  return 0;
}
)";
  LessonRun run = RunProgramText("extern_c.cu", WARPSCOPE_SOURCE_DIR "/examples", text, {});
  ASSERT_TRUE(run.program->ok()) << run.program->failure << run.program->stderr_text;
  EXPECT_EQ(run.program->stdout_text, "cudaSuccess\n100 131\n");
  ASSERT_EQ(run.launches.size(), 2u);
  for (const LaunchTrace& t : run.launches) {
    EXPECT_EQ(t.engine, "simt") << t.engine_reason;
    ASSERT_EQ(t.stats.sites.size(), 1u);
    EXPECT_EQ(t.stats.sites[0].requests, 1u);
    EXPECT_EQ(t.stats.sites[0].sectors, 4u);
  }
}

// `c ? a[i] : d` is an lvalue when both arms are of one type (the value is read after the
// choice): the arm that names memory is a load of the lanes that choose it, on both engines. Two
// warps of a[i] = i: even lanes load a[i] (16 lanes, every other word of 128 bytes: 4 sectors a
// warp); lanes with i % 3 == 0 load a[i] (11 + 10 lanes), the others a[63 - i] (21 + 22), each
// over 128 bytes of one warp's words: 4 sectors. `(c ? o[i] : d) += 1` loads and stores o[i] in
// the lanes with i % 4 == 0 (8 a warp, every fourth word: 4 sectors). The sum is worked by hand.
TEST(Programs, AConditionalsArmThatNamesMemoryIsALoad) {
  const std::string text = R"(#include <cstdio>
__global__ void pick(const int* a, int* o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int d = 5;
  int v = (i % 2 == 0) ? a[i] : d;
  int w = (i % 3 == 0) ? a[i] : a[n - 1 - i];
  o[i] = v + w;
  (i % 4 == 0 ? o[i] : d) += 1;
}
int main() {
  int *a, *o;
  cudaMallocManaged(&a, 64 * sizeof(int));
  cudaMallocManaged(&o, 64 * sizeof(int));
  for (int i = 0; i < 64; ++i) a[i] = i;
  pick<<<1, 64>>>(a, o, 64);
  cudaDeviceSynchronize();
  long t = 0;
  for (int i = 0; i < 64; ++i) t += o[i];
  printf("%ld\n", t);
  return 0;
}
)";
  long expected = 0;
  for (int i = 0; i < 64; ++i)
    expected += (i % 2 == 0 ? i : 5) + (i % 3 == 0 ? i : 63 - i) + (i % 4 == 0 ? 1 : 0);
  for (const char* engine : {"simt", "fiber"}) {
    ProgramOptions o;
    o.engine = engine;
    LessonRun run = RunProgramText("pick.cu", WARPSCOPE_SOURCE_DIR "/examples", text, o);
    ASSERT_TRUE(run.program->ok()) << run.program->failure;
    EXPECT_NE(run.program->stdout_text.find(std::to_string(expected)), std::string::npos);
    ASSERT_EQ(run.launches.size(), 1u);
    const LaunchTrace& t = run.launches[0];
    ASSERT_EQ(t.sites.size(), 6u) << engine;  // and line 8's load and store
    std::uint64_t loads = 0;
    for (std::size_t k = 0; k < t.sites.size(); ++k) {
      const SiteStats& st = t.stats.sites[k];
      if (t.sites[k].op != AccessOp::kLoad) continue;
      EXPECT_EQ(st.requests, 2u) << engine << " line " << t.sites[k].line;
      EXPECT_EQ(st.sectors, 8u) << engine << " line " << t.sites[k].line;
      loads += st.accesses;
      if (t.sites[k].line == 5) {
        EXPECT_EQ(st.accesses, 32u) << engine;
      }
    }
    EXPECT_EQ(loads, 32u + 64u + 16u) << engine;
  }
}

// Each warp-level intrinsic on the emulator, against CUDA's definitions worked by hand for one
// warp of 32 lanes holding v = lane.
TEST(Programs, WarpIntrinsicsGiveCudasValues) {
  const std::string text =
      "#include <cstdio>\n"
      "__global__ void k(int* out) {\n"
      "  int lane = threadIdx.x;\n"
      "  int v = lane;\n"
      "  out[0 * 32 + lane] = __shfl_down_sync(0xffffffff, v, 4);\n"        // line 5
      "  out[1 * 32 + lane] = __shfl_up_sync(0xffffffff, v, 1);\n"          // line 6
      "  out[2 * 32 + lane] = __shfl_xor_sync(0xffffffff, v, 1);\n"         // line 7
      "  out[3 * 32 + lane] = __shfl_sync(0xffffffff, v, 7);\n"             // line 8
      "  out[4 * 32 + lane] = __shfl_sync(0xffffffff, v, 0, 8);\n"          // line 9
      "  out[5 * 32 + lane] = __ballot_sync(0xffffffff, lane % 3 == 0);\n"  // line 10
      "  out[6 * 32 + lane] = __any_sync(0xffffffff, lane == 31);\n"
      "  out[7 * 32 + lane] = __all_sync(0xffffffff, lane < 31);\n"
      "  __syncwarp();\n"
      "  out[8 * 32 + lane] = __syncthreads_count(lane < 10);\n"
      "  out[9 * 32 + lane] = __syncthreads_or(lane == 5) + 2 * __syncthreads_and(lane >= 0);\n"
      "  if (lane < 16) out[10 * 32 + lane] = __activemask();\n"
      "}\n"
      "int main() {\n"
      "  int* d; cudaMalloc(&d, 11 * 32 * sizeof(int));\n"
      "  k<<<1, 32>>>(d);\n"
      "  int h[11 * 32]; cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);\n"
      "  for (int i = 0; i < 11 * 32; ++i) printf(\"%d%c\", h[i], i % 32 == 31 ? '\\n' : ' ');\n"
      "}\n";
  LessonRun run = RunText(text);
  ASSERT_TRUE(run.program->ok()) << run.program->failure << run.program->stderr_text;
  std::vector<std::vector<long long>> rows;
  std::stringstream in(run.program->stdout_text);
  for (std::string line; std::getline(in, line);) {
    std::stringstream ls(line);
    rows.emplace_back();
    for (long long x; ls >> x;) rows.back().push_back(x);
  }
  ASSERT_EQ(rows.size(), 11u);
  // The ballot: lanes 0, 3, ..., 30, that is 0x49249249.
  for (int l = 0; l < 32; ++l) {
    EXPECT_EQ(rows[0][l], l + 4 < 32 ? l + 4 : l) << l;  // down 4: the top 4 keep their own
    EXPECT_EQ(rows[1][l], l >= 1 ? l - 1 : l) << l;      // up 1: lane 0 keeps its own
    EXPECT_EQ(rows[2][l], l ^ 1) << l;                   // xor 1: pairs swap
    EXPECT_EQ(rows[3][l], 7) << l;                       // broadcast lane 7
    EXPECT_EQ(rows[4][l], l / 8 * 8) << l;               // width 8: each group's lane 0
    EXPECT_EQ(static_cast<std::uint32_t>(rows[5][l]), 0x49249249u) << l;
    EXPECT_EQ(rows[6][l], 1) << l;
    EXPECT_EQ(rows[7][l], 0) << l;
    EXPECT_EQ(rows[8][l], 10) << l;  // lanes 0-9
    EXPECT_EQ(rows[9][l], 1 + 2) << l;
    if (l < 16) {
      EXPECT_EQ(rows[10][l], 0xffff) << l;  // the lanes that got there: 0-15
    }
  }
  ASSERT_EQ(run.launches.size(), 1u);
  const LaunchTrace& t = run.launches[0];
  // 5 shuffles, ballot, any, all, syncwarp and activemask: 10 sites, one meeting each.
  ASSERT_EQ(t.warp_op_sites.size(), 10u);
  EXPECT_EQ(t.warp_op_sites[0].line, 5u);
  EXPECT_EQ(t.warp_op_sites[0].kind, WarpOpKind::kShflDown);
  for (std::uint64_t c : t.warp_op_counts) EXPECT_EQ(c, 1u);
  ASSERT_EQ(t.blocks.size(), 1u);
  const WarpOpRecord& down = t.blocks[0].warp_ops[0];
  EXPECT_EQ(down.mask, 0xffffffffu);
  EXPECT_EQ(down.source[0], 4);
  EXPECT_EQ(down.source[27], 31);
  EXPECT_EQ(down.source[28], 28);  // keeps its own
}

TEST(Programs, AShuffleWhoseMaskNamesAnExitedLaneIsAnError) {
  const std::string text =
      "__global__ void k(int* out) {\n"
      "  int v = threadIdx.x;\n"
      "  if (threadIdx.x >= 16) return;\n"
      "  out[threadIdx.x] = __shfl_down_sync(0xffffffff, v, 1);\n"
      "}\n"
      "int main() { int* d; cudaMalloc(&d, 128); k<<<1, 32>>>(d); return 0; }\n";
  LessonRun run = RunText(text);
  ASSERT_FALSE(run.program->ok());
  EXPECT_NE(
      run.program->failure.find("line 4: __shfl_down_sync with mask 0xffffffff names lane 16 of "
                                "warp 0 (thread 16), which has exited"),
      std::string::npos)
      << run.program->failure;
}

TEST(Programs, ShuffleReductionExampleSumsExactlyAndCountsItsMeetings) {
  LessonRun run = RunProgramText("shuffle_reduce.cu", WARPSCOPE_SOURCE_DIR "/examples",
                                 ReadExample("shuffle_reduce.cu"), {});
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  EXPECT_NE(run.program->stdout_text.find("correct"), std::string::npos)
      << run.program->stdout_text;
  ASSERT_EQ(run.launches.size(), 1u);
  const LaunchTrace& t = run.launches[0];
  ASSERT_EQ(t.warp_op_sites.size(), 1u);
  // 4096 values in 16 blocks of 256 threads: per block 8 warps reduce, then warp 0 again; each
  // reduction is 5 shuffles (16, 8, 4, 2, 1): 16 x 9 x 5 = 720 meetings.
  EXPECT_EQ(t.warp_op_counts[0], 720u);
  // A trace file (format version 3) keeps the meetings, lane by lane.
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / "warpscope-shuffle-test.wstrace";
  TraceContents contents;
  contents.launches = {t};
  ASSERT_TRUE(WriteTraceFile(file, contents).ok());
  auto back = ReadTraceFile(file);
  std::filesystem::remove(file);
  ASSERT_TRUE(back.ok()) << back.status().message();
  const LaunchTrace& r = back->launches.at(0);
  ASSERT_EQ(r.warp_op_sites.size(), 1u);
  EXPECT_EQ(r.warp_op_sites[0].kind, WarpOpKind::kShflDown);
  EXPECT_EQ(r.warp_op_sites[0].line, t.warp_op_sites[0].line);
  EXPECT_EQ(r.warp_op_counts, t.warp_op_counts);
  ASSERT_EQ(r.blocks.size(), t.blocks.size());
  ASSERT_EQ(r.blocks[0].warp_ops.size(), 45u);  // block 0: 9 reductions of 5 steps
  EXPECT_EQ(std::memcmp(r.blocks[0].warp_ops.data(), t.blocks[0].warp_ops.data(),
                        45 * sizeof(WarpOpRecord)),
            0);
  // The first step of warp 0: lane l reads lane l + 16, lanes 16-31 keep their own.
  const WarpOpRecord& first = r.blocks[0].warp_ops[0];
  EXPECT_EQ(first.warp, 0u);
  EXPECT_EQ(first.source[0], 16);
  EXPECT_EQ(first.source[15], 31);
  EXPECT_EQ(first.source[16], 16);
}

// extern __shared__, __constant__, a __device__ variable and a float4 load in one kernel; the
// figures by hand for 2 blocks of 64 threads (4 warps).
TEST(Programs, DynamicSharedConstantDeviceVariablesAndVectorLoads) {
  const std::string text =
      "#include <cstdio>\n"
      "__constant__ float coef[4];\n"
      "__device__ int hits;\n"
      "__global__ void k(const float4* in, float* out) {\n"
      "  extern __shared__ float buf[];\n"
      "  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;\n"
      "  float4 v = in[i];\n"                // line 7
      "  buf[t] = v.x + v.y + v.z + v.w;\n"  // line 8
      "  __syncthreads();\n"
      "  out[i] = buf[blockDim.x - 1 - t] * coef[t % 4];\n"  // line 10
      "  if (t == 0) atomicAdd(&hits, 1);\n"                 // line 11
      "}\n"
      "int main() {\n"
      "  float4* in; float* out; float c[4] = {1, 2, 3, 4}; float4 h[128];\n"
      "  for (int j = 0; j < 128; ++j) h[j] = make_float4(j, 0, 0, 0);\n"
      "  cudaMalloc(&in, sizeof h); cudaMalloc(&out, 128 * sizeof(float));\n"
      "  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);\n"
      "  cudaMemcpyToSymbol(coef, c, sizeof c);\n"
      "  k<<<2, 64, 64 * sizeof(float)>>>(in, out);\n"
      "  float o[128]; int n = 0;\n"
      "  cudaMemcpy(o, out, sizeof o, cudaMemcpyDeviceToHost);\n"
      "  cudaMemcpyFromSymbol(&n, hits, sizeof n);\n"
      "  printf(\"%g %g %d\\n\", o[0], o[65], n);\n"
      "}\n";
  LessonRun run = RunText(text);
  ASSERT_TRUE(run.program->ok()) << run.program->failure << run.program->stderr_text;
  // o[0]: block 0, t 0 reads buf[63] = 63, times coef[0] = 1; o[65]: block 1, t 1 reads
  // buf[62] = 64 + 62 = 126, times coef[1] = 2: 252; hits: one per block.
  EXPECT_EQ(run.program->stdout_text, "63 252 2\n");
  ASSERT_EQ(run.launches.size(), 1u);
  const LaunchTrace& t = run.launches[0];
  auto site = [&](std::uint32_t line, MemorySpace space, AccessOp op) -> const SiteStats* {
    for (std::size_t i = 0; i < t.sites.size(); ++i) {
      if (t.sites[i].line == line && t.sites[i].space == space && t.sites[i].op == op)
        return &t.stats.sites[i];
    }
    ADD_FAILURE() << "no site on line " << line;
    return nullptr;
  };
  // A warp's float4 loads: 32 x 16 B = 512 B, 16 sectors; 4 warps.
  const SiteStats* load = site(7, MemorySpace::kGlobal, AccessOp::kLoad);
  ASSERT_NE(load, nullptr);
  EXPECT_EQ(load->requests, 4u);
  EXPECT_EQ(load->sectors, 64u);
  EXPECT_EQ(load->bytes, 128u * 16);
  // Shared: the store in order and the reversed load are both conflict free.
  ASSERT_NE(site(8, MemorySpace::kShared, AccessOp::kStore), nullptr);
  EXPECT_EQ(site(8, MemorySpace::kShared, AccessOp::kStore)->wavefronts, 4u);
  EXPECT_EQ(site(10, MemorySpace::kShared, AccessOp::kLoad)->bank_conflict_max, 1u);
  // Constant: coef[t % 4] names 4 addresses in every request (served one after another).
  const SiteStats* constant = site(10, MemorySpace::kConstant, AccessOp::kLoad);
  ASSERT_NE(constant, nullptr);
  EXPECT_EQ(constant->constant_addresses_max, 4u);
  // The atomic on `hits`: lane 0 of warp 0 of each block.
  const SiteStats* atomic = site(11, MemorySpace::kGlobal, AccessOp::kAtomic);
  ASSERT_NE(atomic, nullptr);
  EXPECT_EQ(atomic->requests, 2u);
  EXPECT_EQ(atomic->accesses, 2u);
  // The buffers: the symbols first (registered at start-up), then cudaMalloc's, by name.
  ASSERT_EQ(t.buffers.size(), 4u);
  EXPECT_EQ(t.buffers[0].name, "coef");
  EXPECT_EQ(t.buffers[1].name, "hits");
  EXPECT_EQ(t.buffers[2].name, "in");
  EXPECT_EQ(t.buffers[3].name, "out");
}

// Exercise 4.10's race, as the emulator shows it: a block's threads run one after another (there
// is no barrier), so thread (x, y) finds blockA[x][y] written only if its writer, thread (y, x),
// came first: linear index x * W + y <= y * W + x, that is x <= y. With BLOCK_WIDTH 4 the
// 6 elements of each 4x4 tile with x > y are wrong: 256 tiles x 6 = 1536 of 4096.
TEST(Programs, BlockTransposeRaceShowsAboveTheDiagonal) {
  // Thread by thread (--engine fiber), each thread runs to its end before the next: it reads the
  // tile entries above the diagonal before their writers ran. 8x8 tiles: 28 of the 64 elements
  // lie above the diagonal, and 64 tiles cover 64x64.
  for (const auto& [width, wrong] : {std::pair{4, 1536}, std::pair{1, 0}, std::pair{8, 64 * 28}}) {
    ProgramOptions o;
    o.engine = "fiber";
    o.defines = {"BLOCK_WIDTH=" + std::to_string(width)};
    LessonRun run = RunProgramText("block_transpose.cu", WARPSCOPE_SOURCE_DIR "/examples",
                                   ReadExample("block_transpose.cu"), o);
    ASSERT_TRUE(run.program->ok()) << run.program->failure;
    EXPECT_EQ(run.program->stdout_text, "BLOCK_WIDTH " + std::to_string(width) + ": " +
                                            std::to_string(wrong) + " of 4096 elements wrong\n");
  }
  // A warp's lanes together (the SIMT engine, the default), as a G80 runs them: a 4x4 block is
  // one warp, whose store is done before its load, so it works by luck; an 8x8 block is two
  // warps, and warp 0 (rows 0-3) reads rows 4-7 of the tile before warp 1 wrote them: 16 of each
  // tile's 64 elements wrong. The race is found either way.
  for (const auto& [width, wrong] : {std::pair{4, 0}, std::pair{1, 0}, std::pair{8, 64 * 16}}) {
    ProgramOptions o;
    o.defines = {"BLOCK_WIDTH=" + std::to_string(width)};
    LessonRun run = RunProgramText("block_transpose.cu", WARPSCOPE_SOURCE_DIR "/examples",
                                   ReadExample("block_transpose.cu"), o);
    ASSERT_TRUE(run.program->ok()) << run.program->failure;
    ASSERT_EQ(run.launches.size(), 1u);
    EXPECT_EQ(run.launches[0].engine, "simt");
    EXPECT_EQ(run.program->stdout_text, "BLOCK_WIDTH " + std::to_string(width) + ": " +
                                            std::to_string(wrong) + " of 4096 elements wrong\n");
    if (width > 1) {
      EXPECT_GT(run.launches[0].hazards.Total(), 0u);
    }
  }
}

}  // namespace
}  // namespace ws
