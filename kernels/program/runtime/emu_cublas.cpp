// libws_program_emu's cuBLAS (shim/cublas_v2.h; docs/PROGRAMS.md, "cuBLAS"): the handle, its
// modes and the copies between host and device here, levels 1 to 3 in emu_cublas_blas.cpp. The
// calls run on the emulator's processor, over the device buffers, as the library runs them on a
// GPU. They are not the program's kernels: each call is counted by its name for the run's note
// (ChildRecord::library_calls) and takes the model's time in cudaEventElapsedTime, but records no
// access. A pointer that is not device memory stops the program, naming the call and the argument
// (on a GPU the call would fault later, or read what lies there).
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>

#include "emu_cublas.h"
#include "warpscope/trace/device_preset.h"
#include "warpscope/trace/kernel_table.h"

namespace ws::prog::cublas {

using ws::prog::detail::P;

// Stops the program: as a failed launch does (emu_program.cpp), the message kept and printed.
void Stop(const std::string& message) {
  auto& p = P();
  p.error = message;
  std::cerr << "warpscope: " << message << "\n";
  std::fflush(stdout);
  ws::prog::detail::Program::Write();
  std::_Exit(3);
}

// A call is counted by its name and takes the model's time of its work.
void Ran(const char* name, double flops, double bytes) {
  auto& p = P();
  std::lock_guard lock(p.mutex);
  ++p.run.library_calls[name];
  const double flop_ms = flops / (ws::Fp32PeakGflops(p.preset) * 1e6);
  const double byte_ms = bytes / (p.preset.bandwidth_gbps * 1e6);
  p.model_ms += ws::kModeledLaunchOverheadMs + std::max(flop_ms, byte_ms);
}

// `bytes` at `ptr` must be one live device buffer's (a buffer, or a __device__ variable):
// else the program stops, naming the call and its argument.
void Device(const char* call, const char* arg, const void* ptr, std::size_t bytes) {
  if (bytes == 0) return;
  const ws::prog::detail::Region* near = nullptr;
  const ws::prog::detail::Region* r =
      ws::prog::detail::FindRegion(reinterpret_cast<std::uintptr_t>(ptr), bytes, &near);
  char at[32];
  std::snprintf(at, sizeof at, "%p", ptr);
  const auto addr = reinterpret_cast<std::uintptr_t>(ptr);
  if (r == nullptr && near != nullptr && !near->freed && addr >= near->begin &&
      addr < near->begin + near->bytes) {
    // Inside a buffer, but running past its end: the sizes, not the memory, are wrong.
    const std::uint64_t past = addr + bytes - (near->begin + near->bytes);
    Stop(std::string(call) + ": " + arg + " (" + at + ", " + std::to_string(bytes) +
         " bytes by the sizes and leading dimension given) runs " + std::to_string(past) +
         " bytes past the end of " + near->name + ", which holds " + std::to_string(near->bytes) +
         " bytes");
  }
  if (r == nullptr)
    Stop(std::string(call) + ": " + arg + " (" + at + ", " + std::to_string(bytes) +
         " bytes) is not device memory: cuBLAS reads and writes its vectors and matrices on the "
         "device (cudaMalloc them and copy the host's there first)");
  if (r->freed)
    Stop(std::string(call) + ": " + arg + " (" + at + ") is inside " + r->name +
         ", which cudaFree released");
}

cublasStatus_t Submit(cublasHandle_t h, const char* call, std::function<cublasStatus_t()> work) {
  if (h->stream != nullptr && ws::prog::Capturing(h->stream)) {
    ws::prog::CaptureLaunch(h->stream, call, [work = std::move(work)] { (void)work(); });
    return CUBLAS_STATUS_SUCCESS;
  }
  return work();
}

}  // namespace ws::prog::cublas

