// fault (hidden): a kernel that faults on purpose, for the tests.
#pragma once

#include "warpscope/kernels/lesson.h"
#include "warpscope/lesson_kernels/fault.cuh"  // fault.cuh, in the recording API

namespace ws::lessons::fault {

struct Lesson {
  static LessonInfo Info() {
    LessonInfo l;
    l.id = "fault";
    l.title = "A kernel that faults (for tests)";
    l.order = 1000;
    l.hidden = true;
    l.variants = {
        {"write-past-end", "every thread writes `distance` floats past a 32-float array"}};
    l.params = {{"distance", 1 << 30, 0, 1 << 30, 1, "floats past the array's end"}};
    l.explanation =
        "Hidden: the tests' way to make a kernel fault. The emulator's bounds check names "
        "the line and the thread; a GPU faults with an illegal address, the runner resets "
        "it, and the next run works.";
    l.source_file = "fault.cuh";
    l.emulator_cost = [](const Params&) { return 32.0; };
    l.front_panel = "grid";
    return l;
  }

  template <LessonBackend B>
  static Status Run(B& b, LessonCall& c) {
    auto out = b.template Alloc<float>("out", 32);
    const int distance = c.I("distance");
    Status s = WS_LAUNCH(b, writePastTheEnd, (Dim3{1, 1, 1}), (Dim3{32, 1, 1}), 0, out, distance);
    if (!s.ok()) return s;
    c.check = {false, "the kernel wrote " + std::to_string(distance) +
                          " floats past its array and did not fault"};
    return {};
  }
};

}  // namespace ws::lessons::fault
