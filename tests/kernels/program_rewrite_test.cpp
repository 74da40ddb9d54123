// What clang's front end finds in a program (sites, columns, kinds, kernels, launches, errors),
// and the `// warpscope: param` sliders and -D values.
#include <gtest/gtest.h>

#include "program_templates_programs.h"

#include <tuple>

#include "warpscope/program/program.h"
#include "warpscope/trace/ws_cuda_keys.h"

namespace ws {
namespace {

RewriteResult Rewrite(const std::string& text) {
  RewriteRequest rq;
  rq.file_name = "snippet.cu";
  rq.directory = WARPSCOPE_SOURCE_DIR "/examples";
  rq.text = text;
  rq.shim_dir = WARPSCOPE_SOURCE_DIR "/kernels/program/shim";
  return RewriteProgram(rq);
}

// A lesson form's request for kernel file `name` (its text set by the test).
RewriteRequest LessonFormOf(const std::string& name) {
  RewriteRequest rq;
  rq.file_name = name;
  rq.directory = WARPSCOPE_SOURCE_DIR "/examples";
  rq.shim_dir = WARPSCOPE_SOURCE_DIR "/kernels/program/shim";
  rq.lesson_form = true;
  return rq;
}

// A built-in lesson's kernel file, plain CUDA, into the lessons' recording API: declarations only,
// each on its own line, every expression as written.
TEST(ProgramRewrite, LessonFormChangesTheDeclarationsAndMarksEachKernelsEntry) {
  RewriteRequest rq = LessonFormOf("k.cuh");
  rq.text =
      "static __device__ void helper(float (&s)[64], const float* in) { s[0] = in[0]; }\n"
      "template <int T>\n"
      "__global__ void k(float* out, const int* idx, int n) {\n"
      "  __shared__ float tile[T][T + 1];\n"
      "  __shared__ float s[64];\n"
      "  extern __shared__ int dyn[];\n"
      "  helper(s, out);\n"
      "  tile[threadIdx.y][threadIdx.x] = out[idx[threadIdx.x] % n] + dyn[0];\n"
      "}\n";
  const RewriteResult r = RewriteProgram(rq);
  ASSERT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0].message);
  const std::string form =
      "#include \"warpscope/kernels/ws_cuda.h\"\n"
      "#line 1 \"k.cuh\"\n"
      "static __device__ void helper(::ws::SharedArray<float, 64>& s, "
      "::ws::Global<const float> in) { s[0] = in[0]; }\n"
      "template <int T>\n"
      "__global__ void k(::ws::Global<float> out, ::ws::Global<const int> idx, int n) { "
      "WS_KERNEL_ENTRY\n"
      "  __shared__ ::ws::SharedArray<float, T, T + 1> tile;\n"
      "  __shared__ ::ws::SharedArray<float, 64> s;\n"
      "  ::ws::DynamicShared<int> dyn;\n"
      "  helper(s, out);\n"
      "  tile[threadIdx.y][threadIdx.x] = out[idx[threadIdx.x] % n] + dyn[0];\n"
      "}\n";
  // For the emulator, after each function: its warp function (the helper's takes the shared
  // array by reference: the warp's one), each block ending on its function's last line again.
  // Without them, the lesson form is the declarations changed and the kernel's entry marked (the
  // lane unit's lane log starts there: ws_cuda_lane_log.h), on the brace's line; the device
  // function has none.
  std::string rest = r.program.source, warps;
  for (std::size_t at; (at = rest.find("\n#if defined(WS_LESSON_SIMT)\nnamespace ws_simt {")) !=
                       std::string::npos;) {
    const std::size_t line = rest.find("#endif\n#line ", at);
    ASSERT_NE(line, std::string::npos) << rest;
    const std::size_t end = rest.find('\n', line + 7) + 1;
    warps += rest.substr(at, end - at);
    rest.erase(at, end - at);
  }
  EXPECT_EQ(rest, form);
  EXPECT_NE(
      warps.find("static inline void helper__ws_warp(::ws::simt::Warp& ws_W, float (&s)[64], "),
      std::string::npos)
      << warps;
  EXPECT_NE(warps.find("helper__ws_warp(ws_W, s, "), std::string::npos) << warps;
  EXPECT_NE(warps.find("#line 1 \"k.cuh\"\n"), std::string::npos) << warps;
  EXPECT_NE(warps.find("#line 9 \"k.cuh\"\n"), std::string::npos) << warps;
  EXPECT_TRUE(r.program.sites.empty());  // the proxies record; the rewriter numbers nothing

