// Shared-memory layouts: a 32x32 tile transposed through shared memory, as written, padded and
// XOR-swizzled; then the same tile as rows of float4 chunks, read by columns of chunks.
#pragma once
// Plain CUDA. The build turns the pointer parameters and __shared__ arrays into Warpscope's
// recording types, line for line (program/rewrite/lesson_form.cpp).

#define TILE 32

// as-written: a row of the tile is 32 floats, 128 bytes, every bank once. The store writes rows
// (lane l: column l, bank l); the load reads a column (lane l: row l, word 32 l), so every lane's
// word is in one bank: 32-way, 32 wavefronts for one request.
__global__ void tileAsWritten(float* out, const float* in, int n) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

// padded: rows of 33 floats. Word 33 l + c is in bank (l + c) mod 32: a column runs diagonally
// across all the banks. 1-way, at the price of 32 unused floats (128 bytes) per tile.
__global__ void tilePadded(float* out, const float* in, int n) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  out[y * n + x] = tile[threadIdx.x][threadIdx.y];
}

// swizzled: element (i, j) is kept in column j ^ i of row i (CuTe's Swizzle<5,0,5>). A row still
// holds its 32 elements, so the store stays 1-way; the column read (lane l: row l, column c ^ l)
// meets bank c ^ l, a different bank for every lane. 1-way, nothing wasted.
__global__ void tileSwizzled(float* out, const float* in, int n) {
  __shared__ float tile[TILE][TILE];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  tile[threadIdx.y][threadIdx.x ^ threadIdx.y] = in[y * n + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  out[y * n + x] = tile[threadIdx.x][threadIdx.y ^ threadIdx.x];
}

// float4-columns: the tile as 32 rows of 8 float4 chunks (16 bytes, 4 banks each). A block of
// 32x8 threads stores rows of chunks (a warp: 4 rows, 512 bytes in 4 wavefronts, the least 16-byte
// accesses need) and then warp w reads chunk column w: lane l's 16 bytes are at 128 l + 16 w, in
// the same 4 banks for every lane. A 16-byte access is served a quarter-warp (8 lanes, 128 bytes)
// at a time: 8 different chunks in one bank group per quarter, 4 quarters: 32 wavefronts.
__global__ void chunksAsWritten(float4* out, const float4* in) {
  __shared__ float4 chunks[TILE][8];
  int t = threadIdx.y * TILE + threadIdx.x;
  int base = blockIdx.x * TILE * 8;
  chunks[t / 8][t % 8] = in[base + t];
  __syncthreads();
  out[base + t] = chunks[threadIdx.x][threadIdx.y];
}

// float4-padded: rows of 9 chunks (144 bytes): row l starts 4 l banks further on, so the 8 lanes of
// a quarter-warp meet 8 different bank groups. 4 wavefronts, 512 bytes per tile unused.
__global__ void chunksPadded(float4* out, const float4* in) {
  __shared__ float4 chunks[TILE][9];
  int t = threadIdx.y * TILE + threadIdx.x;
  int base = blockIdx.x * TILE * 8;
  chunks[t / 8][t % 8] = in[base + t];
  __syncthreads();
  out[base + t] = chunks[threadIdx.x][threadIdx.y];
}

// float4-swizzled: chunk c of row r kept at c ^ (r & 7) (in floats, CuTe's Swizzle<3,2,3>: the
// 4 floats of a chunk stay together). The 8 lanes of a quarter-warp read rows 8q .. 8q+7 at
// chunks w ^ 0 .. w ^ 7: 8 different bank groups. 4 wavefronts, nothing wasted.
__global__ void chunksSwizzled(float4* out, const float4* in) {
  __shared__ float4 chunks[TILE][8];
  int t = threadIdx.y * TILE + threadIdx.x;
  int base = blockIdx.x * TILE * 8;
  chunks[t / 8][(t % 8) ^ ((t / 8) & 7)] = in[base + t];
  __syncthreads();
  out[base + t] = chunks[threadIdx.x][threadIdx.y ^ (threadIdx.x & 7)];
}

#undef TILE
