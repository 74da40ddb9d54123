// RGBA images in memory and as PNG files. Screenshots and panel exports go through here: rows are
// stored top to bottom (OpenGL reads them bottom-up; FlipRows fixes that), and SavePng writes
// through ws::WriteFileAtomically, so a failed export never leaves a broken file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <vector>

#include "warpscope/trace/status.h"

namespace ws {

struct Rgba {
  std::uint8_t r = 0, g = 0, b = 0, a = 255;
  friend bool operator==(const Rgba&, const Rgba&) = default;
};

struct PixelRect {
  int x = 0, y = 0, width = 0, height = 0;  // top-left origin, pixels
};

class Image {
 public:
  Image() = default;
  Image(int width, int height);  // black, opaque

  int width() const { return width_; }
  int height() const { return height_; }
  bool empty() const { return width_ == 0 || height_ == 0; }
  std::uint8_t* data() { return pixels_.data(); }
  const std::uint8_t* data() const { return pixels_.data(); }
  std::size_t byte_size() const { return pixels_.size(); }

  Rgba At(int x, int y) const;
  void Set(int x, int y, Rgba c);

  // Reverses the row order (OpenGL's glReadPixels returns the bottom row first).
  void FlipRows();
  // The part of the image inside `rect`, clipped to the image.
  Image Crop(PixelRect rect) const;
  // Number of distinct colours, counting at most `limit` (to tell a blank frame from a real one).
  int DistinctColours(int limit = 1 << 16) const;

 private:
  int width_ = 0, height_ = 0;
  std::vector<std::uint8_t> pixels_;  // RGBA8, rows top to bottom
};

// Encodes as PNG and writes atomically. Fails with a message naming the path and the reason.
Status SavePng(const Image& image, const std::filesystem::path& path);
// Reads a PNG (any channel count, converted to RGBA).
Result<Image> LoadPng(const std::filesystem::path& path);

}  // namespace ws
