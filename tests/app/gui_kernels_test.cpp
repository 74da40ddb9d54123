// The Kernels view of a program: its kernels ranked by time, the worst figure of each row, and
// the roofline of those whose floating-point operations were counted. Read from the view's state
// (Panel::Shown(), --layout-json), the numbers by hand.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gui_test_util.h"
#include "warpscope/trace/run_file.h"
#include "warpscope/trace/trace_file.h"

namespace ws::test {
namespace {

nlohmann::json KernelsState(const std::string& program) {
  static int n = 0;
  TempDir t("kernels-" + std::to_string(++n));
  const RunResult r = RunApp({program, "--config-dir", (t / "cfg").string(), "--size", "1600x1000",
                              "--focus", "kernels", "--screenshot", (t / "shot.png").string(),
                              "--layout-json", (t / "layout.json").string()});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::ifstream in(t / "layout.json");
  const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
  EXPECT_TRUE(j.is_object());
  return j.is_object() ? j["panels"]["kernels"].value("state", nlohmann::json::object())
                       : nlohmann::json::object();
}

// `run` as a trace file at `path`.
void WriteTrace(const LessonRun& run, const std::filesystem::path& path) {
  const std::vector<std::uint8_t> bytes = SerializeTrace(TraceOfLessonRun(run, nullptr, 0));
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

// A GPU run whose record budget left a launch's block without room (LaunchTrace::
// uncovered_blocks): the kernel's row says "(partial)", and which launch covers how much.
TEST(GuiKernels, ALaunchThatMissesBlocksIsMarkedPartial) {
  REQUIRE_XVFB();
  LessonRun run;
  run.backend = "cuda";
  run.device = "NVIDIA H200";
  LaunchTrace t;
  t.kernel = "scale";
  t.grid = {2, 1, 1};
  t.block = {128, 1, 1};
  run.launches = {t, t};
  run.launches[1].uncovered_blocks = 1;
  LessonRun::Program p;
  p.file = "main.cu";
  p.source = "__global__ void scale(float* a) { a[threadIdx.x] *= 2; }\nint main() {}\n";
  p.kernels = {"scale"};
  run.program = p;
  TempDir dir("kernels-partial");
  WriteTrace(run, dir / "partial.wstrace");
  const nlohmann::json s = KernelsState((dir / "partial.wstrace").string());
  EXPECT_EQ(s.value("row0", ""), "scale") << s.dump();
  EXPECT_EQ(s.value("row0.coverage", ""),
            "launch 2: the figures cover 1 of 2 blocks: the record budget left 1 block's warps "
            "no room on the GPU (--record-budget; a smaller grid)");
}

// A GPU run whose program was counted by CUPTI (ProgramRecord::kernel_counters): the kernel's row
// says how many of its figures are more than 2 % from the recorded first launch's. Its one launch
// records 8 load requests of 32 sectors (a site by hand); the GPU's counters give 8 requests and
// 40 sectors: 2 figures, 1 apart.
TEST(GuiKernels, TheGpusOwnCountersAreSaidOnTheRowWithThoseThatDiffer) {
  REQUIRE_XVFB();
  LessonRun run;
  run.backend = "cuda";
  run.device = "NVIDIA H100 80GB HBM3";
  LaunchTrace t;
  t.kernel = "scale";
  t.grid = {1, 1, 1};
  t.block = {256, 1, 1};
  t.buffers = {{"a", 1024, 1u << 20}};
  t.sites = {SiteInfo{}};
  t.stats.Resize(1, 0);
  t.stats.sites[0].requests = 8;
  t.stats.sites[0].sectors = 32;
  LaunchTrace graph = t;  // a kernel the counting run did not count (launched in a CUDA graph)
  graph.kernel = "shift";
  run.launches = {t, graph};
  LessonRun::Program p;
  p.file = "main.cu";
  p.source =
      "__global__ void scale(float* a) { a[threadIdx.x] *= 2; }\n"
      "__global__ void shift(float* a) { a[threadIdx.x] += 2; }\nint main() {}\n";
  p.kernels = {"scale", "shift"};
  p.kernel_counters = {{"_Z5scalePf",
                        {{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 8},
                         {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 40}}}};
  run.program = p;
  TempDir dir("kernels-counters");
  WriteTrace(run, dir / "counted.wstrace");
  const nlohmann::json s = KernelsState((dir / "counted.wstrace").string());
  EXPECT_EQ(s.value("row0", ""), "scale") << s.dump();
  EXPECT_EQ(s.value("row0.gpu_counters", ""), "2");
  EXPECT_EQ(s.value("row0.gpu_counters_differ", ""), "1");  // 40 sectors against 32
  EXPECT_FALSE(s.contains("row0.gpu_counters_missing"));
  EXPECT_EQ(s.value("row1", ""), "shift");
  EXPECT_EQ(s.value("row1.gpu_counters_missing", ""),
            "the counting run did not count it: a kernel launched only in a CUDA graph, or after "
            "256 others, is not counted");
}

#if WARPSCOPE_HAVE_PROGRAMS
// examples/transpose.cu at N 256, TILE_DIM 16, modeled on hopper (3,350 GB/s; 132 SMs at
// 1.98 GHz; docs/PROGRAMS.md):
//   naive:     2,048 warps x (4 + 16) sectors x 32 B = 1,310,720 B            = 391 ns
//   coalesced: 524,288 B (156 ns) + 18,432 wavefronts, its read 8-way (71 ns)  = 227 ns
//   padded:    524,288 B (156 ns) +  8,192 wavefronts, 2-way (31 ns)           = 188 ns
// so the naive and the conflicted kernels rank above their fix.
TEST(GuiKernels, TheExamplesKernelsAreRankedWithTheirWorstFigure) {
  REQUIRE_XVFB();
  const nlohmann::json s = KernelsState(WARPSCOPE_SOURCE_DIR "/examples/transpose.cu");
  EXPECT_EQ(s.value("kernels", ""), "3") << s.dump();
  EXPECT_EQ(s.value("row0", ""), "transposeNaive");
  EXPECT_EQ(s.value("row0.worst", ""), "sectors");  // 10 sectors a request against 4
  EXPECT_EQ(s.value("row1", ""), "transposeCoalesced");
  EXPECT_EQ(s.value("row1.worst", ""), "banks");  // 18,432 wavefronts against 4,096
  EXPECT_EQ(s.value("row2", ""), "transposePadded");
  EXPECT_EQ(s.value("on_roofline", ""), "0");  // a transpose only moves data
  // All three ran a warp's lanes together (the SIMT engine: docs/ENGINE.md).
  for (const char* row : {"row0.engine", "row1.engine", "row2.engine"})
    EXPECT_EQ(s.value(row, ""), "simt") << row;
}

// tests/programs/thread_by_thread.cu branches with a switch, which the SIMT engine runs thread by
// thread (yet): the view says so on the row.
TEST(GuiKernels, AKernelRunThreadByThreadIsMarked) {
  REQUIRE_XVFB();
  const nlohmann::json s = KernelsState(WARPSCOPE_SOURCE_DIR "/tests/programs/thread_by_thread.cu");
  EXPECT_EQ(s.value("row0", ""), "classify") << s.dump();
  EXPECT_EQ(s.value("row0.engine", ""), "fiber");
}

// examples/matmul.cu (128 x 128, 16 x 16 tiles): `Pvalue += Mds[ty][k] * Nds[k][tx]` is 2 FLOPs
// a trip, 128 trips for each of 128 x 128 threads: 2 x 128^3 = 4,194,304, on the roofline.
TEST(GuiKernels, AMatmulsCountedFlopsPutItOnTheRoofline) {
  REQUIRE_XVFB();
  const nlohmann::json s = KernelsState(WARPSCOPE_SOURCE_DIR "/examples/matmul.cu");
  EXPECT_EQ(s.value("on_roofline", ""), "1") << s.dump();
  EXPECT_EQ(s.value("row0.flops", ""), "4194304");
}

// The app opened on examples/transpose.cu (its last launch shown, transposePadded) with a what-if
// naming transposeCoalesced: the banks view shows that kernel's tile swizzled, 1-way, and the
// session says which launch; a kernel it did not launch is an error the app shows, not ignored.
TEST(GuiKernels, AWhatIfOnANamedKernelIsShownAndABadOneSaid) {
  REQUIRE_XVFB();
  static int n = 0;
  const auto layout = [](std::vector<std::string> args) {
    TempDir t("what-if-" + std::to_string(++n));
    args.insert(args.end(), {"--config-dir", (t / "cfg").string(), "--size", "1600x1000", "--focus",
                             "banks", "--screenshot", (t / "shot.png").string(), "--layout-json",
                             (t / "layout.json").string()});
    const RunResult r = RunApp(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::ifstream in(t / "layout.json");
    return nlohmann::json::parse(in, nullptr, false);
  };
  const nlohmann::json j = layout({WARPSCOPE_SOURCE_DIR "/examples/transpose.cu", "--what-if",
                                   "transposeCoalesced:tile:swizzle=4,0,4"});
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j["session"].value("what_if_where", ""), "launch 2 of 3 (transposeCoalesced)")
      << j["session"].dump();
  EXPECT_EQ(j["session"].value("what_if_error", "?"), "");
  EXPECT_EQ(j["panels"]["banks"]["state"].value("what_if", ""), "Swizzle<4,0,4> on tile");
  EXPECT_EQ(j["panels"]["banks"]["state"].value("worst_degree", ""), "1");
  const nlohmann::json bad =
      layout({WARPSCOPE_SOURCE_DIR "/examples/transpose.cu", "--what-if", "nosuch:tile:pad=1"});
  ASSERT_TRUE(bad.is_object());
  EXPECT_NE(bad["session"].value("what_if_error", "").find("the run launched no kernel 'nosuch'"),
            std::string::npos)
      << bad["session"].dump();
  // Not a what-if at all: the app refuses it at the start, exit 2.
  TempDir t("what-if-form");
  const RunResult form =
      RunApp({WARPSCOPE_SOURCE_DIR "/examples/transpose.cu", "--what-if", "tile", "--config-dir",
              (t / "cfg").string(), "--screenshot", (t / "shot.png").string()});
  EXPECT_EQ(form.exit_code, 2) << form.err;
  EXPECT_NE(form.err.find("--what-if: what-if 'tile': write [KERNEL:]ARRAY:LAYOUT"),
            std::string::npos)
      << form.err;
}
#endif

}  // namespace
}  // namespace ws::test
