// libws_program_emu's cuBLAS, levels 1 to 3 (emu_cublas.h): vectors, matrix-vector and
// matrix-matrix products of float and double, and cublasGemmEx's real types, over the device
// buffers in column-major order. Sums are made in double and rounded once to the output's type;
// tf32 and the reduced-precision math modes are computed at full precision (a result may differ
// from a GPU's in its last bits).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "emu_cublas.h"
#include "ws_program_small_float.h"

namespace {

using namespace ws::prog::cublas;  // NOLINT: the calls' helpers
using ws::prog::detail::P;

// The elements of the toolkit's real types as double, and back (rounded once).
double Read(const void* p, cudaDataType t, std::size_t i) {
  switch (t) {
    case CUDA_R_16F: {
      unsigned short b = 0;
      std::memcpy(&b, static_cast<const unsigned char*>(p) + 2 * i, 2);
      return ws::fp::Half::ToFloat(b);
    }
    case CUDA_R_16BF: {
      unsigned short b = 0;
      std::memcpy(&b, static_cast<const unsigned char*>(p) + 2 * i, 2);
      return ws::fp::BFloat::ToFloat(b);
    }
    case CUDA_R_32F:
      return static_cast<const float*>(p)[i];
    default:
      return static_cast<const double*>(p)[i];
  }
}
void Write(void* p, cudaDataType t, std::size_t i, double v) {
  switch (t) {
    case CUDA_R_16F: {
      const unsigned short b = ws::fp::Half::Round(v);
      std::memcpy(static_cast<unsigned char*>(p) + 2 * i, &b, 2);
      return;
    }
    case CUDA_R_16BF: {
      const unsigned short b = ws::fp::BFloat::Round(v);
      std::memcpy(static_cast<unsigned char*>(p) + 2 * i, &b, 2);
      return;
    }
    case CUDA_R_32F:
      static_cast<float*>(p)[i] = static_cast<float>(v);
      return;
    default:
      static_cast<double*>(p)[i] = v;
  }
}
std::size_t SizeOf(cudaDataType t) {
  return t == CUDA_R_16F || t == CUDA_R_16BF ? 2 : t == CUDA_R_32F ? 4 : 8;
}
const char* TypeName(cudaDataType t) {
  switch (t) {
    case CUDA_R_16F:
      return "CUDA_R_16F";
    case CUDA_R_16BF:
      return "CUDA_R_16BF";
    case CUDA_R_32F:
      return "CUDA_R_32F";
    case CUDA_R_64F:
      return "CUDA_R_64F";
    default:
      return "a type";
  }
}
template <typename T>
constexpr cudaDataType TypeOf() {
  return sizeof(T) == 4 ? CUDA_R_32F : CUDA_R_64F;
}

bool BadOp(cublasOperation_t op) {
  return op != CUBLAS_OP_N && op != CUBLAS_OP_T && op != CUBLAS_OP_C;
}

// One GEMM, C = alpha op(A) op(B) + beta C, column-major (for real types op C is op T). Checks
// the sizes and the buffers first; CUBLAS_STATUS_INVALID_VALUE as cuBLAS for a bad size.
struct Gemm {
  const char* call;
  cublasOperation_t ta, tb;
  int m, n, k;
  double alpha, beta;
  const void* a;
  cudaDataType at;
  int lda;
  const void* b;
  cudaDataType bt;
  int ldb;
  void* c;
  cudaDataType ct;
  int ldc;

