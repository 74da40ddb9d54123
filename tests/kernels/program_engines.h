// The program A/B tests' helpers (program_engines_test.cpp, program_engines_races_test.cpp): two
// runs compared as the SIMT engine and the per-thread path must agree (engine_compare.h), and a
// program run both ways with no block kept.
#pragma once

#include <string>
#include <utility>

#include "engine_compare.h"
#include "warpscope/program/program.h"

namespace ws::testing_engines {

// The two runs' output (where `same_output`) and, launch by launch, their per-site figures,
// hazards, warp meetings, barrier instances and kept blocks.
inline void ExpectSame(const LessonRun& a_run, const LessonRun& b_run, const std::string& name,
                       bool same_output) {
  EXPECT_TRUE(a_run.program->ok()) << name << ": " << a_run.program->failure;
  EXPECT_TRUE(b_run.program->ok()) << name << ": " << b_run.program->failure;
  if (same_output) {
    EXPECT_EQ(a_run.program->stdout_text, b_run.program->stdout_text) << name;
  }
  ExpectSameLaunches(a_run.launches, b_run.launches, name);
}

// `text` on the SIMT engine and then thread by thread, with no block kept (a kept block's
// accesses are records with their values, and go to the shadow one by one: what these tests
// look past).
inline std::pair<LessonRun, LessonRun> BothUnkept(const std::string& name,
                                                  const std::string& text) {
  ProgramOptions o;
  o.keep_blocks.clear();
  LessonRun simt = RunProgramText(name, WARPSCOPE_SOURCE_DIR "/examples", text, o);
  o.engine = "fiber";
  LessonRun fiber = RunProgramText(name, WARPSCOPE_SOURCE_DIR "/examples", text, o);
  return {std::move(simt), std::move(fiber)};
}

#if defined(WS_TESTS_HAVE_REWRITER)  // (a GPU server's build uses a rewriter built elsewhere)
// `text` as the rewriter writes it for the emulator (its warp functions beside its kernels), as
// file `name`.
inline RewriteResult RewriteText(const std::string& name, const std::string& text) {
  RewriteRequest rq;
  rq.file_name = name;
  rq.directory = WARPSCOPE_SOURCE_DIR "/examples";
  rq.shim_dir = WARPSCOPE_SOURCE_DIR "/kernels/program/shim";
  rq.text = text;
  return RewriteProgram(rq);
}
#endif

}  // namespace ws::testing_engines
