// cuRAND's device API, for the emulator's agreement with a GPU (shim/curand_kernel.h; docs/
// PROGRAMS.md, "cuRAND's device API"): XORWOW and Philox4_32_10 states made by curand_init at
// several seeds, subsequences and offsets, each followed by its integers, uniform floats and
// doubles (as bits, %a), normals and log-normals. Built with plain nvcc on a GPU its output is the
// truth the emulator's is compared with (Curand.ItsValuesAreAnH100s): the integers and uniforms
// line for line, the normals within what the GPU's own __sincosf and logf make of them. Its output
// on an H100 (CUDA 13.0, nvcc for sm_90, 2026-12-05) is kept beside it, curand_values.gpu.txt.
#include <curand_kernel.h>
#include <cstdio>

constexpr int kRows = 8;

template <typename State>
__global__ void Draw(unsigned long long seed, unsigned long long sub, unsigned long long off,
                     unsigned int* ints, float* floats, double* doubles) {
  State s;
  curand_init(seed, sub, off, &s);
  for (int i = 0; i < kRows; ++i) ints[i] = curand(&s);
  for (int i = 0; i < kRows; ++i) floats[i] = curand_uniform(&s);
  for (int i = 0; i < kRows; ++i) doubles[i] = curand_uniform_double(&s);
  for (int i = 0; i < kRows; ++i) floats[kRows + i] = curand_normal(&s);
  for (int i = 0; i < kRows; ++i) doubles[kRows + i] = curand_normal_double(&s);
  for (int i = 0; i < kRows; ++i) floats[2 * kRows + i] = curand_log_normal(&s, 0.5f, 0.25f);
}

template <typename State>
void Print(const char* name, unsigned long long seed, unsigned long long sub,
           unsigned long long off, unsigned int* di, float* df, double* dd) {
  Draw<State><<<1, 1>>>(seed, sub, off, di, df, dd);
  unsigned int ints[kRows];
  float floats[3 * kRows];
  double doubles[2 * kRows];
  cudaMemcpy(ints, di, sizeof ints, cudaMemcpyDeviceToHost);
  cudaMemcpy(floats, df, sizeof floats, cudaMemcpyDeviceToHost);
  cudaMemcpy(doubles, dd, sizeof doubles, cudaMemcpyDeviceToHost);
  printf("%s %llu %llu %llu\n", name, seed, sub, off);
  printf("  int");
  for (unsigned int v : ints) printf(" %u", v);
  printf("\n  uniform");
  for (int i = 0; i < kRows; ++i) printf(" %a", floats[i]);
  printf("\n  uniform_double");
  for (int i = 0; i < kRows; ++i) printf(" %a", doubles[i]);
  printf("\n  normal");
  for (int i = 0; i < kRows; ++i) printf(" %a", floats[kRows + i]);
  printf("\n  normal_double");
  for (int i = 0; i < kRows; ++i) printf(" %a", doubles[kRows + i]);
  printf("\n  log_normal");
  for (int i = 0; i < kRows; ++i) printf(" %a", floats[2 * kRows + i]);
  printf("\n");
}

int main() {
  unsigned int* di;
  float* df;
  double* dd;
  cudaMalloc(&di, kRows * sizeof(unsigned int));
  cudaMalloc(&df, 3 * kRows * sizeof(float));
  cudaMalloc(&dd, 2 * kRows * sizeof(double));
  const unsigned long long cases[][3] = {
      {0, 0, 0}, {1234, 0, 0}, {1234, 1, 0}, {1234, 1000, 5}, {42, (1ull << 40) + 3, 9}};
  for (const auto& c : cases) Print<curandState>("xorwow", c[0], c[1], c[2], di, df, dd);
  for (const auto& c : cases)
    Print<curandStatePhilox4_32_10_t>("philox", c[0], c[1], c[2], di, df, dd);
  return 0;
}
