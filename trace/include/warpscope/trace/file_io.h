// Writing files so that a failure never leaves a broken one behind: the bytes go to a temporary
// name in the destination folder, are flushed to disk, and only then renamed over the target
// (rename within one folder is atomic on POSIX file systems). Used for screenshots, CSV exports
// and trace files.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

#include "warpscope/trace/status.h"

namespace ws {

// Writes `bytes` to `path` atomically. On failure the target is untouched, the temporary file is
// removed, and the Status names the path and the reason ("permission denied", "no such folder").
Status WriteFileAtomically(const std::filesystem::path& path, std::span<const std::uint8_t> bytes);
Status WriteFileAtomically(const std::filesystem::path& path, const std::string& text);

}  // namespace ws
