#include "warpscope/viz/image.h"

#include <stb_image.h>
#include <stb_image_write.h>

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

Status SavePng(const Image& image, const std::filesystem::path& path) {
  if (image.empty()) return Status::Error("cannot save " + path.string() + ": the image is empty");
  std::vector<std::uint8_t> png;
  auto append = [](void* ctx, void* data, int size) {
    auto* out = static_cast<std::vector<std::uint8_t>*>(ctx);
    const auto* bytes = static_cast<const std::uint8_t*>(data);
    out->insert(out->end(), bytes, bytes + size);
  };
  if (stbi_write_png_to_func(append, &png, image.width(), image.height(), 4, image.data(),
                             image.width() * 4) == 0) {
    return Status::Error("cannot save " + path.string() + ": PNG encoding failed");
  }
  return WriteFileAtomically(path, png);
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
