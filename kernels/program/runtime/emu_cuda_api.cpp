// libws_program_emu's CUDA runtime API: memory, copies, symbols, errors, events and streams,
// over the state in emu_program_state.h (the device, its properties and a kernel's attributes:
// emu_cuda_device.cpp).
//
// Index of this file:
// [SECTION] Memory, copies and symbols
// [SECTION] Errors
// [SECTION] Events and streams
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <sstream>
#include <string>

#include "emu_program_state.h"

//-------------------------------------------------------------------------------------------------
// [SECTION] Memory, copies and symbols
//-------------------------------------------------------------------------------------------------

using ws::prog::detail::CaptureCopy;
using ws::prog::detail::CaptureEventRecord;
using ws::prog::detail::CaptureWaitEvent;
using ws::prog::detail::Fail;
using ws::prog::detail::P;

// A buffer of `bytes` (emu_program_state.h).
cudaError_t ws::prog::detail::Allocate(void** ptr, std::size_t bytes, const char* what) {
  if (ptr == nullptr) return Fail(cudaErrorInvalidValue, std::string(what) + ": null pointer");
  if (bytes == 0) {
    *ptr = nullptr;
    return cudaSuccess;
  }
  const std::size_t total = (bytes + ws::prog::detail::kGuardBytes + 255) / 256 * 256;
  void* mem = std::aligned_alloc(256, total);
  if (mem == nullptr) {
    {
      std::lock_guard lock(P().mutex);
      P().failed_allocation = std::string(what) + " of " + std::to_string(bytes) + " bytes";
      P().failed_bytes = bytes;
    }
    return Fail(cudaErrorMemoryAllocation,
                std::string(what) + ": out of memory for " + std::to_string(bytes) + " bytes");
  }
  std::memset(mem, 0, total);
  const std::size_t id = ws::prog::detail::AddRegion(mem, bytes, "", ws::kKeyGlobal, false, mem);
  {
    std::lock_guard lock(P().mutex);
    P().regions[id].name = P().next_name.empty() ? "buffer " + std::to_string(id) : P().next_name;
    P().next_name.clear();
    P().buffers[id].name = P().regions[id].name;
  }
  *ptr = mem;
  return cudaSuccess;
}

namespace {

// The live region holding [p, p + bytes) (or null).
const ws::prog::detail::Region* DeviceRange(const void* p, std::size_t bytes) {
  const ws::prog::detail::Region* near = nullptr;
  const ws::prog::detail::Region* r =
      ws::prog::detail::FindRegion(reinterpret_cast<std::uintptr_t>(p), bytes, &near);
  return r != nullptr && !r->freed ? r : nullptr;
}

const char* KindName(cudaMemcpyKind k) {
  switch (k) {
    case cudaMemcpyHostToHost:
      return "cudaMemcpyHostToHost";
    case cudaMemcpyHostToDevice:
      return "cudaMemcpyHostToDevice";
    case cudaMemcpyDeviceToHost:
      return "cudaMemcpyDeviceToHost";
    case cudaMemcpyDeviceToDevice:
      return "cudaMemcpyDeviceToDevice";
    case cudaMemcpyDefault:
      return "cudaMemcpyDefault";
  }
  return "an unknown direction";
}

std::string RangeText(const void* p, std::size_t bytes) {
  std::ostringstream s;
  s << bytes << " bytes at " << p;
  return s.str();
}

}  // namespace

