// The GPU's own counters for a program run as written (kernel_timer.cpp's library, loaded by the
// CUDA driver through CUDA_INJECTION64_PATH): where WS_KERNEL_COUNTERS names a file, the first
// launch of each kernel (of the first kMaxKernels kernels) runs under CUPTI's range profiler, one
// range, which CUPTI replays as often as the metrics need (restoring the memory the kernel
// wrote), and the counters Nsight Compute reads for the same figures are written, a line a launch:
//
//   # metrics NAME1 NAME2 ...       (once, the metrics the GPU has, in the order of the values)
//   # unavailable NAME              (a metric the GPU or this CUPTI does not have)
//   launch KERNEL V1 V2 ...         (KERNEL as the compiler mangled it; a value "-" if none)
//   error: WHY                      (where counting could not start or stopped)
//
// Each line is written and flushed as its launch ends, so that a program that crashes keeps the
// launches before. Used in a run of its own (program_run.cpp), never with the timer: a replayed
// launch's time is not the program's.
#include <cuda.h>
#include <cupti.h>  // with generated_cuda_meta.h: the launch calls' parameters
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "kernel_counters.h"

namespace {

// The metrics Warpscope's figures are compared with (docs/ncu-agreement.md): global requests and
// sectors each way, shared wavefronts and bank conflicts each way, and the shared side of
// asynchronous copies (LDGSTS).
const char* const kWanted[] = {
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "smsp__sass_l1tex_data_pipe_lsu_wavefronts_mem_shared_op_ldgsts.sum",
};

constexpr std::size_t kMaxKernels = 256;

struct Counting {
  FILE* out = nullptr;
  CUcontext ctx = nullptr;  // the context the profiler is enabled on
  CUpti_RangeProfiler_Object* object = nullptr;
  CUpti_Profiler_Host_Object* host = nullptr;
  std::vector<const char*> metrics;  // those the GPU has
  std::vector<std::uint8_t> config, data;
  std::set<std::string> seen;
  bool failed = false;
  bool in_range = false;
  bool said_metrics = false;
  bool initialized = false;  // cuptiProfilerInitialize, at the first context
  std::mutex lock;           // callbacks come on every thread that launches
  std::string kernel;        // the launch in range
};

// CUPTI's parameters: zeroed, their size set.
template <typename P>
P Params(std::size_t size) {
  P p{};
  p.structSize = size;
  return p;
}

Counting& C() {
  static Counting* c = new Counting();  // never destroyed: callbacks may come at exit
  return *c;
}

std::string Why(const char* call, CUptiResult r) {
  const char* s = nullptr;
  cuptiGetResultString(r, &s);
  std::string why = std::string(call) + ": " + (s != nullptr ? s : "error " + std::to_string(r));
  if (r == CUPTI_ERROR_INSUFFICIENT_PRIVILEGES)
    why +=
        " (this user may not read the GPU's performance counters: the NVIDIA driver's option "
        "NVreg_RestrictProfilingToAdminUsers=0 allows it; see NVIDIA's ERR_NVGPUCTRPERM page)";
  return why;
}

void Fail(const std::string& why) {
  Counting& c = C();
  if (c.failed) return;
  c.failed = true;
  if (c.out != nullptr) {
    std::fprintf(c.out, "error: %s\n", why.c_str());
    std::fflush(c.out);
  }
}

#define WS_CUPTI(call)                \
  do {                                \
    const CUptiResult ws_r_ = (call); \
    if (ws_r_ != CUPTI_SUCCESS) {     \
      Fail(Why(#call, ws_r_));        \
      return false;                   \
    }                                 \
  } while (0)

// A host object for the chip, its counters as `ctx` offers them (null where CUPTI refused).
CUpti_Profiler_Host_Object* HostFor(const char* chip, std::vector<std::uint8_t>& availability) {
  auto p = Params<CUpti_Profiler_Host_Initialize_Params>(
      CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE);
  p.profilerType = CUPTI_PROFILER_TYPE_RANGE_PROFILER;
  p.pChipName = chip;
  p.pCounterAvailabilityImage = availability.data();
  return cuptiProfilerHostInitialize(&p) == CUPTI_SUCCESS ? p.pHostObject : nullptr;
}

void HostDone(CUpti_Profiler_Host_Object* host) {
  auto p = Params<CUpti_Profiler_Host_Deinitialize_Params>(
      CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE);
  p.pHostObject = host;
  cuptiProfilerHostDeinitialize(&p);
}

bool AddMetrics(CUpti_Profiler_Host_Object* host, const char* const* names, std::size_t n) {
  auto p = Params<CUpti_Profiler_Host_ConfigAddMetrics_Params>(
      CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE);
  p.pHostObject = host;
  p.ppMetricNames = const_cast<const char**>(names);
  p.numMetrics = n;
  return cuptiProfilerHostConfigAddMetrics(&p) == CUPTI_SUCCESS;
}

// The profiler on `ctx`, its metrics (each tried alone first: one the chip lacks is left out and
// said), the configuration image. Once a run; false (and the file says why) where it cannot.
bool Ready(CUcontext ctx) {
  Counting& c = C();
  if (c.failed) return false;
  if (c.object != nullptr) return ctx == c.ctx;
  // The profiler is initialized here, at the first context, not when the driver loads this
  // library: there (InitializeInjection, inside cuInit) CUDA 13's cuptiProfilerInitialize gave
  // CUPTI_ERROR_UNKNOWN on an H200 (2026-12-06).
  if (!c.initialized) {
    auto init =
        Params<CUpti_Profiler_Initialize_Params>(CUpti_Profiler_Initialize_Params_STRUCT_SIZE);
    WS_CUPTI(cuptiProfilerInitialize(&init));
    c.initialized = true;
  }
  CUdevice device = 0;
  if (cuCtxPushCurrent(ctx) == CUDA_SUCCESS) {
    if (cuCtxGetDevice(&device) != CUDA_SUCCESS) device = 0;
    CUcontext popped = nullptr;
    cuCtxPopCurrent(&popped);
  }
  auto chip = Params<CUpti_Device_GetChipName_Params>(CUpti_Device_GetChipName_Params_STRUCT_SIZE);
  chip.deviceIndex = static_cast<std::size_t>(device);
  WS_CUPTI(cuptiDeviceGetChipName(&chip));
  // The counters the context offers, asked before the profiler is enabled on it (the header: the
  // query may fail while a session is active on the context).
  auto avail = Params<CUpti_Profiler_GetCounterAvailability_Params>(
      CUpti_Profiler_GetCounterAvailability_Params_STRUCT_SIZE);
  avail.ctx = ctx;
  WS_CUPTI(cuptiProfilerGetCounterAvailability(&avail));
  std::vector<std::uint8_t> availability(avail.counterAvailabilityImageSize);
  avail.pCounterAvailabilityImage = availability.data();
  WS_CUPTI(cuptiProfilerGetCounterAvailability(&avail));
  auto enable =
      Params<CUpti_RangeProfiler_Enable_Params>(CUpti_RangeProfiler_Enable_Params_STRUCT_SIZE);
  enable.ctx = ctx;
  WS_CUPTI(cuptiRangeProfilerEnable(&enable));
  c.object = enable.pRangeProfilerObject;
  c.ctx = ctx;
  c.metrics.clear();
  for (const char* m : kWanted) {
    CUpti_Profiler_Host_Object* one = HostFor(chip.pChipName, availability);
    const bool ok = one != nullptr && AddMetrics(one, &m, 1);
    if (one != nullptr) HostDone(one);
    if (ok)
      c.metrics.push_back(m);
    else if (!c.said_metrics)
      std::fprintf(c.out, "# unavailable %s\n", m);
  }
  if (c.metrics.empty()) {
    Fail("the GPU offers none of the counters (CUPTI's range profiler)");
    return false;
  }
  c.host = HostFor(chip.pChipName, availability);
  if (c.host == nullptr) {
    Fail("cuptiProfilerHostInitialize failed for chip " + std::string(chip.pChipName));
    return false;
  }
  if (!AddMetrics(c.host, c.metrics.data(), c.metrics.size())) {
    Fail("cuptiProfilerHostConfigAddMetrics refused the metrics together");
    return false;
  }
  auto size = Params<CUpti_Profiler_Host_GetConfigImageSize_Params>(
      CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE);
  size.pHostObject = c.host;
  WS_CUPTI(cuptiProfilerHostGetConfigImageSize(&size));
  c.config.resize(size.configImageSize);
  auto image = Params<CUpti_Profiler_Host_GetConfigImage_Params>(
      CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE);
  image.pHostObject = c.host;
  image.configImageSize = c.config.size();
  image.pConfigImage = c.config.data();
  WS_CUPTI(cuptiProfilerHostGetConfigImage(&image));
  auto data_size = Params<CUpti_RangeProfiler_GetCounterDataSize_Params>(
      CUpti_RangeProfiler_GetCounterDataSize_Params_STRUCT_SIZE);
  data_size.pRangeProfilerObject = c.object;
  data_size.pMetricNames = c.metrics.data();
  data_size.numMetrics = c.metrics.size();
  data_size.maxNumOfRanges = 1;
  data_size.maxNumRangeTreeNodes = 1;
  WS_CUPTI(cuptiRangeProfilerGetCounterDataSize(&data_size));
  c.data.resize(data_size.counterDataSize);
  if (c.said_metrics) return true;  // a later context's: the same metrics, said once
  c.said_metrics = true;
  std::fprintf(c.out, "# metrics");
  for (const char* m : c.metrics) std::fprintf(c.out, " %s", m);
  std::fprintf(c.out, "\n");
  std::fflush(c.out);
  return true;
}

// The profiler off `ctx` as it goes (a range open on it ended unread), so that a context made
// after it (cudaDeviceReset) is set up afresh.
void Done(CUcontext ctx) {
  Counting& c = C();
  if (c.object == nullptr || ctx != c.ctx) return;
  if (c.in_range) {
    auto stop =
        Params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
    stop.pRangeProfilerObject = c.object;
    cuptiRangeProfilerStop(&stop);
    std::fprintf(c.out, "# not counted: %s (its context ended in its launch)\n", c.kernel.c_str());
    std::fflush(c.out);
    c.in_range = false;
  }
  auto disable =
      Params<CUpti_RangeProfiler_Disable_Params>(CUpti_RangeProfiler_Disable_Params_STRUCT_SIZE);
  disable.pRangeProfilerObject = c.object;
  cuptiRangeProfilerDisable(&disable);
  if (c.host != nullptr) HostDone(c.host);
  c.host = nullptr;
  c.object = nullptr;
  c.ctx = nullptr;
}

// One range around the launch about to start: a fresh counter image, the configuration, start.
bool Begin(const std::string& kernel) {
  Counting& c = C();
  auto data = Params<CUpti_RangeProfiler_CounterDataImage_Initialize_Params>(
      CUpti_RangeProfiler_CounterDataImage_Initialize_Params_STRUCT_SIZE);
  data.pRangeProfilerObject = c.object;
  data.counterDataSize = c.data.size();
  data.pCounterData = c.data.data();
  WS_CUPTI(cuptiRangeProfilerCounterDataImageInitialize(&data));
  auto set = Params<CUpti_RangeProfiler_SetConfig_Params>(
      CUpti_RangeProfiler_SetConfig_Params_STRUCT_SIZE);
  set.pRangeProfilerObject = c.object;
  set.configSize = c.config.size();
  set.pConfig = c.config.data();
  set.counterDataImageSize = c.data.size();
  set.pCounterDataImage = c.data.data();
  set.range = CUPTI_AutoRange;
  set.replayMode = CUPTI_KernelReplay;
  set.maxRangesPerPass = 1;
  set.numNestingLevels = 1;
  set.minNestingLevel = 1;
  set.passIndex = 0;
  set.targetNestingLevel = 1;
  WS_CUPTI(cuptiRangeProfilerSetConfig(&set));
  auto start =
      Params<CUpti_RangeProfiler_Start_Params>(CUpti_RangeProfiler_Start_Params_STRUCT_SIZE);
  start.pRangeProfilerObject = c.object;
  WS_CUPTI(cuptiRangeProfilerStart(&start));
  c.in_range = true;
  c.kernel = kernel;
  return true;
}

// The range's end: stop, decode, the values on a line.
bool End() {
  Counting& c = C();
  c.in_range = false;
  auto stop = Params<CUpti_RangeProfiler_Stop_Params>(CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE);
  stop.pRangeProfilerObject = c.object;
  WS_CUPTI(cuptiRangeProfilerStop(&stop));
  const bool whole = stop.isAllPassSubmitted != 0;  // kernel replay submits them in the launch
  auto decode = Params<CUpti_RangeProfiler_DecodeData_Params>(
      CUpti_RangeProfiler_DecodeData_Params_STRUCT_SIZE);
  decode.pRangeProfilerObject = c.object;
  WS_CUPTI(cuptiRangeProfilerDecodeData(&decode));
  auto info = Params<CUpti_RangeProfiler_GetCounterDataInfo_Params>(
      CUpti_RangeProfiler_GetCounterDataInfo_Params_STRUCT_SIZE);
  info.pCounterDataImage = c.data.data();
  info.counterDataImageSize = c.data.size();
  WS_CUPTI(cuptiRangeProfilerGetCounterDataInfo(&info));
  std::fprintf(c.out, "launch %s", c.kernel.c_str());
  std::vector<double> values(c.metrics.size(), 0.0);
  bool have = whole && decode.numOfRangeDropped == 0 && info.numTotalRanges >= 1;
  if (have) {
    auto eval = Params<CUpti_Profiler_Host_EvaluateToGpuValues_Params>(
        CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE);
    eval.pHostObject = c.host;
    eval.pCounterDataImage = c.data.data();
    eval.counterDataImageSize = c.data.size();
    eval.rangeIndex = 0;
    eval.ppMetricNames = c.metrics.data();
    eval.numMetrics = c.metrics.size();
    eval.pMetricValues = values.data();
    have = cuptiProfilerHostEvaluateToGpuValues(&eval) == CUPTI_SUCCESS;
  }
  for (double v : values) {
    if (have)
      std::fprintf(c.out, " %.0f", v);
    else
      std::fprintf(c.out, " -");
  }
  std::fprintf(c.out, "\n");
  std::fflush(c.out);
  return true;
}

// The stream a launch call names (its parameters as generated_cuda_meta.h lays them out).
CUstream StreamOf(CUpti_CallbackId cbid, const void* params) {
  switch (cbid) {
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel:
      return static_cast<const cuLaunchKernel_params*>(params)->hStream;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz:
      return static_cast<const cuLaunchKernel_ptsz_params*>(params)->hStream;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx: {
      const CUlaunchConfig* config = static_cast<const cuLaunchKernelEx_params*>(params)->config;
      return config != nullptr ? config->hStream : nullptr;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz: {
      const CUlaunchConfig* config =
          static_cast<const cuLaunchKernelEx_ptsz_params*>(params)->config;
      return config != nullptr ? config->hStream : nullptr;
    }
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel:
      return static_cast<const cuLaunchCooperativeKernel_params*>(params)->hStream;
    case CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz:
      return static_cast<const cuLaunchCooperativeKernel_ptsz_params*>(params)->hStream;
    default:
      return nullptr;
  }
}

// A launch into a stream being captured into a graph does not run: it is not counted (its
// kernel's first launch that runs is).
bool Capturing(CUpti_CallbackId cbid, const void* params) {
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  return params != nullptr &&
         cuStreamIsCapturing(StreamOf(cbid, params), &status) == CUDA_SUCCESS &&
         status != CU_STREAM_CAPTURE_STATUS_NONE;
}

constexpr CUpti_CallbackId kLaunches[] = {
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
};

void CUPTIAPI OnCall(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid, const void* data) {
  Counting& c = C();
  std::lock_guard<std::mutex> hold(c.lock);
  if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
    const auto* r = static_cast<const CUpti_ResourceData*>(data);
    if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_CREATED)
      Ready(r->context);
    else if (cbid == CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING)
      Done(r->context);
    return;
  }
  if (domain != CUPTI_CB_DOMAIN_DRIVER_API) return;
  const auto* d = static_cast<const CUpti_CallbackData*>(data);
  if (d->callbackSite == CUPTI_API_ENTER) {
    if (d->correlationData != nullptr) *d->correlationData = 0;
    if (c.failed || c.in_range || d->symbolName == nullptr) return;
    const std::string name = d->symbolName;
    if (c.seen.count(name) != 0 || c.seen.size() >= kMaxKernels) return;
    if (Capturing(cbid, d->functionParams)) return;
    if (!Ready(d->context)) {  // another context than the one counted: said once a kernel
      if (!c.failed) {
        c.seen.insert(name);
        std::fprintf(c.out, "# not counted: %s (launched in a second context)\n", name.c_str());
        std::fflush(c.out);
      }
      return;
    }
    c.seen.insert(name);
    if (Begin(name) && d->correlationData != nullptr) *d->correlationData = 1;
  } else if (c.in_range && d->correlationData != nullptr && *d->correlationData == 1) {
    End();  // this call's range (another thread's launch does not end it)
  }
}

}  // namespace

namespace ws::prog {

bool StartKernelCounters(const char* path) {
  Counting& c = C();
  c.out = std::fopen(path, "w");
  if (c.out == nullptr) return false;
  CUpti_SubscriberHandle subscriber = nullptr;
  CUptiResult r = cuptiSubscribe(&subscriber, OnCall, nullptr);
  if (r == CUPTI_SUCCESS)
    r = cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                            CUPTI_CBID_RESOURCE_CONTEXT_CREATED);
  if (r == CUPTI_SUCCESS)
    r = cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                            CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
  for (const CUpti_CallbackId id : kLaunches)
    if (r == CUPTI_SUCCESS) r = cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, id);
  if (r != CUPTI_SUCCESS) {
    Fail(Why("cuptiSubscribe", r));
    return false;
  }
  return true;
}

}  // namespace ws::prog
