// Trace files: a run written and read back gives the same figures; a wrong, newer, truncated or
// corrupt file is refused with a message, never a crash (the fuzz corpus in tests/fuzz/corpus is
// replayed here with mutations, so the sanitizer build covers the loader on every CI run).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>

#include "core/capture.h"
#include "core/report.h"
#include "core/shipped.h"
#include "warpscope/kernels/catalog.h"
#include "warpscope/trace/block_schedule.h"
#include "warpscope/trace/lesson_figures.h"
#include "warpscope/trace/multi_gpu.h"

namespace ws {
namespace {

namespace fs = std::filesystem;

std::vector<std::uint8_t> ReadBytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::uint8_t> Bytes(const LessonRun& run) {
  return SerializeTrace(TraceOfRun(run, nullptr, 1763780000));
}

TEST(TraceFile, EveryLessonRoundTripsWithTheSameFigures) {
  for (const LessonInfo& info : Lessons()) {
    if (info.needs_gpu()) continue;  // nothing to run here (its shipped capture: Shipped* below)
    for (const VariantSpec& v : info.variants) {
      if (v.name == "divergent-barrier") continue;  // refused by design: nothing to capture
      auto run = RunLesson(info.id, v.name, {}, "emu", RunOptions{});
      ASSERT_TRUE(run.ok()) << info.id << ": " << run.status().message();
      auto parsed = ParseTrace(Bytes(*run));
      ASSERT_TRUE(parsed.ok()) << info.id << ": " << parsed.status().message();
      auto back = RunOfTrace(std::move(parsed).value(), "x.wstrace");
      ASSERT_TRUE(back.ok()) << back.status().message();
      // Everything `run` prints is the same, apart from the capture line.
      nlohmann::json a = RunJson(*run), b = RunJson(*back);
      b.erase("capture");
      EXPECT_EQ(a, b) << info.id << " " << v.name;
      ASSERT_EQ(run->launches.size(), back->launches.size());
      for (std::size_t i = 0; i < run->launches.size(); ++i) {
        const LaunchTrace &x = run->launches[i], &y = back->launches[i];
        ASSERT_EQ(x.blocks.size(), y.blocks.size());
        for (std::size_t k = 0; k < x.blocks.size(); ++k) {
          EXPECT_EQ(x.blocks[k].block, y.blocks[k].block);
          ASSERT_EQ(x.blocks[k].accesses.size(), y.blocks[k].accesses.size());
          EXPECT_EQ(0, std::memcmp(x.blocks[k].accesses.data(), y.blocks[k].accesses.data(),
                                   x.blocks[k].accesses.size() * sizeof(AccessRecord)));
          ASSERT_EQ(x.blocks[k].barriers.size(), y.blocks[k].barriers.size());
        }
        EXPECT_EQ(x.thread_active, y.thread_active);
      }
      EXPECT_EQ(back->capture->captured_at, "2025-11-22T02:53:20Z");  // 1763780000 s, in UTC
      EXPECT_EQ(back->capture->source, std::string(info.source));
    }
  }
}

// A program's child writes its launches raw (level 0) and unsynced, piece by piece from the
// records where they lie: the file is the bytes SerializeTrace gives, it reads back to the same
// records, and a flipped byte in the records fails the checksum. Matmul naive has no
// barriers, so its blocks' barrier arrays are empty (zlib's crc32 restarts on a null buffer: a
// checksum taken piece by piece skipped them wrongly once).
TEST(TraceFile, ARawFileIsItsSerializedBytesAndReadsBack) {
  auto run = RunLesson("matmul", "naive", {{"width", 64}}, "emu", RunOptions{});
  ASSERT_TRUE(run.ok()) << run.status().message();
  TraceContents c = TraceOfRun(*run, nullptr, 1763780000);
  c.compression_level = 0;
  c.durable = false;
  ASSERT_FALSE(c.launches.empty());
  ASSERT_FALSE(c.launches[0].blocks.empty());
  ASSERT_TRUE(c.launches[0].blocks[0].barriers.empty());
  // Format 4's async events (the pipeline view) travel with the block: two made up here.
  c.launches[0].blocks[0].async_events = {{7, 2, 3, AsyncEventKind::kIssue, 2},
                                          {19, 2, 3, AsyncEventKind::kLand, 2}};
  // A site's wmma fragment (the Fragments view) travels with the site table; others have none.
  ASSERT_GE(c.launches[0].sites.size(), 2u);
  c.launches[0].sites[0].fragment = "m16n16k16 a half row 72";
  const fs::path path = fs::temp_directory_path() / "ws_raw_trace_test.wstrace";
  ASSERT_TRUE(WriteTraceFile(path, c).ok());
  const std::vector<std::uint8_t> bytes = ReadBytes(path);
  EXPECT_EQ(bytes, SerializeTrace(c));
  auto back = ReadTraceFile(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  const BlockRecords &x = c.launches[0].blocks[0], &y = back->launches[0].blocks[0];
  ASSERT_EQ(x.accesses.size(), y.accesses.size());
  EXPECT_EQ(0, std::memcmp(x.accesses.data(), y.accesses.data(),
                           x.accesses.size() * sizeof(AccessRecord)));
  ASSERT_EQ(y.async_events.size(), 2u);
  EXPECT_EQ(y.async_events[1].time, 19u);
  EXPECT_EQ(y.async_events[1].group, 2u);
  EXPECT_EQ(y.async_events[1].thread, 3u);
  EXPECT_EQ(y.async_events[1].kind, AsyncEventKind::kLand);
  EXPECT_EQ(y.async_events[1].stages, 2u);
  EXPECT_EQ(back->launches[0].sites[0].fragment, "m16n16k16 a half row 72");
  EXPECT_EQ(back->launches[0].sites[1].fragment, "");
  std::vector<std::uint8_t> flipped = bytes;
  flipped[flipped.size() - 64] ^= 0x40;  // inside the records section (its end)
  auto bad = ParseTrace(flipped);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("checksum"), std::string::npos) << bad.status().message();
  fs::remove(path);
}

TEST(TraceFile, RefusesWrongNewerTruncatedAndCorruptFiles) {
  auto run = RunLesson("reverse", "", {}, "emu", RunOptions{});
  ASSERT_TRUE(run.ok());
  const std::vector<std::uint8_t> good = Bytes(*run);
  ASSERT_TRUE(ParseTrace(good).ok());

  std::vector<std::uint8_t> png = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', 0, 0, 0, 0};
  EXPECT_NE(ParseTrace(png).status().message().find("not a Warpscope trace"), std::string::npos);

  std::vector<std::uint8_t> newer = good;
  newer[8] = 9;  // version 9
  const std::string m = ParseTrace(newer).status().message();
  EXPECT_NE(m.find("version 9"), std::string::npos) << m;
  EXPECT_NE(m.find("newer Warpscope"), std::string::npos) << m;

  // Every truncation is refused (no prefix is a whole trace).
  for (std::size_t n = 0; n < good.size(); ++n) {
    auto r = ParseTrace(std::span<const std::uint8_t>(good.data(), n));
    EXPECT_FALSE(r.ok()) << "prefix of " << n << " bytes was accepted";
  }
  // A flipped byte in a section's data fails its checksum (or its decompression).
  std::vector<std::uint8_t> flipped = good;
  flipped[good.size() - 10] ^= 0x40;
  const auto fr = ParseTrace(flipped);
  ASSERT_FALSE(fr.ok());
  EXPECT_NE(fr.status().message().find("corrupt"), std::string::npos) << fr.status().message();
}

TEST(TraceFile, RecordsThatPointOutsideTheLaunchAreRefused) {
  auto run = RunLesson("reverse", "", {}, "emu", RunOptions{});
  ASSERT_TRUE(run.ok());
  LessonRun bad = *run;
  ASSERT_FALSE(bad.launches.back().blocks.empty());
  bad.launches.back().blocks[0].accesses[0].site = 999;  // the launch has 2 sites
  const auto r = ParseTrace(Bytes(bad));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("site 999"), std::string::npos) << r.status().message();
}

TEST(TraceFile, MissingFileAndWriteFailureNameThePath) {
  const auto r = LoadTraceAsRun("/nonexistent/x.wstrace");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("/nonexistent/x.wstrace"), std::string::npos);
  auto run = RunLesson("reverse", "", {}, "emu", RunOptions{});
  ASSERT_TRUE(run.ok());
  const Status s = SaveRunAsTrace(*run, nullptr, "/nonexistent/dir/x.wstrace");
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("/nonexistent/dir"), std::string::npos) << s.message();
}

