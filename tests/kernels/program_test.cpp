// The user's own CUDA programs on the emulator: what clang's front end finds in them, the same
// figures as the built-in lessons for the same kernels, and a clear end to every kind of failure.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <tuple>

#include "warpscope/kernels/catalog.h"
#include "warpscope/program/program.h"
#include "warpscope/trace/trace_file.h"

namespace ws {
namespace {

RewriteResult Rewrite(const std::string& text) {
  RewriteRequest rq;
  rq.file_name = "snippet.cu";
  rq.directory = WARPSCOPE_SOURCE_DIR "/examples";
  rq.text = text;
  rq.shim_dir = WARPSCOPE_SOURCE_DIR "/kernels/program/shim";
  return RewriteProgram(rq);
}

ProgramRun RunText(const std::string& text, ProgramOptions o = {}) {
  return RunProgramText("test.cu", WARPSCOPE_SOURCE_DIR "/examples", text, o);
}

// Every access the front end finds, with its column (counted by hand: two spaces of indent, so
// a statement's first character is column 3).
TEST(ProgramRewrite, FindsEachAccessAtItsColumn) {
  const std::string text =
      "__global__ void k(float* a, const float* b, int* c, int n) {\n"  // 1
      "  int i = threadIdx.x;\n"                                        // 2: built-in, none
      "  float r[4];\n"                                                 // 3
      "  r[0] = b[i];\n"                                                // 4: b[i] at 10
      "  a[i] = b[i] + b[i + 1];\n"                                     // 5: 3, 10, 17
      "  a[i] += r[0];\n"                                               // 6: load+store at 3
      "  atomicAdd(&c[0], 1);\n"                                        // 7: `&c[0]` at 13
      "  c[1]++;\n"                                                     // 8: load+store at 3
      "  int s = sizeof(a[i]);\n"                                       // 9: unevaluated
      "}\n";
  RewriteResult r = Rewrite(text);
  ASSERT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0].message);
  using S = std::tuple<std::uint32_t, std::uint32_t, ProgramAccess>;
  std::vector<S> got;
  for (const ProgramSite& s : r.program.sites) got.emplace_back(s.line, s.column, s.access);
  const std::vector<S> want = {
      {4, 10, ProgramAccess::kLoad},     {5, 3, ProgramAccess::kStore},
      {5, 10, ProgramAccess::kLoad},     {5, 17, ProgramAccess::kLoad},
      {6, 3, ProgramAccess::kLoadStore}, {7, 13, ProgramAccess::kAtomic},
      {8, 3, ProgramAccess::kLoadStore},
  };
  EXPECT_EQ(got, want);
  // Site numbers follow source order, from 1.
  for (std::size_t i = 0; i < r.program.sites.size(); ++i)
    EXPECT_EQ(r.program.sites[i].site, i + 1);
  EXPECT_EQ(r.program.sites[3].text, "b[i + 1]");
  EXPECT_EQ(r.program.sites[3].end_column, 25u);  // just past `b[i + 1]` (columns 17-24)
  EXPECT_EQ(r.program.kernels, std::vector<std::string>{"k"});
}

TEST(ProgramRewrite, SharedConstantAndDeviceVariablesAreMemory) {
  const std::string text =
      "__constant__ float coef[4];\n"                   // 1
      "__device__ int counter;\n"                       // 2
      "__global__ void k(float* out) {\n"               // 3
      "  __shared__ float tile[32];\n"                  // 4
      "  __shared__ float total;\n"                     // 5
      "  tile[threadIdx.x] = coef[threadIdx.x % 4];\n"  // 6: store 3, load 23
      "  total = tile[0];\n"                            // 7: store 3, load 11
      "  out[threadIdx.x] = total + counter;\n"         // 8: store 3, loads 22, 30
      "}\n";
  RewriteResult r = Rewrite(text);
  ASSERT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0].message);
  using S = std::tuple<std::uint32_t, std::uint32_t, ProgramAccess>;
  std::vector<S> got;
  for (const ProgramSite& s : r.program.sites) got.emplace_back(s.line, s.column, s.access);
  const std::vector<S> want = {{6, 3, ProgramAccess::kStore}, {6, 23, ProgramAccess::kLoad},
                               {7, 3, ProgramAccess::kStore}, {7, 11, ProgramAccess::kLoad},
                               {8, 3, ProgramAccess::kStore}, {8, 22, ProgramAccess::kLoad},
                               {8, 30, ProgramAccess::kLoad}};
  EXPECT_EQ(got, want);
}

