// A program as warpscope-cli runs it (examples/transpose.cu, unmodified): the kernels table
// first and each launch only with --launches; a what-if on the kernel a student names, whatever
// launch is shown, the launch said in the text and the JSON.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_util.h"

namespace {

using ws::test::Cli;
using ws::test::Out;

const std::string kTranspose = std::string(WARPSCOPE_SOURCE_DIR) + "/examples/transpose.cu";

TEST(CliProgram, TheKernelsTableComesFirstAndEachLaunchOnlyWithLaunches) {
  const Out r = Cli("run --file " + kTranspose);
  ASSERT_EQ(r.code, 0) << r.out;
  const std::size_t table = r.out.find("kernels, slowest first (3 kernels, 3 launches");
  ASSERT_NE(table, std::string::npos) << r.out;
  // Ranked by the model (docs/PROGRAMS.md): naive 391 ns, coalesced 227 ns, padded 188 ns.
  const std::size_t naive = r.out.find("transposeNaive", table);
  const std::size_t coalesced = r.out.find("transposeCoalesced", table);
  const std::size_t padded = r.out.find("transposePadded", table);
  EXPECT_LT(naive, coalesced);
  EXPECT_LT(coalesced, padded);
  EXPECT_EQ(r.out.find("launch 1: transposeNaive"), std::string::npos);
  const Out all = Cli("run --file " + kTranspose + " --launches");
  EXPECT_NE(all.out.find("launch 1: transposeNaive"), std::string::npos) << all.out;
}

// The run shows its last launch, transposePadded; the what-if names transposeCoalesced, whose
// 16x16 tile read by columns is 8-way as written and 1-way under Swizzle<4,0,4> (the swizzle
// lesson measured it with Nsight Compute).
TEST(CliProgram, AWhatIfOnANamedKernelReaddressesThatKernelsLaunch) {
  const Out t =
      Cli("run --file " + kTranspose + " --what-if transposeCoalesced:tile:swizzle=4,0,4");
  ASSERT_EQ(t.code, 0) << t.out;
  EXPECT_NE(t.out.find("WHAT-IF: Swizzle<4,0,4> on tile in launch 2 of 3 (transposeCoalesced)"),
            std::string::npos)
      << t.out;
  const Out r =
      Cli("run --file " + kTranspose + " --json --what-if transposeCoalesced:tile:swizzle=4,0,4");
  ASSERT_EQ(r.code, 0) << r.out;
  const nlohmann::json j = nlohmann::json::parse(r.out, nullptr, false);
  ASSERT_TRUE(j.is_object()) << r.out;
  EXPECT_EQ(j["what_if"]["where"], "launch 2 of 3 (transposeCoalesced)");
  EXPECT_EQ(j["what_if"]["launch"], 1);
  unsigned worst = 0;
  for (const nlohmann::json& s : j["launches"][1]["sites"])
    if (s["space"] == "shared") worst = std::max(worst, s["bank_conflict_max"].get<unsigned>());
  EXPECT_EQ(worst, 1u);
  // A kernel the program did not launch: one line naming those it did, exit 2.
  const Out bad = Cli("run --file " + kTranspose + " --what-if transpose:tile:pad=1");
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.out.find("the run launched no kernel 'transpose' (its kernels: transposeNaive, "
                         "transposeCoalesced, transposePadded)"),
            std::string::npos)
      << bad.out;
}