// The fuzz corpus, and 3000 mutations of it (byte flips, truncations, splices): the loader
// returns a result or an error for each, and whatever it accepts can be printed.
TEST(TraceFile, CorpusAndMutationsNeverCrash) {
  const fs::path dir = fs::path(WARPSCOPE_SOURCE_DIR) / "tests/fuzz/corpus";
  std::vector<std::vector<std::uint8_t>> corpus;
  for (const auto& e : fs::directory_iterator(dir)) corpus.push_back(ReadBytes(e.path()));
  ASSERT_GE(corpus.size(), 3u);
  for (const auto& c : corpus) {
    auto r = ParseTrace(c);
    ASSERT_TRUE(r.ok()) << r.status().message();  // the corpus holds valid traces
  }
  std::mt19937 rng(11);
  int accepted = 0;
  for (int i = 0; i < 3000; ++i) {
    std::vector<std::uint8_t> b = corpus[rng() % corpus.size()];
    switch (rng() % 4) {
      case 0:
        for (int k = 0; k < 1 + static_cast<int>(rng() % 4); ++k)
          b[rng() % b.size()] ^= static_cast<std::uint8_t>(1u << (rng() % 8));
        break;
      case 1:
        b.resize(rng() % b.size());
        break;
      case 2: {  // overwrite a size field region with large values
        const std::size_t at = 16 + rng() % std::min<std::size_t>(b.size() - 16, 64);
        for (std::size_t k = at; k < std::min(b.size(), at + 8); ++k) b[k] = 0xff;
        break;
      }
      default: {
        const auto& other = corpus[rng() % corpus.size()];
        const std::size_t cut = rng() % b.size();
        b.resize(cut);
        b.insert(b.end(), other.begin() + static_cast<long>(rng() % other.size()), other.end());
      }
    }
    auto r = ParseTrace(b);
    if (r.ok()) {
      ++accepted;
      auto run = RunOfTrace(std::move(r).value(), "m.wstrace");
      if (run.ok()) (void)RunText(*run);
    } else {
      EXPECT_FALSE(r.status().message().empty());
    }
  }
  EXPECT_LT(accepted, 3000);
}

}  // namespace
}  // namespace ws

