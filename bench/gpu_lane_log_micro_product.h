// bench/gpu_lane_log_micro.cu's cases that add the product's pieces one at a time to its record of
// a whole warp's time in word 3 (kNumberedTimeWord16), to find which of them makes the product's
// lane pass of the tiled matmul at 64² take 19 us (Nsight Compute, H200, twenty-second session)
// where that record takes 8.45 (the same accesses and bytes; the product's tile loop 967 SASS
// instructions against 689):
//  - kNoteLiteral16: with the product's file note as it was until the twenty-seventh session
//    (LaneNote in ws_cuda_lane_log.h, since replaced by one note at the kernel's entry: the site's
//    file tag compared with the lane's last, a string literal's address stored at the tag's slot
//    where they differ and the literal is not null, both predicated);
//  - kProductBarrier16: that, with the product's barrier (TimedBarrier and LaneBarrier: the
//    global timer and the SM clock before and after a __syncthreads_count, the SM's number, two
//    rows a lane) in place of the micro's one row and plain barrier;
//  - kLoadFirst16: that, with each access's load written before its records, as the lane unit
//    writes them (detail::Loaded in ws_cuda_arrays.h).
// Included by gpu_lane_log_micro.cu after its Log and Cursor (the cases' numbers are its How).
#pragma once

// The file's literal, as a lesson's site names its file (a __FILE__ in the product).
__device__ const char kMicroFile[] = "bench/gpu_lane_log_micro.cu";

// LaneNote's code, with `noted` the lane's last tag (ws_lane_file in the product then) and the
// files' slots in the log's counts (this bench reads neither).
__device__ __forceinline__ void NoteLiteral(unsigned& noted, const Log& log, unsigned tag) {
  asm volatile(
      "{\n\t.reg .pred p;\n\t"
      "setp.ne.u32 p, %1, %0;\n\t"
      "setp.ne.and.u64 p, %3, 0, p;\n\t"
      "@p st.global.u64 [%2], %3;\n\t"
      "@p mov.u32 %0, %1;\n\t}"
      : "+r"(noted)
      : "r"(tag), "l"(reinterpret_cast<unsigned long long*>(log.counts) + tag),
        "l"(static_cast<const char*>(kMicroFile)));
}

// TimedBarrier and LaneBarrier as the lane unit runs them (its dead tally code aside): the
// arrival's times, the barrier with its count, the departure's, then two rows a lane.
template <typename C>
__device__ __forceinline__ void ProductBarrier(const Log& log, C& c, unsigned place) {
  unsigned long long arrival;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(arrival)::"memory");
  const long long arrival_clock = clock64();
  const unsigned group = __activemask();
  const int arrived = __syncthreads_count(1);
  unsigned long long departure = 0;
  long long departure_clock = arrival_clock;
  if (arrived > 0) {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(departure)::"memory");
    departure_clock = clock64();
  }
  unsigned sm;
  asm("mov.u32 %0, %%smid;" : "=r"(sm));
  NoteLiteral(c.noted, log, place & 0xffffu);
  asm volatile(
      "{\n\t.reg .pred ok;\n\t.reg .u64 row;\n\t"
      "add.u32 %0, %0, 2;\n\t"
      "setp.le.u32 ok, %0, %1;\n\t"
      "mad.wide.u32 row, %0, 512, %2;\n\t"
      "@ok st.global.v4.u32 [row+-1024], {%4, %5, %6, %7};\n\t"
      "@ok st.global.v4.u32 [row+-512], {%8, %9, %10, %11};\n\t"
      "@!ok st.global.u32 [%3], %0;\n\t}"
      : "+r"(c.next)
      : "r"(log.cap), "l"(c.row), "l"(c.count),
        "r"(0x200u | (static_cast<unsigned>(arrived) & 0x7ffu) << 16), "r"(place),
        "r"(static_cast<unsigned>(departure)), "r"(group), "r"(static_cast<unsigned>(arrival)),
        "r"(static_cast<unsigned>(arrival >> 32)),
        "r"(static_cast<unsigned>(departure_clock - arrival_clock)), "r"(sm | 0x80000000u));
}
