// The transfers lesson's sizes: the `size` parameter's choices and the bandwidth sweep.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace ws {

// The `size` choices: 64 KB, 256 KB, ..., 256 MB (powers of 4).
inline const std::vector<std::string>& TransferSizeChoices() {
  static const std::vector<std::string> names = {"64 KB", "256 KB", "1 MB",  "4 MB",
                                                 "16 MB", "64 MB",  "256 MB"};
  return names;
}

inline std::size_t TransferSizeBytes(long long choice) {
  if (choice < 0) choice = 0;
  if (choice > 6) choice = 6;
  return std::size_t{64} << 10 << (2 * choice);
}

// The sweep: 4 KB to 256 MB in powers of 4 (every `size` choice is one of them).
inline const std::vector<std::size_t>& TransferSweepBytes() {
  static const std::vector<std::size_t> sizes = [] {
    std::vector<std::size_t> v;
    for (std::size_t b = 4 << 10; b <= (std::size_t{256} << 20); b *= 4) v.push_back(b);
    return v;
  }();
  return sizes;
}

// "4 KB", "1 MB", "256 MB".
inline std::string TransferSizeName(std::size_t bytes) {
  if (bytes >= (std::size_t{1} << 20) && bytes % (std::size_t{1} << 20) == 0)
    return std::to_string(bytes >> 20) + " MB";
  if (bytes >= 1024 && bytes % 1024 == 0) return std::to_string(bytes >> 10) + " KB";
  return std::to_string(bytes) + " B";
}

}  // namespace ws
