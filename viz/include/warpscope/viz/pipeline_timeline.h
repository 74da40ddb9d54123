// The pipeline view as numbers, with no ImGui (issue 53): for one kept block, a row per warp that
// copied asynchronously or waited for a copy, each a list of spans on the block's clock: a commit
// group's (or a group pipeline's stage use's) copies in flight from the warp's first issue to its
// last landing, the warp waiting for copies (consumer_wait, a wait_prior, arrive_and_wait),
// waiting for a free stage (a producer's producer_acquire), and holding a stage it waited for
// until it releases it (consumer_release), which is when it computes on it. Made from the
// emulator's async events (BlockRecords::async_events); the panel draws this model and tests check
// its numbers rather than pixels.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "warpscope/trace/launch.h"

namespace ws {

struct PipelineSpan {
  enum class Kind : std::uint8_t { kInFlight, kWaiting, kAcquiring, kHolding };
  Kind kind = Kind::kInFlight;
  std::uint32_t group = 0;         // the commit group or stage use
  std::uint64_t from = 0, to = 0;  // from < to
  std::uint32_t lanes = 0;         // the warp's lanes that took part
  // In flight: the track it is drawn on, so that groups in flight at once are drawn apart
  // (the lowest track free when it was issued); others 0.
  std::uint32_t track = 0;
  friend bool operator==(const PipelineSpan&, const PipelineSpan&) = default;
};

struct PipelineRow {
  std::string label;  // "warp 2"
  std::uint32_t warp = 0;
  std::vector<PipelineSpan> spans;  // by kind, then group (in flight first)
  std::uint32_t tracks = 1;         // in-flight tracks: the most groups in flight at once
  // The row's spans of `kind`, in group order.
  std::vector<PipelineSpan> Of(PipelineSpan::Kind kind) const;
};

struct PipelineTimeline {
  // Set when there is nothing to draw but words (the block was not kept, or it made no
  // asynchronous copy); the rows are then empty.
  std::string message;
  std::vector<PipelineRow> rows;  // by warp
  std::uint32_t stages = 0;       // a group pipeline's stages (colours: use % stages); 0: none
  std::uint64_t copies = 0;       // copies issued in the block (each lane's piece one)
  std::uint64_t end_time = 0;     // the block's last event
  std::string axis;               // "0 .. 812 logical time"
};

// The pipeline timeline of block `block` of `launch`.
PipelineTimeline MakePipelineTimeline(const LaunchTrace& launch, std::uint32_t block);

}  // namespace ws