TEST(ProgramRewrite, TemplateKernelsAreRecordedOnceFromTheirInstantiations) {
  const std::string text =
      "template <int T, typename V>\n"  // 1
      "__global__ void copy(V* out, const V* in) { out[threadIdx.x] = in[threadIdx.x * T]; }\n"
      "int main() {\n"
      "  float* p = nullptr;\n"
      "  copy<1><<<1, 32>>>(p, p);\n"
      "  copy<2><<<1, 32>>>(p, p);\n"
      "}\n";
  RewriteResult r = Rewrite(text);
  ASSERT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0].message);
  ASSERT_EQ(r.program.sites.size(), 2u);  // one store, one load, for both instantiations
  EXPECT_EQ(r.program.sites[0].column, 45u);
  EXPECT_EQ(r.program.sites[1].column, 64u);
  ASSERT_EQ(r.program.launches.size(), 2u);
  EXPECT_EQ(r.program.launches[0].kernel, "copy<1, float>");
  EXPECT_EQ(r.program.launches[1].line, 6u);
}

TEST(ProgramRewrite, ACompileErrorNamesItsLine) {
  RewriteResult r = Rewrite("__global__ void k(float* a) {\n  a[0] = undefined_name;\n}\n");
  EXPECT_FALSE(r.ok);
  ASSERT_FALSE(r.errors.empty());
  EXPECT_EQ(r.errors[0].line, 2u);
  EXPECT_EQ(r.errors[0].column, 10u);
  EXPECT_NE(r.errors[0].message.find("undeclared identifier 'undefined_name'"), std::string::npos)
      << r.errors[0].message;
}

TEST(ProgramParams, CommentsDeclareSliders) {
  auto p = ProgramParams(
      "#define TILE_DIM 16  // warpscope: param TILE_DIM 8..32 step 8\n"
      "constexpr int kN = 256;\n"
      "// warpscope: param kN 64..1024\n");
  ASSERT_TRUE(p.ok()) << p.status().message();
  ASSERT_EQ(p->size(), 2u);
  EXPECT_EQ((*p)[0].name, "TILE_DIM");
  EXPECT_EQ((*p)[0].value, 16);
  EXPECT_EQ((*p)[0].min, 8);
  EXPECT_EQ((*p)[0].max, 32);
  EXPECT_EQ((*p)[0].step, 8);
  EXPECT_EQ((*p)[1].value, 256);
  EXPECT_EQ((*p)[1].step, 1);
  auto bad = ProgramParams("#define T 64\n// warpscope: param T 8..32\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "line 2: T is 64, outside its range 8..32");
  auto missing = ProgramParams("// warpscope: param Q 1..2\n");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("no `#define Q`"), std::string::npos);
}

TEST(ProgramParams, DefinesReplaceTheProgramsOwnValueInPlace) {
  std::vector<std::string> rest;
  const std::string out =
      ApplyDefines("#define TILE_DIM 16 // c\nconstexpr int kN = 256;\nint x;\n",
                   {"TILE_DIM=32", "kN=64", "OTHER=1"}, &rest);
  EXPECT_EQ(out, "#define TILE_DIM 32 // c\nconstexpr int kN = 64;\nint x;\n");
  EXPECT_EQ(rest, std::vector<std::string>{"OTHER=1"});
}

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

std::string ReadExample(const std::string& name) {
  FILE* f = std::fopen((std::string(WARPSCOPE_SOURCE_DIR "/examples/") + name).c_str(), "rb");
  std::string text;
  if (f == nullptr) return text;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
  std::fclose(f);
  return text;
}

TEST(Programs, TransposeExampleGivesTheLessonsFigures) {
  ProgramOptions o;
  o.defines = {"TILE_DIM=32", "N=256"};
  ProgramRun run = RunProgramText("transpose.cu", WARPSCOPE_SOURCE_DIR "/examples",
                                  ReadExample("transpose.cu"), o);
  ASSERT_TRUE(run.ok()) << run.failure << "\n" << run.stderr_text;
  ASSERT_EQ(run.launches.size(), 3u);
  EXPECT_NE(run.stdout_text.find("transposePadded: transposed 256x256 correctly"),
            std::string::npos);
  EXPECT_FALSE(run.rewritten.main_takes_args);  // int main(): no arguments field
  EXPECT_EQ(run.rewritten.kernels,
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
    ProgramRun run =
        RunProgramText(c.example, WARPSCOPE_SOURCE_DIR "/examples", ReadExample(c.example), o);
    ASSERT_TRUE(run.ok()) << c.example << ": " << run.failure << "\n" << run.stderr_text;
    ASSERT_EQ(run.launches.size(), c.variants.size()) << c.example;
    // vecadd's main(int argc, char** argv) reads ValuesPerThread from argv[1].
    EXPECT_EQ(run.rewritten.main_takes_args, std::string(c.example) == "vecadd.cu");
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
  ProgramRun run =
      RunProgramText("picture.cu", WARPSCOPE_SOURCE_DIR "/examples", ReadExample("picture.cu"), {});
  ASSERT_TRUE(run.ok()) << run.failure;
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
  ProgramRun run = RunText(text);
  ASSERT_TRUE(run.ok()) << run.failure << run.stderr_text;
  std::vector<std::vector<long long>> rows;
  std::stringstream in(run.stdout_text);
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
  ProgramRun run = RunText(text);
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.failure.find("line 4: __shfl_down_sync with mask 0xffffffff names lane 16 of "
                             "warp 0 (thread 16), which has exited"),
            std::string::npos)
      << run.failure;
}

