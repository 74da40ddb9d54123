// Trace files (.wstrace): a capture carried from a lab GPU to a laptop. The file holds a header
// (what ran, where and when, as JSON the app layer fills in) and the launches: shape, buffers,
// sites, whole-grid statistics and the kept blocks' records.
//
// Layout (little-endian):
//   magic      8 bytes  "\x89WSTRC\r\n"
//   version    u32      kTraceFileVersion
//   sections   u32      how many follow
//   section:   type u32 (1 header JSON, 2 launch JSON, 3 launch records), codec u32 (0 raw,
//              1 zlib), stored u64, raw u64, crc32 u32 (of the raw bytes), then `stored` bytes
// A launch's records section follows its JSON section: per kept block, u32 block, u64 accesses,
// u64 barriers, u64 warp ops (version 3), the AccessRecords, BarrierRecords and WarpOpRecords as
// in memory; then u64 n and n bytes of thread activity.
//
// The reader refuses a wrong magic, a newer version, a truncated or corrupt file and any record
// that points outside its launch (site, thread or block out of range), with a message naming
// what is wrong; the views can then index the launch without further checks.
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <span>
#include <vector>

#include "warpscope/trace/launch.h"
#include "warpscope/trace/status.h"

namespace ws {

// Version 3: blocks carry warp-op records (shuffles, votes) and launches their warp-op sites.
// Version 2: access records carry their epoch (20 bytes), sites their file. Version 1 files
// (16-byte access records) still open; their epochs are counted from the barrier times.
inline constexpr std::uint32_t kTraceFileVersion = 4;  // 4: blocks' async events
// Limits the reader enforces (a corrupt size must not become a huge allocation).
inline constexpr std::uint64_t kMaxTraceSectionBytes = 4ull << 30;
inline constexpr std::uint32_t kMaxTraceSections = 1u << 16;

struct TraceContents {
  nlohmann::json header = nlohmann::json::object();
  std::vector<LaunchTrace> launches;
  // zlib's level for the sections; 0: stored raw. A program's child writes its launches raw,
  // for its parent to read at once: a launch with 9 M kept records took 3 s to compress at 6,
  // 1.0 s at 1 (and 0.3 s to inflate), against 0.2 s to write and read back 250 MB raw.
  int compression_level = 6;
  bool durable = true;  // WriteTraceFile: synced to the disk (file_io.h); a child's part is not
};

std::vector<std::uint8_t> SerializeTrace(const TraceContents& contents);
Result<TraceContents> ParseTrace(std::span<const std::uint8_t> bytes);

// Writes atomically (temporary name, then rename); reads the whole file.
Status WriteTraceFile(const std::filesystem::path& path, const TraceContents& contents);
Result<TraceContents> ReadTraceFile(const std::filesystem::path& path);

}  // namespace ws
