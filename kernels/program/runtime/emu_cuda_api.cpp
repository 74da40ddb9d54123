// libws_program_emu's CUDA runtime API: memory, copies, symbols, errors, events, device
// properties, over the state in emu_program_state.h.
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <sstream>
#include <string>

#include "emu_program_state.h"

// ------------------------------------------------------------------------------------------------
// The runtime API.
// ------------------------------------------------------------------------------------------------
using ws::prog::detail::Fail;
using ws::prog::detail::P;

namespace {

cudaError_t Allocate(void** ptr, std::size_t bytes, const char* what) {
  if (ptr == nullptr) return Fail(cudaErrorInvalidValue, std::string(what) + ": null pointer");
  if (bytes == 0) {
    *ptr = nullptr;
    return cudaSuccess;
  }
  const std::size_t total = (bytes + ws::prog::detail::kGuardBytes + 255) / 256 * 256;
  void* mem = std::aligned_alloc(256, total);
  if (mem == nullptr)
    return Fail(cudaErrorMemoryAllocation,
                std::string(what) + ": out of memory for " + std::to_string(bytes) + " bytes");
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
  return Allocate(ptr, bytes, "cudaMalloc");
}
cudaError_t cudaMallocManaged(void** ptr, std::size_t bytes, unsigned int) {
  return Allocate(ptr, bytes, "cudaMallocManaged");
}
cudaError_t cudaMallocHost(void** ptr, std::size_t bytes) {
  if (ptr == nullptr) return Fail(cudaErrorInvalidValue, "cudaMallocHost: null pointer");
  *ptr = std::malloc(bytes == 0 ? 1 : bytes);
  return *ptr != nullptr ? cudaSuccess : cudaErrorMemoryAllocation;
}
cudaError_t cudaHostAlloc(void** ptr, std::size_t bytes, unsigned int) {
  return cudaMallocHost(ptr, bytes);
}
cudaError_t cudaFreeHost(void* ptr) {
  std::free(ptr);
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
                            cudaStream_t) {
  return cudaMemcpy(dst, src, bytes, kind);
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

cudaError_t cudaDeviceSynchronize() {
  return cudaSuccess;
}
cudaError_t cudaDeviceReset() {
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) {
  return device == 0 ? cudaSuccess
                     : Fail(cudaErrorInvalidDevice, "cudaSetDevice(" + std::to_string(device) +
                                                        "): the emulator has one device, 0");
}
cudaError_t cudaGetDevice(int* device) {
  if (device != nullptr) *device = 0;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceCount(int* count) {
  if (count != nullptr) *count = 1;
  return cudaSuccess;
}
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (prop == nullptr || device != 0) return cudaErrorInvalidDevice;
  const ws::DevicePreset& d = P().preset;
  *prop = cudaDeviceProp{};
  std::snprintf(prop->name, sizeof prop->name, "Warpscope emulator (%s: %s)", d.name.c_str(),
                d.description.c_str());
  prop->totalGlobalMem = std::size_t{16} << 30;
  prop->sharedMemPerBlock = d.shared_per_block;
  prop->sharedMemPerMultiprocessor = 228 * 1024;
  prop->totalConstMem = 64 * 1024;
  prop->regsPerBlock = 65536;
  prop->regsPerMultiprocessor = 65536;
  prop->warpSize = 32;
  prop->maxThreadsPerBlock = static_cast<int>(d.max_threads_per_block);
  prop->maxThreadsDim[0] = static_cast<int>(d.max_block.x);
  prop->maxThreadsDim[1] = static_cast<int>(d.max_block.y);
  prop->maxThreadsDim[2] = static_cast<int>(d.max_block.z);
  prop->maxGridSize[0] = static_cast<int>(d.max_grid.x);
  prop->maxGridSize[1] = static_cast<int>(d.max_grid.y);
  prop->maxGridSize[2] = static_cast<int>(d.max_grid.z);
  prop->clockRate = static_cast<int>(d.clock_ghz * 1e6);
  prop->multiProcessorCount = static_cast<int>(d.multiprocessors);
  prop->maxThreadsPerMultiProcessor = 2048;
  prop->maxBlocksPerMultiProcessor = 32;
  prop->major = 9;
  prop->minor = 0;
  prop->warpSize = 32;
  prop->unifiedAddressing = 1;
  prop->managedMemory = 1;
  return cudaSuccess;
}
cudaError_t cudaGetLastError() {
  const cudaError_t e = P().last_error;
  P().last_error = cudaSuccess;
  return e;
}
cudaError_t cudaPeekAtLastError() {
  return P().last_error;
}
const char* cudaGetErrorName(cudaError_t e) {
  switch (e) {
    case cudaSuccess:
      return "cudaSuccess";
    case cudaErrorInvalidValue:
      return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation:
      return "cudaErrorMemoryAllocation";
    case cudaErrorInvalidConfiguration:
      return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidSymbol:
      return "cudaErrorInvalidSymbol";
    case cudaErrorInvalidMemcpyDirection:
      return "cudaErrorInvalidMemcpyDirection";
    case cudaErrorInvalidDevice:
      return "cudaErrorInvalidDevice";
    case cudaErrorIllegalAddress:
      return "cudaErrorIllegalAddress";
    case cudaErrorLaunchFailure:
      return "cudaErrorLaunchFailure";
    default:
      return "cudaErrorUnknown";
  }
}
const char* cudaGetErrorString(cudaError_t e) {
  switch (e) {
    case cudaSuccess:
      return "no error";
    case cudaErrorInvalidValue:
      return "invalid argument";
    case cudaErrorMemoryAllocation:
      return "out of memory";
    case cudaErrorInvalidConfiguration:
      return "invalid configuration argument";
    case cudaErrorInvalidSymbol:
      return "invalid device symbol";
    case cudaErrorInvalidDevice:
      return "invalid device ordinal";
    case cudaErrorIllegalAddress:
      return "an illegal memory access was encountered";
    default:
      return "unknown error";
  }
}

struct WsEvent {
  std::chrono::steady_clock::time_point at;
};
cudaError_t cudaEventCreate(cudaEvent_t* event) {
  if (event == nullptr) return cudaErrorInvalidValue;
  *event = new WsEvent{};
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t) {
  if (event == nullptr) return cudaErrorInvalidResourceHandle;
  event->at = std::chrono::steady_clock::now();
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t) {
  return cudaSuccess;
}
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (ms == nullptr || start == nullptr || end == nullptr) return cudaErrorInvalidValue;
  *ms = std::chrono::duration<float, std::milli>(end->at - start->at).count();
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  delete event;
  return cudaSuccess;
}
cudaError_t cudaStreamCreate(cudaStream_t* stream) {
  if (stream != nullptr) *stream = nullptr;
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t) {
  return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t) {
  return cudaSuccess;
}