  // The sizes, as cuBLAS checks them: CUBLAS_STATUS_INVALID_VALUE for a bad one.
  cublasStatus_t Sizes() const {
    if (BadOp(ta) || BadOp(tb) || m < 0 || n < 0 || k < 0) return CUBLAS_STATUS_INVALID_VALUE;
    if (lda < std::max(1, ARows()) || ldb < std::max(1, BRows()) || ldc < std::max(1, m))
      return CUBLAS_STATUS_INVALID_VALUE;
    return CUBLAS_STATUS_SUCCESS;
  }
  // The buffers it reads and writes must be device memory (else the program stops). A and B are
  // not read where k is 0 or alpha 0, as cuBLAS documents.
  void Buffers() const {
    if (m == 0 || n == 0) return;
    if (k > 0 && alpha != 0) {
      const int a_cols = ta == CUBLAS_OP_N ? k : m, b_cols = tb == CUBLAS_OP_N ? n : k;
      Device(call, "A", a, Extent(ARows(), a_cols, lda) * SizeOf(at));
      Device(call, "B", b, Extent(BRows(), b_cols, ldb) * SizeOf(bt));
    }
    Device(call, "C", c, Extent(m, n, ldc) * SizeOf(ct));
  }
  int ARows() const { return ta == CUBLAS_OP_N ? m : k; }
  int BRows() const { return tb == CUBLAS_OP_N ? k : n; }
  double AAt(int i, int p) const {
    return Read(a, at,
                ta == CUBLAS_OP_N ? static_cast<std::size_t>(p) * lda + i
                                  : static_cast<std::size_t>(i) * lda + p);
  }
  double BAt(int p, int j) const {
    return Read(b, bt,
                tb == CUBLAS_OP_N ? static_cast<std::size_t>(j) * ldb + p
                                  : static_cast<std::size_t>(p) * ldb + j);
  }
  // C's column j at a time, summed over p in order. op(A) and op(B) are first read into dense
  // column-major doubles, so that the inner loop runs down contiguous memory whatever the
  // operations (a review: T/T walked A by its rows, 4.2 s for a 1024^3 Sgemm against 1.7 s for
  // N/N); past 2^26 elements each they are read in place.
  void Run() const {
    if (m == 0 || n == 0) return;
    const std::size_t mm = static_cast<std::size_t>(m), kk = static_cast<std::size_t>(k);
    const bool product = alpha != 0 && k > 0;
    const bool dense = product && mm * kk <= (std::size_t{1} << 26) &&
                       kk * static_cast<std::size_t>(n) <= (std::size_t{1} << 26);
    std::vector<double> ad, bd;
    if (dense) {
      ad.resize(mm * kk);
      bd.resize(kk * static_cast<std::size_t>(n));
      for (int i = 0; i < m; ++i)
        for (int p = 0; p < k; ++p) ad[i + p * mm] = AAt(i, p);
      for (int j = 0; j < n; ++j)
        for (int p = 0; p < k; ++p) bd[p + j * kk] = BAt(p, j);
    }
    std::vector<double> column(mm);
    for (int j = 0; j < n; ++j) {
      std::fill(column.begin(), column.end(), 0.0);
      for (int p = 0; product && p < k; ++p) {
        if (dense) {
          const double bv = bd[p + j * kk];
          const double* ap = ad.data() + p * mm;
          for (std::size_t i = 0; i < mm; ++i) column[i] += ap[i] * bv;
        } else {
          const double bv = BAt(p, j);
          for (int i = 0; i < m; ++i) column[i] += AAt(i, p) * bv;
        }
      }
      const std::size_t cbase = static_cast<std::size_t>(j) * ldc;
      for (int i = 0; i < m; ++i) {
        // beta 0: C is not read (it may hold anything, NaN included), as cuBLAS documents.
        const double old = beta == 0 ? 0.0 : beta * Read(c, ct, cbase + i);
        Write(c, ct, cbase + i, alpha * column[i] + old);
      }
    }
  }
  double Flops() const { return 2.0 * m * n * k; }
  double Bytes() const {
    return static_cast<double>(m) * k * SizeOf(at) + static_cast<double>(k) * n * SizeOf(bt) +
           2.0 * m * n * SizeOf(ct);
  }
};

// GEMMs of real types as cublasGemmEx takes them: `batches` of them `sa`, `sb` and `sc` elements
// apart, or (`ap`, `bp`, `cp` not null: cublas*gemmBatched) at the pointers those device arrays
// hold. The types are named where not supported; alpha and beta are read at the call (the
// compute type's: double for 64F, __half for 16F, else float), the rest where the work runs.
cublasStatus_t GemmOf(cublasHandle_t h, const char* call, cublasOperation_t ta,
                      cublasOperation_t tb, int m, int n, int k, const void* alpha, const void* a,
                      cudaDataType at, int lda, const void* b, cudaDataType bt, int ldb,
                      const void* beta, void* c, cudaDataType ct, int ldc,
                      cublasComputeType_t compute, long long sa, long long sb, long long sc,
                      int batches, const void* const* ap = nullptr, const void* const* bp = nullptr,
                      void* const* cp = nullptr) {
  if (Handle(h) != CUBLAS_STATUS_SUCCESS) return CUBLAS_STATUS_NOT_INITIALIZED;
  auto known = [](cudaDataType t) {
    return t == CUDA_R_16F || t == CUDA_R_16BF || t == CUDA_R_32F || t == CUDA_R_64F;
  };
  if (!known(at) || !known(bt) || !known(ct))
    Stop(std::string(call) + ": A, B and C of " + TypeName(at) + ", " + TypeName(bt) + " and " +
         TypeName(ct) +
         " are not supported (yet) on the emulator: A and B of one of CUDA_R_16F, "
         "CUDA_R_16BF, CUDA_R_32F and CUDA_R_64F, C of theirs or CUDA_R_32F");
  // cuBLAS's table (cublasGemmEx): the compute type decides the data types it takes, and
  // CUBLAS_STATUS_NOT_SUPPORTED answers any other (a review: 64F data under a 32F compute type
  // read the double alpha as a float).
  const bool c16 = compute == CUBLAS_COMPUTE_16F || compute == CUBLAS_COMPUTE_16F_PEDANTIC;
  const bool c32 = compute == CUBLAS_COMPUTE_32F || compute == CUBLAS_COMPUTE_32F_PEDANTIC ||
                   compute == CUBLAS_COMPUTE_32F_FAST_16F ||
                   compute == CUBLAS_COMPUTE_32F_FAST_16BF ||
                   compute == CUBLAS_COMPUTE_32F_FAST_TF32;
  const bool c64 = compute == CUBLAS_COMPUTE_64F || compute == CUBLAS_COMPUTE_64F_PEDANTIC;
  const bool small = at == CUDA_R_16F || at == CUDA_R_16BF;
  const bool taken = at == bt && ((c16 && at == CUDA_R_16F && ct == CUDA_R_16F) ||
                                  (c64 && at == CUDA_R_64F && ct == CUDA_R_64F) ||
                                  (c32 && ((at == CUDA_R_32F && ct == CUDA_R_32F) ||
                                           (small && (ct == at || ct == CUDA_R_32F)))));
  if (!taken) return CUBLAS_STATUS_NOT_SUPPORTED;
  if (batches < 0) return CUBLAS_STATUS_INVALID_VALUE;
  // The sizes, as cuBLAS checks them at the call (the first batch's alone: they are all alike).
  if (const cublasStatus_t s =
          Gemm{call, ta, tb, m, n, k, 0, 0, nullptr, at, lda, nullptr, bt, ldb, nullptr, ct, ldc}
              .Sizes();
      s != CUBLAS_STATUS_SUCCESS)
    return s;
  if (batches == 0 || m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
  double alpha_v = 0, beta_v = 0;
  if (c64) {
    alpha_v = Scalar(h, call, "alpha", static_cast<const double*>(alpha));
    beta_v = Scalar(h, call, "beta", static_cast<const double*>(beta));
  } else if (c16) {
    alpha_v =
        ws::fp::Half::ToFloat(Scalar(h, call, "alpha", static_cast<const unsigned short*>(alpha)));
    beta_v =
        ws::fp::Half::ToFloat(Scalar(h, call, "beta", static_cast<const unsigned short*>(beta)));
  } else {
    alpha_v = Scalar(h, call, "alpha", static_cast<const float*>(alpha));
    beta_v = Scalar(h, call, "beta", static_cast<const float*>(beta));
  }
  return Submit(h, call, [=]() {
    if (ap != nullptr) {
      Device(call, "Aarray", ap, static_cast<std::size_t>(batches) * sizeof(void*));
      Device(call, "Barray", bp, static_cast<std::size_t>(batches) * sizeof(void*));
      Device(call, "Carray", cp, static_cast<std::size_t>(batches) * sizeof(void*));
    }
    auto batch = [&](int i) {
      if (ap != nullptr)
        return Gemm{call, ta,  tb,    m,  n,   k,     alpha_v, beta_v, ap[i],
                    at,   lda, bp[i], bt, ldb, cp[i], ct,      ldc};
      return Gemm{call,    ta,     tb,
                  m,       n,      k,
                  alpha_v, beta_v, static_cast<const unsigned char*>(a) + i * sa * SizeOf(at),
                  at,      lda,    static_cast<const unsigned char*>(b) + i * sb * SizeOf(bt),
                  bt,      ldb,    static_cast<unsigned char*>(c) + i * sc * SizeOf(ct),
                  ct,      ldc};
    };
    for (int i = 0; i < batches; ++i) batch(i).Buffers();
    double flops = 0, bytes = 0;
    for (int i = 0; i < batches; ++i) {
      const Gemm g = batch(i);
      g.Run();
      flops += g.Flops();
      bytes += g.Bytes();
    }
    Ran(call, flops, bytes);
    return CUBLAS_STATUS_SUCCESS;
  });
}

template <typename T>
struct Blas {
  static cublasStatus_t Axpy(const char* call, cublasHandle_t h, int n, const T* alpha, const T* x,
                             int incx, T* y, int incy) {
    if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (n <= 0) return CUBLAS_STATUS_SUCCESS;
    const T a = Scalar(h, call, "alpha", alpha);
    return Submit(h, call, [=]() {
      Device(call, "x", x, VectorExtent(n, incx) * sizeof(T));
      Device(call, "y", y, VectorExtent(n, incy) * sizeof(T));
      for (int i = 0; i < n; ++i)
        At(y, incy, n, i) = static_cast<T>(static_cast<double>(a) * At(x, incx, n, i) +
                                           static_cast<double>(At(y, incy, n, i)));
      Ran(call, 2.0 * n, 3.0 * n * sizeof(T));
      return CUBLAS_STATUS_SUCCESS;
    });
  }
  static cublasStatus_t Scal(const char* call, cublasHandle_t h, int n, const T* alpha, T* x,
                             int incx) {
    if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (n <= 0 || incx <= 0) return CUBLAS_STATUS_SUCCESS;
    const T a = Scalar(h, call, "alpha", alpha);
    return Submit(h, call, [=]() {
      Device(call, "x", x, VectorExtent(n, incx) * sizeof(T));
      for (int i = 0; i < n; ++i) At(x, incx, n, i) *= a;
      Ran(call, n, 2.0 * n * sizeof(T));
      return CUBLAS_STATUS_SUCCESS;
    });
  }
  static cublasStatus_t Copy(const char* call, cublasHandle_t h, int n, const T* x, int incx, T* y,
                             int incy) {
    if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (n <= 0) return CUBLAS_STATUS_SUCCESS;
    return Submit(h, call, [=]() {
      Device(call, "x", x, VectorExtent(n, incx) * sizeof(T));
      Device(call, "y", y, VectorExtent(n, incy) * sizeof(T));
      for (int i = 0; i < n; ++i) At(y, incy, n, i) = At(x, incx, n, i);
      Ran(call, 0, 2.0 * n * sizeof(T));
      return CUBLAS_STATUS_SUCCESS;
    });
  }
  static cublasStatus_t Swap(const char* call, cublasHandle_t h, int n, T* x, int incx, T* y,
                             int incy) {
    if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (n <= 0) return CUBLAS_STATUS_SUCCESS;
    return Submit(h, call, [=]() {
      Device(call, "x", x, VectorExtent(n, incx) * sizeof(T));
      Device(call, "y", y, VectorExtent(n, incy) * sizeof(T));
      for (int i = 0; i < n; ++i) std::swap(At(x, incx, n, i), At(y, incy, n, i));
      Ran(call, 0, 4.0 * n * sizeof(T));
      return CUBLAS_STATUS_SUCCESS;
    });
  }
  // A reduction's result: on the host or, in the device pointer mode, on the device (the mode
  // when the call was made: `device`).
  template <typename R>
  static void Result(bool device, const char* call, R* result, R v) {
    if (result == nullptr) Stop(std::string(call) + ": result is a null pointer");
    if (device) Device(call, "result", result, sizeof(R));
    *result = v;
  }
  static cublasStatus_t Dot(const char* call, cublasHandle_t h, int n, const T* x, int incx,
                            const T* y, int incy, T* result) {
    if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
    const bool device = h->pointers == CUBLAS_POINTER_MODE_DEVICE;
    return Submit(h, call, [=]() {
      double s = 0;
      if (n > 0) {
        Device(call, "x", x, VectorExtent(n, incx) * sizeof(T));
        Device(call, "y", y, VectorExtent(n, incy) * sizeof(T));
        for (int i = 0; i < n; ++i) s += static_cast<double>(At(x, incx, n, i)) * At(y, incy, n, i);
      }
      Result(device, call, result, static_cast<T>(s));
      Ran(call, 2.0 * std::max(n, 0), 2.0 * std::max(n, 0) * sizeof(T));
      return CUBLAS_STATUS_SUCCESS;
    });
  }
  // nrm2 and asum: over |incx| steps (a step of 0 or less gives 0, as BLAS).
  static cublasStatus_t Norm(const char* call, bool two, cublasHandle_t h, int n, const T* x,
                             int incx, T* result) {
    if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
    const bool device = h->pointers == CUBLAS_POINTER_MODE_DEVICE;
    return Submit(h, call, [=]() {
      double s = 0;
      if (n > 0 && incx > 0) {
        Device(call, "x", x, VectorExtent(n, incx) * sizeof(T));
        for (int i = 0; i < n; ++i) {
          const double v = x[static_cast<std::size_t>(i) * incx];
          s += two ? v * v : std::fabs(v);
        }
      }
      Result(device, call, result, static_cast<T>(two ? std::sqrt(s) : s));
      Ran(call, 2.0 * std::max(n, 0), std::max(n, 0) * static_cast<double>(sizeof(T)));
      return CUBLAS_STATUS_SUCCESS;
    });
  }
  // Isamax, Isamin: the 1-based index of the first element of largest (smallest) magnitude.
  static cublasStatus_t Extreme(const char* call, bool largest, cublasHandle_t h, int n, const T* x,
                                int incx, int* result) {
    if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
    const bool device = h->pointers == CUBLAS_POINTER_MODE_DEVICE;
    return Submit(h, call, [=]() {
      int best = 0;
      if (n > 0 && incx > 0) {
        Device(call, "x", x, VectorExtent(n, incx) * sizeof(T));
        double best_v = std::fabs(static_cast<double>(x[0]));
        best = 1;
        for (int i = 1; i < n; ++i) {
          const double v = std::fabs(static_cast<double>(x[static_cast<std::size_t>(i) * incx]));
          if (largest ? v > best_v : v < best_v) {
            best_v = v;
            best = i + 1;
          }
        }
      }
      Result(device, call, result, best);
      Ran(call, std::max(n, 0), std::max(n, 0) * static_cast<double>(sizeof(T)));
      return CUBLAS_STATUS_SUCCESS;
    });
  }
  // y = alpha op(A) x + beta y, A m x n column-major.
  static cublasStatus_t Gemv(const char* call, cublasHandle_t h, cublasOperation_t t, int m, int n,
                             const T* alpha, const T* a, int lda, const T* x, int incx,
                             const T* beta, T* y, int incy) {
    if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
    if (BadOp(t) || m < 0 || n < 0 || lda < std::max(1, m) || incx == 0 || incy == 0)
      return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
    const double al = Scalar(h, call, "alpha", alpha), be = Scalar(h, call, "beta", beta);
    return Submit(h, call, [=]() {
      const int xs = t == CUBLAS_OP_N ? n : m, ys = t == CUBLAS_OP_N ? m : n;
      Device(call, "A", a, Extent(m, n, lda) * sizeof(T));
      Device(call, "x", x, VectorExtent(xs, incx) * sizeof(T));
      Device(call, "y", y, VectorExtent(ys, incy) * sizeof(T));
      std::vector<double> out(static_cast<std::size_t>(ys), 0.0);
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
          const double av = a[static_cast<std::size_t>(j) * lda + i];
          if (t == CUBLAS_OP_N) {
            out[i] += av * At(x, incx, xs, j);
          } else {
            out[j] += av * At(x, incx, xs, i);
          }
        }
      for (int i = 0; i < ys; ++i) {
        const double old = be == 0 ? 0.0 : be * At(y, incy, ys, i);
        At(y, incy, ys, i) = static_cast<T>(al * out[i] + old);
      }
      Ran(call, 2.0 * m * n, (static_cast<double>(m) * n + xs + 2.0 * ys) * sizeof(T));
      return CUBLAS_STATUS_SUCCESS;
    });
  }
  // C = alpha op(A) + beta op(B), m x n column-major (cuBLAS's extension: a transpose is geam
  // with beta 0). C may be A or B in place where its operation is N and the leading dimensions
  // agree, as cuBLAS allows: the sums are made first, then written.
  static cublasStatus_t Geam(const char* call, cublasHandle_t h, cublasOperation_t ta,
                             cublasOperation_t tb, int m, int n, const T* alpha, const T* a,
                             int lda, const T* beta, const T* b, int ldb, T* c, int ldc) {
    if (h == nullptr) return CUBLAS_STATUS_NOT_INITIALIZED;
    const int a_rows = ta == CUBLAS_OP_N ? m : n, b_rows = tb == CUBLAS_OP_N ? m : n;
    if (BadOp(ta) || BadOp(tb) || m < 0 || n < 0 || lda < std::max(1, a_rows) ||
        ldb < std::max(1, b_rows) || ldc < std::max(1, m))
      return CUBLAS_STATUS_INVALID_VALUE;
    if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
    const double al = Scalar(h, call, "alpha", alpha), be = Scalar(h, call, "beta", beta);
    return Submit(h, call, [=]() {
      const int a_cols = ta == CUBLAS_OP_N ? n : m, b_cols = tb == CUBLAS_OP_N ? n : m;
      // A and B are not read where their scalar is 0 (a transpose passes B as null).
      if (al != 0) Device(call, "A", a, Extent(a_rows, a_cols, lda) * sizeof(T));
      if (be != 0) Device(call, "B", b, Extent(b_rows, b_cols, ldb) * sizeof(T));
      Device(call, "C", c, Extent(m, n, ldc) * sizeof(T));
      std::vector<T> out(static_cast<std::size_t>(m) * n);
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
          double v = 0;
          if (al != 0)
            v += al * (ta == CUBLAS_OP_N ? a[static_cast<std::size_t>(j) * lda + i]
                                         : a[static_cast<std::size_t>(i) * lda + j]);
          if (be != 0)
            v += be * (tb == CUBLAS_OP_N ? b[static_cast<std::size_t>(j) * ldb + i]
                                         : b[static_cast<std::size_t>(i) * ldb + j]);
          out[static_cast<std::size_t>(j) * m + i] = static_cast<T>(v);
        }
      for (int j = 0; j < n; ++j)
        std::copy_n(out.data() + static_cast<std::size_t>(j) * m, m,
                    c + static_cast<std::size_t>(j) * ldc);
      Ran(call, 3.0 * m * n, 3.0 * m * n * sizeof(T));
      return CUBLAS_STATUS_SUCCESS;
    });
  }
  static cublasStatus_t GemmStrided(const char* call, cublasHandle_t h, cublasOperation_t ta,
                                    cublasOperation_t tb, int m, int n, int k, const T* alpha,
                                    const T* a, int lda, long long sa, const T* b, int ldb,
                                    long long sb, const T* beta, T* c, int ldc, long long sc,
                                    int batches) {
    const cublasComputeType_t compute = sizeof(T) == 4 ? CUBLAS_COMPUTE_32F : CUBLAS_COMPUTE_64F;
    return GemmOf(h, call, ta, tb, m, n, k, alpha, a, TypeOf<T>(), lda, b, TypeOf<T>(), ldb, beta,
                  c, TypeOf<T>(), ldc, compute, sa, sb, sc, batches);
  }
  // Batched through arrays of pointers, the arrays themselves in device memory as cuBLAS takes
  // them (read where the work runs).
  static cublasStatus_t GemmBatched(const char* call, cublasHandle_t h, cublasOperation_t ta,
                                    cublasOperation_t tb, int m, int n, int k, const T* alpha,
                                    const T* const a[], int lda, const T* const b[], int ldb,
                                    const T* beta, T* const c[], int ldc, int batches) {
    const cublasComputeType_t compute = sizeof(T) == 4 ? CUBLAS_COMPUTE_32F : CUBLAS_COMPUTE_64F;
    return GemmOf(h, call, ta, tb, m, n, k, alpha, nullptr, TypeOf<T>(), lda, nullptr, TypeOf<T>(),
                  ldb, beta, nullptr, TypeOf<T>(), ldc, compute, 0, 0, 0, batches,
                  reinterpret_cast<const void* const*>(a), reinterpret_cast<const void* const*>(b),
                  reinterpret_cast<void* const*>(c));
  }
};

}  // namespace

