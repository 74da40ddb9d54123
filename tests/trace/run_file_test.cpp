// A program's trace file keeps what a laptop needs to show it as the lab GPU ran it: its
// headers and other units with their text, which file each kernel is in, and how it exited.
#include "warpscope/trace/run_file.h"

#include <gtest/gtest.h>

#include "warpscope/trace/trace_file.h"

namespace ws {
namespace {

TEST(RunFile, AProgramsTraceKeepsItsFilesKernelFilesAndExit) {
  LessonRun run;
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
  p.exit_code = 3;  // it returned 3 from main(): it exited by itself (stage kDone)
  p.warnings = {{12, 5, false, "not recorded: an access inside a macro", "kern.cuh"},
                {0, 0, false, "the events were the model's"}};
  p.files = {{"kern.cuh", "__global__ void scale(float* a) { a[threadIdx.x] *= 2; }\n"}};
  p.kernels = {"scale"};
  p.kernel_files = {{"scale", "kern.cuh", 1}};
  run.program = p;

  const TraceContents c = TraceOfLessonRun(run, nullptr, 0);
  auto parsed = ParseTrace(SerializeTrace(c));
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  auto back = LessonRunOfTrace(std::move(parsed).value(), "lab.wstrace", nullptr);
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_TRUE(back->program.has_value());
  const LessonRun::Program& q = *back->program;
  EXPECT_EQ(q.file, "main.cu");
  EXPECT_EQ(back->lesson, "");  // a program's record names no lesson
  EXPECT_TRUE(q.exited());
  EXPECT_EQ(q.exit_code, 3);
  // The notes as the run wrote them, each one line: "FILE:LINE: message", or the message.
  EXPECT_EQ(q.Notes(),
            (std::vector<std::string>{"kern.cuh:12: not recorded: an access inside a macro",
                                      "the events were the model's"}));
  ASSERT_EQ(q.files.size(), 1u);
  EXPECT_EQ(q.files[0], p.files[0]);
  EXPECT_EQ(q.kernels, p.kernels);
  EXPECT_EQ(q.KernelFile("scale"), "kern.cuh");
  EXPECT_EQ(q.TextOf("kern.cuh"), p.files[0].second);
  ASSERT_EQ(back->launches.size(), 1u);
  EXPECT_EQ(back->launches[0].kernel, "scale");
}

TEST(RunFile, AProgramThatWasStoppedReadsBackAsStoppedWithItsReason) {
  LessonRun run;
  run.backend = "emu";
  run.device = "CPU emulator";
  run.launches.push_back(LaunchTrace{});
  ProgramRecord& p = run.program.emplace();
  p.file = "loop.cu";
  p.ran = true;
  p.stage = ProgramStage::kRun;
  p.failure = "the program ran longer than the limit of 1.00 s and was stopped";
  run.check = {false, p.failure};
  auto parsed = ParseTrace(SerializeTrace(TraceOfLessonRun(run, nullptr, 0)));
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  EXPECT_EQ(parsed->header["program"]["exited"], false);
  auto back = LessonRunOfTrace(std::move(parsed).value(), "loop.wstrace", nullptr);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_FALSE(back->program->exited());
  EXPECT_EQ(back->program->stage, ProgramStage::kRun);
  EXPECT_EQ(back->program->failure, p.failure);
}

TEST(RunFile, AnOlderProgramTraceNamedItsLessonProgram) {
  // Before the one run record, a program's trace said "lesson": "program"; it reads as a program.
  LessonRun run;
  run.backend = "emu";
  run.device = "CPU emulator";
  run.program.emplace().file = "old.cu";
  TraceContents c = TraceOfLessonRun(run, nullptr, 0);
  EXPECT_EQ(c.header["lesson"], "");
  c.header["lesson"] = "program";
  auto back = LessonRunOfTrace(std::move(c), "old.wstrace", nullptr);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->lesson, "");
  ASSERT_TRUE(back->program.has_value());
  EXPECT_EQ(back->program->file, "old.cu");
}

}  // namespace
}  // namespace ws