cudaError_t cudaMalloc(void** ptr, std::size_t bytes) {
  return ws::prog::detail::Allocate(ptr, bytes, "cudaMalloc");
}
cudaError_t cudaMallocManaged(void** ptr, std::size_t bytes, unsigned int) {
  return ws::prog::detail::Allocate(ptr, bytes, "cudaMallocManaged");
}
// Page-locked host memory is a buffer kernels may read, as on a GPU with unified addressing
// (zero copy): registered like cudaMalloc's.
cudaError_t cudaMallocHost(void** ptr, std::size_t bytes) {
  return ws::prog::detail::Allocate(ptr, bytes, "cudaMallocHost");
}
cudaError_t cudaHostAlloc(void** ptr, std::size_t bytes, unsigned int) {
  return ws::prog::detail::Allocate(ptr, bytes, "cudaHostAlloc");
}
cudaError_t cudaFreeHost(void* ptr) {
  return cudaFree(ptr);
}
cudaError_t cudaHostGetDevicePointer(void** device, void* host, unsigned int) {
  if (device == nullptr) return Fail(cudaErrorInvalidValue, "cudaHostGetDevicePointer: null");
  if (DeviceRange(host, 1) == nullptr)
    return Fail(cudaErrorInvalidHostPointer,
                "cudaHostGetDevicePointer: not memory from cudaHostAlloc or cudaMallocHost");
  *device = host;
  return cudaSuccess;
}
cudaError_t cudaHostRegister(void* ptr, std::size_t bytes, unsigned int) {
  if (ptr == nullptr || bytes == 0)
    return Fail(cudaErrorInvalidValue, "cudaHostRegister: a null pointer or no bytes");
  ws::prog::detail::AddRegion(ptr, bytes, "registered host memory", ws::kKeyGlobal, true, nullptr);
  return cudaSuccess;
}
cudaError_t cudaHostUnregister(void*) {
  return cudaSuccess;
}
cudaError_t cudaFree(void* ptr) {
  if (ptr == nullptr) return cudaSuccess;
  auto& p = P();
  std::lock_guard lock(p.mutex);
  for (auto& r : p.regions) {
    if (r.allocation == ptr && !r.freed) {
      r.freed = true;
      // The memory is kept (not reused), so a later stray access is named as a use after free.
      return cudaSuccess;
    }
  }
  std::cerr << "warpscope: cudaFree(" << ptr << "): not a pointer cudaMalloc returned\n";
  p.last_error = cudaErrorInvalidValue;
  return cudaErrorInvalidValue;
}

cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
  if (P().sticky_error != cudaSuccess) return P().sticky_error;
  if (bytes == 0) return cudaSuccess;
  if (dst == nullptr || src == nullptr)
    return Fail(cudaErrorInvalidValue,
                std::string("cudaMemcpy (") + KindName(kind) + "): a null pointer");
  const bool dst_dev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
  const bool src_dev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault)
    return Fail(cudaErrorInvalidMemcpyDirection, "cudaMemcpy: an unknown direction");
  if (dst_dev && DeviceRange(dst, bytes) == nullptr)
    return Fail(cudaErrorInvalidValue, std::string("cudaMemcpy (") + KindName(kind) +
                                           "): the destination, " + RangeText(dst, bytes) +
                                           ", is not inside one buffer from cudaMalloc");
  if (src_dev && DeviceRange(src, bytes) == nullptr)
    return Fail(cudaErrorInvalidValue, std::string("cudaMemcpy (") + KindName(kind) +
                                           "): the source, " + RangeText(src, bytes) +
                                           ", is not inside one buffer from cudaMalloc");
  std::memmove(dst, src, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream) {
  auto run = [=] { return cudaMemcpy(dst, src, bytes, kind); };
  return CaptureCopy(stream, "memcpy", run) ? cudaSuccess : run();
}
cudaError_t cudaMemsetAsync(void* dst, int value, std::size_t bytes, cudaStream_t stream) {
  auto run = [=] { return cudaMemset(dst, value, bytes); };
  return CaptureCopy(stream, "memset", run) ? cudaSuccess : run();
}
// Rows of `width` bytes, `height` of them, `spitch` and `dpitch` bytes apart.
cudaError_t cudaMemcpy2D(void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
                         std::size_t width, std::size_t height, cudaMemcpyKind kind) {
  if (width > dpitch || width > spitch)
    return Fail(cudaErrorInvalidPitchValue, "cudaMemcpy2D: a row of " + std::to_string(width) +
                                                " bytes is wider than the pitch (" +
                                                std::to_string(std::min(dpitch, spitch)) +
                                                " bytes)");
  for (std::size_t row = 0; row < height; ++row) {
    const cudaError_t e = cudaMemcpy(static_cast<char*>(dst) + row * dpitch,
                                     static_cast<const char*>(src) + row * spitch, width, kind);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}
cudaError_t cudaMemcpy2DAsync(void* dst, std::size_t dpitch, const void* src, std::size_t spitch,
                              std::size_t width, std::size_t height, cudaMemcpyKind kind,
                              cudaStream_t stream) {
  auto run = [=] { return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind); };
  return CaptureCopy(stream, "memcpy", run) ? cudaSuccess : run();
}
cudaError_t cudaMemset2D(void* dst, std::size_t pitch, int value, std::size_t width,
                         std::size_t height) {
  for (std::size_t row = 0; row < height; ++row) {
    const cudaError_t e = cudaMemset(static_cast<char*>(dst) + row * pitch, value, width);
    if (e != cudaSuccess) return e;
  }
  return cudaSuccess;
}
// Rows padded to a multiple of 512 bytes (the texture pitch alignment an H100 reports).
cudaError_t cudaMallocPitch(void** ptr, std::size_t* pitch, std::size_t width, std::size_t height) {
  if (pitch == nullptr) return Fail(cudaErrorInvalidValue, "cudaMallocPitch: null pitch");
  *pitch = (width + 511) / 512 * 512;
  return ws::prog::detail::Allocate(ptr, *pitch * height, "cudaMallocPitch");
}
cudaError_t cudaMemset(void* dst, int value, std::size_t bytes) {
  if (bytes == 0) return cudaSuccess;
  if (DeviceRange(dst, bytes) == nullptr)
    return Fail(cudaErrorInvalidValue, "cudaMemset: " + RangeText(dst, bytes) +
                                           " is not inside one buffer from cudaMalloc");
  std::memset(dst, value, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, std::size_t bytes,
                               std::size_t offset, cudaMemcpyKind) {
  const ws::prog::detail::Region* r = DeviceRange(static_cast<const char*>(symbol) + offset, bytes);
  if (r == nullptr || !r->symbol)
    return Fail(cudaErrorInvalidSymbol, "cudaMemcpyToSymbol: " + std::to_string(bytes) +
                                            " bytes at offset " + std::to_string(offset) +
                                            " do not fit in a __constant__ or __device__ "
                                            "variable");
  std::memcpy(const_cast<char*>(static_cast<const char*>(symbol)) + offset, src, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, std::size_t bytes,
                                 std::size_t offset, cudaMemcpyKind) {
  const ws::prog::detail::Region* r = DeviceRange(static_cast<const char*>(symbol) + offset, bytes);
  if (r == nullptr || !r->symbol)
    return Fail(cudaErrorInvalidSymbol, "cudaMemcpyFromSymbol: " + std::to_string(bytes) +
                                            " bytes at offset " + std::to_string(offset) +
                                            " do not fit in a __constant__ or __device__ "
                                            "variable");
  std::memcpy(dst, static_cast<const char*>(symbol) + offset, bytes);
  return cudaSuccess;
}

cudaError_t cudaMemcpyToSymbolAsync(const void* symbol, const void* src, std::size_t bytes,
                                    std::size_t offset, cudaMemcpyKind kind, cudaStream_t stream) {
  auto run = [=] { return cudaMemcpyToSymbol(symbol, src, bytes, offset, kind); };
  return CaptureCopy(stream, "memcpy", run) ? cudaSuccess : run();
}
cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, std::size_t bytes,
                                      std::size_t offset, cudaMemcpyKind kind,
                                      cudaStream_t stream) {
  auto run = [=] { return cudaMemcpyFromSymbol(dst, symbol, bytes, offset, kind); };
  return CaptureCopy(stream, "memcpy", run) ? cudaSuccess : run();
}
cudaError_t cudaGetSymbolAddress(void** ptr, const void* symbol) {
  const ws::prog::detail::Region* r = DeviceRange(symbol, 1);
  if (ptr == nullptr || r == nullptr || !r->symbol)
    return Fail(cudaErrorInvalidSymbol,
                "cudaGetSymbolAddress: not a __device__ or __constant__ variable");
  *ptr = const_cast<void*>(symbol);
  return cudaSuccess;
}
cudaError_t cudaGetSymbolSize(std::size_t* size, const void* symbol) {
  const ws::prog::detail::Region* r = DeviceRange(symbol, 1);
  if (size == nullptr || r == nullptr || !r->symbol)
    return Fail(cudaErrorInvalidSymbol,
                "cudaGetSymbolSize: not a __device__ or __constant__ variable");
  *size = r->bytes;
  return cudaSuccess;
}
cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes) {
  const std::size_t total = std::size_t{16} << 30;
  std::size_t used = 0;
  {
    std::lock_guard lock(P().mutex);
    for (const auto& r : P().regions) used += r.freed || r.symbol ? 0 : r.bytes;
  }
  if (free_bytes != nullptr) *free_bytes = used < total ? total - used : 0;
  if (total_bytes != nullptr) *total_bytes = total;
  return cudaSuccess;
}
cudaError_t cudaMemPrefetchAsync(const void*, std::size_t, int, cudaStream_t) {
  return cudaSuccess;
}
cudaError_t cudaMemAdvise(const void*, std::size_t, cudaMemoryAdvise, int) {
  return cudaSuccess;
}
cudaError_t cudaStreamAttachMemAsync(cudaStream_t, void*, std::size_t, unsigned int) {
  return cudaSuccess;
}
cudaError_t cudaProfilerStart() {
  return cudaSuccess;
}
cudaError_t cudaProfilerStop() {
  return cudaSuccess;
}
//-------------------------------------------------------------------------------------------------
// [SECTION] Errors
//-------------------------------------------------------------------------------------------------

