// warpscope-cli as a user runs it: exit codes, one-line errors, and the JSON fields the engine
// issue names.
#include <gtest/gtest.h>

#include "cli_util.h"

#include <sys/wait.h>
#include <algorithm>
#include <array>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace {

using ws::test::Cli;
using ws::test::Out;

TEST(Cli, LessonsJsonListsVariantsAndParameters) {
  Out r = Cli("lessons --json");
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  bool found = false;
  for (const auto& l : j) {
    if (l["id"] != "transpose") continue;
    found = true;
    EXPECT_EQ(l["variants"].size(), 3u);
    EXPECT_EQ(l["params"][0]["name"], "tile");
    EXPECT_EQ(l["params"][0]["default"], 32);
    EXPECT_TRUE(l["params"][0].contains("meaning"));
  }
  EXPECT_TRUE(found);
}

TEST(Cli, RunJsonHasTheEngineFields) {
  Out r = Cli("run transpose --variant coalesced --set width=64 --set height=64 --json");
  ASSERT_EQ(r.code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["lesson"], "transpose");
  EXPECT_EQ(j["variant"], "coalesced");
  EXPECT_EQ(j["backend"], "emu");
  EXPECT_EQ(j["params"]["width"], 64);
  // 64 x 64 threads in 32 x 32 blocks: a 2 x 2 grid, 4096 threads, 128 warps.
  EXPECT_EQ(j["launch"]["grid"], nlohmann::json({2, 2, 1}));
  EXPECT_EQ(j["launch"]["threads"], 4096);
  EXPECT_EQ(j["launch"]["warps"], 128);
  ASSERT_EQ(j["sites"].size(), 4u);
  for (const auto& s : j["sites"]) {
    for (const char* k : {"id", "line", "code", "space", "op", "requests", "bytes"})
      EXPECT_TRUE(s.contains(k)) << k;
    if (s["space"] == "shared") {
      for (const char* k :
           {"wavefronts", "bank_conflict_max", "bank_conflict_avg", "halfwarp16_conflict_max"}) {
        EXPECT_TRUE(s.contains(k)) << k;
      }
    } else {
      for (const char* k : {"sectors", "ideal_sectors", "sectors_per_request", "lines128",
                            "cc10_transactions", "cc12_transactions"}) {
        EXPECT_TRUE(s.contains(k)) << k;
      }
    }
  }
  EXPECT_EQ(j["sites"][3]["bank_conflict_max"], 32);  // the tile column read
  ASSERT_EQ(j["barriers"].size(), 1u);
  EXPECT_EQ(j["barriers"][0]["instances"], 4);
  EXPECT_TRUE(j["barriers"][0].contains("max_skew"));
  EXPECT_TRUE(j["barriers"][0].contains("mean_wait"));
  EXPECT_EQ(j["timing"]["kind"], "modeled");
  EXPECT_TRUE(j["check"]["ok"].get<bool>());
}

TEST(Cli, BadInputExitsTwoWithOneLine) {
  for (const char* args :
       {"run nope", "run transpose --variant fast", "run transpose --set tile=24",
        "run transpose --set colour=3", "run transpose --set tile=big",
        "run bank-stride --set threads=4096", "run transpose --backend opencl"}) {
    SCOPED_TRACE(args);
    Out r = Cli(args);
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 1) << r.out;
    EXPECT_EQ(r.out.rfind("warpscope-cli: ", 0), 0u) << r.out;
  }
}

// An exercise runs its preset and ends with the question and the worked answer; a name the
// lesson lacks is refused with the names it has.
TEST(Cli, AnExerciseRunsItsPresetAndPrintsTheAnswer) {
  Out r = Cli("run occupancy --exercise '4.7 a'");
  EXPECT_EQ(r.code, 0) << r.out;
  // 8 blocks of 128 threads on compute 1.0: 6 fit, warps bind (24 / 4).
  EXPECT_NE(r.out.find("active_blocks: 6"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\nexercise 4.7 a: Kirk & Hwu 4.7 a: 8 blocks with 128 threads each"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("\nanswer: No: 8 x 128 threads are 32 warps"), std::string::npos);
  Out bad = Cli("run occupancy --exercise 4.11");
  EXPECT_EQ(bad.code, 2);
  EXPECT_EQ(bad.out,
            "warpscope-cli: --exercise: occupancy has no exercise '4.11'; its exercises are: "
            "4.7 a, 4.7 b, 4.7 c, 4.7 d, 4.7 e, 4.7 f, 4.9\n");
}

// A trace file says how to run its lesson again, with the parameters its variant uses: the
// H100 capture of exercise 4.10's block transpose (BLOCK_WIDTH 8, 2 x 2 tiles) gives no note
// for a parameter that does nothing, and exits 0. The emulator's in-order run of that racy
// variant comes out wrong (112 of 256 elements), which is the lesson, not a failure: the
// hazards name the race.
TEST(Cli, ATraceFilesParametersRunAgainAsWritten) {
  Out show = Cli(std::string("show ") + WARPSCOPE_SOURCE_DIR +
                 "/assets/traces/races-block-transpose-h100.wstrace");
  ASSERT_EQ(show.code, 0) << show.out;
  const std::string prefix = "run it again: warpscope-cli ";
  const std::size_t at = show.out.find(prefix);
  ASSERT_NE(at, std::string::npos) << show.out;
  const std::string args =
      show.out.substr(at + prefix.size(), show.out.find('\n', at) - at - prefix.size());
  EXPECT_EQ(args, "run races --variant block-transpose --set block_width=8 --set tiles=2");
  Out again = Cli(args);
  EXPECT_EQ(again.code, 0) << again.out;
  EXPECT_EQ(again.out.find("note:"), std::string::npos) << again.out;
  EXPECT_NE(again.out.find("112 of 256 elements wrong"), std::string::npos) << again.out;
  EXPECT_NE(again.out.find("this variant races on purpose"), std::string::npos) << again.out;
  // An ignored --set is a note, and the run still succeeds.
  Out noted = Cli("run races --variant block-transpose-fixed --set width=128");
  EXPECT_EQ(noted.code, 0) << noted.out;
  EXPECT_NE(noted.out.find("note: --set width does nothing"), std::string::npos) << noted.out;
}

TEST(Cli, DevicePresetLimitsAreNamed) {
  Out r = Cli("run transpose --preset g80");
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("over the limit of 512 threads per block on g80"), std::string::npos)
      << r.out;
}

}  // namespace