namespace ws {
namespace {

// The traces shipped in assets/ were captured on an H100 (scripts/gpu-check.sh): a laptop with
// no GPU opens real-GPU data. Their figures are the hardware's, so they are checked against
// what the slides predict.
TEST(ShippedTraces, AreRealGpuCapturesWithTheSlidesFigures) {
  const fs::path dir = fs::path(WARPSCOPE_SOURCE_DIR) / "assets/traces";
  auto barrier = LoadTraceAsRun(dir / "barrier-uneven.wstrace");
  ASSERT_TRUE(barrier.ok()) << barrier.status().message();
  EXPECT_EQ(barrier->backend, "cuda");
  EXPECT_NE(barrier->device.find("NVIDIA"), std::string::npos) << barrier->device;
  EXPECT_EQ(barrier->timing.kind, "measured");
  const LaunchTrace& bt = barrier->main_launch();
  EXPECT_EQ(bt.time_unit, "ns");
  ASSERT_EQ(bt.stats.barriers.size(), 1u);
  // Thread t works 100 t units: the first warp waits for the last, so waits are real.
  EXPECT_GT(bt.stats.barriers[0].max_skew, 0u);
  EXPECT_GT(bt.stats.barriers[0].MeanWait(), 0.0);
  EXPECT_GE(bt.stats.barriers[0].max_wait, bt.stats.barriers[0].max_skew / 2);

  // transpose coalesced: the tile column read is 32-way; padded: 1-way (32 banks).
  auto coalesced = LoadTraceAsRun(dir / "transpose-coalesced.wstrace");
  auto padded = LoadTraceAsRun(dir / "transpose-padded.wstrace");
  ASSERT_TRUE(coalesced.ok() && padded.ok());
  auto worst = [](const LessonRun& r) {
    std::uint32_t w = 0;
    for (const SiteStats& s : r.main_launch().stats.sites) w = std::max(w, s.bank_conflict_max);
    return w;
  };
  EXPECT_EQ(worst(*coalesced), 32u);
  EXPECT_EQ(worst(*padded), 1u);
  // offset-copy with offset 1: 5 sectors per request for 4 sectors of data.
  auto offset = LoadTraceAsRun(dir / "offset-copy-1.wstrace");
  ASSERT_TRUE(offset.ok());
  EXPECT_DOUBLE_EQ(offset->main_launch().stats.sites[0].SectorsPerRequest(), 5.0);
  // fp-order on the H100: the tree kernel adds in the host's tree order exactly; with
  // atomicAdd the blocks added in another order than block order (five runs gave five sums).
  auto tree = LoadTraceAsRun(dir / "fp-order-tree.wstrace");
  auto atomic = LoadTraceAsRun(dir / "fp-order-atomic.wstrace");
  ASSERT_TRUE(tree.ok() && atomic.ok());
  EXPECT_EQ(tree->metrics().at("gpu_sum"), tree->metrics().at("tree_order_sum"));
  EXPECT_NE(atomic->metrics().at("gpu_sum"), atomic->metrics().at("tree_order_sum"));
  EXPECT_TRUE(atomic->check.ok) << atomic->check.message;  // within the bound of any order
  EXPECT_NE(atomic->device.find("H100"), std::string::npos) << atomic->device;
}

// Issue 18's H100 capture: exercise 4.10's BlockTranspose with BLOCK_WIDTH 8 (2 x 2 tiles of
// 64 threads, two warps each). The records of all 4 blocks hold the race: W^2 - W = 56 pairs a
// block, 224 in all; of a block's 56, 24 are inside one warp (thread y*8+x and x*8+y both < 32
// or both >= 32: rows 0-3 among themselves, 12, and rows 4-7, 12), 4 x 24 = 96. The GPU's
// nanosecond stamps order each pair: on this capture every write came first (RAW), and the
// uninstrumented build's output was right.
TEST(ShippedTraces, TheH100BlockTransposeRacesOnLines18And19) {
  const fs::path dir = fs::path(WARPSCOPE_SOURCE_DIR) / "assets/traces";
  auto run = LoadTraceAsRun(dir / "races-block-transpose-h100.wstrace");
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_NE(run->device.find("H100"), std::string::npos);
  const HazardReport& h = run->main_launch().hazards;
  EXPECT_FALSE(h.values_known);  // a GPU records no values
  ASSERT_EQ(h.groups.size(), 1u);
  EXPECT_EQ(h.groups[0].kind, HazardKind::kRaw);
  EXPECT_EQ(h.groups[0].first_line, 18u);
  EXPECT_EQ(h.groups[0].second_line, 19u);
  EXPECT_EQ(h.groups[0].count, 224u);
  EXPECT_EQ(h.groups[0].same_warp, 96u);
  EXPECT_EQ(run->metrics().at("hazards"), 224);
}

}  // namespace
}  // namespace ws