cudaError_t cudaGetLastError() {
  const cudaError_t e = P().last_error;
  P().last_error = P().sticky_error;  // a sticky error stays
  return e;
}
cudaError_t cudaPeekAtLastError() {
  return P().last_error;
}
namespace {
// Each error the runtime returns: its name and its message, as the CUDA runtime words them.
struct ErrorText {
  cudaError_t error;
  const char* name;
  const char* text;
};
constexpr ErrorText kErrors[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error"},
    {cudaErrorCudartUnloading, "cudaErrorCudartUnloading", "driver shutting down"},
    {cudaErrorProfilerDisabled, "cudaErrorProfilerDisabled",
     "profiler disabled while using external profiling tool"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration",
     "invalid configuration argument"},
    {cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument"},
    {cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol"},
    {cudaErrorInvalidHostPointer, "cudaErrorInvalidHostPointer", "invalid host pointer"},
    {cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer"},
    {cudaErrorInvalidTexture, "cudaErrorInvalidTexture", "invalid texture reference"},
    {cudaErrorInvalidChannelDescriptor, "cudaErrorInvalidChannelDescriptor",
     "invalid channel descriptor"},
    {cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection",
     "invalid copy direction for memcpy"},
    {cudaErrorInsufficientDriver, "cudaErrorInsufficientDriver",
     "CUDA driver version is insufficient for CUDA runtime version"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorNoKernelImageForDevice, "cudaErrorNoKernelImageForDevice",
     "no kernel image is available for execution on the device"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress",
     "an illegal memory access was encountered"},
    {cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources",
     "too many resources requested for launch"},
    {cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"},
    {cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorCooperativeLaunchTooLarge, "cudaErrorCooperativeLaunchTooLarge",
     "too many blocks in cooperative launch"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {cudaErrorIllegalState, "cudaErrorIllegalState",
     "operation not permitted in the current state"},
    {cudaErrorStreamCaptureUnsupported, "cudaErrorStreamCaptureUnsupported",
     "operation not permitted when stream is capturing"},
    {cudaErrorStreamCaptureInvalidated, "cudaErrorStreamCaptureInvalidated",
     "operation failed due to a previous error during capture"},
    {cudaErrorStreamCaptureUnmatched, "cudaErrorStreamCaptureUnmatched",
     "capture was not ended in the same stream as it began"},
    {cudaErrorStreamCaptureWrongThread, "cudaErrorStreamCaptureWrongThread",
     "attempt to terminate a thread-local capture sequence from another thread"},
    {cudaErrorGraphExecUpdateFailure, "cudaErrorGraphExecUpdateFailure",
     "the graph update was not performed because it included changes which violated "
     "constraints specific to instantiated graph update"},
    {cudaErrorUnknown, "cudaErrorUnknown", "unknown error"},
};
}  // namespace

const char* cudaGetErrorName(cudaError_t e) {
  for (const ErrorText& x : kErrors) {
    if (x.error == e) return x.name;
  }
  return "cudaErrorUnknown";
}
// The messages the CUDA runtime gives.
const char* cudaGetErrorString(cudaError_t e) {
  for (const ErrorText& x : kErrors) {
    if (x.error == e) return x.text;
  }
  return "unknown error";
}

//-------------------------------------------------------------------------------------------------
// [SECTION] Events and streams
//-------------------------------------------------------------------------------------------------

// An event holds the model's clock when it was recorded: the modeled time of the launches before
// it (docs/PROGRAMS.md: an emulator's event times are the model's, not the emulator's own).
struct WsEvent {
  double model_ms = 0;
  bool recorded = false;
};
cudaError_t cudaEventCreate(cudaEvent_t* event) {
  if (event == nullptr) return cudaErrorInvalidValue;
  *event = new WsEvent{};
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  if (event == nullptr) return cudaErrorInvalidResourceHandle;
  if (CaptureEventRecord(event, stream)) return cudaSuccess;
  std::lock_guard lock(P().mutex);
  event->model_ms = P().model_ms;
  event->recorded = true;
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t) {
  return P().sticky_error;
}
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (ms == nullptr || start == nullptr || end == nullptr) return cudaErrorInvalidValue;
  if (!start->recorded || !end->recorded)
    return Fail(cudaErrorInvalidResourceHandle,
                "cudaEventElapsedTime: an event that was never recorded");
  std::lock_guard lock(P().mutex);
  *ms = static_cast<float>(end->model_ms - start->model_ms);
  P().run.events_modeled = true;
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  delete event;
  return cudaSuccess;
}
cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int) {
  return cudaEventCreate(event);
}
cudaError_t cudaEventQuery(cudaEvent_t event) {
  return event == nullptr ? cudaErrorInvalidResourceHandle : cudaSuccess;
}
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int) {
  return cudaStreamCreate(stream);
}
cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned int, int) {
  return cudaStreamCreate(stream);
}
// A stream's attributes by stream and number (null: the default stream's).
std::map<std::pair<cudaStream_t, int>, cudaLaunchAttributeValue>& StreamAttributes() {
  static std::map<std::pair<cudaStream_t, int>, cudaLaunchAttributeValue> values;
  return values;
}
// What the program asked of the L2 cache, which the emulator does not model (the run's notes).
void NoteWithoutEffect(const std::string& what) {
  auto& hints = P().run.without_effect;
  if (std::find(hints.begin(), hints.end(), what) == hints.end()) hints.push_back(what);
}
cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaLaunchAttributeID attr,
                                   const cudaLaunchAttributeValue* value) {
  if (value == nullptr) return Fail(cudaErrorInvalidValue, "cudaStreamSetAttribute: null value");
  if (attr != cudaLaunchAttributeAccessPolicyWindow &&
      attr != cudaLaunchAttributeSynchronizationPolicy && attr != cudaLaunchAttributePriority)
    return Fail(cudaErrorInvalidValue, "cudaStreamSetAttribute: attribute " +
                                           std::to_string(static_cast<int>(attr)) +
                                           " is not a stream's (1, 3 or 8)");
  std::lock_guard lock(P().mutex);
  StreamAttributes()[{stream, attr}] = *value;
  if (attr == cudaLaunchAttributeAccessPolicyWindow)
    NoteWithoutEffect("an L2 access policy window (cudaStreamSetAttribute)");
  return cudaSuccess;
}
cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaLaunchAttributeID attr,
                                   cudaLaunchAttributeValue* value) {
  if (value == nullptr) return Fail(cudaErrorInvalidValue, "cudaStreamGetAttribute: null value");
  std::lock_guard lock(P().mutex);
  const auto it = StreamAttributes().find({stream, attr});
  *value = it != StreamAttributes().end() ? it->second : cudaLaunchAttributeValue{};
  return cudaSuccess;
}
cudaError_t cudaCtxResetPersistingL2Cache() {
  std::lock_guard lock(P().mutex);
  NoteWithoutEffect("cudaCtxResetPersistingL2Cache");
  return cudaSuccess;
}
cudaError_t cudaDeviceGetStreamPriorityRange(int* least, int* greatest) {
  if (least != nullptr) *least = 0;
  if (greatest != nullptr) *greatest = -5;
  return cudaSuccess;
}
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int) {
  (void)CaptureWaitEvent(stream, event);  // a stream joins a capture by waiting on its event
  return cudaSuccess;                     // the emulator runs every stream's work in program order
}
cudaError_t cudaStreamQuery(cudaStream_t) {
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t) {
  return P().sticky_error;
}
