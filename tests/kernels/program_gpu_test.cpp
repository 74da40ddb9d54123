// The user's own programs on a GPU (--backend cuda): each example, unmodified, must give the same
// launches and per-site figures as on the emulator, the same barrier and warp-meeting counts, and
// the same printed results; an access outside every buffer ends in the emulator's message.
// Elsewhere the tests skip and say why (ctest label "gpu").
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include "program_test_util.h"
#include "warpscope/kernels/devices.h"
#include "warpscope/program/program.h"

namespace ws {
namespace {

using test::ReadExample;

// (file, line, column, space, op, size, requests, sectors, lines, wavefronts, worst conflict,
// accesses) of every site.
using Figures =
    std::tuple<std::uint32_t, std::uint32_t, int, int, int, std::uint64_t, std::uint64_t,
               std::uint64_t, std::uint64_t, std::uint32_t, std::uint64_t>;
std::vector<Figures> FiguresOf(const LaunchTrace& t) {
  std::vector<Figures> out;
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    const SiteInfo& s = t.sites[i];
    const SiteStats& st = t.stats.sites[i];
    out.emplace_back(s.line, s.column, int(s.space), int(s.op), int(s.size), st.requests,
                     st.sectors, st.lines128, st.wavefronts, st.bank_conflict_max, st.accesses);
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string SkipReason() {
  const DeviceQuery q = QueryDevices();
  return q.gpus.empty() ? "no GPU: " + q.why_no_gpu : "";
}

struct Example {
  const char* file;
  std::vector<std::string> defines, args;
  const char* printed;  // a line both backends print
};

TEST(ProgramsOnGpu, ExamplesGiveTheEmulatorsFigures) {
  if (std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  const std::vector<Example> examples = {
      {"transpose.cu", {"N=256"}, {}, "transposePadded: transposed 256x256 correctly"},
      {"vecadd.cu", {"GridWidth=32", "BlockWidth=128"}, {"4"}, "interleaved: 16384 values"},
      {"matmul.cu",
       {"WIDTH=128", "TILE_WIDTH=16"},
       {},
       "multiplied two 128x128 matrices correctly"},
      {"picture.cu", {}, {}, "picture scaled by 2: correct"},
      {"shuffle_reduce.cu", {}, {}, "): correct"},
      {"block_transpose.cu", {"BLOCK_WIDTH=4"}, {}, "BLOCK_WIDTH 4:"},
  };
  for (const Example& e : examples) {
    ProgramOptions o;
    o.defines = e.defines;
    o.args = e.args;
    o.keep_blocks = {0};
    ProgramRun emu =
        RunProgramText(e.file, WARPSCOPE_SOURCE_DIR "/examples", ReadExample(e.file), o);
    o.backend = "cuda";
    o.timeout = std::chrono::seconds(120);
    ProgramRun gpu =
        RunProgramText(e.file, WARPSCOPE_SOURCE_DIR "/examples", ReadExample(e.file), o);
    ASSERT_TRUE(emu.ok()) << e.file << ": " << emu.failure << "\n" << emu.stderr_text;
    ASSERT_TRUE(gpu.ok()) << e.file << ": " << gpu.failure << "\n" << gpu.stderr_text;
    EXPECT_NE(emu.stdout_text.find(e.printed), std::string::npos) << emu.stdout_text;
    EXPECT_NE(gpu.stdout_text.find(e.printed), std::string::npos) << gpu.stdout_text;
    EXPECT_EQ(gpu.backend, "cuda");
    EXPECT_NE(gpu.device.find("NVIDIA"), std::string::npos) << gpu.device;  // the GPU's own name
    EXPECT_EQ(emu.device, "CPU emulator");
    ASSERT_EQ(gpu.launches.size(), emu.launches.size()) << e.file;
    for (std::size_t k = 0; k < emu.launches.size(); ++k) {
      const LaunchTrace& a = emu.launches[k];
      const LaunchTrace& b = gpu.launches[k];
      EXPECT_EQ(b.kernel, a.kernel) << e.file;
      EXPECT_EQ(b.grid.count(), a.grid.count()) << e.file;
      EXPECT_EQ(b.block.count(), a.block.count()) << e.file;
      // block_transpose races: which tile entries a thread reads before they are written differs
      // between the backends, but not its addresses, so its figures agree too.
      EXPECT_EQ(FiguresOf(b), FiguresOf(a)) << e.file << " launch " << k << " " << a.kernel;
      ASSERT_EQ(b.stats.barriers.size(), a.stats.barriers.size()) << e.file;
      for (std::size_t i = 0; i < a.stats.barriers.size(); ++i)
        EXPECT_EQ(b.stats.barriers[i].instances, a.stats.barriers[i].instances) << e.file;
      EXPECT_EQ(b.warp_op_counts, a.warp_op_counts) << e.file;
    }
  }
}

TEST(ProgramsOnGpu, AnOutOfRangeIndexNamesTheLineTheBufferAndTheThread) {
  if (std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  // 32 threads write a[i + 100] into 64 floats: thread 0 writes index 100, 36 past the end.
  const std::string text =
      "__global__ void k(float* a) {\n"
      "  a[threadIdx.x + 100] = 1.0f;\n"
      "}\n"
      "int main() {\n"
      "  float* a;\n"
      "  cudaMalloc(&a, 64 * sizeof(float));\n"
      "  k<<<1, 32>>>(a);\n"
      "  cudaDeviceSynchronize();\n"
      "  return 0;\n"
      "}\n";
  ProgramOptions o;
  o.backend = "cuda";
  o.timeout = std::chrono::seconds(120);
  ProgramRun run = test::RunText(text, o);
  ASSERT_FALSE(run.ok());
  EXPECT_EQ(run.stage, ProgramStage::kRun);
  // The first lane to store is not fixed on a GPU: any of the 32 indexes 100..131 is right.
  EXPECT_NE(run.failure.find("line 2: column 3: a store of 4 bytes at"), std::string::npos)
      << run.failure;
  EXPECT_NE(run.failure.find("is out of range: index 1"), std::string::npos) << run.failure;
  EXPECT_NE(run.failure.find("of a, which holds 64 elements of 4 bytes"), std::string::npos)
      << run.failure;
  EXPECT_NE(run.failure.find("of block (0,0,0)"), std::string::npos) << run.failure;
}

TEST(ProgramsOnGpu, ADeviceAssertEndsTheLaunchAndTheProgramSeesIt) {
  if (std::string why = SkipReason(); !why.empty()) GTEST_SKIP() << why;
  // As without Warpscope: the launch ends, the program goes on and its next call returns
  // cudaErrorAssert (simpleAssert's check), and CUDA prints the failed assertion.
  const std::string text =
      "#include <cassert>\n#include <cstdio>\n"
      "__global__ void k(int* a) {\n"
      "  assert(a[threadIdx.x] == 7);\n"
      "}\n"
      "int main() {\n"
      "  int* a;\n"
      "  cudaMalloc(&a, 32 * sizeof(int));\n"
      "  k<<<1, 32>>>(a);\n"
      "  const cudaError_t e = cudaDeviceSynchronize();\n"
      "  printf(\"%s\\n\", cudaGetErrorName(e));\n"
      "  return e == cudaErrorAssert ? 0 : 1;\n"
      "}\n";
  ProgramOptions o;
  o.backend = "cuda";
  o.timeout = std::chrono::seconds(120);
  ProgramRun run = test::RunText(text, o);
  ASSERT_TRUE(run.ok()) << run.failure;
  EXPECT_EQ(run.exit_code, 0) << run.stdout_text << run.stderr_text;
  EXPECT_NE(run.stdout_text.find("cudaErrorAssert"), std::string::npos) << run.stdout_text;
  // CUDA's own report, with the expression as the program wrote it (UnrewriteText).
  EXPECT_NE((run.stdout_text + run.stderr_text).find("Assertion `a[threadIdx.x] == 7` failed"),
            std::string::npos)
      << run.stderr_text;
}

}  // namespace
}  // namespace ws
