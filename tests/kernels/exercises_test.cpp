// The seeds' exercises as lesson presets (LessonInfo::presets): every one names a real variant,
// parameters in range and a thread order the emulator knows, and its run shows the answer worked
// out by hand (written next to each figure).
#include <gtest/gtest.h>

#include "warpscope/kernels/catalog.h"

namespace ws {
namespace {

LessonRun RunExercise(const std::string& lesson, const std::string& name) {
  const LessonInfo* info = FindLesson(lesson);
  EXPECT_NE(info, nullptr) << lesson;
  const Preset* p = info != nullptr ? info->FindPreset(name) : nullptr;
  EXPECT_NE(p, nullptr) << lesson << " " << name;
  if (p == nullptr) return {};
  RunOptions o;
  if (!p->schedule.empty()) o.schedule = *ParseSchedule(p->schedule);
  auto r = RunLesson(lesson, p->variant, p->params, "emu", o);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? std::move(r).value() : LessonRun{};
}

TEST(Exercises, EveryPresetIsARunWithItsAnsweringFigures) {
  int n = 0;
  for (const LessonInfo& l : Lessons()) {
    for (const Preset& p : l.presets) {
      ++n;
      SCOPED_TRACE(l.id + " " + p.name);
      EXPECT_FALSE(p.question.empty());
      EXPECT_FALSE(p.answer.empty());
      EXPECT_TRUE(p.variant.empty() || l.FindVariant(p.variant) != nullptr);
      for (const auto& [name, value] : p.params) {
        const ParamSpec* spec = l.FindParam(name);
        ASSERT_NE(spec, nullptr) << name;
        EXPECT_TRUE(CheckParam(*spec, value).ok()) << name << " = " << value;
      }
      if (!p.schedule.empty()) {
        EXPECT_TRUE(ParseSchedule(p.schedule).ok()) << p.schedule;
      }
      const LessonRun r = RunExercise(l.id, p.name);
      for (const std::string& key : p.answer_figures) EXPECT_TRUE(r.metrics().contains(key)) << key;
    }
  }
  // picture 4.4, 4.5; barrier 4.6; occupancy 4.7 a-f, 4.9; races 4.8, 4.10 a, 4.10 b.
  EXPECT_EQ(n, 13);
}

// 4.4 and 4.5: 400 x 900 pixels in 32 x 32 blocks (compute 3.0: 1,024 threads a block):
// ceil(400 / 32) = 13, ceil(900 / 32) = 29; 416 x 928 = 386,048 threads, 360,000 pixels.
TEST(Exercises, KirkHwu4_4And4_5) {
  const LessonRun r = RunExercise("picture", "4.5");
  EXPECT_EQ(r.metrics().at("grid"), (nlohmann::json{13, 29}));
  EXPECT_EQ(r.metrics().at("active_threads").get<long long>(), 360000);
  EXPECT_EQ(r.metrics().at("idle_threads").get<long long>(), 386048 - 360000);
}

// 4.6: every thread leaves at 3.0 us; 8 x 3.0 = 24 us in all, the sections 19.9 us, the waits
// 4.1 us: 4.1 / 24 = 17.08 %. The longest wait is the 1.9 us thread's: 1.1 us = 11 units.
TEST(Exercises, KirkHwu4_6) {
  const LessonRun r = RunExercise("barrier", "4.6");
  EXPECT_NEAR(r.metrics().at("wait_percent").get<double>(), 100 * 4.1 / 24, 1e-9);
  EXPECT_EQ(r.metrics().at("max_wait").get<int>(), 11);
  EXPECT_EQ(r.metrics().at("max_skew").get<int>(), 30 - 19);
  // The uneven variant: thread t works t x skew, so the waits, (T - 1 - t) x skew, sum to the
  // same T (T - 1) / 2 x skew as the work: half of the threads' time, whatever the skew.
  for (long long skew : {1, 10, 37}) {
    auto u = RunLesson("barrier", "uneven", {{"threads", 32}, {"skew", skew}}, "emu", {});
    ASSERT_TRUE(u.ok());
    EXPECT_NEAR(u->metrics().at("wait_percent").get<double>(), 50.0, 1e-9) << skew;
  }
}

// 4.7 by hand from the limits (compute 1.0: 24 warps and 8 blocks per SM; 1.2: 32 warps, 8
// blocks; 3.0: 64 warps, 16 blocks): blocks resident and what binds.
TEST(Exercises, KirkHwu4_7And4_9) {
  const auto blocks = [](const char* name) {
    const LessonRun r = RunExercise("occupancy", name);
    return std::make_pair(r.metrics().at("active_blocks").get<int>(),
                          r.metrics().at("limiter").get<std::string>());
  };
  EXPECT_EQ(blocks("4.7 a"), std::make_pair(6, std::string("warps")));  // 24 / 4 warps
  EXPECT_EQ(blocks("4.7 b").first, 8);                                  // 32 warps: exactly
  EXPECT_EQ(blocks("4.7 c").first, 16);                                 // 64 / 4
  EXPECT_EQ(blocks("4.7 d"), std::make_pair(8, std::string("blocks")));
  EXPECT_EQ(blocks("4.7 e"), std::make_pair(8, std::string("blocks")));
  EXPECT_EQ(blocks("4.7 f").first, 16);
  // 4.9: a 32 x 32 block is 1,024 threads, over compute 1.0's 512 a block: none runs.
  EXPECT_EQ(blocks("4.9"), std::make_pair(0, std::string("threads_per_block")));
}

// 4.8 and 4.10 with the races lesson's hand counts (races_lesson_test.cpp).
TEST(Exercises, KirkHwu4_8And4_10) {
  const LessonRun ex48 = RunExercise("races", "4.8");       // random:1
  EXPECT_EQ(ex48.metrics().at("hazards").get<int>(), 128);  // 32 slots x 4 blocks
  EXPECT_EQ(ex48.metrics().at("same_warp").get<int>(), 128);
  EXPECT_EQ(ex48.metrics().at("wrong").get<int>(), 52);           // as the answer says
  const LessonRun a = RunExercise("races", "4.10 a");             // BLOCK_WIDTH 8, lockstep
  EXPECT_EQ(a.metrics().at("hazards").get<int>(), 4 * (64 - 8));  // 4 blocks x (W^2 - W)
  EXPECT_EQ(a.metrics().at("same_warp").get<int>(), 96);
  EXPECT_EQ(a.metrics().at("wrong").get<int>(), 64);
  const LessonRun b = RunExercise("races", "4.10 b");
  EXPECT_EQ(b.metrics().at("hazards").get<int>(), 0);
  EXPECT_TRUE(b.check.ok) << b.check.message;
}

}  // namespace
}  // namespace ws