// examples/matmul.cu with the listing nvdisasm made of it on an H200's toolkit (--sass): its
// row read Mds[ty][k] is nvcc's LDS.128, a quarter of the source's 65,536 requests (the program
// test CompiledCode.TheMatmulsRowReadIsCountedAsNvccsLds128 works the figures out), in the text
// and the JSON; with --source-accesses as the source writes it. A file that is no listing: exit 2.
TEST(CliProgram, SassCountsTheRowReadAsTheCompiledLds128) {
  const std::string matmul = std::string(WARPSCOPE_SOURCE_DIR) + "/examples/matmul.cu";
  const std::string sass =
      std::string(WARPSCOPE_SOURCE_DIR) + "/kernels/compiled/matmul_sass_h200.txt";
  const Out t = Cli("run --file " + matmul + " --launches --sass " + sass);
  ASSERT_EQ(t.code, 0) << t.out;
  EXPECT_NE(t.out.find("line 29:23 shared load 4 B: 16384 requests, 32768 wavefronts (worst "
                       "1-way), as compiled, LDS.128: the source's 65536 requests are 16384 of "
                       "16 bytes a lane"),
            std::string::npos)
      << t.out;
  const Out j = Cli("run --file " + matmul + " --json --sass " + sass);
  ASSERT_EQ(j.code, 0) << j.out;
  const nlohmann::json r = nlohmann::json::parse(j.out, nullptr, false);
  ASSERT_TRUE(r.is_object()) << j.out;
  int wide = 0;
  for (const nlohmann::json& s : r["launches"][0]["sites"]) {
    if (!s.contains("compiled_width")) continue;
    ++wide;
    EXPECT_EQ(s["compiled_width"], 16);
    EXPECT_EQ(s["requests"], 16384);
    EXPECT_EQ(s["source_requests"], 65536);
  }
  EXPECT_EQ(wide, 1);
  const Out source = Cli("run --file " + matmul + " --launches --source-accesses --sass " + sass);
  ASSERT_EQ(source.code, 0) << source.out;
  EXPECT_NE(source.out.find("line 29:23 shared load 4 B: 65536 requests, 65536 wavefronts"),
            std::string::npos)
      << source.out;
  const Out bad = Cli("run --file " + matmul + " --sass " + matmul);
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.out.find("not a listing of nvdisasm -g"), std::string::npos) << bad.out;
}

}  // namespace

// A program that reports its own failure on stderr and exits, as helper_cuda.h's checks do: what
// it wrote there, each stream apart, and its status, in the text, the JSON and the CLI's own
// status (before 2026-12-05 stderr was read and never shown, and the CLI said 0).
TEST(CliProgram, WhatAProgramWritesOnStderrAndItsOwnStatusAreShown) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "ws_cli_stderr";
  std::filesystem::create_directories(dir);
  const std::filesystem::path file = dir / "fails.cu";
  std::ofstream(file) << "#include <cstdio>\n"
                         "#include <cstdlib>\n"
                         "__global__ void k(int* p) { p[threadIdx.x] = 1; }\n"
                         "int main() {\n"
                         "  int* d; cudaMalloc(&d, 32 * sizeof(int));\n"
                         "  k<<<1, 32>>>(d);\n"
                         "  cudaDeviceSynchronize();\n"
                         "  printf(\"ran the kernel\\n\");\n"
                         "  fprintf(stderr, \"fails.cu(9) : CUDA error : check failed\\n\");\n"
                         "  exit(EXIT_FAILURE);\n"
                         "}\n";
  const Out r = Cli("run --file " + file.string());
  EXPECT_EQ(r.code, 1) << r.out;  // the program's EXIT_FAILURE
  EXPECT_NE(r.out.find("the program printed:\nran the kernel\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("the program wrote on stderr:\nfails.cu(9) : CUDA error : check failed\n"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("the program exited with status 1"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("1 launch"), std::string::npos) << r.out;  // its figures stand
  const Out j = Cli("run --file " + file.string() + " --json");
  EXPECT_EQ(j.code, 1);
  const std::size_t brace = j.out.find('{');
  ASSERT_NE(brace, std::string::npos) << j.out;
  const std::size_t end = j.out.rfind('}');
  const nlohmann::json doc = nlohmann::json::parse(j.out.substr(brace, end - brace + 1));
  EXPECT_EQ(doc.at("stderr"), "fails.cu(9) : CUDA error : check failed\n");
  EXPECT_EQ(doc.at("stdout"), "ran the kernel\n");
  EXPECT_EQ(doc.at("exit_code"), 1);
  EXPECT_EQ(doc.at("launches").size(), 1u);
  std::filesystem::remove_all(dir);
}
