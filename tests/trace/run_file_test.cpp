// A program's trace file keeps what a laptop needs to show it as the lab GPU ran it: its
// headers and other units with their text, which file each kernel is in, and how it exited.
#include "warpscope/trace/run_file.h"

#include <gtest/gtest.h>

#include "warpscope/trace/trace_file.h"

namespace ws {
namespace {

TEST(RunFile, AProgramsTraceKeepsItsFilesKernelFilesAndExit) {
  LessonRun run;
  run.lesson = "program";
  run.variant = "main.cu";
  run.backend = "cuda";
  run.device = "NVIDIA H100 80GB HBM3";
  LaunchTrace t;
  t.kernel = "scale";
  t.grid = {2, 1, 1};
  t.block = {128, 1, 1};
  run.launches.push_back(t);
  LessonRun::Program p;
  p.file = "main.cu";
  p.source = "#include \"kern.cuh\"\nint main() { return 3; }\n";
  p.stdout_text = "done\n";
  p.exited = true;
  p.exit_code = 3;
  p.files = {{"kern.cuh", "__global__ void scale(float* a) { a[threadIdx.x] *= 2; }\n"}};
  p.kernel_files = {{"scale", "kern.cuh"}};
  run.program = p;

  const TraceContents c = TraceOfLessonRun(run, nullptr, 0);
  auto parsed = ParseTrace(SerializeTrace(c));
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  auto back = LessonRunOfTrace(std::move(parsed).value(), "lab.wstrace", nullptr);
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_TRUE(back->program.has_value());
  const LessonRun::Program& q = *back->program;
  EXPECT_EQ(q.file, "main.cu");
  EXPECT_TRUE(q.exited);
  EXPECT_EQ(q.exit_code, 3);
  ASSERT_EQ(q.files.size(), 1u);
  EXPECT_EQ(q.files[0], p.files[0]);
  EXPECT_EQ(q.KernelFile("scale"), "kern.cuh");
  EXPECT_EQ(q.TextOf("kern.cuh"), p.files[0].second);
  ASSERT_EQ(back->launches.size(), 1u);
  EXPECT_EQ(back->launches[0].kernel, "scale");
}

}  // namespace
}  // namespace ws
