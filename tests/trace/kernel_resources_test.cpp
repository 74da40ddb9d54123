#include "warpscope/trace/kernel_resources.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "warpscope/kernels/catalog.h"
#include "warpscope/kernels/lesson_api.h"

namespace ws {
namespace {

namespace demo {
template <int T, int U>
void Tiled(float*) {}
void plain(int*) {}
}  // namespace demo

TEST(KernelResources, ATableIsReadByKernelName) {
  ResourceTable t;
  ASSERT_TRUE(ParseResourceTable("# a comment\n"
                                 "# compiler: nvcc 13.0, -arch=sm_90\n"
                                 "\n"
                                 "transposePadded<32> 16 0 0 0 4224 1\n"
                                 "spill   40 256 64 32 0 0  # trailing comment\n",
                                 &t)
                  .ok());
  EXPECT_EQ(t.size(), 2u);
  EXPECT_EQ(t.compiler(), "nvcc 13.0, -arch=sm_90");
  EXPECT_EQ(t.arch(), 90);
  const KernelResources* p = t.Find("transposePadded<32>");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->registers, 16);
  EXPECT_EQ(p->shared_bytes, 4224u);  // 32 x 33 floats: the padded tile
  EXPECT_EQ(p->barriers, 1u);
  EXPECT_EQ(p->source, "ptxas (nvcc 13.0, -arch=sm_90), from the build's resource table");
  const KernelResources* s = t.Find("spill");
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(s->local_bytes, 256u);
  EXPECT_EQ(s->spill_stores, 64u);
  EXPECT_EQ(s->spill_loads, 32u);
  EXPECT_EQ(t.Find("transposePadded<16>"), nullptr);
  EXPECT_EQ(ResourceSummary(*p),
            "16 registers, 0 B local memory per thread, 4,224 B shared memory");
  EXPECT_EQ(ResourceSummary(*s),
            "40 registers, 256 B local memory per thread, 0 B shared memory, 64 B spilled (32 B "
            "loaded back)");
  EXPECT_EQ(ResourceSummary(KernelResources{}), "");
}

TEST(KernelResources, ABadTableIsRefusedWithItsLine) {
  ResourceTable t;
  Status s = ParseResourceTable("a 1 2 3 4 5 6\nb 1 2 3\n", &t);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.message(),
            "resource table line 2: must be a kernel and 6 numbers (registers, stack, spill "
            "stores, spill loads, shared, barriers), not 4 fields");
  s = ParseResourceTable("a 1 2 x 4 5 6\n", &t);
  EXPECT_EQ(s.message(), "resource table line 1: 'x' must be a whole number");
  s = ParseResourceTable("a -1 2 3 4 5 6\n", &t);
  EXPECT_EQ(s.message(), "resource table line 1: '-1' must be a whole number");
  s = ParseResourceTable("\na 256 0 0 0 0 0\n", &t);
  EXPECT_EQ(s.message(),
            "resource table line 2: 256 registers is over the limit of 255 per thread");
  s = ParseResourceTable("a 1 0 0 0 0 0\na 2 0 0 0 0 0\n", &t);
  EXPECT_EQ(s.message(), "resource table line 2: kernel 'a' is named twice");
}

TEST(KernelResources, AKernelsKeyIsItsOwnNameAndTemplateArguments) {
  EXPECT_EQ(KernelKey("ws::lessons::m::Tiled<16, 2>"), "Tiled<16,2>");
  EXPECT_EQ(KernelKey("Tiled<ns::X<1>, 2>(float*, int)"), "Tiled<ns::X<1>,2>");
  EXPECT_EQ(KernelKey("{anonymous}::plain"), "plain");
  EXPECT_EQ(KernelKey("_GLOBAL__N__1a1cee7d_5_pf_cu_e9b24c50::plain"), "plain");
  EXPECT_EQ(KernelKey("&ns::plain"), "plain");
  // clang's and c++filt's spelling of an unnamed namespace.
  EXPECT_EQ(KernelKey("&ws::(anonymous namespace)::demo::Tiled<16, 2>"), "Tiled<16,2>");
  // As the launch macros name a kernel: the instantiation, not the template's parameter.
  constexpr int T = 16;
  EXPECT_EQ((KernelNameOf<&demo::Tiled<T, 2>>()), "Tiled<16,2>");
  EXPECT_EQ(KernelNameOf<&demo::plain>(), "plain");
}

