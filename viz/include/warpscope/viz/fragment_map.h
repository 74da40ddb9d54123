// The Fragments view as numbers, with no ImGui (issue 53): a wmma fragment's tile, element by
// element, coloured by the lane that holds it, from the table measured on an H200
// (kernels/tensor/fragments.tsv, embedded: FragmentTypes()); and, for a fragment's load or store
// from shared memory in a kept block, what each lane of the block's first warp asked for there:
// its address, the tile's element at it, its banks and the request's wavefronts. The panel draws
// this model; tests check its numbers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "warpscope/trace/launch.h"

namespace ws {

// One fragment type of the table: "m16n16k16 a half row" and where each lane's x[i] lies.
struct FragmentType {
  std::string shape, use, type, layout;  // as the table names them (use: a, b or c)
  std::uint32_t rows = 0, cols = 0;      // the tile: m x k (a), k x n (b), m x n (c)
  std::uint32_t elements = 0;            // x[] of a lane
  std::vector<std::uint8_t> at;          // [(lane * elements + i) * 2]: row, then column
  std::string Name() const { return shape + " " + use + " " + type + " " + layout; }
  // "matrix_a, m16n16k16, half, row major" (the accumulator's layout is its memory's)
  std::string Title() const;
  std::uint32_t ElementBytes() const;  // half and bf16 2, s8 and u8 1, double 8, else 4
  bool RowMajor() const { return layout == "row"; }
};

// The table's types, parsed from its text (lines "shape use type layout elements lane r,c ...");
// FragmentTypes() parses the embedded table once.
std::vector<FragmentType> ParseFragmentTypes(std::string_view tsv);
const std::vector<FragmentType>& FragmentTypes();
// The type named `name` ("m16n16k16 a half row"), or null.
const FragmentType* FindFragmentType(std::string_view name);

struct FragmentCell {
  int lane = -1;                 // the lane that holds the element (-1: none)
  std::vector<std::uint32_t> x;  // its indices in that lane's x[] (half's operands: two)
};

struct FragmentMap {
  std::uint32_t rows = 0, cols = 0;
  std::vector<FragmentCell> cells;  // row by row
  // How often each element is held by its lane: 1, or 2 and 4 for half's operands (x[8..15]
  // repeating x[0..7]); 0 where elements are held unevenly.
  std::uint32_t copies = 0;
  std::uint32_t lanes = 0;  // lanes that hold any element
  const FragmentCell& At(std::uint32_t row, std::uint32_t col) const {
    return cells[row * cols + col];
  }
};
FragmentMap MakeFragmentMap(const FragmentType& t);

// A site's note (SiteInfo::fragment, "m16n16k16 a half row 16"): the type's name and the leading
// dimension; nothing where the note does not read so.
struct FragmentNote {
  std::string type;
  std::uint32_t ldm = 0;
};
std::optional<FragmentNote> ParseFragmentNote(std::string_view note);

// One lane's part of a request at a fragment site in a kept block's first warp.
struct FragmentLaneAccess {
  std::uint32_t lane = 0;
  std::uint32_t offset = 0;        // bytes into the block's shared window (global: the buffer)
  std::uint32_t bytes = 0;         // the access's size
  std::uint32_t row = 0, col = 0;  // the tile's element at the address (from the lowest lane's)
  std::uint32_t bank = 0;          // its first 4-byte bank, 0..31
  std::uint32_t phase = 0;         // which of the request's phases serves it (16 bytes: lane / 8)
};

struct FragmentAccesses {
  std::string message;  // why there are none (the site not in the block, a global access...)
  std::vector<FragmentLaneAccess> lanes;    // by lane
  std::uint32_t wavefronts = 0, ideal = 0;  // the request's, as the figures count them
  std::uint32_t elements_per_access = 0;    // the tile's elements one lane's access covers
  // The warp's requests at the site in the block (a float accumulator's load or store is four a
  // call, row major; a load in a loop one or more a pass), and which of them this is.
  std::uint32_t requests = 0, request = 0;
};
// Request `request` (0: the first) of the warp of threads 0..31 at site `site` in kept block
// `block`, for a fragment of type `t` whose memory's rows (row major: the tile's rows; column
// major: its columns) lie `ldm` elements apart.
FragmentAccesses MakeFragmentAccesses(const LaunchTrace& launch, std::uint32_t block,
                                      std::uint16_t site, const FragmentType& t, std::uint32_t ldm,
                                      std::uint32_t request = 0);

// What the view says where the launch has no site with a fragment noted: a run on `backend`
// "cuda" records wmma's loads and stores but notes no fragment (yet).
std::string NoFragmentText(const std::string& backend);

}  // namespace ws
