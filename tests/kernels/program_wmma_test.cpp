// nvcuda::wmma on the emulator (issue 53; kernels/program/shim/ws_program_wmma.h): each lane holds
// the elements it holds on an H200, the multiply is the GPU's, and the loads and stores are
// recorded where the program wrote them.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "program_test_util.h"
#include "warpscope/program/program.h"
#include "warpscope/viz/fragment_map.h"

namespace ws {
namespace {

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The text after its first line (a probe's first line names the GPU it ran on).
std::string AfterFirstLine(const std::string& text) {
  const std::size_t nl = text.find('\n');
  return nl == std::string::npos ? std::string() : text.substr(nl + 1);
}

// The GPU's table (kernels/tensor/fragments.tsv: fragment_probe.cu's output on an H200) is what
// the same probe prints on the emulator, line for line: every lane's every element of all 78
// fragment types (5 shapes; half, bf16, s8, u8, tf32 and double inputs in both layouts; float,
// half, int and double accumulators loaded both ways).
TEST(CoursePrograms, WmmaFragmentsHoldWhatTheGpusHold) {
  std::string probe = ReadFile(WARPSCOPE_SOURCE_DIR "/kernels/tensor/fragment_probe.cu");
  ASSERT_FALSE(probe.empty());
  // Its error check comes from bench/ (nvcc -Ibench): here a check that stops at a failure.
  const std::string include = "#include \"ws_cuda_check.h\"";
  const std::size_t at = probe.find(include);
  ASSERT_NE(at, std::string::npos);
  probe.replace(at, include.size(),
                "#define WS_CUDA_CHECK(x) do { if ((x) != cudaSuccess) std::abort(); } while (0)");
  const LessonRun r = test::RunText(probe);
  ASSERT_TRUE(r.program->ok()) << r.program->failure << r.program->stderr_text;
  const std::string table = ReadFile(WARPSCOPE_SOURCE_DIR "/kernels/tensor/fragments.tsv");
  ASSERT_EQ(table.compare(0, 12, "# NVIDIA H20"), 0);
  // 2,496 lines: 78 types x 32 lanes, after the two header lines.
  const std::string want = AfterFirstLine(table), got = AfterFirstLine(r.program->stdout_text);
  EXPECT_EQ(std::count(want.begin(), want.end(), '\n'), 1 + 78 * 32);
  EXPECT_EQ(got, want);
  EXPECT_NE(r.program->stderr_text.find("every fragment holds its whole tile"), std::string::npos)
      << r.program->stderr_text;
}

// tests/programs/agreement/wmma_lanes.cu printed wmma_lanes.gpu.txt on an H200: GEMMs of six
// input types (exact: small integers), an accumulator's x[i] scaled by i + 1 (which lane holds
// which element), and which of half's two copies of an element the multiply reads (the first).
TEST(CoursePrograms, WmmaIsTheGpusLaneForLane) {
  const std::string dir = WARPSCOPE_SOURCE_DIR "/tests/programs/agreement/";
  const LessonRun r = test::RunText(ReadFile(dir + "wmma_lanes.cu"));
  ASSERT_TRUE(r.program->ok()) << r.program->failure << r.program->stderr_text;
  const std::string gpu = ReadFile(dir + "wmma_lanes.gpu.txt");
  ASSERT_FALSE(gpu.empty());
  EXPECT_EQ(r.program->stdout_text, gpu);
}

// One warp's 16x16x16 GEMM, half A row major and B column major from global memory, float C and
// D: every lane holds 8 distinct elements of A (x[0..7]; x[8..15] repeat them), of B, and 8 of C
// and D, x[2j] and x[2j + 1] next to each other in memory (the table: (r, c) and (r, c + 1)), so
// that each site makes 4 requests, of 4 bytes a lane for A and B and 8 for D (an H200's row-major
// float accumulator is four LD.E.64 / STS.64 a lane, cuobjdump of fragment_probe.cu); the multiply
// is one meeting of the warp, "wmma::mma_sync".
TEST(CoursePrograms, WmmaLoadsAreRecordedAtTheirCallsAndTheMultiplyIsAMeeting) {
  const LessonRun r = test::RunText(R"(#include <mma.h>
using namespace nvcuda;
__global__ void gemm(const half* a, const half* b, float* c) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::load_matrix_sync(fa, a, 16);
  wmma::load_matrix_sync(fb, b, 16);
  wmma::fill_fragment(fc, 0.0f);
  wmma::mma_sync(fc, fa, fb, fc);
  wmma::store_matrix_sync(c, fc, 16, wmma::mem_row_major);
}
int main() {
  half *a, *b; float* c;
  cudaMalloc(&a, 512); cudaMalloc(&b, 512); cudaMalloc(&c, 1024);
  gemm<<<1, 32>>>(a, b, c);
  cudaDeviceSynchronize();
  return 0;
}
)");
  ASSERT_TRUE(r.program->ok()) << r.program->failure << r.program->stderr_text;
  ASSERT_EQ(r.launches.size(), 1u);
  const LaunchTrace& t = r.launches[0];
  std::uint64_t loads = 0, stores = 0;
  int load_sites = 0;
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    if (t.sites[i].space != MemorySpace::kGlobal) continue;
    if (t.sites[i].op == AccessOp::kLoad) {
      ++load_sites;
      EXPECT_EQ(t.stats.sites[i].requests, 4u) << t.sites[i].code;
      EXPECT_EQ(t.sites[i].size, 4u) << t.sites[i].code;
      loads += t.stats.sites[i].requests;
    } else if (t.sites[i].op == AccessOp::kStore) {
      EXPECT_EQ(t.sites[i].line, 11u);
      EXPECT_EQ(t.sites[i].size, 8u);
      stores += t.stats.sites[i].requests;
    }
  }
  EXPECT_EQ(load_sites, 2);
  EXPECT_EQ(loads, 8u);
  EXPECT_EQ(stores, 4u);
  ASSERT_EQ(t.warp_op_sites.size(), 1u);
  EXPECT_EQ(t.warp_op_sites[0].kind, WarpOpKind::kMma);
  EXPECT_EQ(t.warp_op_sites[0].line, 10u);
}

// From shared memory the H200 loads a half fragment with one ldmatrix (LDSM .x4) and a float
// accumulator with four LDS.64 / STS.64; their wavefronts, as Nsight Compute counted them for
// rows `ldm` elements apart (kernels/tensor/ldsm_wavefronts.txt, H200: matrix_a 8, 4, 16, 32, 4
// and 4 for ldm 16, 24, 32, 64, 72 and 136; the accumulator's load and store 16, 8, 32, 32, 8, 8),
// are the emulator's at those sites.
TEST(CoursePrograms, WmmaSharedLoadsCostWhatTheH200Counted) {
  const LessonRun r = test::RunText(R"(#include <mma.h>
using namespace nvcuda;
__global__ void k(float* out, int ldm) {
  __shared__ __align__(32) half a[16 * 136];
  __shared__ __align__(32) float c[16 * 136];
  for (int i = threadIdx.x; i < 16 * ldm; i += 32) a[i] = __float2half(1.0f), c[i] = 1.0f;
  __syncwarp();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
  wmma::load_matrix_sync(fa, a, ldm);
  wmma::load_matrix_sync(fc, c, ldm, wmma::mem_row_major);
  __syncwarp();
  wmma::store_matrix_sync(c, fc, ldm, wmma::mem_row_major);
  out[threadIdx.x] = __half2float(fa.x[0]);
}
int main() {
  float* out;
  cudaMalloc(&out, 128);
  const int ldms[] = {16, 24, 32, 64, 72, 136};
  for (int ldm : ldms) k<<<1, 32>>>(out, ldm);
  cudaDeviceSynchronize();
  return 0;
}
)");
  ASSERT_TRUE(r.program->ok()) << r.program->failure << r.program->stderr_text;
  ASSERT_EQ(r.launches.size(), 6u);
  const std::uint64_t want_a[] = {8, 4, 16, 32, 4, 4}, want_c[] = {16, 8, 32, 32, 8, 8};
  for (std::size_t l = 0; l < 6; ++l) {
    const LaunchTrace& t = r.launches[l];
    int seen = 0;
    for (std::size_t i = 0; i < t.sites.size(); ++i) {
      const SiteStats& st = t.stats.sites[i];
      if (t.sites[i].space != MemorySpace::kShared) continue;
      if (t.sites[i].line == 10) {  // matrix_a: one LDSM, 16 bytes a lane
        EXPECT_EQ(st.requests, 1u) << l;
        EXPECT_EQ(t.sites[i].size, 16u) << l;
        EXPECT_EQ(st.wavefronts, want_a[l]) << "ldm " << l;
        ++seen;
      } else if (t.sites[i].line == 11 || t.sites[i].line == 13) {  // LDS.64 / STS.64 x 4
        EXPECT_EQ(st.requests, 4u) << l;
        EXPECT_EQ(st.wavefronts, want_c[l]) << "line " << t.sites[i].line << ", launch " << l;
        ++seen;
      }
    }
    EXPECT_EQ(seen, 3) << l;
  }
}

// What the GPU does not allow stops the run with CUDA's rule: a multiply in a warp of 16 lanes
// (undefined on a GPU), and a matrix_a fragment without its layout (an incomplete type in CUDA).
TEST(CoursePrograms, WmmaRefusesWhatTheGpuDoesNotAllow) {
  const std::string head = R"(#include <mma.h>
using namespace nvcuda;
__global__ void k(float* c) {
)";
  const std::string tail = R"(}
int main() { float* c; cudaMalloc(&c, 1024); k<<<1, 16>>>(c); cudaDeviceSynchronize(); return 0; }
)";
  const LessonRun partial =
      test::RunText(head + R"(  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> d;
  wmma::fill_fragment(a, __float2half(1.0f));
  wmma::fill_fragment(b, __float2half(1.0f));
  wmma::fill_fragment(d, 0.0f);
  wmma::mma_sync(d, a, b, d);
  wmma::store_matrix_sync(c, d, 16, wmma::mem_row_major);
)" + tail);
  ASSERT_FALSE(partial.program->ok());
  EXPECT_NE(partial.program->failure.find("line 10: wmma::mma_sync needs all 32 lanes of its warp"),
            std::string::npos)
      << partial.program->failure;
  const LessonRun no_layout = test::RunText(
      head + "  wmma::fragment<wmma::matrix_a, 16, 16, 16, half> a;\n  (void)a;\n" + tail);
  ASSERT_FALSE(no_layout.program->ok());
  ASSERT_FALSE(no_layout.program->errors.empty());
  EXPECT_NE(no_layout.program->errors[0].message.find("names its layout"), std::string::npos)
      << no_layout.program->errors[0].message;
}