TEST(Programs, ShuffleReductionExampleSumsExactlyAndCountsItsMeetings) {
  ProgramRun run = RunProgramText("shuffle_reduce.cu", WARPSCOPE_SOURCE_DIR "/examples",
                                  ReadExample("shuffle_reduce.cu"), {});
  ASSERT_TRUE(run.ok()) << run.failure;
  EXPECT_NE(run.stdout_text.find("correct"), std::string::npos) << run.stdout_text;
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
  ProgramRun run = RunText(text);
  ASSERT_TRUE(run.ok()) << run.failure << run.stderr_text;
  // o[0]: block 0, t 0 reads buf[63] = 63, times coef[0] = 1; o[65]: block 1, t 1 reads
  // buf[62] = 64 + 62 = 126, times coef[1] = 2: 252; hits: one per block.
  EXPECT_EQ(run.stdout_text, "63 252 2\n");
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
  for (const auto& [width, wrong] : {std::pair{4, 1536}, std::pair{1, 0}, std::pair{8, 64 * 28}}) {
    ProgramOptions o;
    o.defines = {"BLOCK_WIDTH=" + std::to_string(width)};
    ProgramRun run = RunProgramText("block_transpose.cu", WARPSCOPE_SOURCE_DIR "/examples",
                                    ReadExample("block_transpose.cu"), o);
    ASSERT_TRUE(run.ok()) << run.failure;
    // 8x8 tiles: 28 of the 64 elements lie above the diagonal, and 64 tiles cover 64x64.
    EXPECT_EQ(run.stdout_text, "BLOCK_WIDTH " + std::to_string(width) + ": " +
                                   std::to_string(wrong) + " of 4096 elements wrong\n");
  }
}

TEST(Programs, AnIndexOutOfRangeNamesTheLineTheBufferAndTheThread) {
  const std::string text =
      "#include <cuda_runtime.h>\n"
      "__global__ void k(float* out, const float* in, int n) {\n"
      "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
      "  out[i] = in[i + 1];\n"  // line 4: the last thread reads one past the end
      "}\n"
      "int main() {\n"
      "  float *d_in, *d_out;\n"
      "  cudaMalloc(&d_in, 64 * sizeof(float));\n"
      "  cudaMalloc(&d_out, 64 * sizeof(float));\n"
      "  k<<<2, 32>>>(d_out, d_in, 64);\n"
      "  cudaDeviceSynchronize();\n"
      "  return 0;\n"
      "}\n";
  ProgramRun run = RunText(text);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.stage, ProgramStage::kRun);
  // Thread 31 of block 1 reads in[64]: element 64 of a 64-float buffer, 0 bytes past its end.
  EXPECT_NE(run.failure.find("line 4: column 12: a load of 4 bytes"), std::string::npos)
      << run.failure;
  EXPECT_NE(run.failure.find("index 64 of d_in, which holds 64 elements"), std::string::npos)
      << run.failure;
  EXPECT_NE(run.failure.find("thread (31,0,0) of block (1,0,0)"), std::string::npos) << run.failure;
}

TEST(Programs, ABarrierNotEveryThreadReachesIsNamed) {
  const std::string text =
      "__global__ void k(float* out) {\n"
      "  if (threadIdx.x < 16) __syncthreads();\n"
      "  out[threadIdx.x] = 1.0f;\n"
      "}\n"
      "int main() { float* d; cudaMalloc(&d, 128); k<<<1, 32>>>(d); return 0; }\n";
  ProgramRun run = RunText(text);
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.failure.find("threads 0-15 wait at __syncthreads() on line 2"), std::string::npos)
      << run.failure;
  EXPECT_NE(run.failure.find("threads 16-31 exited without reaching it"), std::string::npos)
      << run.failure;
}

TEST(Programs, AnEndlessLoopIsStoppedAtTheTimeLimit) {
  const std::string text =
      "__global__ void k() { volatile int spin = 1; while (spin) {} }\n"
      "int main() { k<<<1, 1>>>(); cudaDeviceSynchronize(); return 0; }\n";
  ProgramOptions o;
  o.timeout = std::chrono::milliseconds(1500);
  ProgramRun run = RunText(text, o);
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.failure.find("ran longer than the limit of 1.50 s and was stopped"),
            std::string::npos)
      << run.failure;
}

