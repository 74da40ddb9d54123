#include "warpscope/viz/image.h"

#include <png.h>
#include <stb_image.h>

#include <algorithm>
#include <cstring>
#include <unordered_set>

#include "warpscope/trace/file_io.h"

namespace ws {

Image::Image(int width, int height)
    : width_(std::max(width, 0)),
      height_(std::max(height, 0)),
      pixels_(static_cast<std::size_t>(width_) * height_ * 4, 0) {
  for (std::size_t i = 3; i < pixels_.size(); i += 4) pixels_[i] = 255;
}

Rgba Image::At(int x, int y) const {
  const std::uint8_t* p = &pixels_[(static_cast<std::size_t>(y) * width_ + x) * 4];
  return {p[0], p[1], p[2], p[3]};
}

void Image::Set(int x, int y, Rgba c) {
  std::uint8_t* p = &pixels_[(static_cast<std::size_t>(y) * width_ + x) * 4];
  p[0] = c.r;
  p[1] = c.g;
  p[2] = c.b;
  p[3] = c.a;
}

void Image::FlipRows() {
  const std::size_t row = static_cast<std::size_t>(width_) * 4;
  std::vector<std::uint8_t> tmp(row);
  for (int y = 0; y < height_ / 2; ++y) {
    std::uint8_t* a = &pixels_[y * row];
    std::uint8_t* b = &pixels_[(height_ - 1 - y) * row];
    std::memcpy(tmp.data(), a, row);
    std::memcpy(a, b, row);
    std::memcpy(b, tmp.data(), row);
  }
}

Image Image::Crop(PixelRect r) const {
  const int x0 = std::clamp(r.x, 0, width_), y0 = std::clamp(r.y, 0, height_);
  const int x1 = std::clamp(r.x + r.width, 0, width_), y1 = std::clamp(r.y + r.height, 0, height_);
  Image out(x1 - x0, y1 - y0);
  for (int y = y0; y < y1; ++y) {
    std::memcpy(&out.pixels_[static_cast<std::size_t>(y - y0) * out.width_ * 4],
                &pixels_[(static_cast<std::size_t>(y) * width_ + x0) * 4],
                static_cast<std::size_t>(out.width_) * 4);
  }
  return out;
}

int Image::DistinctColours(int limit) const {
  std::unordered_set<std::uint32_t> seen;
  for (std::size_t i = 0; i < pixels_.size(); i += 4) {
    std::uint32_t v;
    std::memcpy(&v, &pixels_[i], 4);
    seen.insert(v);
    if (static_cast<int>(seen.size()) >= limit) break;
  }
  return static_cast<int>(seen.size());
}

namespace {

// PNG writing by libpng's simplified API: RGB where every pixel is opaque (a screenshot's,
// a panel's), else RGBA; 8 bits; PNG_IMAGE_FLAG_FAST (no row filters, zlib's quick level).
// Measured on two of memory-model.toml's exported panels (3200x1686 and 1216x1686, this
// machine, 3 encodes each): 45 and 36 ms, files of 549 and 366 KB, against 211 and 163 ms and
// 572 and 548 KB as RGBA with libpng's default filter choice and level, which were 45 % of the
// app's time exporting that lecture's notes (perf). A panel's flat colours compress better
// unfiltered. Before libpng, stb_image_write's own deflate was more than half of it.
Result<std::vector<std::uint8_t>> EncodePng(const Image& image) {
  const std::uint8_t* pixels = image.data();
  const std::size_t count = static_cast<std::size_t>(image.width()) * image.height();
  bool opaque = true;
  for (std::size_t i = 0; i < count && opaque; ++i) opaque = pixels[i * 4 + 3] == 255;
  std::vector<std::uint8_t> rgb;
  if (opaque) {
    rgb.resize(count * 3);
    for (std::size_t i = 0; i < count; ++i) std::memcpy(&rgb[i * 3], &pixels[i * 4], 3);
  }
  png_image png;
  std::memset(&png, 0, sizeof png);
  png.version = PNG_IMAGE_VERSION;
  png.width = static_cast<png_uint_32>(image.width());
  png.height = static_cast<png_uint_32>(image.height());
  png.format = opaque ? PNG_FORMAT_RGB : PNG_FORMAT_RGBA;
  png.flags = PNG_IMAGE_FLAG_FAST;
  png_alloc_size_t size = PNG_IMAGE_PNG_SIZE_MAX(png);
  std::vector<std::uint8_t> out(size);
  if (png_image_write_to_memory(&png, out.data(), &size, 0, opaque ? rgb.data() : pixels, 0,
                                nullptr) == 0) {
    const std::string why = png.message;
    png_image_free(&png);
    return Status::Error("PNG encoding failed (libpng: " + why + ")");
  }
  out.resize(size);
  return out;
}

}  // namespace

Status SavePng(const Image& image, const std::filesystem::path& path) {
  if (image.empty()) return Status::Error("cannot save " + path.string() + ": the image is empty");
  auto png = EncodePng(image);
  if (!png.ok())
    return Status::Error("cannot save " + path.string() + ": " + png.status().message());
  return WriteFileAtomically(path, *png);
}

Result<Image> LoadPng(const std::filesystem::path& path) {
  int w = 0, h = 0, n = 0;
  stbi_uc* data = stbi_load(path.c_str(), &w, &h, &n, 4);
  if (data == nullptr) {
    return Status::Error("cannot read " + path.string() + ": " + stbi_failure_reason());
  }
  Image img(w, h);
  std::memcpy(img.data(), data, img.byte_size());
  stbi_image_free(data);
  return img;
}

}  // namespace ws