#define WS_CUBLAS_CALLS(P, p, T)                                                                   \
  cublasStatus_t cublas##P##axpy(cublasHandle_t h, int n, const T* alpha, const T* x, int incx,    \
                                 T* y, int incy) {                                                 \
    return Blas<T>::Axpy("cublas" #P "axpy", h, n, alpha, x, incx, y, incy);                       \
  }                                                                                                \
  cublasStatus_t cublas##P##scal(cublasHandle_t h, int n, const T* alpha, T* x, int incx) {        \
    return Blas<T>::Scal("cublas" #P "scal", h, n, alpha, x, incx);                                \
  }                                                                                                \
  cublasStatus_t cublas##P##copy(cublasHandle_t h, int n, const T* x, int incx, T* y, int incy) {  \
    return Blas<T>::Copy("cublas" #P "copy", h, n, x, incx, y, incy);                              \
  }                                                                                                \
  cublasStatus_t cublas##P##swap(cublasHandle_t h, int n, T* x, int incx, T* y, int incy) {        \
    return Blas<T>::Swap("cublas" #P "swap", h, n, x, incx, y, incy);                              \
  }                                                                                                \
  cublasStatus_t cublas##P##dot(cublasHandle_t h, int n, const T* x, int incx, const T* y,         \
                                int incy, T* result) {                                             \
    return Blas<T>::Dot("cublas" #P "dot", h, n, x, incx, y, incy, result);                        \
  }                                                                                                \
  cublasStatus_t cublas##P##nrm2(cublasHandle_t h, int n, const T* x, int incx, T* result) {       \
    return Blas<T>::Norm("cublas" #P "nrm2", true, h, n, x, incx, result);                         \
  }                                                                                                \
  cublasStatus_t cublas##P##asum(cublasHandle_t h, int n, const T* x, int incx, T* result) {       \
    return Blas<T>::Norm("cublas" #P "asum", false, h, n, x, incx, result);                        \
  }                                                                                                \
  cublasStatus_t cublasI##p##amax(cublasHandle_t h, int n, const T* x, int incx, int* result) {    \
    return Blas<T>::Extreme("cublasI" #p "amax", true, h, n, x, incx, result);                     \
  }                                                                                                \
  cublasStatus_t cublasI##p##amin(cublasHandle_t h, int n, const T* x, int incx, int* result) {    \
    return Blas<T>::Extreme("cublasI" #p "amin", false, h, n, x, incx, result);                    \
  }                                                                                                \
  cublasStatus_t cublas##P##gemv(cublasHandle_t h, cublasOperation_t trans, int m, int n,          \
                                 const T* alpha, const T* A, int lda, const T* x, int incx,        \
                                 const T* beta, T* y, int incy) {                                  \
    return Blas<T>::Gemv("cublas" #P "gemv", h, trans, m, n, alpha, A, lda, x, incx, beta, y,      \
                         incy);                                                                    \
  }                                                                                                \
  cublasStatus_t cublas##P##gemm(                                                                  \
      cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,   \
      const T* alpha, const T* A, int lda, const T* B, int ldb, const T* beta, T* C, int ldc) {    \
    return Blas<T>::GemmStrided("cublas" #P "gemm", h, transa, transb, m, n, k, alpha, A, lda, 0,  \
                                B, ldb, 0, beta, C, ldc, 0, 1);                                    \
  }                                                                                                \
  cublasStatus_t cublas##P##gemmStridedBatched(                                                    \
      cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,   \
      const T* alpha, const T* A, int lda, long long strideA, const T* B, int ldb,                 \
      long long strideB, const T* beta, T* C, int ldc, long long strideC, int batchCount) {        \
    return Blas<T>::GemmStrided("cublas" #P "gemmStridedBatched", h, transa, transb, m, n, k,      \
                                alpha, A, lda, strideA, B, ldb, strideB, beta, C, ldc, strideC,    \
                                batchCount);                                                       \
  }                                                                                                \
  cublasStatus_t cublas##P##gemmBatched(                                                           \
      cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,   \
      const T* alpha, const T* const A[], int lda, const T* const B[], int ldb, const T* beta,     \
      T* const C[], int ldc, int batchCount) {                                                     \
    return Blas<T>::GemmBatched("cublas" #P "gemmBatched", h, transa, transb, m, n, k, alpha, A,   \
                                lda, B, ldb, beta, C, ldc, batchCount);                            \
  }                                                                                                \
  cublasStatus_t cublas##P##geam(                                                                  \
      cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n,          \
      const T* alpha, const T* A, int lda, const T* beta, const T* B, int ldb, T* C, int ldc) {    \
    return Blas<T>::Geam("cublas" #P "geam", h, transa, transb, m, n, alpha, A, lda, beta, B, ldb, \
                         C, ldc);                                                                  \
  }
