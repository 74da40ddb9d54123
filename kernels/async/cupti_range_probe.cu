// Can the GPU backend read the counters Nsight Compute reads, itself? CUPTI's range profiler
// (CUDA 12.6 and later: cupti_range_profiler.h, cupti_profiler_host.h) around one launch at a
// time, a range per kernel, replayed by CUPTI as often as the metrics need. The kernels are two of
// ldgsts_predicated_probe.cu's, whose Nsight Compute figures are kept in ldgsts_predicated.txt
// (a_branch_one 24 LDGSTS wavefronts, d_branch_four 148, 32 and 128 global sectors): the probe
// prints what CUPTI gives for the same metrics, and for a plain copy kernel whose figures are known
// by hand. Build: nvcc -O3 -arch=sm_90 cupti_range_probe.cu -lcupti (cupti_range_probe.sh).
#include <cuda.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CHECK(call)                                                                 \
  do {                                                                              \
    const CUptiResult r_ = (call);                                                  \
    if (r_ != CUPTI_SUCCESS) {                                                      \
      const char* s_ = nullptr;                                                     \
      cuptiGetResultString(r_, &s_);                                                \
      std::printf("%s failed: %d %s\n", #call, static_cast<int>(r_), s_ ? s_ : ""); \
      std::exit(1);                                                                 \
    }                                                                               \
  } while (0)

__device__ __forceinline__ void Commit() {
  asm volatile("cp.async.commit_group;" ::: "memory");
}
__device__ __forceinline__ void WaitAll() {
  asm volatile("cp.async.wait_all;" ::: "memory");
}

__global__ void a_branch_one(const float* g, float* out) {
  __shared__ __align__(16) float s[16][16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  if (tx < 4) {
    const unsigned sa = static_cast<unsigned>(__cvta_generic_to_shared(&s[ty][tx * 4]));
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(sa), "l"(&g[64 * ty + 4 * tx])
                 : "memory");
  }
  Commit();
  WaitAll();
  __syncthreads();
  out[ty * 16 + tx] = s[ty][tx];
}
__global__ void d_branch_four(const float* g, float* out) {
  __shared__ __align__(16) float s[4][16][16];
  const int tx = threadIdx.x, ty = threadIdx.y;
  for (int k = 0; k < 4; ++k) {
    if (tx < 4) {
      const unsigned sa = static_cast<unsigned>(__cvta_generic_to_shared(&s[k][ty][tx * 4]));
      asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(sa),
                   "l"(&g[16 * k + 64 * ty + 4 * tx])
                   : "memory");
    }
    Commit();
  }
  WaitAll();
  __syncthreads();
  out[ty * 16 + tx] = s[0][ty][tx] + s[3][ty][tx];
}
// By hand: 1,024 threads in 4 blocks, each warp one 128-byte load request of 4 sectors and one
// store of 4: 32 requests, 128 sectors each way; shared: each warp stores 128 contiguous bytes
// (1 wavefront: 32) and loads a column, 32 lanes on one bank (32 wavefronts: 1,024).
__global__ void copy_transposed(const float* g, float* out) {
  __shared__ float s[32][32];
  const int i = blockIdx.x * 256 + threadIdx.x;
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  s[warp][lane] = g[i];
  __syncwarp();
  out[i] = s[lane][warp];
}