  rq.text = "__global__ void k() { __shared__ float cube[4][4][4]; cube[0][0][0] = 1; }\n";
  const RewriteResult three = RewriteProgram(rq);
  ASSERT_FALSE(three.ok);
  ASSERT_FALSE(three.errors.empty());
  EXPECT_EQ(three.errors[0].line, 1u);
  EXPECT_NE(three.errors[0].message.find("cube: a __shared__ array of one or two dimensions"),
            std::string::npos)
      << three.errors[0].message;
}

// Every access the front end finds, with its column (counted by hand: two spaces of indent, so
// a statement's first character is column 3).
// The lesson form's warp function (the SIMT path, docs/ENGINE.md): named as the kernel in
// namespace ws_simt, a template's too (its accesses are read in an instantiation the lesson
// file does not make), each access keyed by the lessons' own place, (FileTag("k.cuh"), line):
// the recording API's sites; a loop counter compared with a template's value is uniform.
TEST(ProgramRewrite, LessonFormWarpFunctionsKeyAccessesAsTheLessonsDo) {
  RewriteRequest rq = LessonFormOf("k.cuh");
  rq.text =
      "template <int T>\n"
      "__global__ void copy(float* out, const float* in) {\n"
      "  out[threadIdx.x] = in[threadIdx.x];\n"
      "  __shared__ float t[T];\n"
      "  t[threadIdx.x % T] = in[threadIdx.x];\n"
      "  __syncthreads();\n"
      "  float s = 0;\n"
      "  for (int k = 0; k < T; ++k) s += t[k];\n"
      "  out[threadIdx.x] = s;\n"
      "}\n";
  const RewriteResult r = RewriteProgram(rq);
  ASSERT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0].message);
  const std::string& src = r.program.source;
  EXPECT_NE(src.find("namespace ws_simt {\ntemplate <int T> [[maybe_unused]] static inline void "
                     "copy(::ws::simt::Warp& ws_W, float* out, const float* in)"),
            std::string::npos)
      << src;
  // (tag << 16) | line: the store and the load of line 3.
  const std::string place = std::to_string((FileTag("k.cuh") << 16) | 3u) + "u";
  EXPECT_NE(src.find("::ws::simt::St<" + place), std::string::npos) << src;
  EXPECT_NE(src.find("::ws::simt::Ld<" + place), std::string::npos) << src;
  EXPECT_EQ(src.find("ws_lesson_instances"), std::string::npos);  // the rewrite's alone
  // The loop's counter is the warp's one value: T is a constant of each instantiation, and k is
  // read only as an index (in the template's text, bare: the array's type depends on T).
  EXPECT_NE(src.find("WS_SIMT_AT(ws_W) int k = 0;"), std::string::npos) << src;
  EXPECT_NE(src.find("WS_SIMT_ONCE(ws_W) ++k;"), std::string::npos) << src;
}

