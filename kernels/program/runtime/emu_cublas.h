// cuBLAS on the emulator (shim/ws_program_cublas.h), between its two files: emu_cublas.cpp (the
// handle, its modes and the copies, and what every call checks and counts) and
// emu_cublas_blas.cpp (levels 1 to 3). Internal to libws_program_emu.
#pragma once

#include <cstdlib>
#include <functional>
#include <string>

#include "emu_program_state.h"
#include "ws_program_cublas.h"

struct cublasContext {
  cudaStream_t stream = nullptr;
  cublasMath_t math = CUBLAS_DEFAULT_MATH;
  cublasPointerMode_t pointers = CUBLAS_POINTER_MODE_HOST;
};
struct cublasLtContext {};

namespace ws::prog::cublas {

// Stops the program, as a failed launch does (emu_program.cpp): the message kept and printed.
[[noreturn]] void Stop(const std::string& message);
// A call is counted by its name (the run's note) and takes the model's time of its work in the
// events (its floating-point operations at the preset's FP32 peak or its bytes at its
// bandwidth, the longer, plus a launch's).
void Ran(const char* name, double flops, double bytes);
// `bytes` at `ptr` must be one live device buffer's (a buffer, or a __device__ variable): else
// the program stops, naming the call and its argument.
void Device(const char* call, const char* arg, const void* ptr, std::size_t bytes);

// A call's work (its scalars already read, as cuBLAS reads host scalars at the call): run now,
// or where the handle's stream is capturing, as a node of its graph, run at each of the graph's
// launches (a captured call's status is success; its errors stop the program where it runs).
cublasStatus_t Submit(cublasHandle_t h, const char* call, std::function<cublasStatus_t()> work);

inline cublasStatus_t Handle(cublasHandle_t h) {
  return h == nullptr ? CUBLAS_STATUS_NOT_INITIALIZED : CUBLAS_STATUS_SUCCESS;
}

// The extent of a column-major matrix of `rows` x `cols` elements `ld` apart, in elements.
inline std::size_t Extent(long long rows, long long cols, long long ld) {
  return rows <= 0 || cols <= 0 ? 0 : static_cast<std::size_t>((cols - 1) * ld + rows);
}
inline std::size_t VectorExtent(long long n, long long inc) {
  return n <= 0 ? 0 : static_cast<std::size_t>((n - 1) * std::llabs(inc) + 1);
}

// A scalar argument (alpha, beta): on the host or, in the device pointer mode, on the device.
template <typename T>
T Scalar(cublasHandle_t h, const char* call, const char* arg, const T* v) {
  if (v == nullptr) Stop(std::string(call) + ": " + arg + " is a null pointer");
  if (h->pointers == CUBLAS_POINTER_MODE_DEVICE) Device(call, arg, v, sizeof(T));
  return *v;
}

// A strided vector's element.
template <typename T>
T& At(T* x, int inc, int n, int i) {
  return inc >= 0 ? x[static_cast<std::ptrdiff_t>(i) * inc]
                  : x[static_cast<std::ptrdiff_t>(n - 1 - i) * -inc];
}

}  // namespace ws::prog::cublas