// wmma::__float_to_tf32 (cuda-samples' tf32TensorCoreGemm calls it on every element it loads)
// rounds as `cvt.rna.tf32.f32`: to 10 fraction bits, a tie away from zero, the 13 bits below
// cleared; and a tf32 mma_sync reads an input's top 10 fraction bits (docs/PROGRAMS.md: the 13
// below dropped). Rows by hand from tests/programs/agreement/tf32_round.cu's output, and the whole
// output equal to what an H200 printed (tf32_round.gpu.txt, nvcc 13.0, 2026-12-05: it showed that
// a NaN's low 13 bits are cleared too, which the first version here left alone); on a GPU,
// ProgramsOnGpu.Tf32IsTheGpusBitForBit.
TEST(CoursePrograms, Tf32RoundsToNearestTiesAway) {
  const LessonRun r =
      test::RunText(ReadFile(WARPSCOPE_SOURCE_DIR "/tests/programs/agreement/tf32_round.cu"));
  ASSERT_TRUE(r.program->ok()) << r.program->failure << r.program->stderr_text;
  std::map<std::string, std::string> round, mma;
  std::istringstream in(r.program->stdout_text);
  std::string kind, a, b;
  while (in >> kind >> a >> b) (kind == "round" ? round : mma)[a] = b;
  EXPECT_EQ(round.size(), 32u);
  EXPECT_EQ(mma.size(), 128u);
  // 1 + 2^-11 lies halfway between 1 and 1 + 2^-10: away from zero; just below it, down.
  EXPECT_EQ(round["3f801000"], "3f802000");
  EXPECT_EQ(round["3f800fff"], "3f800000");
  EXPECT_EQ(round["3f801001"], "3f802000");
  EXPECT_EQ(round["3f803000"], "3f804000");  // a tie at an odd last place: up, as to even
  EXPECT_EQ(round["bf801000"], "bf802000");  // negative: away from zero, so down
  EXPECT_EQ(round["7f7fffff"], "7f800000");  // past tf32's largest: infinity
  EXPECT_EQ(round["7f7fefff"], "7f7fe000");  // tf32's largest
  EXPECT_EQ(round["ff800000"], "ff800000");
  EXPECT_EQ(round["7fc00001"], "7fc00000");  // a NaN: its low 13 bits cleared (the H200's)
  EXPECT_EQ(round["7f800001"], "7f800000");  // a NaN with its payload there alone: infinity
  EXPECT_EQ(round["00001000"], "00002000");  // a subnormal tie
  EXPECT_EQ(round["00000fff"], "00000000");
  EXPECT_EQ(round["40490fdb"], "40490000");  // pi: 0x0fdb is below the half place 0x1000
  // A[i][k] = 1 + (8i + k) x 0x1ff in the low bits: element 9 (row 1, k = 1) 0x3f8011f7 is read
  // as 1 (0x11f7 is past the half place, so rounding would give 0x3f802000); element 18
  // 0x3f8023ee as 0x3f802000; element 126 0x3f80fb82 as 0x3f80e000.
  EXPECT_EQ(mma["3f8011f7"], "3f800000");
  EXPECT_EQ(mma["3f8023ee"], "3f802000");
  EXPECT_EQ(mma["3f80fb82"], "3f80e000");
  const std::string gpu =
      ReadFile(WARPSCOPE_SOURCE_DIR "/tests/programs/agreement/tf32_round.gpu.txt");
  ASSERT_EQ(std::count(gpu.begin(), gpu.end(), '\n'), 160);
  EXPECT_EQ(r.program->stdout_text, gpu);
}

