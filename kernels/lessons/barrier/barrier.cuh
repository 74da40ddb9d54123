// Barrier synchronization (the textbook's Figure 4.11): threads of a block do uneven amounts of
// work, then meet at __syncthreads(); nobody leaves before the last one arrives.
#pragma once
// Plain CUDA, as the slides print it. The build turns the pointer parameters and __shared__
// arrays into Warpscope's recording types, line for line (program/rewrite/lesson_form.cpp).

// uneven: thread t works t * skew units, so the last thread arrives last and everyone else
// waits for it. The time a block spends is set by its slowest thread.
__global__ void unevenWork(float* out, int skew) {
  int t = threadIdx.x;
  float v = out[t];
  ws::work(t * skew);
  __syncthreads();
  out[t] = v + 1.0f;
}

// divergent-barrier: the barrier sits inside an if that depends on the thread. The threads
// that skip it never arrive, so the others wait forever: on a GPU this hangs or corrupts the
// block. The emulator stops and names the line and the threads.
__global__ void divergentBarrier(float* out, int skew) {
  int t = threadIdx.x;
  if (t < (int)blockDim.x / 2) {
    ws::work(skew);
    __syncthreads();
  }
  out[t] = 1.0f;
}

// Kirk & Hwu exercise 4.6: a hypothetical block of 8 threads whose sections before the barrier
// take 2.0, 2.3, 3.0, 2.8, 2.4, 1.9, 2.6 and 2.9 microseconds: thread t works work[t] units of
// 0.1 us each, then waits for the slowest.
__global__ void sectionTimes(float* out, const int* work) {
  int t = threadIdx.x;
  ws::work(work[t]);
  __syncthreads();
  out[t] = 1.0f;
}
