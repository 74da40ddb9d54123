// The device heap on the emulator (issue 50, item 6; docs/PROGRAMS.md "The device heap"): new,
// new[], delete, delete[], malloc and free in device code over one buffer named "device heap",
// objects living across launches, virtual calls, a full heap giving null, and the heap's size
// fixed at the first launch.
#include <gtest/gtest.h>

#include <string>

#include "program_features_programs.h"
#include "program_test_util.h"
#include "warpscope/program/program.h"

namespace ws {
namespace {

TEST(DeviceHeap, ObjectsLiveAcrossLaunchesAndAFullHeapGivesNull) {
  const LessonRun r = test::RunText(test::kHeapProgram);
  ASSERT_TRUE(r.program->ok()) << r.program->failure;
  // Thread t's Square(t + 1) has area (t + 1)^2, its array's element 3 is 10 t + 3: thread 0
  // 1 + 3, thread 5 36 + 53, thread 63 4096 + 633. 6 MB fits the default 8 MB heap once, not
  // twice, and again once freed. The heap's size cannot change after the first launch.
  EXPECT_EQ(r.program->stdout_text, "4 89 4729 | 1 0 1\ncudaErrorInvalidValue\n");
  ASSERT_EQ(r.launches.size(), 3u);
  // The heap is one of the program's buffers, and the objects' accesses are recorded in it: the
  // virtual Area() reads `side` (line 9) of 64 objects.
  const LaunchTrace& use = r.launches[1];
  bool heap = false;
  for (const BufferInfo& b : use.buffers)
    heap = heap || (b.name == "device heap" && b.bytes == (8u << 20));
  EXPECT_TRUE(heap);
  std::size_t i = 0;
  ASSERT_NE(test::SiteAt(use, 9, 49, &i), nullptr);
  EXPECT_EQ(use.sites[i].op, AccessOp::kLoad);
  EXPECT_EQ(use.stats.sites[i].accesses, 64u);
  ASSERT_LT(use.sites[i].buffer, use.buffers.size());
  EXPECT_EQ(use.buffers[use.sites[i].buffer].name, "device heap");
  // Kernels that allocate run thread by thread, and say why.
  EXPECT_NE(r.launches[0].engine_reason.find("the device heap (new) on line 13"), std::string::npos)
      << r.launches[0].engine_reason;
}

}  // namespace
}  // namespace ws
