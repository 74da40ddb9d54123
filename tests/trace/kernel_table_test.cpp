// The kernels table (trace/kernel_table.h): one row per kernel over every launch, its modeled time
// counting shared wavefronts, slowest first, each row's worst figure marked; and the launch the
// views draw a kernel from when the one asked for kept no records.
#include "warpscope/trace/kernel_table.h"

#include <gtest/gtest.h>

#include <map>

#include "warpscope/trace/run_report.h"

namespace ws {
namespace {

SiteInfo Site(std::uint32_t line, MemorySpace space, AccessOp op) {
  SiteInfo s;
  s.line = line;
  s.space = space;
  s.op = op;
  s.size = 4;
  return s;
}

SiteStats Global(std::uint64_t requests, std::uint64_t sectors, std::uint64_t ideal) {
  SiteStats st;
  st.requests = requests;
  st.sectors = sectors;
  st.ideal_sectors = ideal;
  st.bytes = requests * 128;  // 32 lanes x 4 B
  return st;
}

SiteStats Shared(std::uint64_t requests, std::uint64_t wavefronts, std::uint32_t worst) {
  SiteStats st;
  st.requests = requests;
  st.wavefronts = wavefronts;
  st.ideal_wavefronts = requests;  // 4-byte accesses: one wavefront each at best
  st.bank_conflict_max = worst;
  return st;
}

// A transpose's two kernels on a 64-warp grid: the naive one reads 4 sectors a request and writes
// 32; the tiled one reads and writes 4, through a tile it stores 1-way and reads 32-way.
LaunchTrace Naive(bool records) {
  LaunchTrace t;
  t.kernel = "transposeNaive";
  t.sites = {Site(10, MemorySpace::kGlobal, AccessOp::kLoad),
             Site(10, MemorySpace::kGlobal, AccessOp::kStore)};
  t.stats.sites = {Global(64, 256, 256), Global(64, 2048, 256)};
  if (records) t.blocks.resize(1);
  return t;
}

LaunchTrace Tiled() {
  LaunchTrace t;
  t.kernel = "transposeCoalesced";
  t.sites = {Site(20, MemorySpace::kGlobal, AccessOp::kLoad),
             Site(20, MemorySpace::kShared, AccessOp::kStore),
             Site(22, MemorySpace::kShared, AccessOp::kLoad),
             Site(22, MemorySpace::kGlobal, AccessOp::kStore)};
  t.stats.sites = {Global(64, 256, 256), Shared(64, 64, 1), Shared(64, 2048, 32),
                   Global(64, 256, 256)};
  t.blocks.resize(1);
  return t;
}

// A device with round numbers: 1,000 GB/s of DRAM (1,000 bytes per ns), 10 SMs at 1 GHz.
DevicePreset Round() {
  DevicePreset p;
  p.name = "round";
  p.bandwidth_gbps = 1000;
  p.multiprocessors = 10;
  p.clock_ghz = 1;
  return p;
}

TEST(KernelTable, ALaunchTakesItsDramSectorsAndItsSharedWavefronts) {
  // Naive: (256 + 2048) sectors x 32 B = 73,728 B at 1,000 B/ns = 73.728 ns; no shared memory.
  const LaunchTimeModel naive = ModelLaunchTime(Naive(true), Round());
  EXPECT_EQ(naive.dram_bytes, 73728u);
  EXPECT_DOUBLE_EQ(naive.dram_ms, 73.728e-6);
  EXPECT_DOUBLE_EQ(naive.shared_ms, 0.0);
  EXPECT_DOUBLE_EQ(naive.ms(), 73.728e-6);
  // Tiled: 512 sectors = 16,384 B = 16.384 ns of DRAM; 64 + 2,048 wavefronts over 10 SMs at one
  // a cycle: 211.2 cycles at 1 GHz = 211.2 ns. 227.584 ns in all, most of it shared memory.
  const LaunchTimeModel tiled = ModelLaunchTime(Tiled(), Round());
  EXPECT_EQ(tiled.wavefronts, 2112u);
  EXPECT_DOUBLE_EQ(tiled.dram_ms, 16.384e-6);
  EXPECT_DOUBLE_EQ(tiled.shared_ms, 211.2e-6);
  EXPECT_DOUBLE_EQ(tiled.ms(), 227.584e-6);
  EXPECT_STREQ(tiled.bound(), "shared memory");
}

TEST(KernelTable, CountedFlopsTakeTheirTimeAtThePeakAndPlaceTheKernelOnTheRoofline) {
  // The round device's FP32 peak: 10 SMs x 128 lanes (compute 9.0) x 2 x 1 GHz = 2,560 GFLOP/s.
  DevicePreset p = Round();
  EXPECT_DOUBLE_EQ(Fp32PeakGflops(p), 2560.0);
  // The naive transpose with 73,728 FLOPs counted: 73,728 / 2,560 GFLOP/s = 28.8 ns of arithmetic
  // beside its 73.728 ns of DRAM.
  LaunchTrace t = Naive(true);
  t.stats.flops = 73728;
  t.stats.flops_counted = true;
  const LaunchTimeModel m = ModelLaunchTime(t, p);
  EXPECT_DOUBLE_EQ(m.compute_ms, 28.8e-6);
  EXPECT_DOUBLE_EQ(m.ms(), 73.728e-6 + 28.8e-6);
  LessonRun run;
  run.launches = {t};
  const KernelRow r = KernelTable(run, p)[0];
  ASSERT_TRUE(r.OnRoofline());
  EXPECT_DOUBLE_EQ(r.ArithmeticIntensity(), 1.0);  // 73,728 FLOPs over 73,728 DRAM bytes
  EXPECT_NEAR(r.Gflops(), 73728.0 / ((73.728 + 28.8) * 1e-9) / 1e9, 1e-6);
  // Its roofs: 1,000 GB/s x 1 FLOP/B = 1,000 GFLOP/s under the 2,560 peak (ridge 2.56 FLOP/B).
  const Roofline roof = RooflineOf(p);
  EXPECT_DOUBLE_EQ(roof.ridge(), 2.56);
  EXPECT_DOUBLE_EQ(roof.Attainable(1.0), 1000.0);
  EXPECT_DOUBLE_EQ(roof.Attainable(10.0), 2560.0);
  EXPECT_LT(r.Gflops(), roof.Attainable(r.ArithmeticIntensity()));  // under its roof
  // A launch whose FLOPs were not counted (a lesson's) is not on the roofline.
  LessonRun lesson;
  lesson.launches = {Naive(true)};
  EXPECT_FALSE(KernelTable(lesson, p)[0].OnRoofline());
}

TEST(KernelTable, OneRowPerKernelOverEveryLaunchSlowestFirstWithItsWorstFigure) {
  LessonRun run;
  run.launches = {Naive(true), Tiled(), Naive(false), Naive(false)};
  const std::vector<KernelRow> rows = KernelTable(run, Round());
  ASSERT_EQ(rows.size(), 2u);
  // The 32-way tile's one launch (227.584 ns) takes longer than the naive kernel's three
  // (3 x 73.728 = 221.184 ns): it comes first.
  EXPECT_EQ(rows[0].kernel, "transposeCoalesced");
  EXPECT_EQ(rows[0].launches, 1u);
  EXPECT_DOUBLE_EQ(rows[0].ms, 227.584e-6);
  EXPECT_DOUBLE_EQ(rows[0].shared_ms, 211.2e-6);
  EXPECT_EQ(rows[0].wavefronts, 2112u);
  EXPECT_EQ(rows[0].ideal_wavefronts, 128u);
  EXPECT_EQ(rows[0].bank_conflicts(), 1984u);  // 2,112 - 128, as Nsight Compute counts them
  EXPECT_EQ(rows[0].worst_bank_degree, 32u);
  EXPECT_EQ(rows[0].worst, "banks");  // 2,112 / 128 = 16.5x its ideal; sectors at theirs
  EXPECT_DOUBLE_EQ(rows[0].SectorsPerRequest(), 4.0);

  EXPECT_EQ(rows[1].kernel, "transposeNaive");
  EXPECT_EQ(rows[1].launches, 3u);
  EXPECT_DOUBLE_EQ(rows[1].ms, 3 * 73.728e-6);
  EXPECT_DOUBLE_EQ(rows[1].overhead_ms, 3 * kModeledLaunchOverheadMs);  // apart from ms
  EXPECT_EQ(rows[1].global_requests, 3u * 128);
  EXPECT_DOUBLE_EQ(rows[1].SectorsPerRequest(), 18.0);  // (4 + 32) / 2
  EXPECT_DOUBLE_EQ(rows[1].IdealSectorsPerRequest(), 4.0);
  EXPECT_EQ(rows[1].worst, "sectors");
  EXPECT_EQ(rows[1].first_launch, 0u);
  EXPECT_TRUE(rows[1].has_records);
  EXPECT_EQ(rows[1].first_with_records, 0u);

  // One launch each: the 32-way tile is the slower, as on a GPU.
  LessonRun once;
  once.launches = {Naive(true), Tiled()};
  EXPECT_EQ(KernelTable(once, Round())[0].kernel, "transposeCoalesced");
}

// A what-if over the kept blocks only: its launch's row says so in the text and the JSON.
TEST(KernelTable, AWhatIfOverKeptBlocksMarksItsRowPartial) {
  LessonRun run;
  run.launches = {Naive(true), Tiled()};
  LessonRun::Program p;
  p.file = "t.cu";
  run.program = p;
  WhatIfNote w;
  w.launch = 1;
  w.whole_grid = false;
  w.scope = "the 1 kept block of 64 (the others' records were not kept)";
  run.what_if = w;
  const std::vector<KernelRow> rows = KernelTable(run, Round());
  for (const KernelRow& r : rows) EXPECT_EQ(r.partial, r.kernel == "transposeCoalesced");
  EXPECT_NE(RunText(run).find("transposeCoalesced: the what-if's launch counts only its kept "
                              "blocks (the 1 kept block of 64"),
            std::string::npos);
  const nlohmann::json j = RunJson(run);
  for (const nlohmann::json& k : j["kernels"])
    EXPECT_EQ(k["partial"].get<bool>(), k["kernel"] == "transposeCoalesced");
}

TEST(KernelTable, ARaceIsTheRowsWorstFigure) {
  LessonRun run;
  run.launches = {Tiled()};
  HazardGroup g;
  g.kind = HazardKind::kRaw;
  g.count = 5;
  HazardGroup benign;
  benign.kind = HazardKind::kWawSameValue;  // the same value written twice: not a race
  benign.count = 7;
  run.launches[0].hazards.groups = {g, benign};
  const std::vector<KernelRow> rows = KernelTable(run, Round());
  EXPECT_EQ(rows[0].hazards, 5u);
  EXPECT_EQ(rows[0].worst, "hazards");
}

// A launch whose figures miss blocks (a GPU's record budget): its row says so in the text and the
// JSON, naming the launch and what its figures cover.
TEST(KernelTable, ALaunchThatMissesBlocksMarksItsRowPartial) {
  LessonRun run;
  run.launches = {Naive(true), Naive(true), Tiled()};
  run.launches[1].grid = {4, 1, 1};
  run.launches[1].uncovered_blocks = 3;
  const std::vector<KernelRow> rows = KernelTable(run, Round());
  const std::string text = KernelsText(rows, run, Round());
  EXPECT_NE(text.find("transposeNaive: PARTIAL in 1 of 2 launches (launch 2: the figures cover 1 "
                      "of 4 blocks: the record budget left 3 blocks' warps no room on the GPU"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("transposeCoalesced: PARTIAL"), std::string::npos) << text;
  const nlohmann::json j = KernelsJson(rows, run);
  for (const auto& k : j)
    EXPECT_EQ(k["uncovered_launches"].get<int>(), k["kernel"] == "transposeNaive" ? 1 : 0);
}

TEST(KernelTable, AKernelWhoseLaterLaunchesKeptNoRecordsSaysHowManyDid) {
  // A timing loop: the naive kernel launched 5 times, block records kept by the first 3.
  LessonRun run;
  run.launches = {Naive(true), Naive(true), Naive(true), Naive(false), Naive(false), Tiled()};
  const std::vector<KernelRow> rows = KernelTable(run, Round());
  const std::string text = KernelsText(rows, run, Round());
  EXPECT_NE(text.find("transposeNaive: every launch counted; block records kept for 3 of its 5 "
                      "launches (the first ones: what the views draw and, on a GPU, check for "
                      "hazards)"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("transposeCoalesced: every launch counted"), std::string::npos) << text;
  const nlohmann::json j = KernelsJson(rows, run);
  for (const auto& k : j) {
    EXPECT_EQ(k["launches_with_records"].get<int>(), k["kernel"] == "transposeNaive" ? 3 : 1);
    // Every launch's figures are in the row: 5 x 64 naive requests at each of its 2 sites.
    if (k["kernel"] == "transposeNaive") {
      EXPECT_EQ(k["global_requests"].get<int>(), 5 * 2 * 64);
    }
  }
}

TEST(KernelTable, ALaunchWithoutRecordsIsDrawnFromItsKernelsNearestThatKeptThem) {
  const std::vector<LaunchTrace> launches = {Naive(true), Tiled(), Naive(false), Naive(false),
                                             Tiled()};
  EXPECT_EQ(NearestLaunchWithRecords(launches, 3), 0u);  // the naive kernel's only one
  EXPECT_EQ(NearestLaunchWithRecords(launches, 1), 1u);  // it kept its own
  EXPECT_EQ(NearestLaunchWithRecords(launches, 4), 4u);
  std::vector<LaunchTrace> none = {Naive(false), Naive(false)};
  EXPECT_EQ(NearestLaunchWithRecords(none, 1), 1u);  // no launch of it did: itself
}

TEST(KernelTable, TheCliTextPutsTheTableFirstAndEachLaunchOnlyWhenAsked) {
  LessonRun run;
  run.backend = "emu";
  run.launches = {Naive(true), Tiled(), Naive(false)};
  LessonRun::Program p;
  p.file = "t.cu";
  run.program = p;
  const std::string text = RunText(run);
  const std::size_t table = text.find("kernels, slowest first (2 kernels, 3 launches");
  ASSERT_NE(table, std::string::npos) << text;
  EXPECT_NE(text.find("*18.00(4.00)"), std::string::npos) << text;  // naive's worst: sectors
  EXPECT_NE(text.find("*2,112(128) 32-way"), std::string::npos) << text;
  EXPECT_EQ(text.find("launch 1:"), std::string::npos);
  EXPECT_NE(text.find("add --launches"), std::string::npos);
  EXPECT_NE(RunText(run, true).find("launch 1: transposeNaive"), std::string::npos);

  const nlohmann::json j = RunJson(run);
  ASSERT_EQ(j.at("kernels").size(), 2u);
  EXPECT_EQ(j["kernels"][1]["kernel"], "transposeCoalesced");  // hopper: DRAM-bound naive first
  EXPECT_EQ(j["kernels"][1]["bank_conflicts"], 1984);
  EXPECT_EQ(j["kernels"][0]["launches"], 2);
  EXPECT_EQ(j["kernels"][0]["drawn_from_launch"], 0);
  EXPECT_EQ(j["kernels"][0]["worst"], "sectors");
}

// On a GPU the program as written is counted again by CUPTI (kernel_counters.cpp): each kernel's
// first launch, in the order the kernels were first launched. Each row takes the counted launch
// whose mangled name holds its kernel's and sets the GPU's figures beside its first launch's
// recorded ones. Naive's first launch records 64 load requests of 256 sectors and 64 stores of
// 2,048 (Naive above); the tiled one 64 shared stores of 64 wavefronts and 64 loads of 2,048, of
// which 2,048 - 64 = 1,984 conflicts. The GPU's values are made up here: equal, 2,089 store
// sectors against 2,048 (41 of 2,089, 1.96 %: within the agreement's 2 %) and 4,224 load sectors
// against 256 (not).
TEST(KernelTable, TheGpusOwnCountersStandBesideEachKernelsFirstLaunch) {
  LessonRun run;
  run.backend = "cuda";
  run.launches = {Naive(true), Tiled(), Naive(false)};
  LessonRun::Program& p = run.program.emplace();
  p.file = "t.cu";
  p.kernel_counters = {{"_Z14transposeNaivePfPKf",
                        {{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 64},
                         {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 256},
                         {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 2089},
                         {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 0}}},
                       {"_Z18transposeCoalescedPfPKf",
                        {{"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 2048},
                         {"l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 1984},
                         {"l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", 64},
                         {"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum", 0},
                         {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 4224}}}};
  const std::vector<KernelRow> rows = KernelTable(run, Round());
  ASSERT_EQ(rows.size(), 2u);
  const KernelRow& naive = rows[0].kernel == "transposeNaive" ? rows[0] : rows[1];
  const KernelRow& tiled = rows[0].kernel == "transposeNaive" ? rows[1] : rows[0];
  // Naive: three figures (its shared loads are 0 on both sides, left out), in the table's order.
  ASSERT_EQ(naive.gpu_counters.size(), 3u);
  EXPECT_EQ(naive.gpu_counters[0].figure, "global load requests");
  EXPECT_EQ(naive.gpu_counters[0].gpu, 64.0);
  EXPECT_EQ(naive.gpu_counters[0].recorded, 64u);
  EXPECT_EQ(naive.gpu_counters[1].figure, "global load sectors");
  EXPECT_EQ(naive.gpu_counters[1].recorded, 256u);
  EXPECT_FALSE(naive.gpu_counters[1].Differs());
  EXPECT_EQ(naive.gpu_counters[2].figure, "global store sectors");
  EXPECT_EQ(naive.gpu_counters[2].gpu, 2089.0);
  EXPECT_EQ(naive.gpu_counters[2].recorded, 2048u);
  EXPECT_FALSE(naive.gpu_counters[2].Differs());  // 41 of 2,089
  // Tiled: its loads' 64 requests of 4 sectors recorded (256) where the GPU says 4,224.
  ASSERT_EQ(tiled.gpu_counters.size(), 4u);
  EXPECT_EQ(tiled.gpu_counters[0].figure, "global load sectors");
  EXPECT_EQ(tiled.gpu_counters[0].recorded, 256u);
  EXPECT_TRUE(tiled.gpu_counters[0].Differs());
  EXPECT_EQ(tiled.gpu_counters[1].figure, "shared load wavefronts");
  EXPECT_EQ(tiled.gpu_counters[1].recorded, 2048u);
  EXPECT_EQ(tiled.gpu_counters[2].figure, "shared load bank conflicts");
  EXPECT_EQ(tiled.gpu_counters[2].recorded, 1984u);
  EXPECT_FALSE(tiled.gpu_counters[2].Differs());
  EXPECT_EQ(tiled.gpu_counters[3].figure, "shared store wavefronts");
  EXPECT_EQ(tiled.gpu_counters[3].recorded, 64u);

  const std::string text = RunText(run);
  EXPECT_NE(text.find("the GPU's own counters for each kernel's first launch"), std::string::npos)
      << text;
  EXPECT_NE(text.find("global load sectors            GPU         4,224  recorded           256"
                      "  (more than 2 % apart)"),
            std::string::npos)
      << text;
  const nlohmann::json j = RunJson(run);
  const nlohmann::json& k =
      j["kernels"][0]["kernel"] == "transposeCoalesced" ? j["kernels"][0] : j["kernels"][1];
  ASSERT_EQ(k.at("gpu_counters").size(), 4u);
  EXPECT_EQ(k["gpu_counters"][0]["metric"], "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum");
  EXPECT_EQ(k["gpu_counters"][0]["gpu"], 4224.0);
  EXPECT_EQ(k["gpu_counters"][0]["recorded"], 256);
  EXPECT_EQ(k["gpu_counters"][0]["differs"], true);

  // A first launch that is not the whole grid as written (a GPU's record budget left blocks out)
  // gets none: nothing stands beside them. Its row, the text and the JSON say why.
  run.launches[1].uncovered_blocks = 1;
  for (const KernelRow& r : KernelTable(run, Round())) {
    EXPECT_EQ(r.gpu_counters.empty(), r.kernel == "transposeCoalesced") << r.kernel;
    EXPECT_EQ(r.gpu_counters_missing,
              r.kernel == "transposeCoalesced"
                  ? "its first launch's record does not cover the whole grid the GPU counted"
                  : "")
        << r.kernel;
  }
  EXPECT_NE(RunText(run).find("the GPU's own counters, not read for transposeCoalesced: its first "
                              "launch's record does not cover"),
            std::string::npos)
      << RunText(run);
  run.launches[1].uncovered_blocks = 0;
  const auto row = [&](const std::string& kernel) {
    for (const KernelRow& r : KernelTable(run, Round()))
      if (r.kernel == kernel) return r;
    ADD_FAILURE() << "no row " << kernel;
    return KernelRow{};
  };
  const auto json_row = [&](const std::string& kernel) {
    const nlohmann::json all = RunJson(run);
    for (const nlohmann::json& kr : all["kernels"])
      if (kr["kernel"] == kernel) return kr;
    ADD_FAILURE() << "no JSON row " << kernel;
    return nlohmann::json{};
  };
  // Its first launch the what-if's: none beside it, and its row says why.
  run.what_if.emplace();
  run.what_if->launch = 1;
  EXPECT_TRUE(row("transposeCoalesced").gpu_counters.empty());
  EXPECT_EQ(row("transposeCoalesced").gpu_counters_missing,
            "its first launch shows a what-if, not the program as written");
  run.what_if.reset();
  // A kernel the counting run named as not counted: its reason on its row.
  const ProgramRecord::KernelCounters coalesced = p.kernel_counters.back();
  p.kernel_counters.pop_back();
  p.kernels_not_counted = {{"_Z18transposeCoalescedPfPKf", "launched in a second context"}};
  EXPECT_EQ(row("transposeCoalesced").gpu_counters_missing,
            "the counting run did not count it: launched in a second context");
  EXPECT_EQ(row("transposeNaive").gpu_counters_missing, "");
  EXPECT_NE(RunText(run).find("the GPU's own counters, not read for transposeCoalesced: the "
                              "counting run did not count it: launched in a second context"),
            std::string::npos)
      << RunText(run);
  // One it passed over without a word (a graph's launch): said as such, in the JSON too.
  p.kernels_not_counted.clear();
  EXPECT_EQ(json_row("transposeCoalesced").value("gpu_counters_missing", ""),
            "the counting run did not count it: a kernel launched only in a CUDA graph, or after "
            "256 others, is not counted");
  EXPECT_FALSE(json_row("transposeNaive").contains("gpu_counters_missing"));
  // A counting run that stopped before it: its reason, not the graph's.
  p.kernel_counters_missing = "the counting run was stopped after 12.0 s";
  EXPECT_EQ(row("transposeCoalesced").gpu_counters_missing,
            "not among the kernels the counting run counted: the counting run was stopped after "
            "12.0 s");
  p.kernel_counters_missing.clear();
  // Counted, but CUPTI gave no values (a range short of passes: "-" each).
  p.kernel_counters.push_back({"_Z18transposeCoalescedPfPKf", {}});
  EXPECT_TRUE(row("transposeCoalesced").gpu_counters.empty());
  EXPECT_EQ(row("transposeCoalesced").gpu_counters_missing,
            "CUPTI gave no values for its first launch (not every pass of its replay was made)");
  // Counted with every figure 0 where the recorded are 0 too: none listed, and it agrees.
  p.kernel_counters.back().values = {
      {"smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum", 0}};
  EXPECT_TRUE(row("transposeCoalesced").gpu_counted_zero);
  EXPECT_EQ(row("transposeCoalesced").gpu_counters_missing, "");
  EXPECT_EQ(json_row("transposeCoalesced").value("gpu_counters_all_zero", false), true);
  p.kernel_counters.back() = coalesced;
  EXPECT_FALSE(row("transposeCoalesced").gpu_counted_zero);

  // Where they were not read, the text says why; on the emulator nothing is said.
  p.kernel_counters.clear();
  p.kernel_counters_missing = "the program as written did not run to the end";
  EXPECT_NE(RunText(run).find("the GPU's own counters: not read: the program as written did not "
                              "run to the end"),
            std::string::npos);
  EXPECT_TRUE(KernelTable(run, Round())[0].gpu_counters.empty());
  run.backend = "emu";
  EXPECT_EQ(RunText(run).find("the GPU's own counters"), std::string::npos);
}

// A counted launch goes to the row of its kernel, not to one whose name its symbol holds: `scale`
// does not take scale2's (_Z6scale2Pf), nor `f` add's (_Z3addPf, whose parameter is "Pf"); a
// template kernel whose argument the demangler spells otherwise ("16u" for an unsigned) takes its
// own by name.
TEST(KernelTable, EachCountedLaunchGoesToItsOwnKernelsRow) {
  LessonRun run;
  run.backend = "cuda";
  LaunchTrace a = Naive(true), b = Naive(true), c = Naive(true), d = Naive(true);
  a.kernel = "scale";
  b.kernel = "f";
  c.kernel = "tiled<16>";
  d.kernel = "scale2";
  run.launches = {a, b, c, d};
  LessonRun::Program& p = run.program.emplace();
  p.file = "t.cu";
  const auto sectors = [](double v) {
    return std::vector<std::pair<std::string, double>>{
        {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", v}};
  };
  p.kernel_counters = {
      {"_Z6scale2Pf", sectors(2)}, {"_Z3addPf", sectors(3)}, {"_Z5tiledILj16EEvPf", sectors(16)}};
  std::map<std::string, double> got;
  for (const KernelRow& r : KernelTable(run, Round()))
    if (!r.gpu_counters.empty()) got[r.kernel] = r.gpu_counters[0].gpu;
  EXPECT_EQ(got, (std::map<std::string, double>{{"scale2", 2}, {"tiled<16>", 16}}));
  // Named as not counted by its symbol, a template kernel's row takes the reason by its name too
  // (the demangler's "16u"), as a kernel in a namespace does (the rewriter's "kern::scale").
  p.kernel_counters.pop_back();
  a.kernel = "kern::scale";
  run.launches = {a, b, c, d};
  p.kernels_not_counted = {{"_Z5tiledILj16EEvPf", "launched in a second context"},
                           {"_ZN4kern5scaleEPf", "launched in a second context"}};
  std::map<std::string, std::string> why;
  for (const KernelRow& r : KernelTable(run, Round())) why[r.kernel] = r.gpu_counters_missing;
  EXPECT_EQ(why["tiled<16>"], "the counting run did not count it: launched in a second context");
  EXPECT_EQ(why["kern::scale"], "the counting run did not count it: launched in a second context");
  EXPECT_EQ(why["scale2"], "");
}

}  // namespace
}  // namespace ws
