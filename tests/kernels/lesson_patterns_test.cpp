// The lesson form's loop patterns (lesson_patterns.cpp): which loops the GPU's lane unit writes
// once, before the loop, and what it writes, read off the rewritten text.
#include <gtest/gtest.h>

#include <string>

#include "warpscope/program/program.h"

namespace ws {
namespace {

RewriteResult LessonForm(const std::string& text) {
  RewriteRequest rq;
  rq.file_name = "k.cuh";
  rq.directory = WARPSCOPE_SOURCE_DIR "/examples";
  rq.shim_dir = WARPSCOPE_SOURCE_DIR "/kernels/program/shim";
  rq.lesson_form = true;
  rq.text = text;
  return RewriteProgram(rq);
}

// Whether the loop on line `line` was given a pattern (its pass count's header at that line).
bool Patterned(const std::string& form, unsigned line) {
  return form.find("unsigned ws_passes = 0;\n#line " + std::to_string(line) + "\n") !=
         std::string::npos;
}

// The tiled-2x2 matmul's inner loop (kernels/lessons/matmul), in a template as the lesson has it:
// four loads a pass, written before the loop in the order the body makes them, each at its own
// line, from the counter's first two values; the body's accesses then record nothing there. The
// block and the loop are one statement in braces.
TEST(LessonPatterns, AnInnerProductLoopIsWrittenOnceBeforeItRuns) {
  const RewriteResult r = LessonForm(
      "template <int T>\n"                                                      // 1
      "__global__ void mm(const float* a, float* c) {\n"                        // 2
      "  __shared__ float M[2 * T][T];\n"                                       // 3
      "  __shared__ float N[T][2 * T];\n"                                       // 4
      "  int tx = threadIdx.x, ty = threadIdx.y;\n"                             // 5
      "  M[ty][tx] = a[ty * T + tx];\n"                                         // 6
      "  float c0 = 0, c1 = 0;\n"                                               // 7
      "  for (int k = 0; k < T; ++k) {\n"                                       // 8
      "    float a0 = M[ty][k], a1 = M[ty + T][k];\n"                           // 9
      "    float b0 = N[k][tx];\n"                                              // 10
      "    c0 += a0 * b0;\n"                                                    // 11
      "    c1 += a1 * N[k][tx + T];\n"                                          // 12
      "  }\n"                                                                   // 13
      "  c[ty * T + tx] = c0 + c1;\n"                                           // 14
      "}\n"                                                                     // 15
      "template <int T>\n"                                                      // 16
      "__global__ void acc(float* out, int n) {\n"                              // 17
      "  for (int i = threadIdx.x; i < n; i += 2 * T) out[i] += out[i + 1];\n"  // 18
      "}\n");
  ASSERT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0].message);
  const std::string& form = r.program.source;
  const std::string want =
      "  float c0 = 0, c1 = 0;\n  {\n"
      "#if defined(WS_LANE_LOG_BUILD) && defined(__CUDA_ARCH__)\n"
      "{ const unsigned ws_lanes = __activemask(); unsigned ws_passes = 0;\n"
      "#line 8\n"
      "for (int k = 0; k < T; ++k) ++ws_passes;\n"
      "::ws::PatternHead(ws_passes, 4u, ws_lanes);\n"
      "{ int k = 0;\n"
      "#line 9\n"
      "const ::ws::PatternAt ws_pattern0 = ::ws::PatternLoad(M[ty][k]);\n"
      "#line 9\n"
      "const ::ws::PatternAt ws_pattern1 = ::ws::PatternLoad(M[ty + T][k]);\n"
      "#line 10\n"
      "const ::ws::PatternAt ws_pattern2 = ::ws::PatternLoad(N[k][tx]);\n"
      "#line 12\n"
      "const ::ws::PatternAt ws_pattern3 = ::ws::PatternLoad(N[k][tx + T]);\n"
      "#line 8\n"
      "++k;\n"
      "#line 9\n"
      "::ws::PatternSite(ws_pattern0, ::ws::PatternLoad(M[ty][k]));\n"
      "#line 9\n"
      "::ws::PatternSite(ws_pattern1, ::ws::PatternLoad(M[ty + T][k]));\n"
      "#line 10\n"
      "::ws::PatternSite(ws_pattern2, ::ws::PatternLoad(N[k][tx]));\n"
      "#line 12\n"
      "::ws::PatternSite(ws_pattern3, ::ws::PatternLoad(N[k][tx + T]));\n"
      "} }\n"
      "#endif\n"
      "#line 8\n"
      "for (int k = 0; k < T; ++k) {\n"
      "    float a0 = ::ws::Unrecorded(M[ty][k]), a1 = ::ws::Unrecorded(M[ty + T][k]);\n"
      "    float b0 = ::ws::Unrecorded(N[k][tx]);\n"
      "    c0 += a0 * b0;\n"
      "    c1 += a1 * ::ws::Unrecorded(N[k][tx + T]);\n"
      "  } }\n";
  EXPECT_NE(form.find(want), std::string::npos) << form;
  // A strided loop whose counter starts at the thread's index, with an element's compound
  // assignment: its value's load (out[i + 1]) first, then the element's load and store, three
  // records of two accesses; each access wrapped once.
  EXPECT_NE(form.find("::ws::PatternHead(ws_passes, 3u, ws_lanes);\n{ int i = threadIdx.x;\n"
                      "#line 18\n"
                      "const ::ws::PatternAt ws_pattern0 = ::ws::PatternLoad(out[i + 1]);\n"
                      "#line 18\n"
                      "const ::ws::PatternAt ws_pattern1 = ::ws::PatternLoad(out[i]);\n"
                      "#line 18\n"
                      "const ::ws::PatternAt ws_pattern2 = ::ws::PatternStore(out[i]);\n"
                      "#line 18\n"
                      "i += 2 * T;\n"),
            std::string::npos)
      << form;
  EXPECT_NE(form.find("::ws::Unrecorded(out[i]) += ::ws::Unrecorded(out[i + 1]); }"),
            std::string::npos)
      << form;
  EXPECT_EQ(form.find("ws_lesson_instances"), std::string::npos);  // the instances taken off
}

