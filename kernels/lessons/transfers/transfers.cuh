// Host-device transfers (the programming-model slides: cudaMalloc, cudaMemcpy, cudaFree). Data
// crosses the link between host memory and GPU memory (PCIe on most machines). Pageable host
// memory (malloc) cannot be read by the GPU's copy engines directly: the driver copies it through
// a pinned staging buffer, so it is slower, and cudaMemcpyAsync from it does not overlap with
// anything. Pinned (page-locked) memory from cudaMallocHost is copied by DMA at the link's speed,
// and asynchronously: on streams, chunk k+1 can be copied in while chunk k is processed.
// Compiled by nvcc only: there is nothing to measure without a GPU.
#pragma once
#include <cuda_runtime.h>

#define TRY(call)                         \
  do {                                    \
    cudaError_t err_ = (call);            \
    if (err_ != cudaSuccess) return err_; \
  } while (0)

// The work on each chunk: `rounds` multiply-adds per element (fmaf: the same rounding on the
// host, so the CPU can check the result bit for bit).
__global__ void scaleKernel(float* x, int n, int rounds) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    for (int r = 0; r < rounds; ++r) v = fmaf(v, 0.999f, 0.001f);
    x[i] = v;
  }
}

// One cudaMemcpy of `bytes`, timed with two CUDA events recorded around it (in ms).
static cudaError_t timedCopy(void* dst, const void* src, size_t bytes, cudaMemcpyKind kind,
                             cudaEvent_t start, cudaEvent_t stop, float* ms) {
  TRY(cudaEventRecord(start));
  TRY(cudaMemcpy(dst, src, bytes, kind));  // host to device, or device to host
  TRY(cudaEventRecord(stop));
  TRY(cudaEventSynchronize(stop));
  return cudaEventElapsedTime(ms, start, stop);
}

// Copy in, process, copy back, in `chunks` pieces, piece k on stream k % nstreams. With one
// stream each step waits for the one before it. With several, the copy engines and the SMs
// work at once: piece k+1 goes in while piece k is processed and piece k-1 comes back.
// marks[4k .. 4k+3]: piece k's stream reached its copy in, kernel, copy back, and was done.
static cudaError_t pipeline(float* host, float* dev, int n, int chunks, int rounds,
                            cudaStream_t* streams, int nstreams, cudaEvent_t* marks) {
  int per = n / chunks;
  size_t bytes = per * sizeof(float);
  for (int k = 0; k < chunks; ++k) {
    cudaStream_t s = streams[k % nstreams];
    float* h = host + k * per;
    float* d = dev + k * per;
    TRY(cudaEventRecord(marks[4 * k + 0], s));
    TRY(cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, s));
    TRY(cudaEventRecord(marks[4 * k + 1], s));
    scaleKernel<<<(per + 255) / 256, 256, 0, s>>>(d, per, rounds);
    TRY(cudaGetLastError());
    TRY(cudaEventRecord(marks[4 * k + 2], s));
    TRY(cudaMemcpyAsync(h, d, bytes, cudaMemcpyDeviceToHost, s));
    TRY(cudaEventRecord(marks[4 * k + 3], s));
  }
  return cudaDeviceSynchronize();
}

// Zero copy (the Optimizing CUDA slides): the kernel reads and writes host memory itself, over
// the link, through a device pointer to a mapped pinned buffer (cudaHostAllocMapped,
// cudaHostGetDevicePointer). The slides' kernel:
__global__ void increment(float* a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = a[i] + 1.0f;
}

// Explicit copies: copy in, `passes` launches of increment on the GPU's copy, copy back.
static cudaError_t timedExplicit(float* host, float* dev, int n, int passes, cudaEvent_t start,
                                 cudaEvent_t stop, float* ms) {
  size_t bytes = n * sizeof(float);
  TRY(cudaEventRecord(start));
  TRY(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice));
  for (int p = 0; p < passes; ++p) increment<<<(n + 255) / 256, 256>>>(dev, n);
  TRY(cudaGetLastError());
  TRY(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost));
  TRY(cudaEventRecord(stop));
  TRY(cudaEventSynchronize(stop));
  return cudaEventElapsedTime(ms, start, stop);
}

// Zero copy: `passes` launches of increment on the mapped buffer; every pass crosses the link.
static cudaError_t timedZeroCopy(float* mapped, int n, int passes, cudaEvent_t start,
                                 cudaEvent_t stop, float* ms) {
  TRY(cudaEventRecord(start));
  for (int p = 0; p < passes; ++p) increment<<<(n + 255) / 256, 256>>>(mapped, n);
  TRY(cudaGetLastError());
  TRY(cudaEventRecord(stop));
  TRY(cudaEventSynchronize(stop));
  return cudaEventElapsedTime(ms, start, stop);
}

#undef TRY
