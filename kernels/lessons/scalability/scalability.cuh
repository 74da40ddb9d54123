// Transparent scalability (the textbook's "thread block assignment to SMs"): the same grid runs
// on a GPU with few multiprocessors and on one with many. The hardware deals the blocks out to
// the SMs as slots free up, so a GPU with twice the SMs runs the grid in about half the time,
// without a change to the kernel. Each block stamps which SM ran it and when.
#pragma once
// Plain CUDA, as the slides print it. The build turns the pointer parameters and __shared__
// arrays into Warpscope's recording types, line for line (program/rewrite/lesson_form.cpp).

// Every block works `work` units; with skew > 0 block b works skew x (0, 2, 4, 1, 3, 0, 2, ...)
// more, so some blocks finish early and the next blocks go to whichever SM frees up first.
__global__ void blockWork(unsigned int* sm, unsigned long long* start, unsigned long long* end,
                          int work, int skew) {
  unsigned long long begin = ws::globaltimer();  // %globaltimer: a clock the whole GPU shares
  ws::work(work + skew * (blockIdx.x * 2 % 5));
  __syncthreads();  // the block is done when its last thread is
  if (threadIdx.x == 0) {
    sm[blockIdx.x] = ws::smid();  // %smid: the multiprocessor running this block
    start[blockIdx.x] = begin;
    end[blockIdx.x] = ws::globaltimer();
  }
}