TEST(KernelResources, JsonKeepsEveryFigureAndRefusesRegistersOutOfRange) {
  KernelResources r;
  r.registers = 40;
  r.local_bytes = 256;
  r.spill_stores = 64;
  r.spill_loads = 32;
  r.shared_bytes = 1024;
  r.barriers = 1;
  r.spills_known = true;
  r.source = "ptxas";
  EXPECT_EQ(ResourcesFromJson(ResourcesJson(r)), r);
  r.spills_known = false;  // a GPU's figures: no spill counts
  r.spill_stores = r.spill_loads = r.barriers = 0;
  EXPECT_FALSE(ResourcesJson(r).contains("spill_stores"));
  EXPECT_EQ(ResourcesFromJson(ResourcesJson(r)), r);
  // A hostile file: out of range, wrapping, negative, not whole.
  for (const nlohmann::json& bad :
       {nlohmann::json(300), nlohmann::json(4294967312ull), nlohmann::json(-1),
        nlohmann::json(1e300), nlohmann::json("16")}) {
    nlohmann::json j = ResourcesJson(r);
    j["registers"] = bad;
    EXPECT_THROW(ResourcesFromJson(j), std::runtime_error) << bad.dump();
  }
  nlohmann::json j = ResourcesJson(r);
  j["local_bytes"] = -1;
  try {
    ResourcesFromJson(j);
    ADD_FAILURE() << "local_bytes -1 was taken";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "a kernel's local_bytes must be a whole number 0..1073741824, not -1");
  }
}

// The emulator's launches carry ptxas's figures from the committed table; the tiled matrix
// multiply's shared memory is two 16 x 16 float tiles (Kirk & Hwu ch. 5): 2 x 16 x 16 x 4 B.
TEST(KernelResources, AnEmulatorRunCarriesTheCompilersFigures) {
  auto r = RunLesson("matmul", "tiled", {{"tile", 16}}, "emu", RunOptions{});
  ASSERT_TRUE(r.ok()) << r.status().message();
  const LaunchTrace& t = r->main_launch();
  EXPECT_EQ(t.kernel, "MatrixMulTiled<16>");
  ASSERT_TRUE(t.resources.known());
  EXPECT_EQ(t.resources.shared_bytes, 2u * 16 * 16 * 4);
  EXPECT_GT(t.resources.registers, 0);
  EXPECT_EQ(t.resources.local_bytes, 0u);  // no spills: the table says 0 stack bytes
  EXPECT_NE(t.resources.source.find("resource table"), std::string::npos);
}

// nvcc 13.0's report (-cubin --resource-usage -arch=sm_90) on a template tile transpose and a
// vector add, as it printed it here. The tile is 16 x 17 floats: 16 x 17 x 4 = 1,088 B of shared
// memory; a device function's own frame ("Function properties for" another name) is not the
// kernel's.
TEST(KernelResources, PtxasReportGivesEachKernelsFigures) {
  const char* report =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function '_Z5tiledILi16EEvPfPKfi' for 'sm_90'\n"
      "ptxas info    : Function properties for _Z5tiledILi16EEvPfPKfi\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 12 registers, used 1 barriers, 1088 bytes smem\n"
      "ptxas info    : Compile time = 4.787 ms\n"
      "ptxas info    : Compiling entry function '_Z3addPfPKfi' for 'sm_90'\n"
      "ptxas info    : Function properties for _Z6helperv\n"
      "    40 bytes stack frame, 8 bytes spill stores, 8 bytes spill loads\n"
      "ptxas info    : Function properties for _Z3addPfPKfi\n"
      "    16 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\n"
      "ptxas info    : Used 10 registers, used 0 barriers, 368 bytes cmem[0]\n"
      "ptxas info    : Compiling entry function 'plain_c' for 'sm_90'\n"
      "ptxas info    : Used 6 registers\n";
  const auto t = ParsePtxasReport(report, "ptxas");
  ASSERT_EQ(t.size(), 3u);
  const KernelResources* tiled = FindKernelResources(t, "tiled<16>");
  ASSERT_NE(tiled, nullptr);
  EXPECT_EQ(tiled->registers, 12);
  EXPECT_EQ(tiled->barriers, 1u);
  EXPECT_EQ(tiled->shared_bytes, 1088u);
  EXPECT_EQ(tiled->local_bytes, 0u);
  EXPECT_TRUE(tiled->spills_known);
  const KernelResources* add = FindKernelResources(t, "add");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->registers, 10);
  EXPECT_EQ(add->local_bytes, 16u);  // the kernel's frame, not helper()'s 40
  EXPECT_EQ(add->spill_stores, 4u);
  EXPECT_EQ(add->shared_bytes, 0u);
  EXPECT_EQ(FindKernelResources(t, "plain_c")->registers, 6);
  // A launch list's spelling of the template: by its name where one instance has it.
  EXPECT_EQ(FindKernelResources(t, "tiled<TILE>"), tiled);
  EXPECT_EQ(FindKernelResources(t, "missing"), nullptr);
}

}  // namespace
}  // namespace ws
