// What a lesson folder includes. A lesson is one folder, kernels/lessons/NAME/ (NAME a C++
// identifier), holding the kernel the student reads (NAME.cuh, or none for a model) and
// lesson.h, which declares everything else in namespace ws::lessons::NAME:
//
//   struct Lesson {
//     static LessonInfo Info();            // id, title, variants, parameters, text, kind, order,
//                                          // special cases, front panel, figures reader, cost
//     // and one host part, by kind:
//     template <LessonBackend B>           // kKernel: runs on the emulator and on a GPU
//     static Status Run(B& b, LessonCall& c);
//     static Status Model(LessonCall& c);  // kModel / kCalculator: no kernel, no backend
//     static Status Gpu(LessonCall& c);    // kGpuOnly: under __CUDACC__ only (measures a GPU)
//   };
//
// The build finds the folders itself (kernels/CMakeLists.txt): the catalogue, the dispatch, the
// embedded sources, the CLI listing and the parameter fuzzing's costs all come from Info().
// Variants are dispatched by name with VariantIs / a switch on c.variant; ResolveLesson has
// already refused names the lesson does not declare.
#pragma once

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

#include "warpscope/kernels/lesson_api.h"
#include "warpscope/kernels/ws_cuda.h"

namespace ws::lessons {

// Inputs that are exact in float and differ from element to element.
inline std::vector<float> Ramp(std::size_t n) {
  std::vector<float> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<float>(i % 1000003) + 0.5f;
  return v;
}

// The golden check: every element equal to the CPU's, else how many are not and the first.
template <typename T>
OutputCheck CompareAt(const std::vector<T>& got, const std::vector<T>& want,
                      const std::string& what) {
  std::size_t wrong = 0, first = want.size();
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (i >= got.size() || !(got[i] == want[i])) {
      if (wrong++ == 0) first = i;
    }
  }
  if (wrong == 0)
    return {true, what + ": all " + std::to_string(want.size()) + " elements match the CPU result"};
  // "317 of 65536 elements wrong: element 12 is 0.000000, expected 3.000000" (a race under one
  // schedule is a count; a wrong index a single element).
  return {false, what + ": " + std::to_string(wrong) + " of " + std::to_string(want.size()) +
                     " elements wrong: element " + std::to_string(first) + " is " +
                     (first < got.size() ? std::to_string(got[first]) : std::string("missing")) +
                     ", expected " + std::to_string(want[first])};
}

// Accesses of one space and op in a launch, over the whole grid.
inline std::uint64_t CountAccesses(const LaunchTrace& t, MemorySpace space, AccessOp op) {
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    if (t.sites[i].space == space && t.sites[i].op == op) n += t.stats.sites[i].accesses;
  }
  return n;
}

inline Dim3 Grid1D(long long blocks) {
  return {static_cast<std::uint32_t>(blocks), 1, 1};
}

// A refusal naming the value and what is allowed: "tile = 12 is not allowed: tile must be 8,
// 16 or 32".
inline Status NotAllowed(const std::string& name, long long value, const std::string& rule) {
  return Status::Error(name + " = " + std::to_string(value) + " is not allowed: " + rule);
}

}  // namespace ws::lessons

namespace ws::lessons {
// A parameter as a double (costs are products of them).
inline double At(const Params& p, const char* name) {
  auto it = p.find(name);
  return it == p.end() ? 1.0 : static_cast<double>(it->second);
}
}  // namespace ws::lessons