namespace ws {
namespace {

// Issue 7's H100 captures (scripts/gpu-scheduling.sh). scalability: 1056 blocks of 1024 threads
// and 400 work units (25,600 cycles, about 13 us a block); an H100 holds 2 such blocks per SM
// (2048 threads), so its 132 SMs deal them in 1056 / 264 = 4 rounds of 8 blocks per SM.
TEST(ShippedTraces, TheH100DealtItsBlocksToAllItsSms) {
  const fs::path dir = fs::path(WARPSCOPE_SOURCE_DIR) / "assets/traces";
  auto even = LoadTraceAsRun(dir / "scalability-h100.wstrace");
  ASSERT_TRUE(even.ok()) << even.status().message();
  const nlohmann::json& m = even->metrics();
  EXPECT_NE(even->device.find("H100"), std::string::npos);
  EXPECT_EQ(m.at("sms"), 132);
  EXPECT_EQ(m.at("time_unit"), "us");
  EXPECT_EQ(m.at("most_resident"), 2);
  EXPECT_EQ(m.at("blocks_per_sm"), std::vector<int>(132, 8));
  // The figures again, from the blocks' own stamps through this build's summary.
  std::vector<BlockPlacement> placed;
  double longest = 0;
  for (const auto& b : m.at("timeline")) {
    placed.push_back({b.at(0).get<std::uint32_t>(), b.at(1).get<int>(), b.at(2).get<double>(),
                      b.at(3).get<double>()});
    longest = std::max(longest, placed.back().end - placed.back().start);
  }
  ASSERT_EQ(placed.size(), 1056u);
  const ScheduleSummary again = SummarizeSchedule(placed, 132);
  EXPECT_EQ(again.blocks_per_sm, std::vector<int>(132, 8));
  EXPECT_EQ(again.most_resident, 2);
  EXPECT_DOUBLE_EQ(again.makespan, m.at("makespan").get<double>());
  // Four rounds of one block length each (dealing adds a little).
  EXPECT_GT(m.at("makespan").get<double>(), 3.5 * longest);
  EXPECT_LT(m.at("makespan").get<double>(), 4.5 * longest);
  // With skew the blocks last 1x to 3x as long, and the SMs that finish early get more blocks:
  // the counts spread, and the SMs idle more at the end.
  auto skew = LoadTraceAsRun(dir / "scalability-skew-h100.wstrace");
  ASSERT_TRUE(skew.ok()) << skew.status().message();
  const auto counts = skew->metrics().at("blocks_per_sm").get<std::vector<int>>();
  EXPECT_LT(*std::min_element(counts.begin(), counts.end()),
            *std::max_element(counts.begin(), counts.end()));
  EXPECT_LT(skew->metrics().at("busy").get<double>(), m.at("busy").get<double>());
}

// transfers (GPU only), as an emulator run shows it: the shipped H100 capture of the variant.
// Pinned memory copies at several times pageable's bandwidth (55 against 10 GB/s measured), and
// four streams overlap the pipeline only from pinned memory.
TEST(ShippedTraces, TransfersOnTheEmulatorShowTheShippedH100Capture) {
  auto pinned = RunLessonOrShipped("transfers", "pinned", {}, "emu", RunOptions{});
  ASSERT_TRUE(pinned.ok()) << pinned.status().message();
  ASSERT_TRUE(pinned->capture.has_value());
  EXPECT_TRUE(pinned->capture->shipped);
  EXPECT_NE(pinned->device.find("H100"), std::string::npos);
  EXPECT_EQ(pinned->variant, "pinned");
  const nlohmann::json& m = pinned->metrics();
  EXPECT_GT(m.at("h2d_pinned_gbps").get<double>(), 3 * m.at("h2d_pageable_gbps").get<double>());
  EXPECT_GT(m.at("d2h_pinned_gbps").get<double>(), 3 * m.at("d2h_pageable_gbps").get<double>());
  // The slides' fastest PCIe (Gen2, 5.2 GB/s pinned) is far behind; PCIe Gen5 x16 is 64 GB/s.
  EXPECT_GT(m.at("peak_gbps").get<double>(), 20.0);
  EXPECT_LT(m.at("peak_gbps").get<double>(), 64.0);
  EXPECT_GT(m.at("overlap").at("speedup").get<double>(), 1.5);
  auto pageable = RunLessonOrShipped("transfers", "pageable", {}, "emu", RunOptions{});
  ASSERT_TRUE(pageable.ok()) << pageable.status().message();
  EXPECT_EQ(pageable->variant, "pageable");
  EXPECT_LT(pageable->metrics().at("overlap").at("speedup").get<double>(), 1.2);
  // Any other lesson runs as usual; one with no shipped capture says which file was missing.
  auto plain = RunLessonOrShipped("vecadd", "", {}, "emu", RunOptions{});
  ASSERT_TRUE(plain.ok());
  EXPECT_FALSE(plain->capture.has_value());
  auto none = ShippedCapture("vecadd", "chunked");
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.status().message().find("vecadd-chunked.wstrace"), std::string::npos);
}

}  // namespace
}  // namespace ws

