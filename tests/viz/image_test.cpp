#include "warpscope/viz/image.h"

#include <gtest/gtest.h>

#include <fstream>
#include <vector>

namespace ws {
namespace {

namespace fs = std::filesystem;

Image Gradient(int w, int h) {
  Image img(w, h);
  for (int y = 0; y < h; ++y) {
    for (int x = 0; x < w; ++x) {
      img.Set(x, y, {static_cast<std::uint8_t>(x), static_cast<std::uint8_t>(y), 7, 255});
    }
  }
  return img;
}

TEST(Image, NewImageIsOpaqueBlack) {
  Image img(3, 2);
  EXPECT_EQ(img.byte_size(), 3u * 2u * 4u);
  EXPECT_EQ(img.At(2, 1), (Rgba{0, 0, 0, 255}));
  EXPECT_EQ(img.DistinctColours(), 1);
}

TEST(Image, FlipRowsReversesRowOrder) {
  Image img = Gradient(4, 3);
  img.FlipRows();
  EXPECT_EQ(img.At(1, 0), (Rgba{1, 2, 7, 255}));  // old row 2 is now row 0
  EXPECT_EQ(img.At(1, 1), (Rgba{1, 1, 7, 255}));  // the middle row of 3 stays
  EXPECT_EQ(img.At(1, 2), (Rgba{1, 0, 7, 255}));
}

TEST(Image, CropTakesTheRectAndClipsToTheImage) {
  Image img = Gradient(10, 8);
  Image c = img.Crop({2, 3, 4, 2});
  ASSERT_EQ(c.width(), 4);
  ASSERT_EQ(c.height(), 2);
  EXPECT_EQ(c.At(0, 0), (Rgba{2, 3, 7, 255}));
  EXPECT_EQ(c.At(3, 1), (Rgba{5, 4, 7, 255}));
  Image clipped = img.Crop({8, 6, 10, 10});  // only 2x2 of it lies inside
  EXPECT_EQ(clipped.width(), 2);
  EXPECT_EQ(clipped.height(), 2);
  EXPECT_TRUE(img.Crop({20, 20, 5, 5}).empty());
}

TEST(Image, DistinctColoursCountsEachOnce) {
  Image img = Gradient(5, 4);  // x in 0..4, y in 0..3: 20 different (x, y) colours
  EXPECT_EQ(img.DistinctColours(), 20);
  EXPECT_EQ(img.DistinctColours(8), 8);  // stops at the limit
}

TEST(Png, RoundTripsPixelsExactly) {
  const fs::path p = fs::temp_directory_path() / ("ws_png_" + std::to_string(::getpid()) + ".png");
  Image img = Gradient(17, 9);
  ASSERT_TRUE(SavePng(img, p).ok());
  auto back = LoadPng(p);
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_EQ(back->width(), 17);
  ASSERT_EQ(back->height(), 9);
  for (int y = 0; y < 9; ++y) {
    for (int x = 0; x < 17; ++x) ASSERT_EQ(back->At(x, y), img.At(x, y)) << x << "," << y;
  }
  fs::remove(p);
}

// An opaque image is written as RGB (PNG colour type 2, the byte after IHDR's width, height and
// bit depth), one with any translucent pixel as RGBA (6); both read back exactly.
TEST(Png, OpaqueImagesAreRgbAndTranslucentOnesKeepTheirAlpha) {
  const fs::path p =
      fs::temp_directory_path() / ("ws_png_a_" + std::to_string(::getpid()) + ".png");
  auto colour_type = [&] {
    std::ifstream in(p, std::ios::binary);
    std::vector<char> b(26);
    in.read(b.data(), 26);
    return static_cast<int>(b[25]);  // 8 signature, 4 length, 4 "IHDR", 4 + 4 size, 1 depth
  };
  Image img = Gradient(6, 5);
  ASSERT_TRUE(SavePng(img, p).ok());
  EXPECT_EQ(colour_type(), 2);
  img.Set(4, 3, {9, 8, 7, 128});
  ASSERT_TRUE(SavePng(img, p).ok());
  EXPECT_EQ(colour_type(), 6);
  auto back = LoadPng(p);
  ASSERT_TRUE(back.ok()) << back.status().message();
  for (int y = 0; y < 5; ++y) {
    for (int x = 0; x < 6; ++x) ASSERT_EQ(back->At(x, y), img.At(x, y)) << x << "," << y;
  }
  fs::remove(p);
}

TEST(Png, EmptyImageIsRefused) {
  Status s = SavePng(Image(), fs::temp_directory_path() / "ws_empty.png");
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("empty"), std::string::npos);
}

TEST(Png, LoadingGarbageSaysWhy) {
  auto r = LoadPng("/nonexistent/file.png");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("/nonexistent/file.png"), std::string::npos);
}

}  // namespace
}  // namespace ws