TEST(Programs, ACrashInTheProgramIsReportedAndItsOutputKept) {
  const std::string text =
      "#include <cstdio>\n"
      "int main() { printf(\"before\\n\"); fflush(stdout); volatile int* p = nullptr; *p = 1; }\n";
  ProgramRun run = RunText(text);
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.failure.find("segmentation fault (SIGSEGV)"), std::string::npos) << run.failure;
  EXPECT_EQ(run.stdout_text, "before\n");
}

TEST(Programs, AFailedAssertInAKernelNamesItsLine) {
  const std::string text =
      "#include <cassert>\n"
      "__global__ void k() {\n"
      "  assert(threadIdx.x < 16);\n"
      "}\n"
      "int main() { k<<<1, 32>>>(); cudaDeviceSynchronize(); return 0; }\n";
  ProgramRun run = RunText(text);
  ASSERT_FALSE(run.ok());
  EXPECT_NE(run.failure.find("an abort (SIGABRT: a failed assert?)"), std::string::npos)
      << run.failure;
  EXPECT_NE(run.failure.find("test.cu:3"), std::string::npos) << run.failure;
  EXPECT_NE(run.failure.find("Assertion `threadIdx.x < 16' failed"), std::string::npos)
      << run.failure;
}

TEST(Programs, ACompileErrorStopsBeforeAnythingRuns) {
  ProgramRun run = RunText("int main() {\n  return undefined_name;\n}\n");
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.stage, ProgramStage::kCompile);
  ASSERT_FALSE(run.errors.empty());
  EXPECT_EQ(run.errors[0].line, 2u);
  EXPECT_EQ(run.failure.rfind("test.cu:2:10: error: use of undeclared identifier", 0), 0u)
      << run.failure;
}

TEST(Programs, AProgramWithoutMainOrWithAMissingFunctionIsTheUsersError) {
  ProgramRun none = RunText("__global__ void k(float* a) { a[0] = 1.0f; }\n");
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.stage, ProgramStage::kCompile);
  EXPECT_NE(none.failure.find("the program has no main()"), std::string::npos) << none.failure;
  ProgramRun missing = RunText("int helper(int);\nint main() { return helper(1); }\n");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.failure.rfind("link error: undefined reference to `helper(int)'", 0), 0u)
      << missing.failure;
}

// Standard headers after the CUDA ones, and __noinline__ (libstdc++ uses that name itself).
TEST(Programs, StandardHeadersAndNoinlineCompile) {
  ProgramRun run = RunText(
      "#include <cuda_runtime.h>\n#include <memory>\n#include <vector>\n#include <cstdio>\n"
      "__device__ __noinline__ float twice(float v) { return 2 * v; }\n"
      "__global__ void k(float* a) { a[threadIdx.x] = twice(a[threadIdx.x]); }\n"
      "int main() {\n"
      "  std::vector<float> h(32, 1.0f); float* d; cudaMalloc(&d, 128);\n"
      "  cudaMemcpy(d, h.data(), 128, cudaMemcpyHostToDevice); k<<<1, 32>>>(d);\n"
      "  cudaMemcpy(h.data(), d, 128, cudaMemcpyDeviceToHost); printf(\"%g\\n\", h[31]);\n"
      "}\n");
  ASSERT_TRUE(run.ok()) << run.failure;
  EXPECT_EQ(run.stdout_text, "2\n");
}

TEST(Programs, TooMuchMemoryEndsInAMessage) {
  if (!ProgramMemoryLimitApplies()) GTEST_SKIP() << "sanitizer build: no memory limit is set";
  // 3 GiB through cudaMalloc, under a 1 GiB limit: cudaMalloc fails and says so, as on a GPU.
  const std::string text =
      "#include <cstdio>\n"
      "int main() {\n"
      "  float* d; cudaError_t e = cudaMalloc(&d, 3ull << 30);\n"
      "  printf(\"%s\\n\", cudaGetErrorString(e)); return e == cudaSuccess ? 0 : 1;\n"
      "}\n";
  ProgramOptions o;
  o.memory_limit_bytes = 1ull << 30;
  ProgramRun run = RunText(text, o);
  EXPECT_EQ(run.stdout_text, "out of memory\n");
  EXPECT_EQ(run.exit_code, 1);
  EXPECT_NE(run.stderr_text.find("cudaMalloc: out of memory for 3221225472 bytes"),
            std::string::npos)
      << run.stderr_text;
}

}  // namespace
}  // namespace ws
