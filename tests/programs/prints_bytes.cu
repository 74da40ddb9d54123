// A program that prints bytes of every kind, for the tests of how Warpscope keeps and shows what a
// program printed (trace/printed_text.h): NUL, bytes that are not UTF-8 (0x80..0xFF alone, an
// overlong '/', a surrogate, a sequence cut short), a terminal's escape sequences, CR, a C1
// control, and valid UTF-8 around them. The random bytes come from a kernel (a hash of the
// index and SEED), so every run prints the same ones. Never a valid U+FFFD (EF BF BD): 0xEF is
// left out, so every U+FFFD shown is a byte that was replaced.
//
//   prints_bytes            the bytes, between <<begin>> and <<end>> lines
//   prints_bytes WORD       also "argv[1] = WORD" (the app's --arg reaches main())
//   prints_bytes flood      only 1.5 MiB of 'x' lines instead: 512 KiB past the 1 MiB output limit
//   prints_bytes spin       never ends (a time limit stops it)
// It also prints SEED and COUNT, which -D sets.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#define SEED 12345
#define COUNT 4096

__global__ void fill(unsigned char* bytes, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned int h = (unsigned int)i * 2654435761u + SEED;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    unsigned char b = (unsigned char)(h & 0xFF);
    bytes[i] = b == 0xEF ? 0x00 : b;
  }
}

int main(int argc, char** argv) {
  if (argc > 1 && strcmp(argv[1], "flood") == 0) {
    // 1,572,864 bytes: 24,576 lines of 63 'x' and a newline.
    char line[64];
    memset(line, 'x', 63);
    line[63] = '\n';
    for (int i = 0; i < 24576; ++i) fwrite(line, 1, 64, stdout);
    return 0;
  }
  if (argc > 1 && strcmp(argv[1], "spin") == 0) {
    volatile unsigned long spins = 0;
    for (;;) spins = spins + 1;
  }
  printf("<<begin>>\n");
  if (argc > 1) printf("argv[1] = %s\n", argv[1]);
  printf("SEED %d COUNT %d\n", SEED, COUNT);
  unsigned char* d;
  unsigned char host[COUNT];
  cudaMalloc((void**)&d, COUNT);
  fill<<<COUNT / 256, 256>>>(d, COUNT);
  cudaMemcpy(host, d, COUNT, cudaMemcpyDeviceToHost);
  cudaFree(d);
  fwrite(host, 1, COUNT, stdout);
  // Each kind once more, by name: ESC sequences, CR, DEL, a C1 CSI (U+009B), lone continuation
  // bytes, an overlong '/', a UTF-16 surrogate, a lead byte cut short, and valid two-, three-
  // and four-byte characters; then a NUL.
  const char kinds[] =
      "\n\x1b[2J\x1b[31mred\x1b[0m\rCR\x7f\xc2\x9b\x80\xbf\xc0\xaf\xed\xa0\x80"
      "\xe2\x82 \xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\n";
  fwrite(kinds, 1, sizeof kinds - 1, stdout);
  fputc('\0', stdout);
  printf("\n<<end>>\n");
  return 0;
}