TEST(ProgramRewrite, FindsEachAccessAtItsColumn) {
  const std::string text =
      "__global__ void k(float* a, const float* b, int* c, int n) {\n"  // 1
      "  int i = threadIdx.x;\n"                                        // 2: built-in, none
      "  float r[4];\n"                                                 // 3
      "  r[0] = b[i];\n"                                                // 4: b[i] at 10
      "  a[i] = b[i] + b[i + 1];\n"                                     // 5: 3, 10, 17
      "  a[i] += r[0];\n"                                               // 6: load+store at 3
      "  atomicAdd(&c[0], 1);\n"                                        // 7: `&c[0]` at 13
      "  c[1]++;\n"                                                     // 8: load+store at 3
      "  int s = sizeof(a[i]);\n"                                       // 9: unevaluated
      "}\n";
  RewriteResult r = Rewrite(text);
  ASSERT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0].message);
  using S = std::tuple<std::uint32_t, std::uint32_t, ProgramAccess>;
  std::vector<S> got;
  for (const ProgramSite& s : r.program.sites) got.emplace_back(s.line, s.column, s.access);
  const std::vector<S> want = {
      {4, 10, ProgramAccess::kLoad},     {5, 3, ProgramAccess::kStore},
      {5, 10, ProgramAccess::kLoad},     {5, 17, ProgramAccess::kLoad},
      {6, 3, ProgramAccess::kLoadStore}, {7, 13, ProgramAccess::kAtomic},
      {8, 3, ProgramAccess::kLoadStore},
  };
  EXPECT_EQ(got, want);
  // Site numbers follow source order, from 1.
  for (std::size_t i = 0; i < r.program.sites.size(); ++i)
    EXPECT_EQ(r.program.sites[i].site, i + 1);
  EXPECT_EQ(r.program.sites[3].text, "b[i + 1]");
  EXPECT_EQ(r.program.sites[3].end_column, 25u);  // just past `b[i + 1]` (columns 17-24)
  EXPECT_EQ(r.program.kernels, std::vector<std::string>{"k"});
}

// A wmma call names the program's first line with one (the GPU backend refuses it there, yet:
// its loads run inside the toolkit's <mma.h>), and a fragment's load and store are sites.
TEST(ProgramRewrite, WmmaCallsAreFoundAndTheirLoadsAndStoresAreSites) {
  const std::string text =
      "#include <mma.h>\n"                                                        // 1
      "using namespace nvcuda;\n"                                                 // 2
      "__global__ void k(const half* a, float* c) {\n"                            // 3
      "  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> f;\n"  // 4
      "  wmma::fragment<wmma::accumulator, 16, 16, 16, float> d;\n"               // 5
      "  wmma::fill_fragment(d, 0.0f);\n"                                         // 6
      "  wmma::load_matrix_sync(f, a, 16);\n"                                     // 7
      "  wmma::store_matrix_sync(c, d, 16, wmma::mem_row_major);\n"               // 8
      "}\n";
  RewriteResult r = Rewrite(text);
  ASSERT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0].message);
  EXPECT_EQ(r.program.wmma_at, "snippet.cu:6");
  ASSERT_EQ(r.program.sites.size(), 2u);
  EXPECT_EQ(r.program.sites[0].line, 7u);
  EXPECT_EQ(r.program.sites[0].access, ProgramAccess::kLoad);
  EXPECT_EQ(r.program.sites[1].line, 8u);
  EXPECT_EQ(r.program.sites[1].access, ProgramAccess::kStore);
  EXPECT_TRUE(Rewrite("__global__ void k(float* a) { a[0] = 1; }\n").program.wmma_at.empty());
}

// An asynchronous copy names the program's first line with one (the GPU backend refuses it
// there, yet) and is a site, which the rewriter gives the call as its last argument; its kernel
// runs thread by thread (each thread's copies wait in its own queue).
TEST(ProgramRewrite, AnAsynchronousCopyIsASiteGivenToTheCall) {
  const std::string text =
      "#include <cuda_pipeline.h>\n"                                       // 1
      "__global__ void k(const float* a, float* c) {\n"                    // 2
      "  __shared__ float s[32];\n"                                        // 3
      "  __pipeline_memcpy_async(&s[threadIdx.x], &a[threadIdx.x], 4);\n"  // 4
      "  __pipeline_commit();\n"                                           // 5
      "  __pipeline_wait_prior(0);\n"                                      // 6
      "  c[threadIdx.x] = s[threadIdx.x];\n"                               // 7
      "}\n";
  RewriteResult r = Rewrite(text);
  ASSERT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0].message);
  EXPECT_EQ(r.program.async_at, "snippet.cu:4");
  ASSERT_GE(r.program.sites.size(), 1u);
  EXPECT_EQ(r.program.sites[0].line, 4u);
  EXPECT_NE(r.program.source.find("&a[threadIdx.x], 4, " + std::to_string(1u << 16 | 4u) + "u)"),
            std::string::npos)
      << r.program.source;
  EXPECT_TRUE(Rewrite("__global__ void k(float* a) { a[0] = 1; }\n").program.async_at.empty());
}