// Loops whose body the pattern could not describe exactly stay as they are, each access
// recording where it is made.
TEST(LessonPatterns, LoopsThatBranchCallOrIndexOtherwiseStayAsTheyAre) {
  const RewriteResult r = LessonForm(
      "__device__ int twice(int v) { return 2 * v; }\n"                            // 1
      "__global__ void k(float* out, const float* in, const int* idx, int n) {\n"  // 2
      "  __shared__ float s[256];\n"                                               // 3
      "  int t = threadIdx.x, j = t;\n"                                            // 4
      "  float r[4] = {0, 0, 0, 0};\n"                                             // 5
      "  for (int k = 0; k < n; ++k) out[t + 32 * k] = in[k];\n"                   // 6: patterned
      "  for (int k = 0; k < n; ++k) if (t < k) out[k] = 1;\n"                     // 7: a branch
      "  for (int k = 0; k < 8; ++k) { s[t] = in[k]; __syncthreads(); }\n"         // 8: a call
      "  for (int k = 0; k < 8; ++k) out[k * k] = 1;\n"                            // 9: k times k
      "  for (int k = 0; k < 8; ++k) out[k / 2] = 1;\n"                            // 10: k / 2
      "  for (int k = 0; k < 8; ++k) out[idx[k]] = 1;\n"                           // 11: memory
      "  for (int k = 0; k < 8; ++k) { j += 1; out[j + k] = 1; }\n"                // 12: j written
      "  for (int k = 0; k < n; ++k) { n -= 1; out[k] = 1; }\n"  // 13: bound written
      "  for (int k = 0; k < 8; ++k) { out[k] = 1; k += 1; }\n"  // 14: k written
      "  for (int k = 1; k < 64; k *= 2) out[k] = 1;\n"          // 15: k doubled
      "  for (int k = 0; k < 4; ++k) r[k] = in[k];\n"            // 16: a local array
      "  for (int k = 0; k < 8; ++k) for (int m = 0; m < 2; ++m) out[k + m] = 1;\n"  // 17: inner
      "  for (int k = 0; k < 8; ++k) { if (k == 3) break; out[k] = 1; }\n"           // 18: a break
      "  for (int k = 0; k < 8; ++k) out[twice(k)] = 1;\n"                           // 19: a call
      "  for (int k = 0; k < 8; ++k) out[k] = in[k] > 0 && in[k + 1] > 0;\n"         // 20: &&
      "  for (int k = 0; k < 8; ++k) { float* p = out; p[k] = 1; }\n"  // 21: a pointer
      "  for (int k = 0; k < 8; ++k) out[t] = r[0] + k;\n"             // 22: r[0]
      "  out[t] = r[0] + r[1] + r[2] + r[3] + s[t];\n"                 // 23
      "}\n");
  ASSERT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0].message);
  const std::string& form = r.program.source;
  // Line 17's inner loop (m, 2 passes of out[k + m], k the same in each) is affine in m: it is
  // patterned within the outer loop, which is not.
  for (unsigned line = 6; line <= 22; ++line)
    EXPECT_EQ(Patterned(form, line), line == 6 || line == 17) << "line " << line << "\n" << form;
  std::size_t heads = 0;
  for (std::size_t at = 0; (at = form.find("::ws::PatternHead(", at)) != std::string::npos; ++at)
    ++heads;
  EXPECT_EQ(heads, 2u);
}

