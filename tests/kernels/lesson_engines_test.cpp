// The lessons on the SIMT engine against the per-thread path (docs/ENGINE.md, "Lessons on the
// SIMT path"): every lesson's every variant at its defaults, and every exercise of the seeds
// (its variant, parameters and thread order), run with --engine simt and --engine fiber, give the
// same output check, the same lesson figures and, launch by launch, the same per-site figures,
// hazards, warp meetings, barrier instances and kept records. And every lesson kernel runs on the
// SIMT path but those named below, each for its reason.
#include <gtest/gtest.h>

#include <cstdio>
#include <map>
#include <set>
#include <string>
#include <thread>

#include "engine_compare.h"
#include "warpscope/kernels/catalog.h"

namespace ws {
namespace {

struct Case {
  std::string lesson, variant, label;
  Params params;
  std::string schedule;
};

std::vector<Case> Cases() {
  std::vector<Case> out;
  for (const LessonInfo& l : Lessons()) {
    if (l.kind != LessonKind::kKernel) continue;
    for (const VariantSpec& v : l.variants)
      out.push_back({l.id, v.name, l.id + "/" + v.name, {}, {}});
    for (const Preset& p : l.presets)
      out.push_back({l.id, p.variant, l.id + " exercise " + p.name, p.params, p.schedule});
  }
  return out;
}

// The run, or (a lesson that shows a launch failing: a divergent barrier) its error in `error`.
LessonRun RunOn(const Case& c, const std::string& engine, std::string* error,
                unsigned workers = 0) {
  RunOptions o;
  o.engine = engine;
  o.workers = workers;
  if (!c.schedule.empty()) {
    auto s = ParseSchedule(c.schedule);
    EXPECT_TRUE(s.ok()) << c.label;
    if (s.ok()) o.schedule = *s;
  }
  auto r = RunLesson(c.lesson, c.variant, c.params, "emu", o);
  if (!r.ok()) *error = r.status().message();
  return r.ok() ? std::move(r).value() : LessonRun{};
}

TEST(LessonEngines, EveryLessonAndExerciseGivesTheSameFiguresOnBoth) {
  // The kernels that run thread by thread, and why (EngineReason): only where the threads' own
  // order is asked for (a schedule, a variant racy on purpose). Every lesson kernel has a warp
  // function: `constant`'s __constant__ array and `texture-2d`'s texture objects (and its cache
  // replay) too; a thread's own array (local-memory's arrayInLocalMemory) as well, as a lesson
  // records none of its accesses.
  std::map<std::string, std::string> fell_back;  // kernel -> why
  std::size_t simt = 0;
  for (const Case& c : Cases()) {
    SCOPED_TRACE(c.label);
    std::string a_error, b_error;
    const LessonRun a = RunOn(c, "simt", &a_error);
    const LessonRun b = RunOn(c, "fiber", &b_error);
    EXPECT_EQ(a_error, b_error);
    EXPECT_EQ(a.check.ok, b.check.ok);
    EXPECT_EQ(a.check.message, b.check.message);
    if (a.figures != nullptr && b.figures != nullptr) {
      nlohmann::json ma = a.metrics(), mb = b.metrics();
      if (c.lesson == "fp-order") {
        // The atomic total is added in the order the blocks finish, on whichever worker: a run's
        // own (the lesson's point), on either engine.
        ma.erase("gpu_sum");
        mb.erase("gpu_sum");
      }
      EXPECT_EQ(ma.dump(), mb.dump());
    }
    testing_engines::ExpectSameLaunches(a.launches, b.launches, c.label);
    for (const LaunchTrace& t : b.launches) EXPECT_EQ(t.engine, "fiber");
    for (const LaunchTrace& t : a.launches) {
      if (t.engine == "simt") {
        ++simt;
      } else {
        fell_back[t.kernel.substr(0, t.kernel.find('<'))] = t.engine_reason;
      }
    }
  }
  for (const auto& [kernel, why] : fell_back) {
    const bool ordered = why.find("schedule runs the threads one by one") != std::string::npos ||
                         why.find("the variant races on purpose") != std::string::npos;
    EXPECT_TRUE(ordered) << kernel << ": " << why;
  }
  // Those the cases launch: the races lesson's five racy variants, and BlockTransposeFixed under
  // an exercise's random:1 schedule.
  std::set<std::string> kernels;
  for (const auto& [kernel, why] : fell_back) kernels.insert(kernel);
  EXPECT_EQ(kernels,
            (std::set<std::string>{"BlockTranspose", "BlockTransposeFixed", "histogramNoAtomic",
                                   "reverseNoSync", "transposeNoSync", "warpExchange"}));
  EXPECT_GT(simt, 0u);
  std::printf("%zu launches on the SIMT path; %zu kernels thread by thread\n", simt,
              fell_back.size());
}

// The SIMT path's figures do not depend on how many workers run the blocks (docs/ENGINE.md,
// "Many cores"): every lesson's variants at 1, 2 and 3 workers give the same check, lesson
// figures and per-launch figures, hazards, barriers and kept records.
TEST(LessonEngines, TheSimtPathsFiguresDoNotDependOnTheWorkers) {
  for (const Case& c : Cases()) {
    if (c.label.find(" exercise ") != std::string::npos) continue;  // the variants suffice
    SCOPED_TRACE(c.label);
    std::string e1, e2, e3;
    const LessonRun one = RunOn(c, "simt", &e1, 1);
    for (const unsigned workers : {2u, 3u}) {
      const LessonRun more = RunOn(c, "simt", workers == 2 ? &e2 : &e3, workers);
      EXPECT_EQ(e1, workers == 2 ? e2 : e3) << workers;
      EXPECT_EQ(one.check.message, more.check.message) << workers;
      if (one.figures != nullptr && more.figures != nullptr) {
        nlohmann::json a = one.metrics(), b = more.metrics();
        if (c.lesson == "fp-order") {  // the blocks' finishing order (above)
          a.erase("gpu_sum");
          b.erase("gpu_sum");
        }
        EXPECT_EQ(a.dump(), b.dump()) << workers;
      }
      testing_engines::ExpectSameLaunches(one.launches, more.launches,
                                          c.label + " at " + std::to_string(workers) + " workers");
    }
  }
}

// The app runs two lessons at once in one process (a slider's run and a sweep's). `constant`'s
// __constant__ array is one symbol for the process; each run binds it to its own buffer
// (CopyToSymbol), which its launches find through their own configuration: runs on two threads
// at once, at different sizes, each check their output and read only their own buffers (a
// review found one global binding, which the other run's rebinding moved under a launch).
TEST(LessonEngines, TwoConstantRunsAtOnceEachReadTheirOwnTable) {
  std::vector<std::string> errors(2);
  std::vector<int> good(2, 0);
  auto runs = [&](int k) {
    for (int r = 0; r < 12; ++r) {
      const Case c{"constant", r % 2 == 0 ? "broadcast" : "serialized", "constant", {}, {}};
      Case sized = c;
      sized.params["threads"] = k == 0 ? 256 : 288;
      sized.params["blocks"] = k == 0 ? 8 : 5;
      std::string error;
      const LessonRun run = RunOn(sized, r % 3 == 0 ? "fiber" : "simt", &error);
      if (!error.empty()) errors[static_cast<std::size_t>(k)] = error;
      if (run.check.ok) ++good[static_cast<std::size_t>(k)];
    }
  };
  std::thread a(runs, 0), b(runs, 1);
  a.join();
  b.join();
  EXPECT_EQ(errors[0], "");
  EXPECT_EQ(errors[1], "");
  EXPECT_EQ(good[0], 12);
  EXPECT_EQ(good[1], 12);
}

}  // namespace
}  // namespace ws
