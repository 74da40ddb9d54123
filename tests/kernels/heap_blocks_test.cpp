// The GPU road's device heap allocator (kernels/program/shim/ws_program_heap_blocks.h), compiled
// here as host code with a mutex for its lock: what it hands out, reuses and refuses, by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

namespace {
std::mutex g_heap_lock;
}  // namespace
#define WS_HEAP_FN inline
#define WS_HEAP_LOCK(s) g_heap_lock.lock()
#define WS_HEAP_UNLOCK(s) g_heap_lock.unlock()
#include "../../kernels/program/shim/ws_program_heap_blocks.h"

namespace ws::prog::heap {
namespace {

// cuda_program.cu allocates the state by this size.
static_assert(sizeof(State) == 8 + 8 + 8 + 65 * 8);

struct Heap {
  State state{};
  std::vector<unsigned long long> words;
  explicit Heap(unsigned long long units) : words(2 * units, 0) {}
  unsigned long long units() const { return words.size() / 2; }
  void* Get(std::size_t bytes) { return Allocate(&state, words.data(), units(), bytes); }
  void Put(void* p) { Free(&state, words.data(), units(), p); }
  // The payload's unit (header + payload: 16 bytes each).
  long Unit(void* p) const { return (static_cast<unsigned long long*>(p) - words.data()) / 2; }
};

TEST(HeapBlocks, BlocksAreCutUpwardsAfterTheirHeaderAndAFreedOneServesItsSizeAgain) {
  Heap h(64);
  void* a = h.Get(10);  // header unit 0, payload unit 1
  void* b = h.Get(32);  // header unit 2, payload units 3-4
  EXPECT_EQ(h.Unit(a), 1);
  EXPECT_EQ(h.Unit(b), 3);
  EXPECT_EQ(h.state.top, 5u);
  h.Put(a);
  EXPECT_EQ(h.Get(16), a);          // the same size (2 units): the freed block
  EXPECT_EQ(h.Unit(h.Get(16)), 6);  // none free: from the top (5)
  EXPECT_EQ(h.state.live, 3u);
}

// A block kept alive while others come and go: a heap that reused nothing until all were free
// ran out (a review's case).
TEST(HeapBlocks, AllocationsInALoopBesideALiveBlockNeverRunOut) {
  Heap h(64);
  void* kept = h.Get(100);
  ASSERT_NE(kept, nullptr);
  for (int i = 0; i < 1000; ++i) {
    void* p = h.Get(100);
    ASSERT_NE(p, nullptr) << i;
    h.Put(p);
  }
  EXPECT_EQ(h.state.top, 16u);  // two blocks of 1 + 7 units, ever
}

TEST(HeapBlocks, AFullHeapGivesNullAndAnEmptiedOneStartsAgain) {
  Heap h(64);
  std::vector<void*> got;
  for (void* p = h.Get(16); p != nullptr; p = h.Get(16)) got.push_back(p);
  EXPECT_EQ(got.size(), 32u);  // 64 units, 2 a block
  EXPECT_EQ(h.Get(1), nullptr);
  for (void* p : got) h.Put(p);
  EXPECT_EQ(h.state.top, 0u);
  void* whole = h.Get(63 * 16);  // 1 + 63 units: the whole heap
  EXPECT_EQ(h.Unit(whole), 1);
  EXPECT_EQ(h.Get(1), nullptr);
  EXPECT_EQ(h.Get(std::size_t(-1)), nullptr);  // more than the heap: null, no wrap-around
  EXPECT_EQ(h.Get(0), nullptr);                // as the emulator's heap
}

// A full top with a larger block free: the request takes it whole (the hardware's heap would
// succeed too), rather than give null.
TEST(HeapBlocks, AFullTopServesARequestFromALargerFreeBlock) {
  Heap h(64);
  void* kept = h.Get(16);       // units 0-1
  void* big = h.Get(100);       // 1 + 7 units: 2-9
  void* rest = h.Get(53 * 16);  // 1 + 53 units: 10-63, the top full
  ASSERT_NE(rest, nullptr);
  h.Put(big);
  EXPECT_EQ(h.Get(40), big);  // 1 + 3 units: none of its size free, the top full: the 8 units
  EXPECT_EQ(h.Get(40), nullptr);
  (void)kept;
}

TEST(HeapBlocks, AFreeOfAnythingButALiveBlocksStartIsIgnored) {
  Heap h(64);
  void* a = h.Get(16);
  void* b = h.Get(16);
  h.Put(a);
  h.Put(a);                           // twice
  h.Put(static_cast<char*>(b) + 16);  // inside a block (its word after the header: not kUsed)
  void* c = h.Get(64);                // 1 + 4 units, its payload all ones
  std::fill_n(static_cast<unsigned long long*>(c), 8, ~0ull);
  h.Put(static_cast<char*>(c) + 32);  // a "header" of ~0 units: not a block
  h.Put(c);
  int outside = 0;
  h.Put(&outside);
  h.Put(nullptr);
  EXPECT_EQ(h.state.live, 1u);
  h.Put(b);
  EXPECT_EQ(h.state.live, 0u);
  EXPECT_EQ(h.state.top, 0u);
}

// Larger than 65 units: one list, first fit, a block taken whole.
TEST(HeapBlocks, ALargeFreedBlockServesASmallerLargeRequest) {
  Heap h(1024);
  void* keep = h.Get(16);
  void* big = h.Get(2048);  // 1 + 128 units
  h.Put(big);
  EXPECT_EQ(h.Get(1536), big);  // 97 units: fits the 129
  EXPECT_EQ(h.state.top, 2u + 129u);
  (void)keep;
}

// Eight threads allocating and freeing blocks of random sizes: no two live blocks overlap, and
// when all are freed the heap is empty again.
TEST(HeapBlocks, ThreadsNeverShareABlock) {
  Heap h(1 << 16);
  std::mutex mutex;
  std::map<unsigned long long*, std::size_t> live;  // payload -> bytes
  bool overlap = false;
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 rng(t);
      std::vector<void*> mine;
      for (int i = 0; i < 4000; ++i) {
        if (!mine.empty() && rng() % 2 == 0) {
          void* p = mine.back();
          mine.pop_back();
          {
            std::lock_guard lock(mutex);
            live.erase(static_cast<unsigned long long*>(p));
          }
          h.Put(p);
          continue;
        }
        const std::size_t bytes = 1 + rng() % 3000;
        void* p = h.Get(bytes);
        if (p == nullptr) continue;
        std::lock_guard lock(mutex);
        auto* q = static_cast<unsigned long long*>(p);
        auto next = live.lower_bound(q);
        if (next != live.end() &&
            reinterpret_cast<char*>(q) + bytes > reinterpret_cast<char*>(next->first))
          overlap = true;
        if (next != live.begin()) {
          auto before = std::prev(next);
          if (reinterpret_cast<char*>(before->first) + before->second > reinterpret_cast<char*>(q))
            overlap = true;
        }
        live[q] = bytes;
        mine.push_back(p);
      }
      for (void* p : mine) {
        {
          std::lock_guard lock(mutex);
          live.erase(static_cast<unsigned long long*>(p));
        }
        h.Put(p);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_FALSE(overlap);
  EXPECT_EQ(h.state.live, 0u);
  EXPECT_EQ(h.state.top, 0u);
}

}  // namespace
}  // namespace ws::prog::heap
