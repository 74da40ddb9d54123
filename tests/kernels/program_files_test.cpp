// Course programs on the emulator, around their kernels (issue 21, docs/PROGRAMS.md): an installed
// toolkit never read, the program's own headers and translation units, -D on its constants,
// requests as a GPU forms them (against Nsight Compute's counts), refusals by name, and what a
// time limit and an exit status leave.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "program_test_util.h"
#include "warpscope/program/program.h"

namespace ws {
namespace {

using test::Folder;
using test::RunText;
using test::SiteAt;

// A fake CUDA toolkit on CPATH whose headers must never be read.
TEST(CoursePrograms, AnInstalledToolkitNeverLeaksIntoTheParse) {
  Folder f("toolkit");
  f.Write("toolkit/cuda_runtime_api.h", "#error the toolkit leaked\n");
  f.Write("toolkit/vector_types.h", "#error the toolkit leaked\n");
  f.Write("toolkit/cuda_profiler_api.h", "#error the toolkit leaked\n");
  f.Write("toolkit/cooperative_groups.h", "#error the toolkit leaked\n");
  f.Write("prog.cu",
          "#include <cuda_profiler_api.h>\n#include <vector_types.h>\n"
          "#include <cooperative_groups.h>\n#include <cstdio>\n"
          "int main() { cudaProfilerStart(); printf(\"ok\\n\"); return 0; }\n");
  const std::string old = std::getenv("CPATH") != nullptr ? std::getenv("CPATH") : "";
  setenv("CPATH", (f.path() / "toolkit").c_str(), 1);
  LessonRun run = f.Run("prog.cu");
  setenv("CPATH", old.c_str(), 1);
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  EXPECT_EQ(run.program->stdout_text, "ok\n");
  // And it says why the folder was left out.
  bool said = false;
  for (const ProgramDiagnostic& w : run.program->warnings)
    said = said || w.message.find("a CUDA toolkit's headers: left out") != std::string::npos;
  EXPECT_TRUE(said);
}

TEST(CoursePrograms, KernelsInTheProgramsOwnHeadersAreRecordedByTheirFile) {
  Folder f("headers");
  f.Write("include/params.h", "#define N 256\n");
  f.Write("kern.cuh",
          "#pragma once\n"
          "#include \"params.h\"\n"
          "__device__ float twice(const float* a, int i) { return 2.0f * a[i]; }\n"
          "__global__ void scale(float* out, const float* in) {\n"
          "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
          "  if (i < N) out[i] = twice(in, i);\n"
          "  __syncthreads();\n"
          "}\n");
  f.Write("main.cu",
          "#include <cstdio>\n#include \"kern.cuh\"\n"
          "int main() { float *a, *b; cudaMalloc(&a, N * 4); cudaMalloc(&b, N * 4);\n"
          "  scale<<<N / 128, 128>>>(b, a); cudaDeviceSynchronize(); printf(\"%d\\n\", N); }\n");
  ProgramOptions o;
  o.include_dirs = {f.path() / "include"};
  LessonRun run = f.Run("main.cu", o);
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  ASSERT_EQ(run.launches.size(), 1u);
  const LaunchTrace& t = run.launches[0];
  EXPECT_EQ(t.grid.x, 2u);  // N = 256 from include/params.h
  std::size_t i = 0;
  const SiteInfo* load = SiteAt(t, 3, 63, &i);  // a[i] in twice(), kern.cuh line 3
  ASSERT_NE(load, nullptr);
  EXPECT_EQ(load->file, "kern.cuh");
  EXPECT_EQ(load->code, "__device__ float twice(const float* a, int i) { return 2.0f * a[i]; }");
  EXPECT_EQ(t.stats.sites[i].requests, 8u);  // 2 blocks x 4 warps
  ASSERT_EQ(t.barrier_sites.size(), 1u);
  EXPECT_EQ(t.barrier_sites[0].file, "kern.cuh");
  EXPECT_EQ(t.barrier_sites[0].line, 7u);
  // The launch list knows where the kernel is written, and the run carries the header's text.
  ASSERT_EQ(run.program->kernel_files.size(), 1u);
  EXPECT_EQ(run.program->kernel_files[0].file, "kern.cuh");
  std::map<std::string, std::string> files(run.program->files.begin(), run.program->files.end());
  EXPECT_EQ(files.count("kern.cuh"), 1u);
  EXPECT_EQ(files.count("include/params.h"), 1u);

  // An edit of the header is seen (the caches are keyed by it), and -D sets its #define.
  f.Write("include/params.h", "#define N 512\n");
  run = f.Run("main.cu", o);
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  EXPECT_EQ(run.program->stdout_text, "512\n");
  o.defines = {"N=1024"};
  run = f.Run("main.cu", o);
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  EXPECT_EQ(run.program->stdout_text, "1024\n");
}

// The emulator's shim is precompiled once into the cache (a GCC .gch beside the header the
// compile includes) and used by every later compile with the same command; a program's own -D
// does not make another.
TEST(CoursePrograms, TheShimIsPrecompiledOnceAndReused) {
  Folder cache("ws-pch-cache");
  ProgramOptions o;
  o.cache_dir = cache.path();
  auto gch_files = [&] {
    std::vector<std::filesystem::path> found;
    for (const auto& e : std::filesystem::directory_iterator(cache.path())) {
      if (e.path().extension() == ".gch") found.push_back(e.path());
    }
    return found;
  };
  // VALUE is no #define of the program's: -D VALUE=7 goes to the compiler.
  const std::string text =
      "#include <cstdio>\n#ifdef VALUE\n#define N VALUE\n#else\n#define N 4\n#endif\n"
      "__global__ void k(int* d) { d[threadIdx.x] = N; }\n"
      "int main() { int* d; cudaMallocManaged(&d, 64); k<<<1, 4>>>(d);\n"
      "  cudaDeviceSynchronize(); printf(\"%d\\n\", d[3]); }\n";
  LessonRun first = RunText(text, o);
  ASSERT_TRUE(first.program->ok()) << first.program->failure;
  EXPECT_EQ(first.program->stdout_text, "4\n");
  const auto after_first = gch_files();
  ASSERT_EQ(after_first.size(), 1u);
  const auto made = std::filesystem::last_write_time(after_first[0]);
  o.defines = {"VALUE=7"};
  LessonRun second = RunText(text, o);
  ASSERT_TRUE(second.program->ok()) << second.program->failure;
  EXPECT_EQ(second.program->stdout_text,
            "7\n");  // the -D reached the program through the precompiled shim
  ASSERT_EQ(gch_files().size(), 1u);
  EXPECT_EQ(std::filesystem::last_write_time(after_first[0]), made);
}

// The rewriter reads the shim precompiled too (shim-rewrite-KEY.pch, with the header it was
// made from beside it), made once; a damaged one is dropped, the rewrite runs without it and the
// next one makes it again. The program's sites are the same either way.
TEST(CoursePrograms, TheRewriterReadsThePrecompiledShimAndCopesWithADamagedOne) {
  Folder cache("ws-rewrite-pch-cache");
  ProgramOptions o;
  o.cache_dir = cache.path();
  auto pch = [&] {
    std::vector<std::filesystem::path> found;
    for (const auto& e : std::filesystem::directory_iterator(cache.path())) {
      const std::string n = e.path().filename().string();
      if (n.rfind("shim-rewrite-", 0) == 0 && e.path().extension() == ".pch")
        found.push_back(e.path());
    }
    return found;
  };
  const std::string text =
      "#include <cstdio>\n__global__ void k(int* d) { d[threadIdx.x] = V; }\n"
      "int main() { int* d; cudaMallocManaged(&d, 64); k<<<1, 4>>>(d);\n"
      "  cudaDeviceSynchronize(); printf(\"%d\\n\", d[3]); }\n";
  o.defines = {"V=1"};
  const LessonRun first = RunText(text, o);
  ASSERT_TRUE(first.program->ok()) << first.program->failure;
  EXPECT_EQ(first.program->stdout_text, "1\n");
  ASSERT_EQ(pch().size(), 1u);
  const std::filesystem::path made = pch()[0];
  EXPECT_TRUE(std::filesystem::exists(made.parent_path() / (made.stem().string() + ".h")));
  // Damaged: the rewrite (a new -D: not a cached one) still works, without it.
  { std::ofstream(made, std::ios::binary | std::ios::trunc) << "not a precompiled header"; }
  o.defines = {"V=2"};
  const LessonRun second = RunText(text, o);
  ASSERT_TRUE(second.program->ok()) << second.program->failure;
  EXPECT_EQ(second.program->stdout_text, "2\n");
  EXPECT_TRUE(pch().empty());
  o.defines = {"V=3"};
  const LessonRun third = RunText(text, o);
  ASSERT_TRUE(third.program->ok()) << third.program->failure;
  EXPECT_EQ(third.program->stdout_text, "3\n");
  EXPECT_EQ(pch().size(), 1u);  // made again
  ASSERT_EQ(first.launches.size(), 1u);
  ASSERT_EQ(second.launches.size(), 1u);
  ASSERT_EQ(first.launches[0].sites.size(), second.launches[0].sites.size());
  for (std::size_t i = 0; i < first.launches[0].sites.size(); ++i) {
    EXPECT_EQ(first.launches[0].sites[i].line, second.launches[0].sites[i].line);
    EXPECT_EQ(first.launches[0].sites[i].column, second.launches[0].sites[i].column);
  }
}

TEST(CoursePrograms, SeveralTranslationUnitsCompileTogether) {
  Folder f("units");
  f.Write("gold_cpu.cpp", "float Gold(float x) { return 2.0f * x; }\n");
  f.Write("main.cu",
          "#include <cstdio>\nfloat Gold(float x);\n"
          "__global__ void k(float* a) { a[threadIdx.x] = 2.0f * threadIdx.x; }\n"
          "int main() { float* d; cudaMalloc(&d, 128); k<<<1, 32>>>(d); float h[32];\n"
          "  cudaMemcpy(h, d, 128, cudaMemcpyDeviceToHost);\n"
          "  printf(\"%s\\n\", h[5] == Gold(5) ? \"PASS\" : \"FAIL\"); return 0; }\n");
  auto set = ProgramFileSetOf({f.path()});  // the folder: main.cu holds main()
  ASSERT_TRUE(set.ok()) << set.status().message();
  EXPECT_EQ(set->main.filename(), "main.cu");
  ASSERT_EQ(set->others.size(), 1u);
  ProgramOptions o;
  o.extra_files = set->others;
  LessonRun run = f.Run("main.cu", o);
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  EXPECT_EQ(run.program->stdout_text, "PASS\n");
}

TEST(CoursePrograms, DefinesReachAProgramsConstIntegers) {
  const std::string text =
      "#include <cstdio>\n"
      "const int N = 1 << 10;\n"
      "int main() { const int M = 4; printf(\"%d %d\\n\", N, M); return 0; }\n";
  ProgramOptions o;
  o.defines = {"N=64", "M=8"};
  LessonRun run = RunText(text, o);
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  EXPECT_EQ(run.program->stdout_text, "64 8\n");
  EXPECT_EQ(RunText(text).program->stdout_text, "1024 4\n");
}

TEST(CoursePrograms, ARequestIsTheLanesThatRunTheSameStep) {
  // A four-step loop reading a row of 32 floats a step; lane 0 skips step 1. On a GPU each step
  // is one request of 4 sectors (Nsight Compute on an H200: 4, not 7). And a helper called twice,
  // the first time by lanes 0-15 only: 2 sectors, then 4.
  LessonRun run = RunText(
      "__global__ void four(const float* in, float* out) {\n"
      "  int t = threadIdx.x; float s = 0;\n"
      "  for (int k = 0; k < 4; ++k) {\n"
      "    if (t == 0 && k == 1) continue;\n"
      "    s += in[k * 32 + t];\n"
      "  }\n"
      "  out[t] = s;\n"
      "}\n"
      "__device__ float get(const float* a, int i) { return a[i]; }\n"
      "__global__ void twice(const float* in, float* out) {\n"
      "  int t = threadIdx.x; float s = 0;\n"
      "  if (t < 16) s = get(in, t);\n"
      "  s += get(in, 32 + t);\n"
      "  out[t] = s;\n"
      "}\n"
      "int main() { float *i, *o; cudaMalloc(&i, 512); cudaMalloc(&o, 512);\n"
      "  four<<<1, 32>>>(i, o); twice<<<1, 32>>>(i, o); cudaDeviceSynchronize(); return 0; }\n");
  ASSERT_TRUE(run.program->ok()) << run.program->failure;
  ASSERT_EQ(run.launches.size(), 2u);
  std::size_t i = 0;
  ASSERT_NE(SiteAt(run.launches[0], 5, 10, &i), nullptr);
  EXPECT_EQ(run.launches[0].stats.sites[i].requests, 4u);
  EXPECT_EQ(run.launches[0].stats.sites[i].sectors, 16u);
  ASSERT_NE(SiteAt(run.launches[1], 9, 54, &i), nullptr);
  EXPECT_EQ(run.launches[1].stats.sites[i].requests, 2u);
  EXPECT_EQ(run.launches[1].stats.sites[i].sectors, 6u);
}

// The agreement programs (tests/programs/agreement) give Nsight Compute's own counts for them:
// measured on an NVIDIA H200 with Nsight Compute 2025.3.1 (nvcc -O3 -arch=sm_90,
// l1tex__t_{requests,sectors}_pipe_lsu_mem_global_op_{ld,st}.sum and
// l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum; docs/programs-ncu.md). local_bins on an
// NVIDIA H100 (the same CUDA and Nsight Compute): l1tex__t_{requests,sectors}_pipe_lsu_mem_local_
// op_{ld,st}.sum, 5,120 requests and 49,152 sectors each way. By hand: 4,096 warp-steps of 4
// sectors (zeroing, read-out: every lane on one bin) and 1,024 of 32 (the data's 32 bins).
TEST(CoursePrograms, AgreementProgramsGiveNsightComputesCounts) {
  struct Want {
    const char* file;
    std::uint64_t ld_requests, ld_sectors, st_requests, st_sectors, shared_ld_wavefronts;
    std::uint64_t local_ld_requests = 0, local_ld_sectors = 0, local_st_requests = 0,
                  local_st_sectors = 0;
  };
  const Want wants[] = {
      {"skip_step.cu", 512, 2048, 128, 512, 0},  // a lane skipping a step: 4 sectors a request
      {"stencil1d.cu", 160, 672, 128, 512, 896},
      {"conv7.cu", 12208, 56680, 256, 1024, 0},  // the image reads; the mask is __constant__
      {"local_bins.cu", 1024, 4096, 4096, 16384, 0, 5120, 49152, 5120, 49152},
  };
  for (const Want& w : wants) {
    const std::filesystem::path file =
        std::filesystem::path(WARPSCOPE_SOURCE_DIR) / "tests/programs/agreement" / w.file;
    const LessonRun run = RunProgramFile(file, {});
    ASSERT_TRUE(run.program->ok()) << w.file << ": " << run.program->failure;
    ASSERT_EQ(run.launches.size(), 1u) << w.file;
    const LaunchTrace& t = run.launches[0];
    std::uint64_t ldr = 0, lds = 0, str = 0, sts = 0, shw = 0, lldr = 0, llds = 0, lstr = 0,
                  lsts = 0;
    for (std::size_t i = 0; i < t.sites.size(); ++i) {
      const SiteStats& st = t.stats.sites[i];
      if (t.sites[i].space == MemorySpace::kLocal) {
        (t.sites[i].op == AccessOp::kLoad ? lldr : lstr) += st.requests;
        (t.sites[i].op == AccessOp::kLoad ? llds : lsts) += st.sectors;
      }
      if (t.sites[i].space == MemorySpace::kGlobal && t.sites[i].op == AccessOp::kLoad) {
        ldr += st.requests;
        lds += st.sectors;
      } else if (t.sites[i].space == MemorySpace::kGlobal && t.sites[i].op == AccessOp::kStore) {
        str += st.requests;
        sts += st.sectors;
      } else if (t.sites[i].space == MemorySpace::kShared && t.sites[i].op == AccessOp::kLoad) {
        shw += st.wavefronts;
      }
    }
    EXPECT_EQ(ldr, w.ld_requests) << w.file;
    EXPECT_EQ(lds, w.ld_sectors) << w.file;
    EXPECT_EQ(str, w.st_requests) << w.file;
    EXPECT_EQ(sts, w.st_sectors) << w.file;
    EXPECT_EQ(shw, w.shared_ld_wavefronts) << w.file;
    EXPECT_EQ(lldr, w.local_ld_requests) << w.file;
    EXPECT_EQ(llds, w.local_ld_sectors) << w.file;
    EXPECT_EQ(lstr, w.local_st_requests) << w.file;
    EXPECT_EQ(lsts, w.local_st_sectors) << w.file;
    EXPECT_TRUE(t.hazards.groups.empty()) << w.file;
  }
}

TEST(CoursePrograms, WhatIsNotRunYetIsRefusedByNameAtItsLine) {
  struct Case {
    const char* text;
    std::uint32_t line;
    const char* message;
  };
  const Case cases[] = {
      {"#include <cstdio>\n\n#include <thrust/device_vector.h>\nint main() { return 0; }\n", 3,
       "Thrust is not supported (yet): #include <thrust/device_vector.h>"},
      // cublas_v2.h runs (cuBLAS's tests below); the legacy API and cuBLASLt's GEMM do not.
      {"#include <cublas.h>\nint main() { return 0; }\n", 1,
       "the legacy cuBLAS API (include cublas_v2.h) is not supported (yet): #include <cublas.h>"},
      {"#include <cublasLt.h>\n\nint main() { cublasLtMatmulDesc_t d;\n return 0; }\n", 3,
       "cublasLtMatmulDesc_t is not supported (yet)"},
      // curand_kernel.h and curand.h run (the device API's XORWOW and Philox, cuRAND's tests);
      // the rest of cuRAND's headers, its host API and its other generators do not.
      {"#include <curand_mtgp32_host.h>\nint main() { return 0; }\n", 1,
       "cuRAND is not supported (yet)"},
      {"#include <curand.h>\nint main() {\n  curandGenerator_t g;\n  return 0; }\n", 3,
       "curandGenerator_t is not supported (yet)"},
      {"#include <curand_kernel.h>\n__global__ void k() {\n  curandStateMRG32k3a_t s;\n}\n"
       "int main() { return 0; }\n",
       3, "curandStateMRG32k3a_t is not supported (yet)"},
      {"#include <cstdio>\n#include <cuda/std/atomic>\nint main() { return 0; }\n", 2,
       "libcu++ (cuda::) is not supported (yet)"},
      {"__global__ void k() { asm volatile(\"bar.sync 0;\"); }\nint main() { return 0; }\n", 1,
       "inline PTX (asm(\"bar.sync 0;\")) is not supported (yet)"},
      {"int main() { cudaGraph_t g = nullptr;\n"
       "  cudaGraphAddChildGraphNode(nullptr, g, nullptr, 0, g); return 0; }\n",
       2, "cudaGraphAddChildGraphNode is not supported (yet)"},
      // cuda-samples' cdpSimplePrint: the launch ran as the host's from a GPU thread and crashed.
      {"__global__ void child(int* a) { a[0] = 1; }\n__global__ void parent(int* a) {\n"
       "  child<<<1, 1>>>(a); }\nint main() { return 0; }\n",
       3, "a kernel launched from device code (dynamic parallelism) is not supported (yet)"},
  };
  for (const Case& c : cases) {
    LessonRun run = RunText(c.text);
    ASSERT_FALSE(run.program->ok()) << c.text;
    ASSERT_FALSE(run.program->errors.empty()) << c.text;
    EXPECT_EQ(run.program->errors[0].line, c.line) << c.text << "\n"
                                                   << run.program->errors[0].message;
    EXPECT_NE(run.program->errors[0].message.find(c.message), std::string::npos)
        << c.text << "\n"
        << run.program->errors[0].message;
  }
}

// libcu++'s standard headers that name the C++ library's (shim/cuda/std/: cuda-samples'
// dmmaTensorCoreGemm includes <cuda/std/type_traits>) are cuda::std on the emulator, beside the
// shim's <cuda/pipeline>, whose own code in namespace cuda says std::.
TEST(CoursePrograms, LibcuStandardHeadersAreTheCppLibrarys) {
  LessonRun run = RunText(
      "#include <cstdio>\n"
      "#include <cuda/std/type_traits>\n"
      "#include <cuda/std/limits>\n"
      "#include <cuda/pipeline>\n"
      "__global__ void k(int* a) {\n"
      "  a[threadIdx.x] = cuda::std::is_same_v<int, cuda::std::int32_t> ? "
      "cuda::std::numeric_limits<short>::max() : -1; }\n"
      "int main() { int* d; cudaMallocManaged(&d, 4 * sizeof(int)); k<<<1, 4>>>(d);\n"
      "  cudaDeviceSynchronize(); printf(\"%d %d\\n\", d[0], d[3]); return 0; }\n");
  ASSERT_TRUE(run.program->ok()) << run.program->failure
                                 << (run.program->errors.empty() ? ""
                                                                 : run.program->errors[0].message);
  EXPECT_EQ(run.program->stdout_text, "32767 32767\n");
}

// An L2 access policy (cuda-samples' simpleAttributes): a stream's attribute is taken and given
// back, the kernel runs, and the notes say the emulator has no L2 for it to change.
TEST(CoursePrograms, AnL2AccessPolicyIsTakenAndSaidToChangeNothing) {
  LessonRun run = RunText(
      "#include <cstdio>\n"
      "__global__ void k(int* a) { a[threadIdx.x] = threadIdx.x; }\n"
      "int main() { int* d; cudaMalloc(&d, 128); cudaStream_t s; cudaStreamCreate(&s);\n"
      "  cudaStreamAttrValue v = {}; v.accessPolicyWindow.base_ptr = d;\n"
      "  v.accessPolicyWindow.num_bytes = 128; v.accessPolicyWindow.hitRatio = 0.5f;\n"
      "  v.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;\n"
      "  v.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;\n"
      "  if (cudaStreamSetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &v) != cudaSuccess) "
      "return 1;\n"
      "  cudaCtxResetPersistingL2Cache();\n"
      "  cudaStreamAttrValue w = {};\n"
      "  cudaStreamGetAttribute(s, cudaStreamAttributeAccessPolicyWindow, &w);\n"
      "  k<<<1, 32, 0, s>>>(d); cudaStreamSynchronize(s);\n"
      "  printf(\"%zu %.2f %d\\n\", w.accessPolicyWindow.num_bytes, "
      "w.accessPolicyWindow.hitRatio,\n"
      "         (int)w.accessPolicyWindow.hitProp); return 0; }\n");
  ASSERT_TRUE(run.program->ok()) << run.program->failure
                                 << (run.program->errors.empty() ? ""
                                                                 : run.program->errors[0].message);
  EXPECT_EQ(run.program->exit_code, 0);
  EXPECT_EQ(run.program->stdout_text, "128 0.50 2\n");
  ASSERT_EQ(run.launches.size(), 1u);
  bool said = false;
  for (const ProgramDiagnostic& w : run.program->warnings)
    said = said || (w.message.find("the emulator models no L2 cache: an L2 access policy window "
                                   "(cudaStreamSetAttribute), cudaCtxResetPersistingL2Cache: "
                                   "taken, changing no figure") != std::string::npos);
  EXPECT_TRUE(said);
}

TEST(CoursePrograms, ATimeLimitKeepsTheLaunchesAndOutputBeforeIt) {
  ProgramOptions o;
  o.timeout = std::chrono::milliseconds(2500);
  LessonRun run = RunText(
      "#include <cstdio>\n"
      "__global__ void ok(float* a) { a[threadIdx.x] = 1; }\n"
      "__global__ void spin(float* a) { while (true) a[threadIdx.x] += 1; }\n"
      "int main() { float* d; cudaMalloc(&d, 128); printf(\"before\\n\");\n"
      "  ok<<<1, 32>>>(d); cudaDeviceSynchronize(); printf(\"after ok\\n\");\n"
      "  spin<<<1, 32>>>(d); cudaDeviceSynchronize(); return 0; }\n",
      o);
  ASSERT_FALSE(run.program->ok());
  EXPECT_NE(run.program->failure.find("ran longer than the limit"), std::string::npos)
      << run.program->failure;
  ASSERT_EQ(run.launches.size(), 1u);
  EXPECT_EQ(run.launches[0].kernel, "ok");
  EXPECT_EQ(run.program->stdout_text, "before\nafter ok\n");
}

TEST(CoursePrograms, TheExitStatusIsTheProgramsAndEventTimesAreTheModels) {
  LessonRun run = RunText(
      "#include <cstdio>\n"
      "__global__ void k(float* a) { a[threadIdx.x] = 1; }\n"
      "int main() { float* d; cudaMalloc(&d, 4096); cudaEvent_t a, b;\n"
      "  cudaEventCreate(&a); cudaEventCreate(&b); cudaEventRecord(a);\n"
      "  k<<<1, 1024>>>(d); cudaEventRecord(b); cudaEventSynchronize(b);\n"
      "  float ms = 0; cudaEventElapsedTime(&ms, a, b); printf(\"%.6f\\n\", ms); return 1; }\n");
  ASSERT_TRUE(run.program->ok()) << run.program->failure;  // it ran to the end...
  EXPECT_EQ(run.program->exit_code, 1);                    // ...and said it failed
  // 32 warps x 4 sectors x 32 B = 4096 B at the hopper preset's 3350 GB/s: 0.0012 us, plus the
  // model's 2 us a launch.
  EXPECT_EQ(run.program->stdout_text, "0.002001\n");
  bool said = false;
  for (const ProgramDiagnostic& w : run.program->warnings)
    said = said || w.message.find("the model's time") != std::string::npos;
  EXPECT_TRUE(said);
}

}  // namespace
}  // namespace ws
