// cuBLAS on the emulator (shim/cublas_v2.h, runtime/emu_cublas.cpp; docs/PROGRAMS.md, "cuBLAS"):
// its common calls run on the emulator's processor over the device buffers, column-major, as the
// library's do on a GPU; the run says which ran, none is a launch, each takes the model's time
// in cudaEventElapsedTime, and a pointer that is not device memory stops the program naming the
// call and the argument. Every expected value below is worked out by hand from the inputs.
#include <gtest/gtest.h>

#include <string>

#include "program_test_util.h"
#include "warpscope/program/program.h"

namespace ws {
namespace {

using test::RunText;

// A (3 x 4, column-major) holds A(r, c) = 1 + r + 3c; B (4 x 2) holds ((r + 4c) mod 3) - 1.
//   Sgemm N N, alpha 2, beta 1 over C = 10: C(0,0) = 2 (1 x -1 + 4 x 0 + 7 x 1 + 10 x -1) + 10 = 2,
//   the rest alike: 2 0 -2 4 4 4 (column by column).
//   Sgemm T N of A (lda 3) with E (3 x 2), E(r, c) = r - c: A^T E (4 x 2), C2(0,0) = 1 x 0 +
//   2 x 1 + 3 x 2 = 8: 8 17 26 35 2 2 2 2.
// x = 1 -2 3 -4: nrm2 sqrt(30) = 5.47723, asum 10, amax 4 (|-4|, 1-based), amin 1.
// y = 1 1 1 1; axpy 2 x + y = 3 -3 7 -7; dot(x, y) = 3 + 6 + 21 + 28 = 58; scal 0.5 x = 0.5 -1
// 1.5 -2. gemv A v, v = 1 1 1 1: the rows' sums 22 26 30.
// DgemmStridedBatched, two 2 x 2 batches 4 apart: [1 2; 3 4] squared (column-major 1 3 2 4 ->
// 7 15 10 22) and 2I squared (4 0 0 4). GemmEx of CUDA_R_16F A = B = column-major 1 2 3 4 into
// CUDA_R_32F: [1 3; 2 4]^2 = [7 15; 10 22], column-major 7 10 15 22.
constexpr const char* kBlasProgram = R"(#include <cstdio>
#include <cuda_fp16.h>
#include <cublas_v2.h>
template <typename T> T* Dev(const T* h, int n) {
  T* d; cudaMalloc(&d, n * sizeof(T));
  cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}
template <typename T> void Print(const char* what, const T* d, int n) {
  T h[16]; cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost);
  printf("%s", what);
  for (int i = 0; i < n; ++i) printf(" %g", (double)h[i]);
  printf("\n");
}
int main() {
  cublasHandle_t h;
  if (cublasCreate(&h) != CUBLAS_STATUS_SUCCESS) return 1;
  float a[12], b[8], c[6], e[6];
  for (int col = 0; col < 4; ++col) for (int r = 0; r < 3; ++r) a[r + 3 * col] = 1 + r + 3 * col;
  for (int col = 0; col < 2; ++col) for (int r = 0; r < 4; ++r) b[r + 4 * col] = (r + 4 * col) % 3 - 1;
  for (int i = 0; i < 6; ++i) c[i] = 10;
  for (int col = 0; col < 2; ++col) for (int r = 0; r < 3; ++r) e[r + 3 * col] = r - col;
  float *A = Dev(a, 12), *B = Dev(b, 8), *C = Dev(c, 6), *E = Dev(e, 6), *C2 = Dev(b, 8);
  const float two = 2, one = 1, zero = 0, half = 0.5f;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 3, 2, 4, &two, A, 3, B, 4, &one, C, 3);
  Print("gemm", C, 6);
  cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, 4, 2, 3, &one, A, 3, E, 3, &zero, C2, 4);
  Print("gemm-t", C2, 8);
  const float xs[4] = {1, -2, 3, -4}, ys[4] = {1, 1, 1, 1};
  float *x = Dev(xs, 4), *y = Dev(ys, 4), *v = Dev(ys, 4), *w = Dev(xs, 3);
  float nrm = 0, asum = 0, dot = 0;
  int amax = 0, amin = 0;
  cublasSnrm2(h, 4, x, 1, &nrm);
  cublasSasum(h, 4, x, 1, &asum);
  cublasIsamax(h, 4, x, 1, &amax);
  cublasIsamin(h, 4, x, 1, &amin);
  cublasSaxpy(h, 4, &two, x, 1, y, 1);
  Print("axpy", y, 4);
  cublasSdot(h, 4, x, 1, y, 1, &dot);
  cublasSscal(h, 4, &half, x, 1);
  Print("scal", x, 4);
  cublasSgemv(h, CUBLAS_OP_N, 3, 4, &one, A, 3, v, 1, &zero, w, 1);
  Print("gemv", w, 3);
  printf("nrm2 %g asum %g amax %d amin %d dot %g\n", nrm, asum, amax, amin, dot);
  const double ds[8] = {1, 3, 2, 4, 2, 0, 0, 2};
  double *D = Dev(ds, 8), *DD = Dev(ds, 8);
  const double done = 1, dzero = 0;
  cublasDgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &done, D, 2, 4, D, 2, 4,
                            &dzero, DD, 2, 4, 2);
  Print("batched", DD, 8);
  __half hs[4] = {__float2half(1), __float2half(2), __float2half(3), __float2half(4)};
  __half* H = Dev(hs, 4);
  float* F = Dev(c, 4);
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, H, CUDA_R_16F, 2, H, CUDA_R_16F, 2,
               &zero, F, CUDA_R_32F, 2, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  Print("gemmex", F, 4);
  cublasDestroy(h);
  return 0;
}
)";

