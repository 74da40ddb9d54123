#include "warpscope/kernels/catalog.h"

#include <gtest/gtest.h>

namespace ws {
namespace {

TEST(Catalog, ListsTheFirstLessons) {
  for (const char* id : {"offset-copy", "stride-copy", "bank-stride", "transpose"}) {
    const LessonInfo* l = FindLesson(id);
    ASSERT_NE(l, nullptr) << id;
    EXPECT_FALSE(l->variants.empty());
    EXPECT_FALSE(l->explanation.empty());
    EXPECT_FALSE(l->source.empty());
    for (const ParamSpec& p : l->params) EXPECT_TRUE(CheckParam(p, p.default_value).ok()) << p.name;
  }
  const LessonInfo* t = FindLesson("transpose");
  std::vector<std::string> variants;
  for (const auto& v : t->variants) variants.push_back(v.name);
  EXPECT_EQ(variants, (std::vector<std::string>{"naive", "coalesced", "padded"}));
}

TEST(Catalog, BadNamesSayWhatIsAllowed) {
  auto r = RunLesson("transpos", "", {}, "emu", {});
  ASSERT_FALSE(r.ok());
  // Every lesson a student can pick, in the catalogue's order (the hidden fault lesson left out).
  std::string all;
  for (const LessonInfo& l : Lessons()) all += (all.empty() ? "" : ", ") + l.id;
  EXPECT_EQ(r.status().message(), "unknown lesson 'transpos'; lessons are: " + all);
  // The seeds' order; swizzle (issue 37, past the seeds) follows the transpose it builds on.
  EXPECT_EQ(all.rfind("offset-copy, stride-copy, bank-stride, transpose, swizzle, vecadd", 0), 0u)
      << all;
  EXPECT_EQ(all.find("fault"), std::string::npos);
  r = RunLesson("transpose", "fast", {}, "emu", {});
  EXPECT_EQ(r.status().message(),
            "unknown variant 'fast' for transpose; variants are: naive, coalesced, padded");
  r = RunLesson("transpose", "", {{"tiles", 8}}, "emu", {});
  EXPECT_EQ(r.status().message(),
            "unknown parameter 'tiles' for transpose; parameters are: tile, width, height");
  r = RunLesson("transpose", "", {}, "opencl", {});
  EXPECT_EQ(r.status().message(), "unknown backend 'opencl'; backends are: emu, cuda");
}

TEST(Catalog, BadValuesNameTheLimitAndTheValue) {
  auto r = RunLesson("offset-copy", "", {{"offset", 33}}, "emu", {});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "offset-copy: offset = 33 is outside its range 0..32");
  r = RunLesson("transpose", "", {{"tile", 24}}, "emu", {});
  EXPECT_EQ(r.status().message(), "transpose: tile = 24 is not allowed: tile must be 8, 16 or 32");
  r = RunLesson("transpose", "", {{"width", 48}, {"tile", 32}}, "emu", {});
  EXPECT_EQ(r.status().message(),
            "transpose: width 48 and height 256 must be multiples of tile 32");
  r = RunLesson("bank-stride", "", {{"threads", 100}}, "emu", {});
  EXPECT_EQ(r.status().message(), "bank-stride: threads = 100 must be 32 plus a multiple of 32");
}

TEST(Catalog, PresetLimitsApply) {
  RunOptions g80;
  g80.preset = "g80";
  auto r = RunLesson("transpose", "naive", {}, "emu", g80);  // 32 x 32 = 1024 threads per block
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("over the limit of 512 threads per block on g80"),
            std::string::npos)
      << r.status().message();
  EXPECT_TRUE(RunLesson("transpose", "naive", {{"tile", 16}}, "emu", g80).ok());
  RunOptions bad;
  bad.preset = "volta";
  EXPECT_NE(RunLesson("transpose", "", {}, "emu", bad)
                .status()
                .message()
                .find("unknown device preset 'volta'"),
            std::string::npos);
}

TEST(Catalog, TheFaultLessonIsHiddenAndTheEmulatorNamesItsBadWrite) {
  for (const LessonInfo& l : Lessons()) EXPECT_NE(l.id, "fault");
  ASSERT_NE(FindLesson("fault"), nullptr);
  auto r = RunLesson("fault", "", {}, "emu", {});
  ASSERT_FALSE(r.ok());
  // Thread 0 writes out[0 + 2^30] into a 32-float array (fault.cuh, line 10).
  EXPECT_NE(r.status().message().find("index 1073741824 is outside the"), std::string::npos)
      << r.status().message();
  EXPECT_NE(r.status().message().find("line 10"), std::string::npos) << r.status().message();
}

TEST(Catalog, SourceLineIsTrimmed) {
  EXPECT_EQ(SourceLine("a\n  b c  \nd", 2), "b c");
  EXPECT_EQ(SourceLine("a\nb", 1), "a");
  EXPECT_EQ(SourceLine("a\nb", 3), "");
}

}  // namespace
}  // namespace ws
