// Registers and local memory (the memory-model slides): where a thread's array lives.
#pragma once
// Plain CUDA, as the slides print it. The build turns the pointer parameters and __shared__
// arrays into Warpscope's recording types, line for line (program/rewrite/lesson_form.cpp).

#define ITEMS 64

// Every index is known when the kernel is compiled (the loops unroll), so the compiler keeps
// all 64 floats in registers: ptxas reports 0 bytes of stack frame and about 72 registers.
__global__ void arrayInRegisters(float* out, const float* in, int n) {
  float a[ITEMS];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < ITEMS; ++i) a[i] = in[i * n + t];
  float sum = 0.0f;
  for (int i = 0; i < ITEMS; ++i) sum += a[i] * a[ITEMS - 1 - i];
  out[t] = sum;
}

// The same work, but 1024 threads a block and 2 blocks on a multiprocessor must fit: at most
// 65536 / 2048 = 32 registers a thread. What does not fit is spilled to local memory.
__global__ void __launch_bounds__(1024, 2) arraySpilled(float* out, const float* in, int n) {
  float a[ITEMS];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < ITEMS; ++i) a[i] = in[i * n + t];
  float sum = 0.0f;
  for (int i = 0; i < ITEMS; ++i) sum += a[i] * a[ITEMS - 1 - i];
  out[t] = sum;
}

// The index comes from memory at run time: registers cannot be indexed, so the whole array
// lives in local memory (in device memory), 64 x 4 = 256 bytes a thread.
__global__ void arrayInLocalMemory(float* out, const float* in, const int* pick, int n) {
  float a[ITEMS];
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int i = 0; i < ITEMS; ++i) a[i] = in[i * n + t];
  float sum = 0.0f;
  for (int i = 0; i < ITEMS; ++i) sum += a[pick[i * n + t]] * (i + 1);
  out[t] = sum;
}