TEST(Cublas, ItsCommonCallsGiveWhatTheLibraryGives) {
  const LessonRun run = RunText(kBlasProgram);
  ASSERT_TRUE(run.program->ok()) << run.program->failure << run.program->stderr_text;
  EXPECT_EQ(run.program->stdout_text,
            "gemm 2 0 -2 4 4 4\n"
            "gemm-t 8 17 26 35 2 2 2 2\n"
            "axpy 3 -3 7 -7\n"
            "scal 0.5 -1 1.5 -2\n"
            "gemv 22 26 30\n"
            "nrm2 5.47723 asum 10 amax 4 amin 1 dot 58\n"
            "batched 7 15 10 22 4 0 0 4\n"
            "gemmex 7 10 15 22\n");
  // No launch is the library's; the note names every call and how many ran.
  EXPECT_TRUE(run.launches.empty());
  bool noted = false;
  for (const ProgramDiagnostic& w : run.program->warnings) {
    if (w.message.find("cuBLAS ran 12 calls on the emulator's processor") == std::string::npos)
      continue;
    noted = true;
    // By name, in byte order.
    EXPECT_NE(w.message.find("(cublasDgemmStridedBatched x1, cublasGemmEx x1, cublasIsamax x1, "
                             "cublasIsamin x1, cublasSasum x1, cublasSaxpy x1, cublasSdot x1, "
                             "cublasSgemm x2, cublasSgemv x1, cublasSnrm2 x1, cublasSscal x1)"),
              std::string::npos)
        << w.message;
  }
  EXPECT_TRUE(noted);
}

// geam, cuBLAS's extension: a transpose (op T with beta 0, B null) and a sum; and Hgemm. A is
// 2 x 3, column-major 1 2 3 4 5 6, so [1 3 5; 2 4 6]: its transpose [1 2; 3 4; 5 6] is 1 3 5 2 4
// 6; 2A + B with B all ones is 3 5 7 9 11 13. Hgemm of the halves [1 3; 2 4] squared: [7 15; 10
// 22], column-major 7 10 15 22, exact in half.
TEST(Cublas, GeamTransposesAndAddsAndHgemmMultipliesHalves) {
  const LessonRun run = RunText(R"(#include <cstdio>
#include <cuda_fp16.h>
#include <cublas_v2.h>
int main() {
  cublasHandle_t h; cublasCreate(&h);
  const float as[6] = {1, 2, 3, 4, 5, 6}, ones[6] = {1, 1, 1, 1, 1, 1};
  float *a, *b, *t, *s;
  cudaMalloc(&a, 24); cudaMalloc(&b, 24); cudaMalloc(&t, 24); cudaMalloc(&s, 24);
  cudaMemcpy(a, as, 24, cudaMemcpyHostToDevice);
  cudaMemcpy(b, ones, 24, cudaMemcpyHostToDevice);
  const float one = 1, two = 2, zero = 0;
  cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, 3, 2, &one, a, 2, &zero, nullptr, 3, t, 3);
  cublasSgeam(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 3, &two, a, 2, &one, b, 2, s, 2);
  float ts[6], ss[6];
  cudaMemcpy(ts, t, 24, cudaMemcpyDeviceToHost);
  cudaMemcpy(ss, s, 24, cudaMemcpyDeviceToHost);
  __half hs[4] = {__float2half(1), __float2half(2), __float2half(3), __float2half(4)}, ho[4];
  __half *H, *O; cudaMalloc(&H, 8); cudaMalloc(&O, 8);
  cudaMemcpy(H, hs, 8, cudaMemcpyHostToDevice);
  const __half hone = __float2half(1), hzero = __float2half(0);
  cublasHgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &hone, H, 2, H, 2, &hzero, O, 2);
  cudaMemcpy(ho, O, 8, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 6; ++i) printf("%g ", ts[i]);
  for (int i = 0; i < 6; ++i) printf("%g ", ss[i]);
  for (int i = 0; i < 4; ++i) printf("%g ", __half2float(ho[i]));
  printf("\n");
  return 0;
}
)");
  ASSERT_TRUE(run.program->ok()) << run.program->failure << run.program->stderr_text;
  EXPECT_EQ(run.program->stdout_text, "1 3 5 2 4 6 3 5 7 9 11 13 7 10 15 22 \n");
}