// `__shared__ alignas(16)`, as nvcc takes it (cuda-samples' globalToShmemAsyncCopy): clang reads
// the two swapped, the same bytes, and the warp function (the SIMT path) declares the tile with
// its alignment too (without it a float4 store into the tile faulted on the emulator).
TEST(ProgramRewrite, ASharedArraysAlignasAfterSharedIsReadAndKept) {
  const std::string text =
      "__global__ void k(float* c) {\n"
      "  __shared__ alignas(alignof(float4)) float t[16][16];\n"
      "  t[threadIdx.y][threadIdx.x] = 1.0f;\n"
      "  c[0] = t[0][0];\n"
      "}\n";
  RewriteResult r = Rewrite(text);
  ASSERT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0].message);
  const std::string decl = "alignas(alignof(float4)) __shared__ float t[16][16];";
  const std::size_t first = r.program.source.find(decl);
  ASSERT_NE(first, std::string::npos) << r.program.source;
  EXPECT_NE(r.program.source.find(decl, first + 1), std::string::npos)  // the warp function's
      << r.program.source;
  ASSERT_EQ(r.program.sites.size(), 3u);
  EXPECT_EQ(r.program.sites[0].line, 3u);  // the lines after the swap hold
}

// The program's cuda::pipeline<Scope> names cuda::ws_pipeline<Scope> (the emulator's alias, the
// GPU's libcu++ pipeline with its calls noted for the Pipeline view), where the program spells the
// type: a declaration, a parameter, an alias; a variable or member of its own called `pipeline`
// is left alone.
TEST(ProgramRewrite, ACudaPipelineSpelledByItsTypeNamesTheNotedOne) {
  const std::string text =
      "#include <cuda/pipeline>\n"
      "struct Config { int pipeline; };\n"
      "using Pipe = cuda::pipeline<cuda::thread_scope_thread>;\n"
      "__device__ void wait(cuda::pipeline<cuda::thread_scope_thread>& p) { p.consumer_wait(); }\n"
      "__global__ void k(float* c, Config cfg) {\n"
      "  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();\n"
      "  int pipeline = cfg.pipeline;\n"
      "  pipe.producer_commit();\n"
      "  wait(pipe);\n"
      "  c[0] = pipeline;\n"
      "}\n";
  RewriteResult r = Rewrite(text);
  ASSERT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0].message);
  const std::string& out = r.program.source;
  EXPECT_NE(out.find("using Pipe = cuda::ws_pipeline<cuda::thread_scope_thread>;"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("void wait(cuda::ws_pipeline<cuda::thread_scope_thread>& p)"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("cuda::ws_pipeline<cuda::thread_scope_thread> pipe = "), std::string::npos)
      << out;
  EXPECT_EQ(out.find("cuda::pipeline<"), std::string::npos) << out;  // none left
  EXPECT_NE(out.find("struct Config { int pipeline; };"), std::string::npos) << out;
  EXPECT_NE(out.find("int pipeline = cfg.pipeline;"), std::string::npos) << out;
}

TEST(ProgramRewrite, SharedConstantAndDeviceVariablesAreMemory) {
  const std::string text =
      "__constant__ float coef[4];\n"                   // 1
      "__device__ int counter;\n"                       // 2
      "__global__ void k(float* out) {\n"               // 3
      "  __shared__ float tile[32];\n"                  // 4
      "  __shared__ float total;\n"                     // 5
      "  tile[threadIdx.x] = coef[threadIdx.x % 4];\n"  // 6: store 3, load 23
      "  total = tile[0];\n"                            // 7: store 3, load 11
      "  out[threadIdx.x] = total + counter;\n"         // 8: store 3, loads 22, 30
      "}\n";
  RewriteResult r = Rewrite(text);
  ASSERT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0].message);
  using S = std::tuple<std::uint32_t, std::uint32_t, ProgramAccess>;
  std::vector<S> got;
  for (const ProgramSite& s : r.program.sites) got.emplace_back(s.line, s.column, s.access);
  const std::vector<S> want = {{6, 3, ProgramAccess::kStore}, {6, 23, ProgramAccess::kLoad},
                               {7, 3, ProgramAccess::kStore}, {7, 11, ProgramAccess::kLoad},
                               {8, 3, ProgramAccess::kStore}, {8, 22, ProgramAccess::kLoad},
                               {8, 30, ProgramAccess::kLoad}};
  EXPECT_EQ(got, want);
}

