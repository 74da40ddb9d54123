// The public-program corpus (tests/programs/corpus/corpus.json): each program, unmodified, with
// only its own arguments, -I and -D, runs on the emulator to the end, passes its own check, has its
// launches recorded and no hazard reported (none of them races); or, where the entry says so, fails
// with the message it must (a real bug, a feature refused by name). The programs are not in git
// (corpus README): without them every test skips and says why.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <tuple>

#include "warpscope/program/program.h"
#include "warpscope/trace/trace_file.h"

namespace ws {
namespace {

const std::filesystem::path kCorpus = WARPSCOPE_SOURCE_DIR "/tests/programs/corpus";

nlohmann::json Manifest() {
  std::ifstream in(kCorpus / "corpus.json");
  return nlohmann::json::parse(in);
}

class Corpus : public ::testing::TestWithParam<std::string> {};

// A launch as a trace file keeps it, less how the emulator ran it (the engine) and the order the
// kept blocks' records were made in (a warp's lanes together, or one thread after another): what
// must be the same on both engines (docs/ENGINE.md, "Identical figures").
std::vector<std::uint8_t> Canonical(LaunchTrace t) {
  t.engine.clear();
  t.engine_reason.clear();
  for (BlockRecords& b : t.blocks) {
    // A request's number among its warp's at the site: the per-thread path numbers them in the
    // order its threads first brought them (thread 0's first), the SIMT path in the order the warp
    // made them; the requests (which lanes, which addresses) are the same. Numbered here by their
    // earliest access.
    std::map<std::tuple<int, int, std::uint32_t>, std::pair<std::uint32_t, std::uint16_t>> first;
    for (const AccessRecord& r : b.accesses) {
      auto [it, fresh] = first.try_emplace(std::tuple(r.thread / 32, int(r.site), r.iteration),
                                           std::pair(r.time, r.thread));
      if (!fresh) it->second = std::min(it->second, std::pair(r.time, r.thread));
    }
    std::map<std::tuple<int, int, std::uint32_t>, std::uint32_t> renumber;
    {
      std::map<std::pair<int, int>,
               std::vector<std::pair<std::pair<std::uint32_t, std::uint16_t>, std::uint32_t>>>
          by_slot;
      for (const auto& [k, when] : first)
        by_slot[{std::get<0>(k), std::get<1>(k)}].push_back({when, std::get<2>(k)});
      for (auto& [slot, list] : by_slot) {
        std::sort(list.begin(), list.end());
        for (std::uint32_t n = 0; n < list.size(); ++n)
          renumber[{slot.first, slot.second, list[n].second}] = n;
      }
    }
    for (AccessRecord& r : b.accesses)
      r.iteration = renumber[std::tuple(r.thread / 32, int(r.site), r.iteration)];
    std::vector<std::size_t> order(b.accesses.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    auto key = [&](std::size_t i) {
      const AccessRecord& r = b.accesses[i];
      return std::tuple(r.thread, r.time, r.site, r.iteration, r.offset, r.epoch);
    };
    std::sort(order.begin(), order.end(),
              [&](std::size_t x, std::size_t y) { return key(x) < key(y); });
    std::vector<AccessRecord> accesses;
    std::vector<std::uint64_t> values;
    for (std::size_t i : order) {
      accesses.push_back(b.accesses[i]);
      if (i < b.values.size()) values.push_back(b.values[i]);
    }
    b.accesses = std::move(accesses);
    b.values = std::move(values);
    std::sort(
        b.warp_ops.begin(), b.warp_ops.end(), [](const WarpOpRecord& x, const WarpOpRecord& y) {
          return std::tuple(x.warp, x.site, x.iteration) < std::tuple(y.warp, y.site, y.iteration);
        });
    std::sort(b.barriers.begin(), b.barriers.end(),
              [](const BarrierRecord& x, const BarrierRecord& y) {
                return std::tuple(x.thread, x.site, x.iteration, x.arrival) <
                       std::tuple(y.thread, y.site, y.iteration, y.arrival);
              });
  }
  TraceContents c;
  c.launches.push_back(std::move(t));
  return SerializeTrace(c);
}

// What a program printed, less the host's own timings (wall-clock time differs from run to run):
// the digits of each line that names a time or a rate are masked.
std::string WithoutTimings(const std::string& text, bool every_line = false) {
  std::istringstream in(text);
  std::string out;
  for (std::string line; std::getline(in, line);) {
    bool timing = every_line;
    for (const char* w : {"time", "Time", "TIME", " ms", "(ms)", "msec", "(us)", " us", "sec", "/s",
                          "GB", "MLUP", "Throughput", "throughput"})
      timing = timing || line.find(w) != std::string::npos;
    if (timing) {  // each number one '#', whatever its digits
      std::string masked;
      for (char c : line) {
        const bool digit = std::isdigit(static_cast<unsigned char>(c)) != 0;
        if (!digit && !((c == '.' || c == ',') && !masked.empty() && masked.back() == '#'))
          masked += c;
        else if (masked.empty() || masked.back() != '#')
          masked += '#';
      }
      line = masked;
    }
    out += line + "\n";
  }
  return out;
}

// Per site: what differs between two launches of one kernel (for the message).
std::string SiteDifferences(const LaunchTrace& a, const LaunchTrace& b) {
  std::ostringstream m;
  if (a.sites.size() != b.sites.size()) m << a.sites.size() << " sites against " << b.sites.size();
  for (std::size_t i = 0; i < a.sites.size() && i < b.sites.size(); ++i) {
    const SiteStats& x = a.stats.sites[i];
    const SiteStats& y = b.stats.sites[i];
    if (x.requests != y.requests || x.sectors != y.sectors || x.wavefronts != y.wavefronts ||
        x.accesses != y.accesses || x.divergent_requests != y.divergent_requests)
      m << " line " << a.sites[i].line << ": requests " << x.requests << "/" << y.requests
        << " sectors " << x.sectors << "/" << y.sectors << " wavefronts " << x.wavefronts << "/"
        << y.wavefronts << " accesses " << x.accesses << "/" << y.accesses << ";";
  }
  if (a.hazards.Total() != b.hazards.Total())
    m << " hazards " << a.hazards.Total() << "/" << b.hazards.Total();
  if (a.blocks.size() != b.blocks.size())
    m << " kept blocks " << a.blocks.size() << "/" << b.blocks.size();
  LaunchTrace x = a, y = b;
  x.blocks.clear();
  y.blocks.clear();
  if (Canonical(x) != Canonical(y)) m << " (outside the kept blocks' records)";
  for (std::size_t k = 0; k < a.blocks.size() && k < b.blocks.size(); ++k) {
    LaunchTrace one_a = a, one_b = b;
    one_a.blocks = {a.blocks[k]};
    one_b.blocks = {b.blocks[k]};
    if (Canonical(one_a) == Canonical(one_b)) continue;
    const BlockRecords& p = a.blocks[k];
    const BlockRecords& q = b.blocks[k];
    m << " block " << p.block << ": " << p.accesses.size() << "/" << q.accesses.size()
      << " accesses, " << p.barriers.size() << "/" << q.barriers.size() << " barriers, "
      << p.warp_ops.size() << "/" << q.warp_ops.size() << " warp meetings, " << p.values.size()
      << "/" << q.values.size() << " values";
    auto sorted = [](std::vector<AccessRecord> v) {
      std::sort(v.begin(), v.end(), [](const AccessRecord& r1, const AccessRecord& r2) {
        return std::tuple(r1.thread, r1.time, r1.site) < std::tuple(r2.thread, r2.time, r2.site);
      });
      return v;
    };
    const std::vector<AccessRecord> sp = sorted(p.accesses), sq = sorted(q.accesses);
    for (std::size_t i = 0; i < sp.size() && i < sq.size(); ++i) {
      const AccessRecord& u = sp[i];
      const AccessRecord& v = sq[i];
      if (std::tuple(u.offset, u.iteration, u.time, u.thread, u.site, u.epoch) ==
          std::tuple(v.offset, v.iteration, v.time, v.thread, v.site, v.epoch))
        continue;
      m << "; first difference: thread " << u.thread << "/" << v.thread << " site " << u.site << "/"
        << v.site << " time " << u.time << "/" << v.time << " iteration " << u.iteration << "/"
        << v.iteration << " offset " << u.offset << "/" << v.offset << " epoch " << u.epoch << "/"
        << v.epoch;
      break;
    }
    break;
  }
  return m.str();
}

TEST_P(Corpus, RunsAsWritten) {
  nlohmann::json entry;
  for (const auto& e : Manifest()) {
    if (e.at("name") == GetParam()) entry = e;
  }
  ASSERT_FALSE(entry.is_null());
  const auto files = entry.at("files").get<std::vector<std::string>>();
  const std::filesystem::path main = kCorpus / files.at(0);
  if (!std::filesystem::exists(main))
    GTEST_SKIP() << "the corpus's programs are not in this checkout (fetched code is never "
                    "committed: tests/programs/corpus/README.md); "
                 << files[0] << " is missing";
  ProgramOptions o;
  for (std::size_t i = 1; i < files.size(); ++i) o.extra_files.push_back(kCorpus / files[i]);
  for (const auto& d : entry.value("include_dirs", std::vector<std::string>{}))
    o.include_dirs.push_back(kCorpus / d);
  o.defines = entry.value("defines", std::vector<std::string>{});
  o.args = entry.value("args", std::vector<std::string>{});
  // A program near the default limit on a 2-core machine says how long it may take.
  o.timeout = std::chrono::seconds(entry.value("timeout_s", 30));
  // As a user runs it: from its own folder (simpleTexture reads ./data/).
  std::filesystem::current_path(main.parent_path());
  const LessonRun run = RunProgramFile(main, o);
  // An expected failure on another backend only (expect_failure_backends) is no failure here.
  const auto failing = entry.value("expect_failure_backends", std::vector<std::string>{"emu"});
  if (entry.contains("expect_failure") &&
      std::find(failing.begin(), failing.end(), "emu") != failing.end()) {
    EXPECT_FALSE(run.program->ok() && run.program->exit_code == 0);
    EXPECT_NE(run.program->failure.find(entry.at("expect_failure").get<std::string>()),
              std::string::npos)
        << run.program->failure;
    return;
  }
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  EXPECT_EQ(run.program->exit_code, 0) << run.program->stdout_text;
  if (entry.at("checks_output").is_string()) {
    EXPECT_NE(run.program->stdout_text.find(entry.at("checks_output").get<std::string>()),
              std::string::npos)
        << run.program->stdout_text;
  }
  // A check that prints only what is wrong (cuda-samples' tensor-core GEMMs print "mismatch i=..."
  // and nothing when all is right): the word must not be in the output.
  if (entry.contains("fails_if_output_has")) {
    EXPECT_EQ(run.program->stdout_text.find(entry.at("fails_if_output_has").get<std::string>()),
              std::string::npos)
        << run.program->stdout_text.substr(0, 2000);
  }
  EXPECT_GE(run.launches.size(), entry.value("min_launches", 1u));
  // Kernels the manifest names as racing (racy_kernels, with racy_why) must be found racing; the
  // rest must not.
  const auto racy = entry.value("racy_kernels", std::vector<std::string>{});
  for (const LaunchTrace& t : run.launches) {
    if (std::find(racy.begin(), racy.end(), t.kernel) != racy.end())
      EXPECT_GT(t.hazards.groups.size(), 0u) << t.kernel << ": its race, which the manifest names";
    else
      EXPECT_EQ(t.hazards.groups.size(), 0u) << t.kernel << ": a hazard in a race-free program";
  }
  // The same program thread by thread (--engine fiber): the same output, and every launch the
  // same to the byte (its sites' figures, hazards, barriers, warp meetings and kept records).
  ProgramOptions f = o;
  f.engine = "fiber";
  const LessonRun fiber = RunProgramFile(main, f);
  ASSERT_TRUE(fiber.program->ok()) << fiber.program->failure;
  // (A program that draws its inputs at random prints other numbers each run: the manifest says
  // so.)
  if (!entry.value("random_inputs", false)) {
    const bool timed = entry.contains("prints_timings");  // numbers with no word for them
    EXPECT_EQ(WithoutTimings(fiber.program->stdout_text, timed),
              WithoutTimings(run.program->stdout_text, timed));
  }
  ASSERT_EQ(fiber.launches.size(), run.launches.size());
  // Kernels whose addresses hang on the order the workers ran the blocks in (a global atomic
  // counter hands out the slots) differ from run to run on either engine: the manifest names them.
  const auto order_dependent = entry.value("order_dependent_kernels", std::vector<std::string>{});
  for (std::size_t i = 0; i < run.launches.size(); ++i) {
    const LaunchTrace& a = run.launches[i];
    const LaunchTrace& b = fiber.launches[i];
    if (std::find(order_dependent.begin(), order_dependent.end(), a.kernel) !=
        order_dependent.end())
      continue;
    EXPECT_TRUE(Canonical(a) == Canonical(b))
        << "launch " << i << " (" << a.kernel << ", " << a.engine << " " << a.engine_reason
        << ") differs from the per-thread path's:" << SiteDifferences(a, b);
  }
}

std::vector<std::string> Names() {
  std::vector<std::string> names;
  for (const auto& e : Manifest()) names.push_back(e.at("name").get<std::string>());
  return names;
}

INSTANTIATE_TEST_SUITE_P(Programs, Corpus, ::testing::ValuesIn(Names()),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           std::string n;
                           for (char c : p.param)
                             n += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
                           return n;
                         });

}  // namespace
}  // namespace ws
