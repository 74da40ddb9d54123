// nvcuda::wmma's fragment places on the emulator (ws_program_wmma.h): which lane holds which
// element of each fragment type, from the table measured on an H200 (kernels/tensor/
// fragments.tsv, embedded in this library), read once.
#include <algorithm>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "emu_program_state.h"  // Builtins
#include "warpscope/kernels/emu_runtime.h"
#include "warpscope/program/fragment_table.h"

namespace ws::prog {
namespace {

using Key = std::tuple<std::string, std::string, std::string, std::string>;
struct Places {
  unsigned elements = 0;
  std::vector<unsigned char> at;  // [lane][element][row, col]
};

// The table's lines "shape use type layout elements lane r,c r,c ...", lane by lane.
std::map<Key, Places> ReadTable() {
  std::map<Key, Places> table;
  std::istringstream in{std::string(fragment_table::kFragmentsTsv)};
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string shape, use, type, layout, pair;
    unsigned elements = 0, lane = 0;
    fields >> shape >> use >> type >> layout >> elements >> lane;
    Places& p = table[{shape, use, type, layout}];
    p.elements = elements;
    p.at.resize(std::size_t{64} * elements);
    for (unsigned i = 0; i < elements && fields >> pair; ++i) {
      const std::size_t comma = pair.find(',');
      if (lane >= 32 || comma == std::string::npos) break;
      p.at[2 * (lane * elements + i)] =
          static_cast<unsigned char>(std::stoi(pair.substr(0, comma)));
      p.at[2 * (lane * elements + i) + 1] =
          static_cast<unsigned char>(std::stoi(pair.substr(comma + 1)));
    }
  }
  return table;
}

}  // namespace

const unsigned char* WmmaPlaces(const char* shape, const char* use, const char* type,
                                const char* layout, unsigned int elements, unsigned int place) {
  static const std::map<Key, Places> table = ReadTable();
  const auto it = table.find({shape, use, type, layout});
  if (it == table.end() || it->second.elements != elements) {
    emu::FailThread(place, std::string("wmma: no ") + type + " " +
                               (use[0] == 'c' ? "accumulator" : std::string("matrix_") + use) +
                               " fragment of shape " + shape +
                               " in the table measured on the GPU (kernels/tensor/fragments.tsv)");
  }
  return it->second.at.data();
}

void WmmaFail(unsigned int place, const char* what) {
  emu::FailThread(place, what);
}

bool WmmaInShared(const void* p) {
  if (::ws::emu::t_thread == nullptr) return false;
  const detail::Classified c = detail::Classify(p, 1, 0, kOpLoad);
  return c.where == detail::Where::kRecorded && KeySpaceOf(c.key) == kKeyShared;
}

unsigned int WmmaWarpLanes() {
  const uint3* b = Builtins();  // threadIdx, blockIdx, blockDim, gridDim
  const unsigned t = b[0].x + b[2].x * (b[0].y + b[2].y * b[0].z);
  const unsigned threads = b[2].x * b[2].y * b[2].z;
  return std::min(32u, threads - t / 32u * 32u);
}

}  // namespace ws::prog