namespace ws {
namespace {

// Issue 20's captures (scripts/gpu-multi-gpu.sh): the multi-gpu lesson on two H200s joined by
// NVLink, 64 planes of 512 x 512, both variants. Their figures are checked against the lesson's
// own definitions: the step is the exchange's, the model's prediction is the model's.
TEST(ShippedTraces, TheTwoH200MultiGpuCapturesAreConsistentWithTheModel) {
  const fs::path dir = fs::path(WARPSCOPE_SOURCE_DIR) / "assets/traces";
  for (const char* variant : {"overlap", "serial"}) {
    SCOPED_TRACE(variant);
    auto run = LoadTraceAsRun(dir / ("multi-gpu-" + std::string(variant) + ".wstrace"));
    ASSERT_TRUE(run.ok()) << run.status().message();
    const MultiGpuFigures f = run->metrics().get<MultiGpuFigures>();
    ASSERT_TRUE(f.measured.has_value());
    const MultiGpuMeasurement& m = *f.measured;
    EXPECT_EQ(m.device, "2 x NVIDIA H200");
    EXPECT_EQ(m.transport, "peer");
    EXPECT_TRUE(m.matches_one_gpu);
    EXPECT_TRUE(run->check.ok) << run->check.message;
    EXPECT_EQ(f.overlap, std::string(variant) == "overlap");
    EXPECT_EQ(m.nz, 64);
    // One GPU's speed is its points over its step: 512 x 512 x 64 / single_us.
    EXPECT_DOUBLE_EQ(m.mpoints, 512.0 * 512 * 64 / m.single_us);
    // The model's step, again from the measured inputs: one GPU's speed, the peer link's
    // bandwidth and latency, two GPUs, the variant's overlap.
    DecompositionParams p;
    p.nx = p.ny = 512;
    p.nz = 64;
    p.gpus = 2;
    p.halo = 4;
    p.mpoints = m.mpoints;
    p.overlap = f.overlap;
    ASSERT_EQ(m.links.size(), 2u);  // peer, then staged through the host
    EXPECT_EQ(m.links[0].transport, "peer");
    EXPECT_EQ(m.links[1].transport, "staged");
    p.link = {"peer", "", m.links[0].gbps, m.links[0].latency_us, ""};
    EXPECT_NEAR(ModelStep(p).step_us, m.model_us, 1e-9 * m.model_us);
    // The sweep: nz = 32, 64, ..., 2048 (7), each over peer and staged copies.
    ASSERT_EQ(m.scaling.size(), 14u);
    for (const MeasuredScalingPoint& s : m.scaling) {
      p.nz = s.nz;
      p.link = s.transport == "peer"
                   ? LinkSpec{"peer", "", m.links[0].gbps, m.links[0].latency_us, ""}
                   : LinkSpec{"staged", "", m.links[1].gbps, m.links[1].latency_us, ""};
      EXPECT_NEAR(ModelStep(p).step_us, s.model_us, 1e-9 * s.model_us) << s.nz << s.transport;
    }
    // The timeline: 3 steps; on each GPU 3 computes, 3 sends and 3 receives (one neighbour),
    // and GPU 1 receives over exactly the intervals GPU 0 sends (the same peer copies).
    EXPECT_EQ(m.timeline_steps, 3);
    std::vector<std::pair<double, double>> sent, received;
    int compute[2] = {0, 0};
    for (const GpuSegment& s : m.timeline) {
      if (s.kind == GpuWork::kCompute) ++compute[s.gpu];
      if (s.gpu == 0 && s.kind == GpuWork::kSend) sent.push_back({s.start_us, s.end_us});
      if (s.gpu == 1 && s.kind == GpuWork::kReceive) received.push_back({s.start_us, s.end_us});
    }
    EXPECT_EQ(compute[0], 3);
    EXPECT_EQ(compute[1], 3);
    std::sort(sent.begin(), sent.end());
    std::sort(received.begin(), received.end());
    EXPECT_EQ(sent.size(), 3u);
    EXPECT_EQ(sent, received);
  }
}

}  // namespace
}  // namespace ws

namespace ws {
namespace {

// What the app's File menu and Open window offer (ShippedFiles): from the build tree the source's
// examples/ and assets/; counted by hand there: 10 example programs (pipeline.cu,
// producer_consumer.cu, wmma_tile.cu and cluster_exchange.cu since issue 53), 7 lectures
// (async-copies.toml and tensor-cores.toml), 4 assignments.
TEST(Shipped, TheExamplesLecturesAndAssignmentsAreListedByName) {
  const auto examples = ShippedFiles("examples", ".cu");
  ASSERT_EQ(examples.size(), 10u);
  EXPECT_EQ(examples.front().filename(), "block_transpose.cu");
  EXPECT_EQ(examples.back().filename(), "wmma_tile.cu");
  const auto lectures = ShippedFiles("lectures", ".toml");
  ASSERT_EQ(lectures.size(), 7u);
  EXPECT_EQ(lectures.front().filename(), "async-copies.toml");
  EXPECT_EQ(ShippedFiles("assignments", ".toml").size(), 4u);
  EXPECT_TRUE(ShippedFiles("nothing-of-that-name", ".toml").empty());
}

}  // namespace
}  // namespace ws