namespace {

using namespace ws::prog::cublas;  // NOLINT: the calls' helpers

// Copies `rows` x `cols` elements of `elem` bytes between two column-major layouts, checking
// that the side `device_is_to` names is device memory.
cublasStatus_t CopyMatrix(const char* call, int rows, int cols, int elem, const void* a, int lda,
                          void* b, int ldb, bool to_device) {
  if (rows < 0 || cols < 0 || elem <= 0 || lda < std::max(1, rows) || ldb < std::max(1, rows))
    return CUBLAS_STATUS_INVALID_VALUE;
  if (to_device) {
    Device(call, "the device matrix", b, Extent(rows, cols, ldb) * elem);
  } else {
    Device(call, "the device matrix", a, Extent(rows, cols, lda) * elem);
  }
  for (int j = 0; j < cols; ++j)
    std::memcpy(static_cast<unsigned char*>(b) + static_cast<std::size_t>(j) * ldb * elem,
                static_cast<const unsigned char*>(a) + static_cast<std::size_t>(j) * lda * elem,
                static_cast<std::size_t>(rows) * elem);
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t CopyVector(const char* call, int n, int elem, const void* x, int incx, void* y,
                          int incy, bool to_device) {
  // cuBLAS's rule: a step of 0 or less is an invalid value (a review: a negative one wrote before
  // the buffer).
  if (n < 0 || elem <= 0 || incx <= 0 || incy <= 0) return CUBLAS_STATUS_INVALID_VALUE;
  if (to_device) {
    Device(call, "the device vector", y, VectorExtent(n, incy) * elem);
  } else {
    Device(call, "the device vector", x, VectorExtent(n, incx) * elem);
  }
  for (int i = 0; i < n; ++i)
    std::memcpy(static_cast<unsigned char*>(y) + static_cast<std::ptrdiff_t>(i) * incy * elem,
                static_cast<const unsigned char*>(x) + static_cast<std::ptrdiff_t>(i) * incx * elem,
                static_cast<std::size_t>(elem));
  return CUBLAS_STATUS_SUCCESS;
}

// A handle's setting: set to `v`, or read into `out` (null: an invalid value).
template <typename V>
cublasStatus_t Set(cublasHandle_t h, V cublasContext::*field, V v) {
  if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  h->*field = v;
  return CUBLAS_STATUS_SUCCESS;
}
template <typename V>
cublasStatus_t Get(cublasHandle_t h, V cublasContext::*field, V* out) {
  if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (out == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  *out = h->*field;
  return CUBLAS_STATUS_SUCCESS;
}

}  // namespace

//-------------------------------------------------------------------------------------------------
// The handle
//-------------------------------------------------------------------------------------------------

cublasStatus_t cublasCreate(cublasHandle_t* handle) {
  if (handle == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  *handle = new cublasContext;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasDestroy(cublasHandle_t handle) {
  if (handle == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  delete handle;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasGetVersion(cublasHandle_t handle, int* version) {
  if (handle == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (version == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  *version = CUBLAS_VERSION;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasSetStream(cublasHandle_t handle, cudaStream_t stream) {
  return Set(handle, &cublasContext::stream, stream);
}
cublasStatus_t cublasGetStream(cublasHandle_t handle, cudaStream_t* stream) {
  return Get(handle, &cublasContext::stream, stream);
}
cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode) {
  return Set(handle, &cublasContext::math, mode);
}
cublasStatus_t cublasGetMathMode(cublasHandle_t handle, cublasMath_t* mode) {
  return Get(handle, &cublasContext::math, mode);
}
cublasStatus_t cublasSetPointerMode(cublasHandle_t handle, cublasPointerMode_t mode) {
  if (mode != CUBLAS_POINTER_MODE_HOST && mode != CUBLAS_POINTER_MODE_DEVICE)
    return handle == nullptr ? CUBLAS_STATUS_NOT_INITIALIZED : CUBLAS_STATUS_INVALID_VALUE;
  return Set(handle, &cublasContext::pointers, mode);
}
cublasStatus_t cublasGetPointerMode(cublasHandle_t handle, cublasPointerMode_t* mode) {
  return Get(handle, &cublasContext::pointers, mode);
}
cublasStatus_t cublasSetWorkspace(cublasHandle_t handle, void*, std::size_t) {
  return Handle(handle);
}
const char* cublasGetStatusName(cublasStatus_t status) {
  switch (status) {
    case CUBLAS_STATUS_SUCCESS:
      return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED:
      return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED:
      return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE:
      return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH:
      return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR:
      return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED:
      return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR:
      return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED:
      return "CUBLAS_STATUS_NOT_SUPPORTED";
    case CUBLAS_STATUS_LICENSE_ERROR:
      return "CUBLAS_STATUS_LICENSE_ERROR";
  }
  return "CUBLAS_STATUS_UNKNOWN";
}
const char* cublasGetStatusString(cublasStatus_t status) {
  switch (status) {
    case CUBLAS_STATUS_SUCCESS:
      return "success";
    case CUBLAS_STATUS_NOT_INITIALIZED:
      return "the library was not initialized";
    case CUBLAS_STATUS_INVALID_VALUE:
      return "an invalid numeric value was used as an argument";
    case CUBLAS_STATUS_NOT_SUPPORTED:
      return "the functionality requested is not supported";
    default:
      return cublasGetStatusName(status);
  }
}
cublasStatus_t cublasLtCreate(cublasLtHandle_t* handle) {
  if (handle == nullptr) return CUBLAS_STATUS_INVALID_VALUE;
  *handle = new cublasLtContext;
  return CUBLAS_STATUS_SUCCESS;
}
cublasStatus_t cublasLtDestroy(cublasLtHandle_t handle) {
  if (handle == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
  delete handle;
  return CUBLAS_STATUS_SUCCESS;
}

//-------------------------------------------------------------------------------------------------
// Copies between the host and the device
//-------------------------------------------------------------------------------------------------

cublasStatus_t cublasSetVector(int n, int elem, const void* x, int incx, void* y, int incy) {
  return CopyVector("cublasSetVector", n, elem, x, incx, y, incy, true);
}
cublasStatus_t cublasGetVector(int n, int elem, const void* x, int incx, void* y, int incy) {
  return CopyVector("cublasGetVector", n, elem, x, incx, y, incy, false);
}
cublasStatus_t cublasSetMatrix(int rows, int cols, int elem, const void* a, int lda, void* b,
                               int ldb) {
  return CopyMatrix("cublasSetMatrix", rows, cols, elem, a, lda, b, ldb, true);
}
cublasStatus_t cublasGetMatrix(int rows, int cols, int elem, const void* a, int lda, void* b,
                               int ldb) {
  return CopyMatrix("cublasGetMatrix", rows, cols, elem, a, lda, b, ldb, false);
}
cublasStatus_t cublasSetVectorAsync(int n, int elem, const void* x, int incx, void* y, int incy,
                                    cudaStream_t) {
  return CopyVector("cublasSetVectorAsync", n, elem, x, incx, y, incy, true);
}
cublasStatus_t cublasGetVectorAsync(int n, int elem, const void* x, int incx, void* y, int incy,
                                    cudaStream_t) {
  return CopyVector("cublasGetVectorAsync", n, elem, x, incx, y, incy, false);
}
cublasStatus_t cublasSetMatrixAsync(int rows, int cols, int elem, const void* a, int lda, void* b,
                                    int ldb, cudaStream_t) {
  return CopyMatrix("cublasSetMatrixAsync", rows, cols, elem, a, lda, b, ldb, true);
}
cublasStatus_t cublasGetMatrixAsync(int rows, int cols, int elem, const void* a, int lda, void* b,
                                    int ldb, cudaStream_t) {
  return CopyMatrix("cublasGetMatrixAsync", rows, cols, elem, a, lda, b, ldb, false);
}