// The Fragments view's model on examples/wmma_tile.cu (one warp: A row major and B column major
// staged in shared tiles of kLd = 64 + kSkew halves a row, multiplied, C stored to global memory).
TEST(CoursePrograms, TheFragmentsViewShowsWhoHoldsWhatAndTheSkewsBanks) {
  const std::string text = ReadFile(WARPSCOPE_SOURCE_DIR "/examples/wmma_tile.cu");
  ASSERT_FALSE(text.empty());
  for (const int skew : {0, 8}) {
    ProgramOptions o;
    o.defines = {"kSkew=" + std::to_string(skew)};
    const LessonRun r = test::RunText(text, o);
    ASSERT_TRUE(r.program->ok()) << r.program->failure << r.program->stderr_text;
    // C[r][n] = sum over k < 16 of (r - k)(k mod 3 - 1): row 0 gives 0 - 2 + 3 - 5 + 6 - 8 + 9 -
    // 11 + 12 - 14 + 15 = 5; row 15 is 15 x (the sum of k mod 3 - 1, -1) less row 0's sum of
    // k (k mod 3 - 1), -5: -10.
    EXPECT_EQ(r.program->stdout_text, "C[0][0] = 5, C[15][15] = -10: PASS\n");
    ASSERT_EQ(r.launches.size(), 1u);
    const LaunchTrace& t = r.launches[0];
    // The three fragment sites carry their fragment and leading dimension.
    const std::string ld = std::to_string(64 + skew);
    int a = -1, b = -1, c = -1;
    for (std::size_t i = 0; i < t.sites.size(); ++i) {
      const std::string& f = t.sites[i].fragment;
      if (f == "m16n16k16 a half row " + ld) a = static_cast<int>(i);
      if (f == "m16n16k16 b half col " + ld) b = static_cast<int>(i);
      if (f == "m16n16k16 c float row 16") c = static_cast<int>(i);
      if (t.sites[i].space == MemorySpace::kShared && t.sites[i].op == AccessOp::kStore) {
        EXPECT_TRUE(f.empty()) << "the staging stores are no fragment's";
      }
    }
    ASSERT_GE(a, 0);
    ASSERT_GE(b, 0);
    ASSERT_GE(c, 0);
    EXPECT_EQ(t.sites[static_cast<std::size_t>(a)].size, 16u);  // ldmatrix rows
    EXPECT_EQ(t.sites[static_cast<std::size_t>(c)].space, MemorySpace::kGlobal);

    const std::optional<FragmentNote> note = ParseFragmentNote(t.sites[a].fragment);
    ASSERT_TRUE(note.has_value());
    EXPECT_EQ(note->ldm, 64u + static_cast<unsigned>(skew));
    const FragmentType* ta = FindFragmentType(note->type);
    ASSERT_NE(ta, nullptr);
    // The table (H200): half's matrix_a holds each element twice in a lane; lane 0 holds (0, 0)
    // as x[0] and x[8], (8, 1) as x[3] and x[11]; lane 1 (0, 2).
    const FragmentMap ma = MakeFragmentMap(*ta);
    EXPECT_EQ(ma.rows, 16u);
    EXPECT_EQ(ma.cols, 16u);
    EXPECT_EQ(ma.copies, 2u);
    EXPECT_EQ(ma.lanes, 32u);
    EXPECT_EQ(ma.At(0, 0).lane, 0);
    EXPECT_EQ(ma.At(0, 0).x, (std::vector<std::uint32_t>{0, 8}));
    EXPECT_EQ(ma.At(8, 1).lane, 0);
    EXPECT_EQ(ma.At(8, 1).x, (std::vector<std::uint32_t>{3, 11}));
    EXPECT_EQ(ma.At(0, 2).lane, 1);
    // The float accumulator: lane l holds rows l / 4 and l / 4 + 8, columns 2 (l mod 4), +1, +8
    // and +9 (docs/GPU.md): (9, 10) is lane (9 - 8) x 4 + (10 - 8) / 2 = 5's, once.
    const FragmentMap mc =
        MakeFragmentMap(*FindFragmentType(ParseFragmentNote(t.sites[c].fragment)->type));
    EXPECT_EQ(mc.copies, 1u);
    EXPECT_EQ(mc.At(9, 10).lane, 5);

    // A's load: ldmatrix .x4, lane l giving row l mod 8 of 8x8 block l / 8 (blocks down the tile
    // first): lane 1 row 1, lane 8 row 8, lane 16 (0, 8), lane 31 (15, 8); each 8 halves.
    const FragmentAccesses fa =
        MakeFragmentAccesses(t, 0, static_cast<std::uint16_t>(a), *ta, note->ldm);
    ASSERT_TRUE(fa.message.empty()) << fa.message;
    ASSERT_EQ(fa.lanes.size(), 32u);
    EXPECT_EQ(fa.elements_per_access, 8u);
    EXPECT_EQ(fa.lanes[1].row, 1u);
    EXPECT_EQ(fa.lanes[1].col, 0u);
    EXPECT_EQ(fa.lanes[8].row, 8u);
    EXPECT_EQ(fa.lanes[16].row, 0u);
    EXPECT_EQ(fa.lanes[16].col, 8u);
    EXPECT_EQ(fa.lanes[31].row, 15u);
    EXPECT_EQ(fa.lanes[31].col, 8u);
    EXPECT_EQ(fa.lanes[9].phase, 1u);
    // Rows 128 bytes apart (no skew) start in one bank: each phase of 8 lanes takes 8 wavefronts,
    // 32 for the four (Nsight Compute on an H200 counted 32 for ldm 64, ldsm_wavefronts.txt);
    // 144 bytes apart (skew 8) the eight rows start 4 banks apart and cover all 32: 4 (H200: 4).
    EXPECT_EQ((fa.lanes[1].bank + 32 - fa.lanes[0].bank) % 32, skew == 0 ? 0u : 4u);
    EXPECT_EQ(fa.wavefronts, skew == 0 ? 32u : 4u);
    EXPECT_EQ(fa.ideal, 4u);
    // A block that was not kept, or a site the warp did not reach, says so.
    EXPECT_FALSE(
        MakeFragmentAccesses(t, 7, static_cast<std::uint16_t>(a), *ta, 64).message.empty());
  }
}

