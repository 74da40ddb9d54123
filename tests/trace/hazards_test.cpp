// The hazard analysis on records built by hand: each expectation is counted from the records
// written next to it.
#include "warpscope/trace/hazards.h"

#include <gtest/gtest.h>

#include <map>

#include "warpscope/trace/launch.h"

namespace ws {
namespace {

// A launch of `blocks` blocks of `threads` threads with these sites (line, space, op, size).
struct Builder {
  LaunchTrace t;
  Builder(std::uint32_t blocks, std::uint32_t threads) {
    t.grid = {blocks, 1, 1};
    t.block = {threads, 1, 1};
    t.buffers = {{"d", 1 << 16, 1 << 20}};
  }
  std::uint16_t Site(std::uint32_t line, MemorySpace space, AccessOp op, std::uint8_t size = 4) {
    SiteInfo s;
    s.line = line;
    s.space = space;
    s.op = op;
    s.size = size;
    t.sites.push_back(s);
    return static_cast<std::uint16_t>(t.sites.size() - 1);
  }
  BlockRecords& Block(std::uint32_t b) {
    for (BlockRecords& r : t.blocks)
      if (r.block == b) return r;
    t.blocks.push_back({});
    t.blocks.back().block = b;
    return t.blocks.back();
  }
  void Add(std::uint32_t block, std::uint16_t thread, std::uint16_t site, std::uint32_t offset,
           std::uint32_t time, std::uint32_t epoch, std::uint64_t value) {
    BlockRecords& r = Block(block);
    AccessRecord a;
    a.offset = offset;
    a.thread = thread;
    a.site = site;
    a.time = time;
    a.epoch = epoch;
    r.accesses.push_back(a);
    r.values.push_back(value);
  }
};

// The shared-memory reverse, s[t] = d[t]; d[t] = s[n-1-t], for n threads of one block.
Builder Reverse(std::uint16_t n, bool barrier) {
  Builder b(1, n);
  const auto load_d = b.Site(10, MemorySpace::kGlobal, AccessOp::kLoad);
  const auto store_s = b.Site(11, MemorySpace::kShared, AccessOp::kStore);
  const auto load_s = b.Site(13, MemorySpace::kShared, AccessOp::kLoad);
  const auto store_d = b.Site(13, MemorySpace::kGlobal, AccessOp::kStore);
  for (std::uint16_t t = 0; t < n; ++t) {
    b.Add(0, t, load_d, t * 4u, 0, 0, t);
    b.Add(0, t, store_s, t * 4u, 1, 0, t);
  }
  const std::uint32_t e = barrier ? 1 : 0;
  for (std::uint16_t t = 0; t < n; ++t) {
    const std::uint16_t tr = static_cast<std::uint16_t>(n - 1 - t);
    b.Add(0, t, load_s, tr * 4u, 2, e, tr);
    b.Add(0, t, store_d, t * 4u, 3, e, tr);
  }
  return b;
}

TEST(Hazards, ReverseWithItsBarrierHasNone) {
  const HazardReport r = FindHazards(Reverse(64, true).t);
  EXPECT_TRUE(r.groups.empty());
  EXPECT_EQ(r.shared_accesses, 128u);  // 64 stores + 64 loads
  EXPECT_EQ(r.global_accesses, 128u);
  EXPECT_TRUE(r.values_known);
  EXPECT_EQ(r.Checked(),
            "shared memory within each of block 0 of 1 (128 accesses), global memory among its "
            "threads (128 accesses)");
}

TEST(Hazards, ReverseWithoutItsBarrierReadsEverySlotAnotherThreadWrites) {
  // 64 threads: thread t writes s[t] at time 1, thread 63-t reads it at time 2, t != 63-t for
  // every t (64 is even): 64 RAW pairs between lines 11 and 13. In-warp pairs: t and 63-t share
  // a warp when both are in 0..31 or both in 32..63, never (t < 32 => 63-t > 31): 0.
  const Builder b = Reverse(64, false);
  const HazardReport r = FindHazards(b.t);
  ASSERT_EQ(r.groups.size(), 1u);
  const HazardGroup& g = r.groups[0];
  EXPECT_EQ(g.kind, HazardKind::kRaw);
  EXPECT_EQ(g.space, MemorySpace::kShared);
  EXPECT_EQ(g.first_line, 11u);
  EXPECT_EQ(g.second_line, 13u);
  EXPECT_EQ(g.count, 64u);
  EXPECT_EQ(g.same_warp, 0u);
  // The first word, s[0]: written by thread 0 (value 0), read by thread 63.
  EXPECT_EQ(g.example_first.thread, 0);
  EXPECT_EQ(g.example_second.thread, 63);
  EXPECT_EQ(g.example_offset, 0u);
  EXPECT_EQ(HazardBadge(g), "RAW 64");
  // 32 threads: t and 31-t are always in warp 0: 32 pairs, all in one warp.
  const HazardGroup g32 = FindHazards(Reverse(32, false).t).groups.at(0);
  EXPECT_EQ(g32.count, 32u);
  EXPECT_EQ(g32.same_warp, 32u);
  EXPECT_EQ(HazardBadge(g32), "RAW 32, same warp");
  // 33 threads: the middle thread 16 reads its own slot (no pair): 32 pairs.
  EXPECT_EQ(FindHazards(Reverse(33, false).t).Total(), 32u);
}

// A GPU's records hold an asynchronous copy's shared write where the copy was issued, and not the
// pipeline waits that order it: with async_writes false (the GPU's decoder) the writes are left
// out and counted, and the text says how many. The reverse without its barrier, its stores marked
// as copies' writes: 64 RAW pairs as stores, none as copies' writes, 64 writes left out.
TEST(Hazards, AGpusCopyWritesAreLeftOutAndCounted) {
  Builder b = Reverse(64, false);
  b.t.sites[1].async_copy = true;
  EXPECT_EQ(FindHazards(b.t).Total(), 64u);
  const HazardReport r = FindHazards(b.t, true, nullptr, false);
  EXPECT_EQ(r.Total(), 0u);
  EXPECT_EQ(r.unchecked_async_writes, 64u);
  EXPECT_NE(r.Checked().find("64 shared writes of asynchronous copies not checked"),
            std::string::npos)
      << r.Checked();
}

TEST(Hazards, AReadBeforeAWriteIsWarAndTwoWritesAreWawOrBenign) {
  Builder b(1, 64);
  const auto load = b.Site(5, MemorySpace::kShared, AccessOp::kLoad);
  const auto store = b.Site(6, MemorySpace::kShared, AccessOp::kStore);
  // Thread 1 reads word 0 at time 0; thread 2 writes it at time 1: WAR.
  b.Add(0, 1, load, 0, 0, 0, 7);
  b.Add(0, 2, store, 0, 1, 0, 9);
  // Threads 3 and 40 both write 5 to word 1 (benign); thread 41 writes 6 there too: with 3 and
  // with 40, two WAW pairs of different values.
  b.Add(0, 3, store, 4, 1, 0, 5);
  b.Add(0, 40, store, 4, 1, 0, 5);
  b.Add(0, 41, store, 4, 1, 0, 6);
  const HazardReport r = FindHazards(b.t);
  EXPECT_EQ(r.Count(HazardKind::kWar), 1u);
  EXPECT_EQ(r.Count(HazardKind::kWaw), 2u);
  EXPECT_EQ(r.Count(HazardKind::kWawSameValue), 1u);
  EXPECT_EQ(r.Count(HazardKind::kRaw), 0u);
  EXPECT_EQ(r.Total(), 4u);
  // Sorted by kind: WAR, WAW, WAW (same value).
  ASSERT_EQ(r.groups.size(), 3u);
  EXPECT_EQ(r.groups[0].kind, HazardKind::kWar);
  EXPECT_EQ(r.groups[0].example_first.value, 7u);
  EXPECT_EQ(r.groups[0].example_second.value, 9u);
  EXPECT_EQ(HazardBadge(r.groups[2]), "WAW= 1");
}

TEST(Hazards, ABarrierAtomicsAndOtherBytesAreNotHazards) {
  Builder b(1, 64);
  const auto store = b.Site(5, MemorySpace::kShared, AccessOp::kStore);
  const auto load = b.Site(6, MemorySpace::kShared, AccessOp::kLoad);
  const auto atom = b.Site(7, MemorySpace::kShared, AccessOp::kAtomic);
  const auto byte_store = b.Site(8, MemorySpace::kShared, AccessOp::kStore, 1);
  b.Add(0, 1, store, 0, 0, 0, 1);  // epoch 0
  b.Add(0, 2, load, 0, 3, 1, 1);   // epoch 1: after a barrier
  b.Add(0, 3, atom, 8, 0, 0, 0);   // two atomics on one word
  b.Add(0, 4, atom, 8, 0, 0, 1);
  b.Add(0, 5, byte_store, 16, 0, 0, 1);  // bytes 16 and 17 of one word
  b.Add(0, 6, byte_store, 17, 0, 0, 1);
  b.Add(0, 7, store, 24, 0, 0, 1);  // one thread writes and reads its own word
  b.Add(0, 7, load, 24, 1, 0, 1);
  EXPECT_TRUE(FindHazards(b.t).groups.empty());
  // An atomic against a plain load of its word is a hazard: the load may see either value.
  b.Add(0, 9, load, 8, 5, 0, 0);
  const HazardReport r = FindHazards(b.t);
  EXPECT_EQ(r.Count(HazardKind::kRaw), 2u);  // after each of the two atomics (times 0 < 5)
}

// The interval's first pass keeps only the bytes another thread touches (a byte histogram's four
// threads to a word race nowhere); a race on one byte of such a word is still each pair once.
TEST(Hazards, AWordsRacingByteIsPairedAndItsOtherBytesAreNot) {
  Builder b(1, 64);
  const auto byte_load = b.Site(5, MemorySpace::kShared, AccessOp::kLoad, 1);
  const auto byte_store = b.Site(6, MemorySpace::kShared, AccessOp::kStore, 1);
  const auto atom = b.Site(7, MemorySpace::kShared, AccessOp::kAtomic);
  const auto store = b.Site(8, MemorySpace::kShared, AccessOp::kStore);
  const auto wide_store = b.Site(9, MemorySpace::kShared, AccessOp::kStore, 8);
  // Word 0: threads 0-3 each increment their own byte three times (load, store): no pair.
  for (std::uint16_t t = 0; t < 4; ++t) {
    for (std::uint32_t k = 0; k < 3; ++k) {
      b.Add(0, t, byte_load, t, 2 * k, 0, k);
      b.Add(0, t, byte_store, t, 2 * k + 1, 0, k + 1);
    }
  }
  // Word 1 (bytes 4-7): threads 4 and 5 own bytes 4 and 5; thread 6 reads byte 5 once, after
  // thread 5's first store (time 1) and before its second (time 3): RAW with the first, WAR
  // with the second; nothing on byte 4.
  b.Add(0, 4, byte_store, 4, 1, 0, 1);
  b.Add(0, 4, byte_store, 4, 3, 0, 2);
  b.Add(0, 5, byte_store, 5, 1, 0, 1);
  b.Add(0, 5, byte_store, 5, 3, 0, 2);
  b.Add(0, 6, byte_load, 5, 2, 0, 1);
  // Word 2: thread 7 stores and adds atomically to it alone (in order); thread 8's atomic on word
  // 3 against thread 9's store there: one WAW.
  b.Add(0, 7, store, 8, 0, 0, 1);
  b.Add(0, 7, atom, 8, 1, 0, 2);
  b.Add(0, 8, atom, 12, 0, 0, 3);
  b.Add(0, 9, store, 12, 1, 0, 4);
  // Words 4-5: thread 10's 8-byte store against thread 11's read of byte 22 (word 5 only):
  // one RAW, counted at the word both cover.
  b.Add(0, 10, wide_store, 16, 0, 0, 5);
  b.Add(0, 11, byte_load, 22, 1, 0, 0);
  const HazardReport r = FindHazards(b.t);
  EXPECT_EQ(r.Count(HazardKind::kRaw), 2u);  // byte 5 after time 1; byte 22
  EXPECT_EQ(r.Count(HazardKind::kWar), 1u);  // byte 5 before time 3
  EXPECT_EQ(r.Count(HazardKind::kWaw), 1u);  // word 3: atomic, then store
  EXPECT_EQ(r.Total(), 4u);
}

TEST(Hazards, GlobalMemoryRacesAcrossBlocksWhateverTheirEpochs) {
  Builder b(2, 32);
  const auto store = b.Site(3, MemorySpace::kGlobal, AccessOp::kStore, 8);
  const auto load = b.Site(4, MemorySpace::kGlobal, AccessOp::kLoad);
  // Block 0 thread 0 writes 8 bytes at offset 0 (epoch 0); block 1 thread 0 reads bytes 4..7
  // (epoch 3): no barrier orders two blocks, so RAW once (counted at word 1 only).
  b.Add(0, 0, store, 0, 0, 0, 42);
  b.Add(1, 0, load, 4, 1, 3, 0);
  // Shared accesses of different blocks to the same offset are different memory: none.
  const auto s_store = b.Site(9, MemorySpace::kShared, AccessOp::kStore);
  b.Add(0, 5, s_store, 0, 0, 0, 1);
  b.Add(1, 6, s_store, 0, 0, 0, 2);
  const HazardReport r = FindHazards(b.t);
  ASSERT_EQ(r.groups.size(), 1u);
  EXPECT_EQ(r.groups[0].space, MemorySpace::kGlobal);
  EXPECT_EQ(r.groups[0].count, 1u);
  EXPECT_EQ(r.groups[0].example_address, (1u << 20) + 4u);  // the buffer's base + 4
  EXPECT_EQ(r.groups[0].example_second.block, 1u);
  EXPECT_EQ(r.Checked(),
            "shared memory within each of blocks 0, 1 of 2 (2 accesses), global memory among "
            "them (2 accesses)");
}

// A cooperative launch on a GPU: grid syncs the kept blocks' records do not mark, so global
// accesses pair within each block only, and the report says so.
TEST(Hazards, AcrossBlocksOffPairsGlobalMemoryWithinEachBlockOnly) {
  Builder b(2, 32);
  const auto store = b.Site(3, MemorySpace::kGlobal, AccessOp::kStore);
  const auto load = b.Site(4, MemorySpace::kGlobal, AccessOp::kLoad);
  b.Add(0, 0, store, 0, 0, 0, 42);  // block 0 writes word 0; block 1 reads it: across blocks
  b.Add(1, 0, load, 0, 1, 0, 0);
  b.Add(1, 1, store, 8, 0, 0, 7);  // block 1's threads 1 and 2 race on word 2: within a block
  b.Add(1, 2, load, 8, 1, 0, 7);
  EXPECT_EQ(FindHazards(b.t).Total(), 2u);
  const HazardReport r = FindHazards(b.t, false);
  ASSERT_EQ(r.Total(), 1u);
  EXPECT_EQ(r.groups[0].example_first.block, 1u);
  EXPECT_TRUE(r.grid_synced);
  EXPECT_NE(r.Checked().find("global memory within each of them"), std::string::npos)
      << r.Checked();
  EXPECT_NE(r.Checked().find("not across blocks"), std::string::npos) << r.Checked();
}

TEST(Hazards, WithoutValuesTwoWritesAreNotCalledBenign) {
  Builder b(1, 32);
  const auto store = b.Site(5, MemorySpace::kShared, AccessOp::kStore);
  b.Add(0, 1, store, 0, 0, 0, 5);
  b.Add(0, 2, store, 0, 0, 0, 5);
  b.t.blocks[0].values.clear();  // a GPU capture
  const HazardReport r = FindHazards(b.t);
  EXPECT_FALSE(r.values_known);
  EXPECT_EQ(r.Count(HazardKind::kWaw), 1u);
  EXPECT_EQ(r.Count(HazardKind::kWawSameValue), 0u);
}

// The last-block pattern where the last ticket went to a lower block than a writer (two
// workers make that happen): block 0 takes its ticket (step 5) and, after a barrier, reads
// block 1's partial; block 1 writes its partial (step 1) and then takes its ticket (step 2).
// Blocks go into the shadow in index order, so block 1's write comes after block 0's read: the
// pair is ordered only by block 1's ticket, which comes after the write. The shadow waits for
// the block's end to decide; without block 1's ticket the pair is a WAR.
TEST(Hazards, ATicketTakenAfterTheWriteStillOrdersALowerBlocksRead) {
  for (bool ticket : {true, false}) {
    HazardTally tally;
    GlobalShadow shadow;
    auto access = [](std::uint32_t block, AccessOp op, std::uint32_t offset, std::uint32_t time,
                     std::uint32_t epoch, std::uint16_t site) {
      GlobalShadow::Access a;
      a.block = block;
      a.offset = offset;
      a.time = time;
      a.epoch = epoch;
      a.site = site;
      a.op = op;
      return a;
    };
    // Word 0: the ticket; word 1: block 1's partial.
    shadow.Apply(access(0, AccessOp::kAtomic, 0, 5, 0, 0), tally);
    shadow.Apply(access(0, AccessOp::kLoad, 4, 6, 1, 1), tally);
    shadow.FinishBlock(0, tally);
    shadow.Apply(access(1, AccessOp::kStore, 4, 1, 0, 2), tally);
    if (ticket) shadow.Apply(access(1, AccessOp::kAtomic, 0, 2, 0, 0), tally);
    shadow.FinishBlock(1, tally);
    const HazardReport r = tally.Report({}, {}, {});
    if (ticket) {
      EXPECT_TRUE(r.groups.empty()) << r.groups.size();
    } else {
      ASSERT_EQ(r.groups.size(), 1u);
      EXPECT_EQ(r.groups[0].kind, HazardKind::kWar);
      EXPECT_EQ(r.groups[0].count, 1u);
      EXPECT_EQ(r.groups[0].example_first.block, 0u);
      EXPECT_EQ(r.groups[0].example_second.block, 1u);
    }
  }
}

// Across blocks the shadow pairs an access with the word's last write and (a write) with the
// first read since it, by a lower block: block 0 writes a word, blocks 1 and 2 read it (a RAW
// each, with block 0's write), block 3 writes it (a WAW with block 0's write and a WAR with
// block 1's read, the first since): 4 pairs. Kept, the same from FindHazards.
TEST(Hazards, AcrossBlocksEachAccessPairsWithTheLastWriteAndTheFirstReadSince) {
  Builder b(4, 32);
  const auto st = b.Site(5, MemorySpace::kGlobal, AccessOp::kStore);
  const auto ld = b.Site(6, MemorySpace::kGlobal, AccessOp::kLoad);
  b.Add(0, 3, st, 8, 0, 0, 7);
  b.Add(1, 4, ld, 8, 0, 0, 7);
  b.Add(2, 5, ld, 8, 0, 0, 7);
  b.Add(3, 6, st, 8, 0, 0, 9);
  const HazardReport r = FindHazards(b.t);
  EXPECT_EQ(r.Count(HazardKind::kRaw), 2u);
  EXPECT_EQ(r.Count(HazardKind::kWaw), 1u);
  EXPECT_EQ(r.Count(HazardKind::kWar), 1u);
  for (const HazardGroup& g : r.groups) {
    EXPECT_EQ(g.same_warp, 0u);
    if (g.kind == HazardKind::kWar) {
      EXPECT_EQ(g.example_first.block, 1u);  // the first read since block 0's write
      EXPECT_EQ(g.example_second.block, 3u);
    }
  }
  // The same value written again is benign.
  b.t.blocks[3].values[0] = 7;
  EXPECT_EQ(FindHazards(b.t).Count(HazardKind::kWawSameValue), 1u);
}

// Reads of a buffer nothing has written yet wait aside (GlobalShadow::Defer) and go into the
// shadow, in their order, at the buffer's first write or first access that is not a whole-word
// read; the pairs are those of reads put in at once. Buffer 0: blocks 0 and 1 read word 2,
// block 2 writes it: one WAR, with block 0's read (the first since no write). Buffer 1: block 0
// reads words 0-1 (8 bytes), block 3 reads 2 bytes of word 0 (which puts the waiting read in),
// block 4 writes word 1: one WAR, with block 0's read. Buffer 2 is only read: nothing.
TEST(Hazards, ReadsOfABufferNothingWroteWaitAndPairAsIfPutInAtOnce) {
  HazardTally tally;
  GlobalShadow shadow;
  auto access = [](std::uint32_t block, std::uint16_t buffer, AccessOp op, std::uint32_t offset,
                   std::uint8_t size, std::uint16_t thread) {
    GlobalShadow::Access a;
    a.block = block;
    a.buffer = buffer;
    a.offset = offset;
    a.size = size;
    a.thread = thread;
    a.op = op;
    a.site = static_cast<std::uint16_t>(buffer * 10 + (op == AccessOp::kLoad ? 0 : 1));
    return a;
  };
  for (std::uint32_t block = 0; block < 5; ++block) {
    if (block < 2) shadow.Apply(access(block, 0, AccessOp::kLoad, 8, 4, 7 - block), tally);
    if (block == 2) shadow.Apply(access(block, 0, AccessOp::kStore, 8, 4, 3), tally);
    if (block == 0) shadow.Apply(access(block, 1, AccessOp::kLoad, 0, 8, 9), tally);
    if (block == 3) shadow.Apply(access(block, 1, AccessOp::kLoad, 2, 2, 1), tally);
    if (block == 4) shadow.Apply(access(block, 1, AccessOp::kStore, 4, 4, 2), tally);
    shadow.Apply(access(block, 2, AccessOp::kLoad, 4 * block, 4, 0), tally);
    shadow.FinishBlock(block, tally);
  }
  const HazardReport r = tally.Report({}, {}, {});
  ASSERT_EQ(r.groups.size(), 2u);
  for (const HazardGroup& g : r.groups) {
    EXPECT_EQ(g.kind, HazardKind::kWar);
    EXPECT_EQ(g.count, 1u);
    EXPECT_EQ(g.example_first.block, 0u);
    EXPECT_EQ(g.example_first.thread, g.first_site == 0 ? 7u : 9u);
    EXPECT_EQ(g.example_second.block, g.first_site == 0 ? 2u : 4u);
  }
}

// An interval's written words and who touched them (WrittenWords): only a word written by one
// thread and touched by another can pair, so without one the interval has no pair to look for.
// Thread 3 writes shared word 2 (offset 8) and reads it back: one thread. Thread 4 reads global
// word 2 of buffer 0 (not written): nothing. Thread 4 reads shared offset 8: two threads.
TEST(Hazards, AWrittenWordTouchedByASecondThreadMakesTheIntervalShared) {
  WrittenWords words;
  words.Clear();
  words.Add(MemorySpace::kShared, 0, 8, 4, 3);
  EXPECT_TRUE(words.Touches(MemorySpace::kShared, 0, 8, 4, 3));
  EXPECT_FALSE(words.Touches(MemorySpace::kGlobal, 0, 8, 4, 4));
  EXPECT_FALSE(words.Touches(MemorySpace::kShared, 0, 12, 4, 4));  // the next word
  EXPECT_FALSE(words.shared());
  EXPECT_TRUE(words.Touches(MemorySpace::kShared, 0, 6, 4, 4));  // bytes 6-9: words 1 and 2
  EXPECT_TRUE(words.shared());
  // A second writer of a word makes it shared too; Clear starts the next interval.
  words.Clear();
  EXPECT_FALSE(words.shared());
  words.Add(MemorySpace::kGlobal, 1, 0, 4, 7);
  words.Add(MemorySpace::kGlobal, 1, 4, 4, 8);
  EXPECT_FALSE(words.shared());
  words.Add(MemorySpace::kGlobal, 1, 0, 4, 8);
  EXPECT_TRUE(words.shared());
}

// A run in rows is kept as its four numbers (first, step, delta, group); its span, taken from
// them, is the span of its 32 lanes' offsets. By hand: rows of 16 lanes from 64 step 4, the
// second row 1024 bytes on: lanes at 64..124 and 1088..1148, so lowest 64, highest 1148; a row
// stepping down from 4096 by 4: 3972..4096; a lane's offset not a multiple of 4: ~0 and 0; a
// second row below offset 0: not taken from the rows (~0ull, the lanes are looked at instead).
TEST(Hazards, ARunsSpanFromItsRowsIsItsLanesSpan) {
  using Batch = GlobalShadow::Batch;
  auto lanes_span = [](std::uint32_t first, std::int32_t step, std::int32_t delta,
                       std::uint32_t group) {
    std::uint32_t offsets[32];
    RowOffsets(first, static_cast<std::uint32_t>(step), static_cast<std::uint32_t>(delta), group,
               offsets);
    return Batch::Span(offsets);
  };
  const std::uint32_t rows_a[4] = {64, 4, 1024, 16};
  EXPECT_EQ(Batch::RowSpan(rows_a), (std::uint64_t{1148} << 32) | 64);
  EXPECT_EQ(Batch::RowSpan(rows_a), lanes_span(64, 4, 1024, 16));
  const std::uint32_t rows_b[4] = {4096, static_cast<std::uint32_t>(-4), 0, 32};
  EXPECT_EQ(Batch::RowSpan(rows_b), (std::uint64_t{4096} << 32) | 3972);
  EXPECT_EQ(Batch::RowSpan(rows_b), lanes_span(4096, -4, 0, 32));
  const std::uint32_t rows_c[4] = {2, 4, 0, 32};
  EXPECT_EQ(Batch::RowSpan(rows_c), std::uint64_t{~0u});
  EXPECT_EQ(Batch::RowSpan(rows_c), lanes_span(2, 4, 0, 32));
  const std::uint32_t rows_d[4] = {400, 0, 256, 8};  // four rows, each one word
  EXPECT_EQ(Batch::RowSpan(rows_d), lanes_span(400, 0, 256, 8));
  const std::uint32_t rows_e[4] = {8, 4, static_cast<std::uint32_t>(-4096), 8};
  EXPECT_EQ(Batch::RowSpan(rows_e), ~0ull);
  // Its lanes as kept (Lanes): the rows' offsets, and values two to a number for 4 bytes.
  Batch b;
  const std::uint32_t at = b.AddRun(nullptr, rows_a, true);
  for (std::uint32_t l = 0; l < 32; l += 2)
    b.RunValues(at)[l / 2] = std::uint64_t{l} | (std::uint64_t{l + 1} << 32);
  std::uint32_t offsets[32];
  std::uint64_t values[32];
  b.Lanes(at, 4, offsets, values);
  EXPECT_EQ(offsets[15], 124u);
  EXPECT_EQ(offsets[16], 1088u);
  EXPECT_EQ(values[7], 7u);
  EXPECT_EQ(values[30], 30u);
}

// A batch's pieces for the run tests below (GlobalShadow::Batch): an interval's head (`singles`
// accesses, then `runs` whole warps' reads), a single read of block 0, a whole warp's read of
// block 0 (lane 0 `thread`) at `offsets`, or in `rows` ({first, step, delta, group}) where given;
// and a store of block 1 (site 4).
void AddHead(GlobalShadow::Batch& b, std::uint32_t singles, std::uint32_t runs) {
  GlobalShadow::Access head;
  head.size = 0;
  head.offset = singles;
  head.time = runs;
  b.accesses.push_back(head);
}
void AddSingle(GlobalShadow::Batch& b, std::uint16_t thread, std::uint32_t time, std::uint16_t site,
               std::uint32_t offset) {
  GlobalShadow::Access single;
  single.block = 0;
  single.thread = thread;
  single.time = time;
  single.site = site;
  single.offset = offset;
  b.accesses.push_back(single);
}
void AddWarpRead(GlobalShadow::Batch& b, std::uint16_t thread, std::uint32_t time,
                 std::uint16_t site, std::uint16_t buffer, const std::uint32_t (&offsets)[32],
                 const std::uint32_t* rows = nullptr) {
  GlobalShadow::Access run;
  run.block = 0;
  run.thread = thread;
  run.time = time;
  run.site = site;
  run.buffer = buffer;
  run.offset = b.AddRun(offsets, rows, true);
  run.value = GlobalShadow::Batch::Span(offsets);
  b.accesses.push_back(run);
}
void StoreFromBlock1(GlobalShadow& shadow, HazardTally& tally, std::uint16_t buffer,
                     std::uint32_t offset) {
  GlobalShadow::Access write;
  write.block = 1;
  write.buffer = buffer;
  write.offset = offset;
  write.op = AccessOp::kStore;
  write.site = 4;
  shadow.Apply(write, tally);
}

// The same for whole warps' reads given as runs (GlobalShadow::Batch): kept aside as they came,
// they go in, in each thread's order among the interval's, when block 1 writes. Block 0's
// interval: thread 3 reads word 5 at time 2 (a single, site 3); warp 1 (threads 32-63) reads
// words 0-31 at time 1 (site 1), then warp 0 (threads 0-31) the same words at time 9 (site 2).
// In thread order thread 0 reads word 0 first and thread 3 word 5: block 1's writes of words 0
// and 5 are a WAR each, with sites 2 and 3 (site 1 would mean the runs' order was kept).
TEST(Hazards, AWholeWarpsReadsKeptAsideGoInInEachThreadsOrder) {
  HazardTally tally;
  GlobalShadow shadow;
  GlobalShadow::Batch b;
  AddHead(b, 1, 2);
  AddSingle(b, 3, 2, 3, 20);
  // Warp 1's lanes kept one by one, warp 0's as a row (first 0, step 4, one row of 32): the
  // same words either way.
  std::uint32_t offsets[32];
  for (std::uint32_t l = 0; l < 32; ++l) offsets[l] = 4 * l;
  const std::uint32_t row[4] = {0, 4, 0, 32};
  AddWarpRead(b, 32, 1, 1, 0, offsets);
  AddWarpRead(b, 0, 9, 2, 0, offsets, row);
  shadow.ApplyBatch(b, tally);
  shadow.FinishBlock(0, tally);
  for (const std::uint32_t offset : {0u, 20u}) StoreFromBlock1(shadow, tally, 0, offset);
  shadow.FinishBlock(1, tally);
  const HazardReport r = tally.Report({}, {}, {});
  ASSERT_EQ(r.groups.size(), 2u);
  for (const HazardGroup& g : r.groups) {
    EXPECT_EQ(g.kind, HazardKind::kWar);
    EXPECT_EQ(g.count, 1u);
    EXPECT_EQ(g.second_site, 4u);
    EXPECT_EQ(g.example_first.thread, g.first_site == 2 ? 0u : 3u);
    EXPECT_TRUE(g.first_site == 2 || g.first_site == 3) << g.first_site;
  }
}

// Runs that come in thread order have a warp's words marked read when the next warp comes (its
// runs find them read), but not those of a buffer an interval's single also reads, which may be
// the first reader, nor one warp's for its own later runs; of lanes side by side at one address,
// the first is the first reader. Block 0's interval: thread 40 reads buffer 0's word 20 at time 0
// (a single, site 3); then, by warp, warp 0 reads buffer 1 with lanes 2w and 2w + 1 on word w
// (site 5), warps 1 and 2 read buffer 0's words 0-31 (sites 1 and 2), warp 3 reads buffer 1's
// words 0-31 (site 6). After a barrier, in an interval of runs alone, warp 4 reads buffer 2
// twice: lane l word l + 1 at time 1 (site 7), then word l + 2 at time 2 (site 8). Block 1 writes
// buffer 0's words 0 and 20, buffer 1's words 3 and 20 and buffer 2's word 32: a WAR each, with the
// first readers thread 32 (site 1), thread 40 (site 3, where marking at once would give thread 52),
// thread 6 (site 5), thread 116 (site 6) and thread 158 (lane 30 at time 2, site 8: in thread order
// before lane 31 at time 1, which marking warp 4's first run at once would give).
TEST(Hazards, RunsInThreadOrderAreMarkedReadAtOnceButNotPastASingleOfTheirBuffer) {
  HazardTally tally;
  GlobalShadow shadow;
  GlobalShadow::Batch b;
  AddHead(b, 1, 4);
  AddSingle(b, 40, 0, 3, 80);
  std::uint32_t pairs[32], words[32], plus1[32], plus2[32];
  for (std::uint32_t l = 0; l < 32; ++l) {
    pairs[l] = 4 * (l / 2);
    words[l] = 4 * l;
    plus1[l] = 4 * (l + 1);
    plus2[l] = 4 * (l + 2);
  }
  AddWarpRead(b, 0, 1, 5, 1, pairs);
  AddWarpRead(b, 32, 5, 1, 0, words);
  AddWarpRead(b, 64, 1, 2, 0, words);
  AddWarpRead(b, 96, 1, 6, 1, words);
  AddHead(b, 0, 2);  // the barrier: the second interval, of its two runs alone
  AddWarpRead(b, 128, 1, 7, 2, plus1);
  AddWarpRead(b, 128, 2, 8, 2, plus2);
  shadow.ApplyBatch(b, tally);
  shadow.FinishBlock(0, tally);
  for (const auto& [buffer, word] :
       {std::pair<std::uint16_t, std::uint32_t>{0, 0}, {0, 20}, {1, 3}, {1, 20}, {2, 32}})
    StoreFromBlock1(shadow, tally, buffer, 4 * word);
  shadow.FinishBlock(1, tally);
  const HazardReport r = tally.Report({}, {}, {});
  std::map<std::uint16_t, std::uint16_t> thread_by_site;
  for (const HazardGroup& g : r.groups) {
    EXPECT_EQ(g.kind, HazardKind::kWar);
    EXPECT_EQ(g.count, 1u);
    EXPECT_EQ(g.second_site, 4u);
    thread_by_site[g.first_site] = g.example_first.thread;
  }
  const std::map<std::uint16_t, std::uint16_t> want{{1, 32}, {3, 40}, {5, 6}, {6, 116}, {8, 158}};
  EXPECT_EQ(thread_by_site, want);
}

// Past 64 MiB of reads waiting, the shadow forgets them (GlobalShadow::Forget) but keeps their
// words' bits: a buffer that is only read loses nothing (no access counted unchecked); one
// written later counts the forgotten reads as not checked across blocks, and a write pairs with
// the reads that still wait. Block 1 reads 3,000,000 words one by one (far past 64 MiB at 28
// bytes each: the first ~2.4 M are forgotten, the rest wait); block 2 writes the first word
// (its read forgotten: no pair) and the last (its read waits: one WAR).
TEST(Hazards, ReadsForgottenPastTheBoundAreCountedOnlyWhereTheirBufferIsWritten) {
  constexpr std::uint32_t n = 3'000'000;
  for (const bool write : {false, true}) {
    HazardTally tally;
    GlobalShadow shadow;
    GlobalShadow::Access a;
    a.block = 1;
    for (std::uint32_t i = 0; i < n; ++i) {
      a.offset = 4 * i;
      a.time = i;
      a.thread = static_cast<std::uint16_t>(i % 1024);
      shadow.Apply(a, tally);
    }
    shadow.FinishBlock(1, tally);
    if (write) {
      for (const std::uint32_t word : {0u, n - 1}) {
        GlobalShadow::Access w;
        w.block = 2;
        w.offset = 4 * word;
        w.op = AccessOp::kStore;
        w.site = 1;
        shadow.Apply(w, tally);
      }
    }
    shadow.FinishBlock(2, tally);
    const HazardReport r = tally.Report({}, {}, {});
    if (!write) {
      EXPECT_EQ(tally.unshadowed_accesses, 0u);
      EXPECT_TRUE(r.groups.empty());
      continue;
    }
    EXPECT_GT(tally.unshadowed_accesses, 0u);
    EXPECT_LT(tally.unshadowed_accesses, n);
    ASSERT_EQ(r.groups.size(), 1u);
    EXPECT_EQ(r.groups[0].kind, HazardKind::kWar);
    EXPECT_EQ(r.groups[0].count, 1u);
    EXPECT_EQ(r.groups[0].example_offset, 4u * (n - 1));
  }
}

}  // namespace
}  // namespace ws
