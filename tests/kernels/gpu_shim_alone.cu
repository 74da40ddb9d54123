// The GPU shim that a user's program is compiled with (nvcc -include ws_program_cuda.h) must
// compile on its own, whatever order its includes are in (a clang-format that sorted them once
// left ws_cuda_device.h without MakePlace and every program failed on the GPU). Compiled by
// the KernelApi.ProgramShimStandsAloneForNvcc test; nothing runs.
__global__ void Scale(float* a, float s) {
  a[threadIdx.x] *= s;
}

int main() {
  return 0;
}