// A host array where cuBLAS reads device memory: on a GPU the call faults or reads what lies at
// that address; here the program stops, naming the call and the argument.
TEST(Cublas, AHostPointerStopsTheProgramNamingTheCallAndTheArgument) {
  const LessonRun run = RunText(R"(#include <cstdio>
#include <cublas_v2.h>
int main() {
  cublasHandle_t h; cublasCreate(&h);
  float host[16] = {};
  float* d; cudaMalloc(&d, 16 * sizeof(float));
  const float one = 1, zero = 0;
  printf("before\n");
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, host, 4, d, 4, &zero, d, 4);
  printf("after\n");
  return 0;
}
)");
  ASSERT_FALSE(run.program->ok());
  EXPECT_NE(run.program->failure.find("cublasSgemm: A ("), std::string::npos)
      << run.program->failure;
  // 4 x 4 floats from a column-major A of leading dimension 4: 64 bytes.
  EXPECT_NE(run.program->failure.find(", 64 bytes) is not device memory"), std::string::npos)
      << run.program->failure;
  EXPECT_EQ(run.program->stdout_text, "before\n");
}

// cuBLAS's own answers to what it does not take: a step of 0 or less in cublasSetVector is an
// invalid value (7), and GemmEx of CUDA_R_64F data under CUBLAS_COMPUTE_32F is not supported (15),
// as its table says; y is left as it was (0 0 0 0), C too (9).
TEST(Cublas, WhatCublasRefusesItAnswersWithItsStatus) {
  const LessonRun run = RunText(R"(#include <cstdio>
#include <cublas_v2.h>
int main() {
  cublasHandle_t h; cublasCreate(&h);
  const float xs[4] = {1, 2, 3, 4};
  float* y; cudaMalloc(&y, 16); cudaMemset(y, 0, 16);
  const int s1 = (int)cublasSetVector(4, 4, xs, 1, y, -1);
  float ys[4]; cudaMemcpy(ys, y, 16, cudaMemcpyDeviceToHost);
  double* d; cudaMalloc(&d, 32);
  const double nine[4] = {9, 9, 9, 9};
  cudaMemcpy(d, nine, 32, cudaMemcpyHostToDevice);
  const double one = 1, zero = 0;
  const int s2 = (int)cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, d, CUDA_R_64F, 2,
                                   d, CUDA_R_64F, 2, &zero, d, CUDA_R_64F, 2, CUBLAS_COMPUTE_32F,
                                   CUBLAS_GEMM_DEFAULT);
  double ds[4]; cudaMemcpy(ds, d, 32, cudaMemcpyDeviceToHost);
  printf("%d %g %g %g %g; %d %g\n", s1, ys[0], ys[1], ys[2], ys[3], s2, ds[0]);
  return 0;
}
)");
  ASSERT_TRUE(run.program->ok()) << run.program->failure << run.program->stderr_text;
  EXPECT_EQ(run.program->stdout_text, "7 0 0 0 0; 15 9\n");
}

