#include "warpscope/trace/layout_table.h"

#include <gtest/gtest.h>

namespace ws {
namespace {

// The memory-model slides' "Reordered Memory Addresses" table, 16 rows of 24: at memory
// position r * 24 + c, the regular (row-major) address y * 24 + x of the pixel stored there.
const int kSlideTable[16][24] = {
    {0, 1, 24, 25, 2, 3, 26, 27, 4, 5, 28, 29, 6, 7, 30, 31, 48, 49, 72, 73, 50, 51, 74, 75},
    {52, 53, 76,  77,  54,  55,  78,  79,  96,  97,  120, 121,
     98, 99, 122, 123, 100, 101, 124, 125, 102, 103, 126, 127},
    {144, 145, 168, 169, 146, 147, 170, 171, 148, 149, 172, 173,
     150, 151, 174, 175, 8,   9,   32,  33,  10,  11,  34,  35},
    {12, 13, 36, 37, 14, 15, 38, 39, 56, 57, 80, 81,
     58, 59, 82, 83, 60, 61, 84, 85, 62, 63, 86, 87},
    {104, 105, 128, 129, 106, 107, 130, 131, 108, 109, 132, 133,
     110, 111, 134, 135, 152, 153, 176, 177, 154, 155, 178, 179},
    {156, 157, 180, 181, 158, 159, 182, 183, 16, 17, 40, 41,
     18,  19,  42,  43,  20,  21,  44,  45,  22, 23, 46, 47},
    {64, 65, 88, 89, 66,  67,  90,  91,  68,  69,  92,  93,
     70, 71, 94, 95, 112, 113, 136, 137, 114, 115, 138, 139},
    {116, 117, 140, 141, 118, 119, 142, 143, 160, 161, 184, 185,
     162, 163, 186, 187, 164, 165, 188, 189, 166, 167, 190, 191},
    {192, 193, 216, 217, 194, 195, 218, 219, 196, 197, 220, 221,
     198, 199, 222, 223, 240, 241, 264, 265, 242, 243, 266, 267},
    {244, 245, 268, 269, 246, 247, 270, 271, 288, 289, 312, 313,
     290, 291, 314, 315, 292, 293, 316, 317, 294, 295, 318, 319},
    {336, 337, 360, 361, 338, 339, 362, 363, 340, 341, 364, 365,
     342, 343, 366, 367, 200, 201, 224, 225, 202, 203, 226, 227},
    {204, 205, 228, 229, 206, 207, 230, 231, 248, 249, 272, 273,
     250, 251, 274, 275, 252, 253, 276, 277, 254, 255, 278, 279},
    {296, 297, 320, 321, 298, 299, 322, 323, 300, 301, 324, 325,
     302, 303, 326, 327, 344, 345, 368, 369, 346, 347, 370, 371},
    {348, 349, 372, 373, 350, 351, 374, 375, 208, 209, 232, 233,
     210, 211, 234, 235, 212, 213, 236, 237, 214, 215, 238, 239},
    {256, 257, 280, 281, 258, 259, 282, 283, 260, 261, 284, 285,
     262, 263, 286, 287, 304, 305, 328, 329, 306, 307, 330, 331},
    {308, 309, 332, 333, 310, 311, 334, 335, 352, 353, 376, 377,
     354, 355, 378, 379, 356, 357, 380, 381, 358, 359, 382, 383}};

TEST(Layout, TiledEightByEightOfTwoByTwoIsTheSlidesTable) {
  Layout2D l{LayoutKind::kTiled, 24, 16, 8, 8, 2, 2};
  auto order = MemoryOrder(l);
  ASSERT_TRUE(order.ok()) << order.status().message();
  ASSERT_EQ(order->size(), 384u);
  for (int p = 0; p < 384; ++p) {
    const LayoutCell& c = (*order)[static_cast<std::size_t>(p)];
    EXPECT_EQ(c.position, static_cast<std::uint64_t>(p));  // no gaps: 24 x 16 is whole tiles
    EXPECT_EQ(c.y * 24 + c.x, kSlideTable[p / 24][p % 24]) << "position " << p;
  }
}

TEST(Layout, TheSlidesTableIsNotZOrder) {
  // Z-order puts (0, 2) right after the 2x2 blocks at (0,0) and (2,0); the slide goes to (4, 0).
  Layout2D morton{LayoutKind::kMorton, 24, 16};
  auto order = MemoryOrder(morton);
  ASSERT_TRUE(order.ok());
  EXPECT_EQ((*order)[8].x, 0);
  EXPECT_EQ((*order)[8].y, 2);
  EXPECT_EQ(kSlideTable[0][8], 4);  // the slide: position 8 holds pixel (4, 0)
}

TEST(Layout, MortonInterleavesBits) {
  Layout2D m{LayoutKind::kMorton, 8, 8};
  EXPECT_EQ(m.Index(0, 0), 0u);
  EXPECT_EQ(m.Index(1, 0), 1u);
  EXPECT_EQ(m.Index(0, 1), 2u);
  EXPECT_EQ(m.Index(1, 1), 3u);
  EXPECT_EQ(m.Index(2, 0), 4u);
  EXPECT_EQ(m.Index(7, 7), 63u);
  EXPECT_EQ(m.Index(5, 3), 0b011011u);  // x = 101, y = 011 -> y2 x2 y1 x1 y0 x0 = 0 1 1 0 1 1
}

TEST(Layout, RowMajorAndPlainTiles) {
  Layout2D r{LayoutKind::kRowMajor, 10, 4};
  EXPECT_EQ(r.Index(3, 2), 23u);
  // 4x4 tiles of 1x1 micro tiles on a 10-wide image: 3 tiles per row (the last padded).
  Layout2D t{LayoutKind::kTiled, 10, 8, 4, 4, 1, 1};
  EXPECT_EQ(t.Index(0, 0), 0u);
  EXPECT_EQ(t.Index(3, 0), 3u);
  EXPECT_EQ(t.Index(0, 1), 4u);
  EXPECT_EQ(t.Index(4, 0), 16u);      // second tile
  EXPECT_EQ(t.Index(0, 4), 3u * 16);  // first tile of the second tile row
}

TEST(Layout, BadTilesAreRefused) {
  Layout2D t{LayoutKind::kTiled, 24, 16, 8, 8, 3, 2};
  auto r = MemoryOrder(t);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().message(), "the micro tile 3x2 must divide the tile 8x8");
  EXPECT_FALSE(MemoryOrder(Layout2D{LayoutKind::kRowMajor, 0, 4}).ok());
  EXPECT_FALSE(ParseLayoutKind("hilbert").ok());
}

}  // namespace
}  // namespace ws