// What a review of the first form found it took and should not have (each line's loop would have
// given rows the body does not write): an element assigned inside a value (its proxy reads it
// back, a load the pattern lacked), writes through a cast to a reference (j, and k itself), a
// counter of 8 bits (it wraps at 256 where its offsets would not), a step of 1.5 (the sum
// truncates: 1, then 2) and a loop under `#pragma unroll` (the block before it would part the
// pragma from its loop: nvcc stops at that).
TEST(LessonPatterns, ValuesAssignedCastsNarrowCountersAndPragmasAreLeftAlone) {
  const RewriteResult r = LessonForm(
      "__global__ void k(float* a, float* b, float* c, int n) {\n"                  // 1
      "  int j = 0; float x = 0;\n"                                                 // 2
      "  for (int k = 0; k < n; ++k) c[k] = a[k] = 0.f;\n"                          // 3
      "  for (int k = 0; k < n; ++k) x += (a[k] = 2.f) + b[k];\n"                   // 4
      "  for (int k = 0; k < n; ++k) { a[k + j] = 1.f; (int&)j = k; }\n"            // 5
      "  for (int k = 0; k < n; ++k) { a[k] = 1.f; static_cast<int&>(k) += 1; }\n"  // 6
      "  for (unsigned char k = 250; k != 4; ++k) a[k] = 1.f;\n"                    // 7
      "  for (int k = -4; k < 4; k += 1.5) a[k + 4] = 1.f;\n"                       // 8
      "#pragma unroll\n"                                                            // 9
      "  for (int k = 0; k < 4; ++k) a[k] = 1.f;\n"                                 // 10
      "  for (int k = 0; k < n; ++k) a[k] = b[k];\n"                                // 11: taken
      "  c[0] = x + j;\n"                                                           // 12
      "}\n");
  ASSERT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0].message);
  const std::string& form = r.program.source;
  for (unsigned line = 3; line <= 11; ++line)
    EXPECT_EQ(Patterned(form, line), line == 11) << "line " << line << "\n" << form;
  EXPECT_NE(form.find("#pragma unroll\n  for (int k = 0; k < 4; ++k) a[k] = 1.f;\n"),
            std::string::npos)
      << form;
}

}  // namespace
}  // namespace ws
