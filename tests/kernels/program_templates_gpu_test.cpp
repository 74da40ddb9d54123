// Template launches and extern __shared__ arrays on a GPU (--backend cuda): the programs of
// program_templates_programs.h, unmodified, must print the same, launch the same kernels with the
// same static shared memory and give the hand-computed figures, site by site equal to the
// emulator's. Elsewhere the test skips and says why (ctest label "gpu").
#include <gtest/gtest.h>

#include <algorithm>
#include <tuple>

#include "program_gpu_util.h"
#include "program_templates_programs.h"
#include "program_test_util.h"
#include "warpscope/kernels/devices.h"

namespace ws {
namespace {

using test::FiguresOf;

TEST(TemplateProgramsOnGpu, EachShapeRunsWithTheEmulatorsFigures) {
  const DeviceQuery q = QueryDevices();
  if (q.gpus.empty()) GTEST_SKIP() << "no GPU: " << q.why_no_gpu;
  for (const test::TemplateProgram& p : test::TemplatePrograms()) {
    SCOPED_TRACE(p.name);
    ProgramOptions o;
    const LessonRun emu = test::RunText(p.text, o);
    o.backend = "cuda";
    o.timeout = std::chrono::seconds(120);
    const LessonRun gpu = test::RunText(p.text, o);
    test::ExpectTemplateFigures(p, gpu);
    ASSERT_TRUE(emu.program->ok()) << emu.program->failure;
    ASSERT_TRUE(gpu.program->ok()) << gpu.program->failure;
    EXPECT_EQ(gpu.backend, "cuda");
    ASSERT_EQ(gpu.launches.size(), emu.launches.size());
    for (std::size_t k = 0; k < emu.launches.size(); ++k) {
      EXPECT_EQ(gpu.launches[k].kernel, emu.launches[k].kernel);
      EXPECT_EQ(FiguresOf(gpu.launches[k]), FiguresOf(emu.launches[k]))
          << "launch " << k << " " << emu.launches[k].kernel;
    }
  }
}

}  // namespace
}  // namespace ws
