// Random parameter sets for every lesson: each either runs with a correct golden check or is
// refused with a message; nothing crashes or hangs (the suite also runs under ASan + UBSan).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "warpscope/kernels/catalog.h"

namespace ws {
namespace {

// Log-uniform in [lo, hi] on the step grid: small values often, large ones sometimes.
long long Draw(std::mt19937_64& rng, const ParamSpec& p) {
  if (p.max <= p.min) return p.min;
  const double span = static_cast<double>(p.max - p.min + 1);
  const double u = std::uniform_real_distribution<double>(0.0, std::log(span))(rng);
  long long v = p.min + static_cast<long long>(std::exp(u)) - 1;
  if (std::uniform_int_distribution<int>(0, 9)(rng) == 0) {  // sometimes off the step grid
    return std::min(v, p.max);
  }
  v = p.min + (v - p.min) / p.step * p.step;
  return std::clamp(v, p.min, p.max);
}

// One test per lesson, so that ctest spreads them over the cores (under ASan the whole sweep
// took two minutes on one).
class ParameterFuzz : public testing::TestWithParam<std::string> {};

std::vector<std::string> EmulatedLessons() {
  std::vector<std::string> ids;
  for (const LessonInfo& l : Lessons()) {
    if (!l.needs_gpu()) ids.push_back(l.id);  // a GPU-only one is refused whatever its parameters
  }
  return ids;
}

TEST_P(ParameterFuzz, EveryCombinationRunsOrIsRefused) {
  std::mt19937_64 rng(20261122);
  const int kPerLesson = 2000;  // thousands of draws per lesson (the expensive ones are skipped)
  {
    const LessonInfo& l = *FindLesson(GetParam());
    int ran = 0, refused = 0;
    for (int i = 0; i < kPerLesson; ++i) {
      Params p;
      for (const ParamSpec& spec : l.params) p[spec.name] = Draw(rng, spec);
      // Each lesson declares its emulator cost (threads x work per thread): keep the suite fast,
      // big sizes are for GPUs.
      if (l.emulator_cost(p) > (1 << 15)) continue;
      const std::string variant =
          l.variants[std::uniform_int_distribution<std::size_t>(0, l.variants.size() - 1)(rng)]
              .name;
      auto r = RunLesson(l.id, variant, p, "emu", RunOptions{});
      if (r.ok()) {
        ++ran;
        // A racy variant (the races lesson) may be wrong, but never without a reported race.
        EXPECT_TRUE(r->check.ok ||
                    (l.FindVariant(variant)->races && r->main_launch().hazards.Total() > 0))
            << l.id << "/" << variant << ": " << r->check.message;
      } else {
        ++refused;
        const std::string& m = r.status().message();
        EXPECT_EQ(m.rfind(l.id + ": ", 0), 0u) << m;      // says which lesson
        EXPECT_EQ(m.find('\n'), std::string::npos) << m;  // one line
        const bool divergent = variant == "divergent-barrier";
        const bool explained =
            m.find("limit") != std::string::npos || m.find("must be") != std::string::npos ||
            m.find("outside") != std::string::npos || m.find("not allowed") != std::string::npos ||
            (divergent && m.find("__syncthreads()") != std::string::npos);
        EXPECT_TRUE(explained) << m;
      }
    }
    // Each lesson must mostly run: the draws favour small, valid sizes.
    EXPECT_GT(ran, 50) << l.id << " ran " << ran << ", refused " << refused;
  }
}

INSTANTIATE_TEST_SUITE_P(Lessons, ParameterFuzz, testing::ValuesIn(EmulatedLessons()),
                         [](const testing::TestParamInfo<std::string>& p) {
                           std::string name = p.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

}  // namespace
}  // namespace ws
