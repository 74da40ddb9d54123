// A kernel that writes far past the end of its array: the tests' way to make a kernel fault (a
// hidden lesson, not in the lesson list). On the emulator the bounds check names the line and
// the thread; on a GPU the write lands 4 GiB past a 128-byte buffer, on no mapped page, and the
// kernel faults with an illegal address.
#pragma once
// Plain CUDA, as the slides print it. The build turns the pointer parameters and __shared__
// arrays into Warpscope's recording types, line for line (program/rewrite/lesson_form.cpp).

__global__ void writePastTheEnd(float* out, int distance) {
  out[threadIdx.x + distance] = 1.0f;
}
