// Writing files so that a failure never leaves a broken one behind: the bytes go to a temporary
// name in the destination folder, are flushed to disk, and only then renamed over the target
// (rename within one folder is atomic on POSIX file systems). Used for screenshots, CSV exports
// and trace files.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>

#include "warpscope/trace/status.h"

namespace ws {

// Writes `bytes` to `path` atomically. On failure the target is untouched, the temporary file is
// removed, and the Status names the path and the reason ("permission denied", "no such folder").
// `durable`: on the disk (fsync) before it is renamed; false for a file read at once and then
// removed (a program's child's launches: 190 MB of a 1024^2 matmul's kept blocks took 0.3 s to
// sync).
Status WriteFileAtomically(const std::filesystem::path& path, std::span<const std::uint8_t> bytes,
                           bool durable = true);
Status WriteFileAtomically(const std::filesystem::path& path, const std::string& text);
// The same for a file given in pieces: `produce` hands each to `put` in order (false from `put`:
// the write failed; stop), without one buffer holding them all.
using PiecePut = std::function<bool(std::span<const std::uint8_t>)>;
Status WriteFileAtomically(const std::filesystem::path& path,
                           const std::function<void(const PiecePut& put)>& produce, bool durable);

}  // namespace ws