// examples/wmma_tile.cu's whole-kernel figures equal what Nsight Compute counted on an H200 for
// the same program built with nvcc (kernels/tensor/wmma_tile_h200.txt): the shared loads (two
// LDSM), their conflicts, the staging stores (16 STS.U16, 2 wavefronts each at both skews: a
// request's two 32-byte rows share four banks when 144 bytes apart, eight when 128), the global
// loads and the accumulator's four 8-byte stores.
TEST(CoursePrograms, TheWmmaExampleCostsWhatTheH200Counted) {
  const std::string text = ReadFile(WARPSCOPE_SOURCE_DIR "/examples/wmma_tile.cu");
  std::istringstream table(ReadFile(WARPSCOPE_SOURCE_DIR "/kernels/tensor/wmma_tile_h200.txt"));
  std::map<int, std::map<std::string, std::uint64_t>> gpu;  // skew -> metric -> value
  int skew = -1;
  for (std::string line; std::getline(table, line);) {
    if (line.rfind("skew ", 0) == 0) {
      skew = std::stoi(line.substr(5));
      EXPECT_NE(line.find("C[0][0] = 5, C[15][15] = -10: PASS"), std::string::npos) << line;
      continue;
    }
    std::istringstream fields(line);
    std::string name;
    std::uint64_t value = 0;
    if (skew >= 0 && fields >> name >> value && name.find("__") != std::string::npos)
      gpu[skew][name] = value;
  }
  ASSERT_EQ(gpu.size(), 3u);
  for (const int k : {0, 8, 16}) {
    ProgramOptions o;
    o.defines = {"kSkew=" + std::to_string(k)};
    const LessonRun r = test::RunText(text, o);
    ASSERT_TRUE(r.program->ok()) << r.program->failure << r.program->stderr_text;
    ASSERT_EQ(r.launches.size(), 1u);
    const LaunchTrace& t = r.launches[0];
    std::uint64_t ld_wave = 0, ld_conf = 0, st_wave = 0, st_conf = 0, st_req = 0, gld = 0, gst = 0,
                  gst_req = 0;
    for (std::size_t i = 0; i < t.sites.size(); ++i) {
      const SiteInfo& s = t.sites[i];
      const SiteStats& f = t.stats.sites[i];
      const bool load = s.op == AccessOp::kLoad;
      if (s.space == MemorySpace::kShared) {
        (load ? ld_wave : st_wave) += f.wavefronts;
        (load ? ld_conf : st_conf) += f.wavefronts - f.ideal_wavefronts;
        if (!load) st_req += f.requests;
      } else if (s.space == MemorySpace::kGlobal) {
        (load ? gld : gst) += f.sectors;
        if (!load) gst_req += f.requests;
      }
    }
    std::map<std::string, std::uint64_t>& m = gpu[k];
    EXPECT_EQ(ld_wave, m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"]) << k;
    EXPECT_EQ(ld_conf, m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"]) << k;
    EXPECT_EQ(st_wave, m["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"]) << k;
    EXPECT_EQ(st_conf, m["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"]) << k;
    EXPECT_EQ(st_req, m["smsp__inst_executed_op_shared_st.sum"]) << k;
    EXPECT_EQ(gld, m["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"]) << k;
    EXPECT_EQ(gst, m["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"]) << k;
    EXPECT_EQ(gst_req, m["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"]) << k;
  }
  // The numbers themselves, as worked out in the example's comment: 32 + 32 wavefronts without
  // skew, 4 + 4 with 8 halves, 8 + 8 with 16 (rows 160 bytes apart: two in each group of four
  // banks), whose staging stores take one wavefront each (rows 2j and 2j + 1 in banks 0-7 and
  // 8-15 of their own).
  EXPECT_EQ(gpu[0]["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"], 64u);
  EXPECT_EQ(gpu[8]["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"], 8u);
  EXPECT_EQ(gpu[16]["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"], 16u);
  EXPECT_EQ(gpu[16]["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"], 16u);
}

// A site's note names the accumulator's layout as its memory's (a column-major load and store),
// and a helper's load_matrix_sync that loads A and B from one array (two fragment types at one
// site) is noted "several", which the view says rather than draw one of them.
TEST(CoursePrograms, AFragmentSitesNoteNamesItsLayoutOrSeveral) {
  const std::string text = R"(#include <cuda_fp16.h>
#include <mma.h>
#include <cstdio>
using namespace nvcuda;
template <typename F>
__device__ void load(F& f, const half* p) {
  wmma::load_matrix_sync(f, p, 16);
}
__global__ void k(float* out) {
  __shared__ half t[512];
  __shared__ float c[256];
  for (int i = threadIdx.x; i < 512; i += 32) t[i] = __float2half(1.0f);
  for (int i = threadIdx.x; i < 256; i += 32) c[i] = 0.0f;
  __syncwarp();
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  load(a, t);
  load(b, t + 256);
  wmma::load_matrix_sync(acc, c, 16, wmma::mem_col_major);
  wmma::mma_sync(acc, a, b, acc);
  wmma::store_matrix_sync(out, acc, 16, wmma::mem_col_major);
}
int main() {
  float* d = nullptr;
  cudaMalloc(&d, 1024);
  k<<<1, 32>>>(d);
  float h[256];
  cudaMemcpy(h, d, 1024, cudaMemcpyDeviceToHost);
  std::printf("%g %g\n", h[0], h[255]);
  return 0;
}
)";
  const LessonRun r = test::RunText(text, ProgramOptions{});
  ASSERT_TRUE(r.program->ok()) << r.program->failure << r.program->stderr_text;
  EXPECT_EQ(r.program->stdout_text, "16 16\n");  // 16 products of 1 x 1
  ASSERT_EQ(r.launches.size(), 1u);
  std::map<std::uint32_t, std::string> by_line;
  for (const SiteInfo& s : r.launches[0].sites)
    if (!s.fragment.empty()) by_line[s.line] = s.fragment;
  EXPECT_EQ(by_line, (std::map<std::uint32_t, std::string>{
                         {7, "several"},                       // the helper's load of A, then of B
                         {20, "m16n16k16 c float col 16"},     // the accumulator from c
                         {22, "m16n16k16 c float col 16"}}));  // and to out
  // Column major, the accumulator's places are the row-major ones (the table has both).
  const FragmentType* col = FindFragmentType("m16n16k16 c float col");
  const FragmentType* row = FindFragmentType("m16n16k16 c float row");
  ASSERT_NE(col, nullptr);
  ASSERT_NE(row, nullptr);
  EXPECT_EQ(col->at, row->at);
  EXPECT_FALSE(col->RowMajor());
}

}  // namespace
}  // namespace ws