// A host object for `chip` with `availability`.
CUpti_Profiler_Host_Object* Host(const char* chip, std::vector<uint8_t>& availability) {
  CUpti_Profiler_Host_Initialize_Params host{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
  host.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  host.pChipName = chip;
  host.pCounterAvailabilityImage = availability.data();
  CHECK(cuptiProfilerHostInitialize(&host));
  return host.pHostObject;
}

int main(int argc, char** argv) {
  const char* candidates[] = {
      "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum",
      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum",
      "smsp__inst_executed_op_ldgsts.sum",
      "smsp__sass_inst_executed_op_ldgsts.sum",
      "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
      "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
      "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
      "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum",
      "l1tex__data_pipe_lsu_wavefronts.sum",
  };
  float *g = nullptr, *out = nullptr;
  cudaMalloc(&g, 1 << 20);
  cudaMalloc(&out, 1 << 20);
  cudaMemset(g, 0, 1 << 20);
  if (argc > 1) {  // "plain": the kernels alone, twice each (counted by the injection library)
    for (int i = 0; i < 2; ++i) {
      a_branch_one<<<1, dim3(16, 16)>>>(g, out);
      d_branch_four<<<1, dim3(16, 16)>>>(g, out);
      copy_transposed<<<4, 256>>>(g, out);
    }
    std::printf("plain kernels: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    return 0;
  }
  CUcontext ctx = nullptr;
  cuCtxGetCurrent(&ctx);

  CUpti_Profiler_Initialize_Params init{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
  CHECK(cuptiProfilerInitialize(&init));
  CUpti_Device_GetChipName_Params chip{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
  chip.deviceIndex = 0;
  CHECK(cuptiDeviceGetChipName(&chip));
  std::printf("chip %s\n", chip.pChipName);

  CUpti_RangeProfiler_Enable_Params enable{CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE};
  enable.ctx = ctx;
  CHECK(cuptiRangeProfilerEnable(&enable));
  CUpti_RangeProfiler_Object* object = enable.pRangeProfilerObject;

  CUpti_Profiler_GetCounterAvailability_Params avail{
      CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE};
  avail.ctx = ctx;
  CHECK(cuptiProfilerGetCounterAvailability(&avail));
  std::vector<uint8_t> availability(avail.counterAvailabilityImageSize);
  avail.pCounterAvailabilityImage = availability.data();
  CHECK(cuptiProfilerGetCounterAvailability(&avail));

  // The chip's base counters whose names speak of shared memory or LDGSTS.
  {
    CUpti_Profiler_Host_Object* h = Host(chip.pChipName, availability);
    CUpti_Profiler_Host_GetBaseMetrics_Params base{
        CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE};
    base.pHostObject = h;
    base.metricType = CUPTI_METRIC_TYPE_COUNTER;
    CHECK(cuptiProfilerHostGetBaseMetrics(&base));
    std::printf("base counters: %zu\n", base.numMetrics);
    for (size_t i = 0; i < base.numMetrics; ++i) {
      const std::string m = base.ppMetricNames[i];
      if (m.find("ldgsts") != std::string::npos || m.find("mem_shared") != std::string::npos ||
          m.find("wavefronts") != std::string::npos)
        std::printf("  base %s\n", m.c_str());
    }
    CUpti_Profiler_Host_Deinitialize_Params done{
        CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
    done.pHostObject = h;
    CHECK(cuptiProfilerHostDeinitialize(&done));
  }
  // Each candidate alone: does the range profiler take it?
  std::vector<const char*> metrics;
  for (const char* m : candidates) {
    CUpti_Profiler_Host_Object* h = Host(chip.pChipName, availability);
    CUpti_Profiler_Host_ConfigAddMetrics_Params add{
        CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    add.pHostObject = h;
    add.ppMetricNames = &m;
    add.numMetrics = 1;
    const CUptiResult r = cuptiProfilerHostConfigAddMetrics(&add);
    const char* s = nullptr;
    cuptiGetResultString(r, &s);
    std::printf("metric %s: %s\n", m, r == CUPTI_SUCCESS ? "taken" : s);
    if (r == CUPTI_SUCCESS) metrics.push_back(m);
    CUpti_Profiler_Host_Deinitialize_Params done{
        CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
    done.pHostObject = h;
    cuptiProfilerHostDeinitialize(&done);
  }
  const size_t n = metrics.size();

  CUpti_Profiler_Host_Object* host_object = Host(chip.pChipName, availability);

  CUpti_Profiler_Host_ConfigAddMetrics_Params add{
      CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
  add.pHostObject = host_object;
  add.ppMetricNames = metrics.data();
  add.numMetrics = n;
  CHECK(cuptiProfilerHostConfigAddMetrics(&add));
  CUpti_Profiler_Host_GetConfigImageSize_Params size{
      CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
  size.pHostObject = host_object;
  CHECK(cuptiProfilerHostGetConfigImageSize(&size));
  std::vector<uint8_t> config(size.configImageSize);
  CUpti_Profiler_Host_GetConfigImage_Params image{
      CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
  image.pHostObject = host_object;
  image.configImageSize = config.size();
  image.pConfigImage = config.data();
  CHECK(cuptiProfilerHostGetConfigImage(&image));
  CUpti_Profiler_Host_GetNumOfPasses_Params passes{
      CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
  passes.configImageSize = config.size();
  passes.pConfigImage = config.data();
  CHECK(cuptiProfilerHostGetNumOfPasses(&passes));
  std::printf("passes %zu\n", passes.numOfPasses);

  const size_t ranges = 8;
  CUpti_RangeProfiler_GetCounterDataSize_Params data_size{
      CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE};
  data_size.pRangeProfilerObject = object;
  data_size.pMetricNames = metrics.data();
  data_size.numMetrics = n;
  data_size.maxNumOfRanges = ranges;
  data_size.maxNumRangeTreeNodes = ranges;
  CHECK(cuptiRangeProfilerGetCounterDataSize(&data_size));
  std::vector<uint8_t> data(data_size.counterDataSize);
  CUpti_RangeProfiler_CounterDataImage_Initialize_Params data_init{
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE};
  data_init.pRangeProfilerObject = object;
  data_init.counterDataSize = data.size();
  data_init.pCounterData = data.data();
  CHECK(cuptiRangeProfilerCounterDataImageInitialize(&data_init));

  CUpti_RangeProfiler_SetConfig_Params set{CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE};
  set.pRangeProfilerObject = object;
  set.configSize = config.size();
  set.pConfig = config.data();
  set.counterDataImageSize = data.size();
  set.pCounterDataImage = data.data();
  set.range = CUPTI_AutoRange;
  set.replayMode = CUPTI_KernelReplay;
  set.maxRangesPerPass = ranges;
  set.numNestingLevels = 1;
  set.minNestingLevel = 1;
  set.passIndex = 0;
  set.targetNestingLevel = 1;
  CHECK(cuptiRangeProfilerSetConfig(&set));

  CUpti_RangeProfiler_Start_Params start{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
  start.pRangeProfilerObject = object;
  CHECK(cuptiRangeProfilerStart(&start));
  a_branch_one<<<1, dim3(16, 16)>>>(g, out);
  d_branch_four<<<1, dim3(16, 16)>>>(g, out);
  copy_transposed<<<4, 256>>>(g, out);
  const cudaError_t e = cudaDeviceSynchronize();
  std::printf("kernels: %s\n", cudaGetErrorString(e));
  CUpti_RangeProfiler_Stop_Params stop{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
  stop.pRangeProfilerObject = object;
  CHECK(cuptiRangeProfilerStop(&stop));
  std::printf("all passes submitted %d\n", stop.isAllPassSubmitted);
  CUpti_RangeProfiler_DecodeData_Params decode{CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE};
  decode.pRangeProfilerObject = object;
  CHECK(cuptiRangeProfilerDecodeData(&decode));
  std::printf("ranges dropped %zu\n", decode.numOfRangeDropped);

  CUpti_RangeProfiler_GetCounterDataInfo_Params info{
      CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE};
  info.pCounterDataImage = data.data();
  info.counterDataImageSize = data.size();
  CHECK(cuptiRangeProfilerGetCounterDataInfo(&info));
  for (size_t r = 0; r < info.numTotalRanges; ++r) {
    CUpti_RangeProfiler_CounterData_GetRangeInfo_Params name{
        CUpti_RangeProfiler_CounterData_GetRangeInfo_Params_STRUCT_SIZE};
    name.pCounterDataImage = data.data();
    name.counterDataImageSize = data.size();
    name.rangeIndex = r;
    name.rangeDelimiter = "/";
    CHECK(cuptiRangeProfilerCounterDataGetRangeInfo(&name));
    std::vector<double> values(n);
    CUpti_Profiler_Host_EvaluateToGpuValues_Params eval{
        CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE};
    eval.pHostObject = host_object;
    eval.pCounterDataImage = data.data();
    eval.counterDataImageSize = data.size();
    eval.rangeIndex = r;
    eval.ppMetricNames = metrics.data();
    eval.numMetrics = n;
    eval.pMetricValues = values.data();
    CHECK(cuptiProfilerHostEvaluateToGpuValues(&eval));
    for (size_t m = 0; m < n; ++m)
      std::printf("%s | %s %.0f\n", name.rangeName, metrics[m], values[m]);
  }
  CUpti_Profiler_Host_Deinitialize_Params host_done{
      CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
  host_done.pHostObject = host_object;
  CHECK(cuptiProfilerHostDeinitialize(&host_done));
  CUpti_RangeProfiler_Disable_Params disable{CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE};
  disable.pRangeProfilerObject = object;
  CHECK(cuptiRangeProfilerDisable(&disable));
  return 0;
}