TEST(ProgramRewrite, TemplateKernelsAreRecordedOnceFromTheirInstantiations) {
  const std::string text =
      "template <int T, typename V>\n"  // 1
      "__global__ void copy(V* out, const V* in) { out[threadIdx.x] = in[threadIdx.x * T]; }\n"
      "int main() {\n"
      "  float* p = nullptr;\n"
      "  copy<1><<<1, 32>>>(p, p);\n"
      "  copy<2><<<1, 32>>>(p, p);\n"
      "}\n";
  RewriteResult r = Rewrite(text);
  ASSERT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0].message);
  ASSERT_EQ(r.program.sites.size(), 2u);  // one store, one load, for both instantiations
  EXPECT_EQ(r.program.sites[0].column, 45u);
  EXPECT_EQ(r.program.sites[1].column, 64u);
  ASSERT_EQ(r.program.launches.size(), 2u);
  EXPECT_EQ(r.program.launches[0].kernel, "copy<1, float>");
  EXPECT_EQ(r.program.launches[1].line, 6u);
}

TEST(ProgramRewrite, ACompileErrorNamesItsLine) {
  RewriteResult r = Rewrite("__global__ void k(float* a) {\n  a[0] = undefined_name;\n}\n");
  EXPECT_FALSE(r.ok);
  ASSERT_FALSE(r.errors.empty());
  EXPECT_EQ(r.errors[0].line, 2u);
  EXPECT_EQ(r.errors[0].column, 10u);
  EXPECT_NE(r.errors[0].message.find("undeclared identifier 'undefined_name'"), std::string::npos)
      << r.errors[0].message;
}

TEST(ProgramParams, CommentsDeclareSliders) {
  auto p = ProgramParams(
      "#define TILE_DIM 16  // warpscope: param TILE_DIM 8..32 step 8\n"
      "constexpr int kN = 256;\n"
      "// warpscope: param kN 64..1024\n");
  ASSERT_TRUE(p.ok()) << p.status().message();
  ASSERT_EQ(p->size(), 2u);
  EXPECT_EQ((*p)[0].name, "TILE_DIM");
  EXPECT_EQ((*p)[0].value, 16);
  EXPECT_EQ((*p)[0].min, 8);
  EXPECT_EQ((*p)[0].max, 32);
  EXPECT_EQ((*p)[0].step, 8);
  EXPECT_EQ((*p)[1].value, 256);
  EXPECT_EQ((*p)[1].step, 1);
  auto bad = ProgramParams("#define T 64\n// warpscope: param T 8..32\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "line 2: T is 64, outside its range 8..32");
  auto missing = ProgramParams("// warpscope: param Q 1..2\n");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("no `#define Q`"), std::string::npos);
  // A description in parentheses after the range (examples/picture.cu's; before, the words in it
  // failed the whole program's sliders, and picture.cu had none).
  auto described = ProgramParams(
      "#define WIDTH 76   // warpscope: param WIDTH 16..256 (n: pixels in a row)\n"
      "#define TILE 8 // warpscope: param TILE 4..32 step 4 (a tile's side)\n");
  ASSERT_TRUE(described.ok()) << described.status().message();
  ASSERT_EQ(described->size(), 2u);
  EXPECT_EQ((*described)[0].max, 256);
  EXPECT_EQ((*described)[1].step, 4);
  auto trailing = ProgramParams("#define T 8 // warpscope: param T 4..32 fast\n");
  EXPECT_FALSE(trailing.ok());  // words that are not a step nor in parentheses
}