WS_CUBLAS_CALLS(S, s, float)
WS_CUBLAS_CALLS(D, d, double)
#undef WS_CUBLAS_CALLS

cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa,
                            cublasOperation_t transb, int m, int n, int k, const void* alpha,
                            const void* A, cudaDataType Atype, int lda, const void* B,
                            cudaDataType Btype, int ldb, const void* beta, void* C,
                            cudaDataType Ctype, int ldc, cublasComputeType_t computeType,
                            cublasGemmAlgo_t) {
  return GemmOf(handle, "cublasGemmEx", transa, transb, m, n, k, alpha, A, Atype, lda, B, Btype,
                ldb, beta, C, Ctype, ldc, computeType, 0, 0, 0, 1);
}
cublasStatus_t cublasGemmStridedBatchedEx(
    cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k,
    const void* alpha, const void* A, cudaDataType Atype, int lda, long long strideA, const void* B,
    cudaDataType Btype, int ldb, long long strideB, const void* beta, void* C, cudaDataType Ctype,
    int ldc, long long strideC, int batchCount, cublasComputeType_t computeType, cublasGemmAlgo_t) {
  if (batchCount < 0) return CUBLAS_STATUS_INVALID_VALUE;
  return GemmOf(handle, "cublasGemmStridedBatchedEx", transa, transb, m, n, k, alpha, A, Atype, lda,
                B, Btype, ldb, beta, C, Ctype, ldc, computeType, strideA, strideB, strideC,
                batchCount);
}

cublasStatus_t WsCublasHgemm(cublasHandle_t handle, cublasOperation_t transa,
                             cublasOperation_t transb, int m, int n, int k, const void* alpha,
                             const void* A, int lda, const void* B, int ldb, const void* beta,
                             void* C, int ldc) {
  return GemmOf(handle, "cublasHgemm", transa, transb, m, n, k, alpha, A, CUDA_R_16F, lda, B,
                CUDA_R_16F, ldb, beta, C, CUDA_R_16F, ldc, CUBLAS_COMPUTE_16F, 0, 0, 0, 1);
}
