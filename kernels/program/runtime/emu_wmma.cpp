// nvcuda::wmma's fragment places on the emulator (ws_program_wmma.h): which lane holds which
// element of each fragment type, from the table measured on an H200 (kernels/tensor/
// fragments.tsv, embedded in this library), read once.
#include <algorithm>
#include <cstring>
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

const std::map<Key, Places>& Table() {
  static const std::map<Key, Places> table = ReadTable();
  return table;
}

// The table's name of the fragment type whose places are `places` ("m16n16k16 a half row").
const std::string& NameOf(const unsigned char* places) {
  static const std::map<const unsigned char*, std::string> names = [] {
    std::map<const unsigned char*, std::string> n;
    for (const auto& [key, p] : Table()) {
      const auto& [shape, use, type, layout] = key;
      n[p.at.data()] = shape + " " + use + " " + type + " " + layout;
    }
    return n;
  }();
  static const std::string none;
  const auto it = names.find(places);
  return it == names.end() ? none : it->second;
}

}  // namespace

const unsigned char* WmmaPlaces(const char* shape, const char* use, const char* type,
                                const char* layout, unsigned int elements, unsigned int place) {
  const std::map<Key, Places>& table = Table();
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

void WmmaMove(void* x, unsigned int elements, unsigned int bytes, void* p, unsigned int ldm,
              bool row, const unsigned char* places, unsigned int place, unsigned int rows,
              unsigned int cols, bool load, bool input) {
  auto* values = static_cast<unsigned char*>(x);
  auto* tile = static_cast<unsigned char*>(p);
  const unsigned lane = LaneId();
  const unsigned char* mine = places + 2u * lane * elements;
  auto at = [&](unsigned i) {
    const std::size_t r = mine[2 * i], c = mine[2 * i + 1];
    return tile + (row ? r * ldm + c : c * ldm + r) * bytes;
  };
  auto first_of = [&](unsigned i) {  // the first x[j] holding x[i]'s element
    for (unsigned j = 0; j < i; ++j)
      if (mine[2 * j] == mine[2 * i] && mine[2 * j + 1] == mine[2 * i + 1]) return j;
    return i;
  };
  const unsigned op = load ? kOpLoad : kOpStore;
  // The site's fragment, for the Fragments view (SiteInfo::fragment), by the tile's site key less
  // its size (the requests below have sizes of their own). An accumulator's places are the same
  // either way (the table looks them up row major): its layout is the memory's, `row`.
  if (::ws::emu::t_thread != nullptr) {
    const detail::Classified c = detail::Classify(p, 1, place, op);
    if (c.where == detail::Where::kRecorded) {
      emu::NoteFragmentSite(c.key & ~std::uint64_t{0xff}, [&] {
        std::string name = NameOf(places);
        if (!input && !name.empty())
          name = name.substr(0, name.rfind(' ')) + (row ? " row" : " col");
        return name + " " + std::to_string(ldm);
      });
    }
  }
  // The tile as it lies in memory: `stored` rows of `width` elements, `ldm` apart.
  const unsigned stored = row ? rows : cols, width = row ? cols : rows;
  if (input && bytes <= 2 && stored % 8 == 0 && width * bytes % 16 == 0 && WmmaInShared(p)) {
    const unsigned down = stored / 8, blocks = down * (width * bytes / 16);
    for (unsigned first = 0; first < blocks; first += 4) {  // an LDSM of up to four blocks
      const unsigned b = first + lane / 8;
      if (b >= blocks) continue;  // .x2: the upper lanes give no address
      const std::size_t stored_row = (b % down) * 8 + lane % 8;
      const std::size_t element = (b / down) * (16 / bytes);
      Record(tile + (stored_row * ldm + element) * bytes, 16, place, op);
    }
  } else {
    for (unsigned i = 0; i < elements; ++i) {
      if (first_of(i) != i) continue;
      if (i % 2 == 0 && i + 1 < elements && first_of(i + 1) == i + 1 &&
          at(i + 1) == at(i) + bytes && 2 * bytes <= 16) {
        Record(at(i), 2 * bytes, place, op);
        ++i;
      } else {
        Record(at(i), bytes, place, op);
      }
    }
  }
  // The values, after the records (which stop the launch at an address outside every buffer).
  for (unsigned i = 0; i < elements; ++i) {
    if (load)
      std::memcpy(values + i * bytes, first_of(i) == i ? at(i) : values + first_of(i) * bytes,
                  bytes);
    else
      std::memcpy(at(i), values + i * bytes, bytes);
  }
}

unsigned int WmmaWarpLanes() {
  const uint3* b = Builtins();  // threadIdx, blockIdx, blockDim, gridDim
  const unsigned t = b[0].x + b[2].x * (b[0].y + b[2].y * b[0].z);
  const unsigned threads = b[2].x * b[2].y * b[2].z;
  return std::min(32u, threads - t / 32u * 32u);
}

}  // namespace ws::prog