// Zero copy on the emulator: the H100 capture shipped with Warpscope (passes 1, 64 MB). The
// seeds' claim holds in it: data read and written once is faster mapped than copied in and back,
// at every size of the sweep, and the speedup is the two times' ratio.
TEST(Cli, ZeroCopyOnTheEmulatorShowsTheShippedH100Capture) {
  Out j = Cli("run transfers --backend emu --variant zero-copy --json");
  ASSERT_EQ(j.code, 0) << j.out;
  auto json = nlohmann::json::parse(j.out);
  EXPECT_EQ(json["capture"]["shipped"], true);
  const auto& z = json["lesson_metrics"]["zero_copy"];
  EXPECT_EQ(z["passes"], 1);
  EXPECT_EQ(z["integrated"], false);  // an H100 on PCIe
  const double copies = z["explicit_ms"], mapped = z["mapped_ms"];
  EXPECT_NEAR(z["speedup"].get<double>(), copies / mapped, 1e-12);
  ASSERT_EQ(z["sweep"].size(), 9u);  // 4 KB .. 256 MB, x4
  for (const auto& p : z["sweep"]) EXPECT_LT(p[2].get<double>(), p[1].get<double>()) << p;
}

// transfers needs a GPU: on the emulator the CLI shows the capture shipped with Warpscope and
// says so; a size can be given without its space.
TEST(Cli, TransfersOnTheEmulatorShowsTheShippedCapture) {
  Out r = Cli("run transfers --backend emu --set size=16MB");
  ASSERT_EQ(r.code, 0) << r.out;
  EXPECT_NE(r.out.find("no GPU measured this here: the capture shipped with Warpscope"),
            std::string::npos)
      << r.out;
  Out j = Cli("run transfers --backend emu --variant pageable --json");
  ASSERT_EQ(j.code, 0) << j.out;
  auto json = nlohmann::json::parse(j.out);
  EXPECT_EQ(json["capture"]["shipped"], true);
  EXPECT_EQ(json["variant"], "pageable");
  EXPECT_TRUE(json["lesson_metrics"].contains("h2d_pageable_gbps"));
  Out bad = Cli("run transfers --set size=3GB");
  EXPECT_EQ(bad.code, 2) << bad.out;
  EXPECT_NE(bad.out.find("64 KB, 256 KB"), std::string::npos) << bad.out;
  // The shipped capture does not stand in for a wrong request.
  for (const char* wrong : {"run transfers --set streams=99", "run transfers --set bogus=1",
                            "run transfers --variant bogus"}) {
    Out w = Cli(wrong);
    EXPECT_EQ(w.code, 2) << wrong << ": " << w.out;
    EXPECT_EQ(w.out.find("shipped"), std::string::npos) << wrong << ": " << w.out;
  }
  Out streams = Cli("run transfers --set streams=99");
  EXPECT_NE(streams.out.find("streams = 99 is outside its range 1..8"), std::string::npos)
      << streams.out;
}

// The README's example is the CLI's own output: every line of its table, as printed today.
TEST(Cli, TheReadmesTransposeTableIsWhatRunPrints) {
  std::FILE* f = std::fopen(WARPSCOPE_SOURCE_DIR "/README.md", "r");
  ASSERT_NE(f, nullptr);
  std::string readme;
  std::array<char, 4096> buf;
  std::size_t n;
  while ((n = std::fread(buf.data(), 1, buf.size(), f)) > 0) readme.append(buf.data(), n);
  std::fclose(f);
  const std::string command = "    $ warpscope-cli run transpose --variant coalesced\n";
  const std::size_t at = readme.find(command);
  ASSERT_NE(at, std::string::npos) << "the README lost its example";
  std::vector<std::string> lines;
  std::size_t pos = at + command.size();
  while (pos < readme.size() && readme.compare(pos, 4, "    ") == 0) {
    const std::size_t end = readme.find('\n', pos);
    lines.push_back(readme.substr(pos + 4, end - pos - 4));
    pos = end + 1;
  }
  ASSERT_EQ(lines.size(), 5u);  // the header and the four sites
  const Out r = Cli("run transpose --variant coalesced");
  ASSERT_EQ(r.code, 0) << r.out;
  for (const std::string& line : lines)
    EXPECT_NE(r.out.find(line + "\n"), std::string::npos) << "not printed any more: " << line;
}