// A warp's footprint in sectors (4-byte texels, 32-byte sectors: 8 texels per sector).
TEST(Footprint, ARowOf32IsFourSectorsRowMajorAndEightInZOrder) {
  const ws::WarpFootprint row{0, 0, 32, 32};  // 32 threads side by side
  // Row-major: 32 consecutive texels = 128 bytes = sectors 0-3.
  EXPECT_EQ(ws::FootprintSectors({ws::LayoutKind::kRowMajor, 64, 64}, row, 64, 64),
            (std::vector<std::uint64_t>{0, 1, 2, 3}));
  // Z-order spreads x's bits over the even bits: x0 -> bit 0, x1 -> bit 2, x2 -> bit 4, x3 -> 6,
  // x4 -> 8. A sector is code >> 3, which keeps x2, x3 and x4: 8 distinct sectors.
  EXPECT_EQ(ws::FootprintSectors({ws::LayoutKind::kMorton, 64, 64}, row, 64, 64).size(), 8u);
  EXPECT_EQ(ws::FootprintIdealSectors(row, 64, 64), 4u);  // 128 bytes / 32
}

TEST(Footprint, AFourWideColumnSuitsTheSlidesTiles) {
  const ws::WarpFootprint column{0, 0, 4, 32};  // 4 x 8 pixels
  // Row-major, 24 wide: row y starts at byte 96 y, so each row is its own sector 3 y: 8 sectors.
  EXPECT_EQ(ws::FootprintSectors({ws::LayoutKind::kRowMajor, 24, 16}, column, 24, 16).size(), 8u);
  // The slides' tiles (8 x 8 of 2 x 2 micro tiles): micro tiles 0,1,4,5,8,9,12,13 of tile 0 hold
  // positions 0-7, 16-23, 32-39, 48-55: sectors 0, 2, 4, 6.
  EXPECT_EQ(ws::FootprintSectors({ws::LayoutKind::kTiled, 24, 16, 8, 8, 2, 2}, column, 24, 16),
            (std::vector<std::uint64_t>{0, 2, 4, 6}));
  // Clipped to 2 x 2 pixels: 4 texels, 16 bytes, one sector at best.
  EXPECT_EQ(ws::FootprintInside(column, 2, 2), 4);
  EXPECT_EQ(ws::FootprintIdealSectors(column, 2, 2), 1u);
  EXPECT_EQ(ws::FootprintSectors({ws::LayoutKind::kRowMajor, 24, 16}, column, 2, 2).size(), 2u);
}