// C one column short of what the sizes say: a 4 x 4 C of leading dimension 4 is 64 bytes, the
// buffer 48; the message says the sizes run 16 bytes past its end, not that it is no device
// memory.
TEST(Cublas, ABufferTooSmallForTheSizesSaysByHowMuch) {
  const LessonRun run = RunText(R"(#include <cublas_v2.h>
int main() {
  cublasHandle_t h; cublasCreate(&h);
  float *a, *c; cudaMalloc(&a, 64); cudaMalloc(&c, 48);
  const float one = 1, zero = 0;
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, a, 4, a, 4, &zero, c, 4);
  return 0;
}
)");
  ASSERT_FALSE(run.program->ok());
  const std::string& f = run.program->failure;
  EXPECT_NE(f.find("cublasSgemm: C ("), std::string::npos) << f;
  EXPECT_NE(
      f.find(", 64 bytes by the sizes and leading dimension given) runs 16 bytes past the end "
             "of "),
      std::string::npos)
      << f;
  EXPECT_NE(f.find(", which holds 48 bytes"), std::string::npos) << f;
}

// The model's time of a call, as a launch's: a 256 x 256 x 256 Sgemm is 2 x 256^3 = 33,554,432
// floating-point operations, at hopper's 132 x 128 x 2 x 1.98 = 66,908.16 GFLOP/s 0.000501501 ms,
// and 4 x 256^2 floats read and written (1,048,576 bytes) at 3,350 GB/s 0.000313 ms: the longer
// plus a launch's 0.002 ms, 0.0025015 ms between the two events.
TEST(Cublas, ACallTakesTheModelsTimeBetweenEvents) {
  const LessonRun run = RunText(R"(#include <cstdio>
#include <cublas_v2.h>
int main() {
  const int n = 256;
  cublasHandle_t h; cublasCreate(&h);
  float *a, *c; cudaMalloc(&a, n * n * 4); cudaMalloc(&c, n * n * 4);
  cudaEvent_t start, stop; cudaEventCreate(&start); cudaEventCreate(&stop);
  const float one = 1, zero = 0;
  cudaEventRecord(start);
  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, a, n, a, n, &zero, c, n);
  cudaEventRecord(stop); cudaEventSynchronize(stop);
  float ms = 0; cudaEventElapsedTime(&ms, start, stop);
  printf("%.7f ms\n", ms);
  return 0;
}
)");
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  EXPECT_EQ(run.program->stdout_text, "0.0025015 ms\n");
}

// A call on a capturing stream is a node of its graph, run at each of the graph's launches, as
// cuBLAS's kernels are captured on a GPU: y = 0 plus 2x three times is 6x (x = 1 2 3 4: 6 12 18
// 24), where running it at the call would leave 2 4 6 8 and a graph of nothing. The scalar is
// the call's (alpha changed after the capture does not count). The note counts three runs.
TEST(Cublas, ACallOnACapturingStreamRunsAtEachOfTheGraphsLaunches) {
  const LessonRun run = RunText(R"(#include <cstdio>
#include <cublas_v2.h>
int main() {
  cublasHandle_t h; cublasCreate(&h);
  cudaStream_t s; cudaStreamCreate(&s);
  cublasSetStream(h, s);
  const float xs[4] = {1, 2, 3, 4};
  float *x, *y; cudaMalloc(&x, 16); cudaMalloc(&y, 16);
  cudaMemcpy(x, xs, 16, cudaMemcpyHostToDevice);
  cudaMemset(y, 0, 16);
  float alpha = 2;
  cudaGraph_t g; cudaGraphExec_t e;
  cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal);
  cublasSaxpy(h, 4, &alpha, x, 1, y, 1);
  cudaStreamEndCapture(s, &g);
  alpha = 100;
  cudaGraphInstantiate(&e, g, 0);
  for (int i = 0; i < 3; ++i) cudaGraphLaunch(e, s);
  cudaStreamSynchronize(s);
  float ys[4]; cudaMemcpy(ys, y, 16, cudaMemcpyDeviceToHost);
  printf("%g %g %g %g\n", ys[0], ys[1], ys[2], ys[3]);
  return 0;
}
)");
  ASSERT_TRUE(run.program->ok()) << run.program->failure << run.program->stderr_text;
  EXPECT_EQ(run.program->stdout_text, "6 12 18 24\n");
  bool noted = false;
  for (const ProgramDiagnostic& w : run.program->warnings)
    noted = noted || w.message.find("cuBLAS ran 3 calls") != std::string::npos;
  EXPECT_TRUE(noted);
}

}  // namespace
}  // namespace ws