TEST(ProgramParams, DefinesReplaceTheProgramsOwnValueInPlace) {
  std::vector<std::string> rest;
  const std::string out =
      ApplyDefines("#define TILE_DIM 16 // c\nconstexpr int kN = 256;\nint x;\n",
                   {"TILE_DIM=32", "kN=64", "OTHER=1"}, &rest);
  EXPECT_EQ(out, "#define TILE_DIM 32 // c\nconstexpr int kN = 64;\nint x;\n");
  EXPECT_EQ(rest, std::vector<std::string>{"OTHER=1"});
}

// The whole-number constants -D can set, each by its first definition (the one ApplyDefines
// changes), in the order they appear; values by hand from the text.
TEST(ProgramParams, TheProgramsConstantsAreTheOnesDefinesSet) {
  const std::string text =
      "#define N 4096 // elements\n"              // line 1: 4096
      "const int DSIZE = 8192;\n"                 // line 2: 8192
      "constexpr int kBits = 1 << 20;\n"          // line 3: 1,048,576
      "static const size_t M = (1024 * 1024);\n"  // line 4: 1,048,576
      "const float alpha = 2.0f;\n"               // not a whole number
      "__constant__ int c_table = 5;\n"           // device memory, not a size
      "void f(const int* p, int n = 4);\n"        // a parameter's default
      "int x = 5;\n"                              // not a constant
      "#define N 8\n"                             // N again: its first stays
      "const unsigned long kMax = 64ul;\n"        // line 10: 64, its suffix taken off
      "#define SHIFTED (1 << 40)\n";              // line 11: 2^40
  const std::vector<ProgramConstant> c = ProgramConstants(text);
  ASSERT_EQ(c.size(), 6u);
  EXPECT_EQ(c[0].name, "N");
  EXPECT_EQ(c[0].value, 4096);
  EXPECT_EQ(c[0].line, 1u);
  EXPECT_EQ(c[1].name, "DSIZE");
  EXPECT_EQ(c[1].value, 8192);
  EXPECT_EQ(c[2].name, "kBits");
  EXPECT_EQ(c[2].value, 1048576);
  EXPECT_EQ(c[3].name, "M");
  EXPECT_EQ(c[3].value, 1048576);
  EXPECT_EQ(c[3].line, 4u);
  EXPECT_EQ(c[4].name, "kMax");
  EXPECT_EQ(c[4].value, 64);
  EXPECT_EQ(c[4].line, 10u);
  EXPECT_EQ(c[5].name, "SHIFTED");
  EXPECT_EQ(c[5].value, 1099511627776LL);
  // Each is one ApplyDefines sets in place.
  std::vector<std::string> rest;
  EXPECT_NE(ApplyDefines(text, {"DSIZE=256"}, &rest).find("const int DSIZE = 256;"),
            std::string::npos);
  EXPECT_TRUE(rest.empty());
  // A definition in a comment is none, for the list and for -D alike (a review): the real N is the
  // one after the commented ones.
  const std::string commented =
      "// const int N = 1 << 30;\n"  // line 1: a comment
      "/* #define N 7\n"             // lines 2-3: a block comment
      "   const int N = 9; */ const int N = 1 << 20;\n";
  const std::vector<ProgramConstant> cc = ProgramConstants(commented);
  ASSERT_EQ(cc.size(), 1u);
  EXPECT_EQ(cc[0].value, 1048576);
  EXPECT_EQ(cc[0].line, 3u);
  EXPECT_EQ(
      ApplyDefines(commented, {"N=64"}, &rest),
      "// const int N = 1 << 30;\n/* #define N 7\n   const int N = 9; */ const int N = 64;\n");
  // Past 63 bits, or a shift past 40, is no number.
  EXPECT_TRUE(
      ProgramConstants("#define BIG (4294967296 * 4294967296)\n#define HUGE (1 << 41)\n").empty());
}

TEST(TemplateRewrite, AKernelWithSeveralArgumentsIsLaunchedByAddressInsideATemplate) {
  // `scale<T, 64>` names one kernel in each instantiation: the launch passes it as a pointer,
  // looked up in the kernels' table (name, static shared memory), with no macro around the comma.
  RewriteRequest rq;
  rq.file_name = "scale.cu";
  rq.directory = WARPSCOPE_SOURCE_DIR "/examples";
  rq.shim_dir = WARPSCOPE_SOURCE_DIR "/kernels/program/shim";
  rq.text = test::kSeveralArguments;
  const RewriteResult r = RewriteProgram(rq);
  ASSERT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0].message);
  EXPECT_NE(r.program.source.find("::ws::prog::LaunchAt(\"scale<T, 64>\", 12u, scale<T, 64>, "
                                  "::ws::prog::Config((n + 63) / 64, 64)).Run(a, s, n);"),
            std::string::npos)
      << r.program.source;
  // Both specializations in the table, with tile[64]'s bytes: 64 x 4 and 64 x 8, and the warp
  // function's specialization by the same arguments (the SIMT engine's: docs/ENGINE.md).
  EXPECT_NE(r.program.source.find("{reinterpret_cast<const void*>(&scale<float, 64>), "
                                  "\"scale<float, 64>\", 256u, "
                                  "WS_SIMT_WARP(&scale__ws_warp<float, 64>), WS_SIMT_NONE, "
                                  "WS_BIND_OF(&scale<float, 64>)}"),
            std::string::npos)
      << r.program.source;
  EXPECT_NE(r.program.source.find("{reinterpret_cast<const void*>(&scale<double, 64>), "
                                  "\"scale<double, 64>\", 512u, "
                                  "WS_SIMT_WARP(&scale__ws_warp<double, 64>), WS_SIMT_NONE, "
                                  "WS_BIND_OF(&scale<double, 64>)}"),
            std::string::npos);
}

TEST(TemplateRewrite, SharedMemoryHelpersDeclarationsAreAllCommentedOut) {
  // Both operators' `extern __shared__ int __smem[]`, the const one never instantiated, and the
  // double specialization's: four declarations, none left for the host compiler.
  RewriteRequest rq;
  rq.file_name = "helper.cu";
  rq.directory = WARPSCOPE_SOURCE_DIR "/examples";
  rq.shim_dir = WARPSCOPE_SOURCE_DIR "/kernels/program/shim";
  rq.text = test::kSharedMemoryHelper;
  const RewriteResult r = RewriteProgram(rq);
  ASSERT_TRUE(r.ok) << (r.errors.empty() ? "" : r.errors[0].message);
  std::size_t commented = 0;
  for (std::size_t at = 0;
       (at = r.program.source.find("/* extern __shared__", at)) != std::string::npos; ++at)
    ++commented;
  EXPECT_EQ(commented, 4u);
  EXPECT_NE(r.program.source.find("return (T*)(::ws::prog::Dyn<int>());"), std::string::npos);
  EXPECT_NE(r.program.source.find("return (double*)(::ws::prog::Dyn<double>());"),
            std::string::npos);
}

}  // namespace
}  // namespace ws
