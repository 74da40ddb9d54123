#include "warpscope/trace/trace_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include <cerrno>

#include <cstring>
#include <fstream>
#include <string>

#include "trace_file_json.h"
#include "warpscope/trace/file_io.h"
#include "warpscope/trace/printed_text.h"

namespace ws {
namespace {

constexpr char kMagic[8] = {'\x89', 'W', 'S', 'T', 'R', 'C', '\r', '\n'};
enum SectionType : std::uint32_t { kHeader = 1, kLaunchJson = 2, kLaunchRecords = 3 };
enum Codec : std::uint32_t { kRaw = 0, kZlib = 1 };
constexpr std::size_t kSectionHeaderBytes = 4 + 4 + 8 + 8 + 4;

// --- writing -------------------------------------------------------------------------------

template <typename T>
void Put(std::vector<std::uint8_t>& out, const T& v) {
  const auto* p = reinterpret_cast<const std::uint8_t*>(&v);
  out.insert(out.end(), p, p + sizeof(T));
}

void PutBytes(std::vector<std::uint8_t>& out, const void* data, std::size_t n) {
  const auto* p = static_cast<const std::uint8_t*>(data);
  out.insert(out.end(), p, p + n);
}

std::uint32_t Crc(std::span<const std::uint8_t> raw) {
  uLong crc = crc32(0L, Z_NULL, 0);
  std::size_t done = 0;
  while (done < raw.size()) {  // crc32 takes a uInt length
    const uInt n = static_cast<uInt>(std::min<std::size_t>(raw.size() - done, 1u << 30));
    crc = crc32(crc, raw.data() + done, n);
    done += n;
  }
  return static_cast<std::uint32_t>(crc);
}

void PutSection(std::vector<std::uint8_t>& out, std::uint32_t type,
                std::span<const std::uint8_t> raw, int level) {
  // Level 0: stored as it is (no pass of zlib over it at all).
  std::vector<std::uint8_t> packed(level > 0 ? compressBound(static_cast<uLong>(raw.size())) : 0);
  uLongf packed_size = static_cast<uLongf>(packed.size());
  const bool zipped = level > 0 &&
                      compress2(packed.data(), &packed_size, raw.data(),
                                static_cast<uLong>(raw.size()), level) == Z_OK &&
                      packed_size < raw.size();
  out.reserve(out.size() + kSectionHeaderBytes + (zipped ? packed_size : raw.size()));
  Put(out, type);
  Put(out, static_cast<std::uint32_t>(zipped ? kZlib : kRaw));
  Put(out, static_cast<std::uint64_t>(zipped ? packed_size : raw.size()));
  Put(out, static_cast<std::uint64_t>(raw.size()));
  Put(out, Crc(raw));
  if (zipped)
    PutBytes(out, packed.data(), packed_size);
  else
    PutBytes(out, raw.data(), raw.size());
}

void PutJsonSection(std::vector<std::uint8_t>& out, std::uint32_t type, const nlohmann::json& j,
                    int level) {
  const std::string text = JsonText(j);  // a stray byte in a program's text: U+FFFD, no throw
  PutSection(out, type, {reinterpret_cast<const std::uint8_t*>(text.data()), text.size()}, level);
}

// A launch's records section, piece by piece (`put` takes each in order; a piece lives only
// for the call).
template <typename Put>
void EachRecordPiece(const LaunchTrace& t, Put put) {
  auto scalar = [&](const auto& v) {
    put(std::span(reinterpret_cast<const std::uint8_t*>(&v), sizeof v));
  };
  auto array = [&](const auto& v) {
    put(std::span(reinterpret_cast<const std::uint8_t*>(v.data()),
                  v.size() * sizeof(typename std::decay_t<decltype(v)>::value_type)));
  };
  scalar(static_cast<std::uint64_t>(t.blocks.size()));
  for (const BlockRecords& b : t.blocks) {
    scalar(b.block);
    scalar(static_cast<std::uint64_t>(b.accesses.size()));
    scalar(static_cast<std::uint64_t>(b.barriers.size()));
    scalar(static_cast<std::uint64_t>(b.warp_ops.size()));
    scalar(static_cast<std::uint64_t>(b.async_events.size()));
    array(b.accesses);
    array(b.barriers);
    array(b.warp_ops);
    array(b.async_events);
  }
  scalar(static_cast<std::uint64_t>(t.thread_active.size()));
  array(t.thread_active);
}

std::vector<std::uint8_t> LaunchRecords(const LaunchTrace& t) {
  std::size_t bytes = 0;
  EachRecordPiece(t, [&](std::span<const std::uint8_t> p) { bytes += p.size(); });
  std::vector<std::uint8_t> out;
  out.reserve(bytes);  // no copy as it grows
  EachRecordPiece(t, [&](std::span<const std::uint8_t> p) { PutBytes(out, p.data(), p.size()); });
  return out;
}

// The whole file, piece by piece. A launch's records stored raw (level 0) are given where they
// lie, their checksum taken piece by piece first: no copy of them is made.
void PutTrace(const TraceContents& c, const PiecePut& put) {
  std::vector<std::uint8_t> out(kMagic, kMagic + sizeof kMagic);
  Put(out, kTraceFileVersion);
  Put(out, static_cast<std::uint32_t>(1 + 2 * c.launches.size()));
  PutJsonSection(out, kHeader, c.header, c.compression_level);
  for (const LaunchTrace& t : c.launches) {
    PutJsonSection(out, kLaunchJson, trace_json::LaunchJson(t), c.compression_level);
    if (c.compression_level > 0) {
      PutSection(out, kLaunchRecords, LaunchRecords(t), c.compression_level);
      continue;
    }
    std::uint64_t bytes = 0;
    uLong crc = crc32(0L, Z_NULL, 0);
    EachRecordPiece(t, [&](std::span<const std::uint8_t> p) {
      bytes += p.size();
      if (!p.empty()) crc = crc32_z(crc, p.data(), p.size());  // (a null buffer resets it)
    });
    Put(out, static_cast<std::uint32_t>(kLaunchRecords));
    Put(out, static_cast<std::uint32_t>(kRaw));
    Put(out, bytes);
    Put(out, bytes);
    Put(out, static_cast<std::uint32_t>(crc));
    if (!put(out)) return;
    out.clear();
    bool ok = true;
    EachRecordPiece(t, [&](std::span<const std::uint8_t> p) { ok = ok && put(p); });
    if (!ok) return;
  }
  put(out);
}

}  // namespace

std::vector<std::uint8_t> SerializeTrace(const TraceContents& c) {
  std::vector<std::uint8_t> out;
  PutTrace(c, [&](std::span<const std::uint8_t> p) {
    out.insert(out.end(), p.begin(), p.end());
    return true;
  });
  return out;
}

namespace {

// --- reading -------------------------------------------------------------------------------

class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t> bytes) : bytes_(bytes) {}
  template <typename T>
  bool Get(T* v) {
    if (bytes_.size() - pos_ < sizeof(T)) return false;
    std::memcpy(v, bytes_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return true;
  }
  bool Take(std::size_t n, std::span<const std::uint8_t>* out) {
    if (bytes_.size() - pos_ < n) return false;
    *out = bytes_.subspan(pos_, n);
    pos_ += n;
    return true;
  }
  std::size_t left() const { return bytes_.size() - pos_; }

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t pos_ = 0;
};

Status Corrupt(const std::string& what) {
  return Status::Error("corrupt trace file: " + what);
}

// The shape and the statistics fit together; every later index is checked against them.
Status CheckLaunch(const LaunchTrace& t, std::size_t index) {
  const std::string where = "launch " + std::to_string(index) + " (" + t.kernel + "): ";
  const auto dims_ok = [](const Dim3& d) { return d.x > 0 && d.y > 0 && d.z > 0; };
  if (!dims_ok(t.grid) || !dims_ok(t.block)) return Corrupt(where + "a zero grid or block size");
  if (t.block.count() > 1024)
    return Corrupt(where + "blocks of " + std::to_string(t.block.count()) +
                   " threads (the limit is 1024)");
  if (t.grid.count() > (1ull << 40)) return Corrupt(where + "an impossible grid size");
  if (t.sites.size() > 65535 || t.barrier_sites.size() > 65535)
    return Corrupt(where + "too many sites");
  if (t.stats.sites.size() != t.sites.size() || t.stats.barriers.size() != t.barrier_sites.size())
    return Corrupt(where + "statistics do not match its sites");
  return {};
}

// Version 1 access records: 16 bytes, no epoch.
struct AccessRecordV1 {
  std::uint32_t offset, iteration, time;
  std::uint16_t thread, site;
};
static_assert(sizeof(AccessRecordV1) == 16);

// A version-1 block's epochs: the barriers each thread had reached before the access's time.
// Exact for the emulator's logical clock; on a GPU an access stamped in the same tick as the
// barrier's arrival counts as before it.
void CountEpochs(BlockRecords* b, std::uint32_t threads) {
  std::vector<std::vector<std::uint64_t>> arrivals(threads);
  for (const BarrierRecord& r : b->barriers) arrivals[r.thread].push_back(r.arrival);
  for (auto& a : arrivals) std::sort(a.begin(), a.end());
  for (AccessRecord& a : b->accesses) {
    const auto& mine = arrivals[a.thread];
    a.epoch = static_cast<std::uint32_t>(
        std::lower_bound(mine.begin(), mine.end(), std::uint64_t{a.time}) - mine.begin());
  }
}

Status ReadRecords(std::span<const std::uint8_t> raw, LaunchTrace* t, std::size_t index,
                   std::uint32_t version) {
  const std::size_t access_bytes = version >= 2 ? sizeof(AccessRecord) : sizeof(AccessRecordV1);
  const std::string where = "launch " + std::to_string(index) + " records: ";
  Reader r(raw);
  std::uint64_t blocks = 0;
  if (!r.Get(&blocks)) return Corrupt(where + "cut short");
  const std::uint32_t tpb = static_cast<std::uint32_t>(t->block.count());
  for (std::uint64_t i = 0; i < blocks; ++i) {
    BlockRecords b;
    std::uint64_t na = 0, nb = 0, nw = 0, ne = 0;
    if (!r.Get(&b.block) || !r.Get(&na) || !r.Get(&nb) || (version >= 3 && !r.Get(&nw)) ||
        (version >= 4 && !r.Get(&ne)))
      return Corrupt(where + "cut short");
    if (b.block >= t->grid.count())
      return Corrupt(where + "block " + std::to_string(b.block) + " is outside the grid of " +
                     std::to_string(t->grid.count()));
    if (na > r.left() / access_bytes || nb > r.left() / sizeof(BarrierRecord))
      return Corrupt(where + "more records than bytes");
    std::span<const std::uint8_t> bytes;
    b.accesses.resize(na);
    r.Take(na * access_bytes, &bytes);
    if (version >= 2) {
      if (na > 0) std::memcpy(b.accesses.data(), bytes.data(), bytes.size());
    } else {
      for (std::uint64_t k = 0; k < na; ++k) {
        AccessRecordV1 v;
        std::memcpy(&v, bytes.data() + k * sizeof v, sizeof v);
        b.accesses[k] = {v.offset, v.iteration, v.time, v.thread, v.site, 0};
      }
    }
    if (nb * sizeof(BarrierRecord) > r.left()) return Corrupt(where + "cut short");
    b.barriers.resize(nb);
    r.Take(nb * sizeof(BarrierRecord), &bytes);
    if (nb > 0) std::memcpy(b.barriers.data(), bytes.data(), bytes.size());
    if (nw > r.left() / sizeof(WarpOpRecord)) return Corrupt(where + "cut short");
    b.warp_ops.resize(nw);
    r.Take(nw * sizeof(WarpOpRecord), &bytes);
    if (nw > 0) std::memcpy(b.warp_ops.data(), bytes.data(), bytes.size());
    if (ne > r.left() / sizeof(AsyncEvent)) return Corrupt(where + "cut short");
    b.async_events.resize(ne);
    r.Take(ne * sizeof(AsyncEvent), &bytes);
    if (ne > 0) std::memcpy(b.async_events.data(), bytes.data(), bytes.size());
    for (const AsyncEvent& e : b.async_events) {
      if (e.thread >= tpb || static_cast<int>(e.kind) >= kAsyncEventKinds)
        return Corrupt(where + "an async event names a thread or kind the launch lacks");
    }
    for (const WarpOpRecord& w : b.warp_ops) {
      if (w.site >= t->warp_op_sites.size() || w.warp >= (tpb + 31) / 32)
        return Corrupt(where + "a warp-op record names a site or warp the launch lacks");
      for (std::uint8_t src : w.source) {
        if (src >= 32) return Corrupt(where + "a warp-op record names a lane past 31");
      }
    }
    for (const AccessRecord& a : b.accesses) {
      if (a.site >= t->sites.size() || a.thread >= tpb)
        return Corrupt(where + "an access names site " + std::to_string(a.site) + " thread " +
                       std::to_string(a.thread) + " (the launch has " +
                       std::to_string(t->sites.size()) + " sites, " + std::to_string(tpb) +
                       " threads per block)");
    }
    for (const BarrierRecord& a : b.barriers) {
      if (a.site >= t->barrier_sites.size() || a.thread >= tpb)
        return Corrupt(where + "a barrier record names a site or thread the launch lacks");
    }
    if (version < 2) CountEpochs(&b, tpb);
    t->blocks.push_back(std::move(b));
  }
  std::uint64_t active = 0;
  if (!r.Get(&active)) return Corrupt(where + "cut short");
  if (active != 0 && active != t->threads())
    return Corrupt(where + "thread activity for " + std::to_string(active) +
                   " threads; the launch has " + std::to_string(t->threads()));
  std::span<const std::uint8_t> bytes;
  if (!r.Take(active, &bytes)) return Corrupt(where + "cut short");
  t->thread_active.assign(bytes.begin(), bytes.end());
  if (r.left() != 0) return Corrupt(where + std::to_string(r.left()) + " bytes left over");
  return {};
}

}  // namespace

Result<TraceContents> ParseTrace(std::span<const std::uint8_t> bytes) {
  if (bytes.size() < sizeof kMagic || std::memcmp(bytes.data(), kMagic, sizeof kMagic) != 0)
    return Status::Error("not a Warpscope trace file (its first bytes are not the .wstrace magic)");
  Reader r(bytes.subspan(sizeof kMagic));
  std::uint32_t version = 0, sections = 0;
  std::vector<nlohmann::json> launch_json;  // per launch: its "hazards", when the file has them
  if (!r.Get(&version) || !r.Get(&sections)) return Corrupt("cut short in its header");
  if (version > kTraceFileVersion)
    return Status::Error("this trace file is format version " + std::to_string(version) +
                         ", written by a newer Warpscope; this one reads up to version " +
                         std::to_string(kTraceFileVersion));
  if (version == 0) return Corrupt("format version 0");
  if (sections == 0 || sections > kMaxTraceSections || sections % 2 == 0)
    return Corrupt(std::to_string(sections) + " sections (a header and two per launch expected)");
  TraceContents c;
  for (std::uint32_t s = 0; s < sections; ++s) {
    std::uint32_t type = 0, codec = 0, crc = 0;
    std::uint64_t stored = 0, raw_size = 0;
    if (r.left() < kSectionHeaderBytes) return Corrupt("cut short at section " + std::to_string(s));
    r.Get(&type);
    r.Get(&codec);
    r.Get(&stored);
    r.Get(&raw_size);
    r.Get(&crc);
    const std::uint32_t expected = s == 0 ? kHeader : (s % 2 == 1 ? kLaunchJson : kLaunchRecords);
    if (type != expected)
      return Corrupt("section " + std::to_string(s) + " has type " + std::to_string(type) +
                     " where " + std::to_string(expected) + " belongs");
    if (raw_size > kMaxTraceSectionBytes)
      return Corrupt("section " + std::to_string(s) + " claims " + std::to_string(raw_size) +
                     " bytes (the limit is " + std::to_string(kMaxTraceSectionBytes) + ")");
    std::span<const std::uint8_t> data;
    if (!r.Take(stored, &data))
      return Corrupt("cut short: section " + std::to_string(s) + " needs " +
                     std::to_string(stored) + " bytes, " + std::to_string(r.left()) + " remain");
    std::vector<std::uint8_t> inflated;
    std::span<const std::uint8_t> raw;  // a raw section is read where it lies
    if (codec == kRaw) {
      if (stored != raw_size) return Corrupt("section " + std::to_string(s) + " sizes disagree");
      raw = data;
    } else if (codec == kZlib) {
      // zlib cannot expand more than about 1032:1; a larger claim is corrupt.
      if (raw_size > stored * 1100 + 64)
        return Corrupt("section " + std::to_string(s) + " claims an impossible expansion");
      inflated.resize(raw_size);
      uLongf out_size = static_cast<uLongf>(raw_size);
      if (uncompress(inflated.data(), &out_size, data.data(), static_cast<uLong>(stored)) != Z_OK ||
          out_size != raw_size)
        return Corrupt("section " + std::to_string(s) + " does not decompress");
      raw = inflated;
    } else {
      return Corrupt("section " + std::to_string(s) + " uses unknown codec " +
                     std::to_string(codec));
    }
    if (Crc(raw) != crc) return Corrupt("section " + std::to_string(s) + " fails its checksum");
    try {
      if (type == kHeader || type == kLaunchJson) {
        nlohmann::json j = nlohmann::json::parse(raw.begin(), raw.end(), nullptr, false);
        if (j.is_discarded() || !j.is_object())
          return Corrupt("section " + std::to_string(s) + " is not a JSON object");
        if (type == kHeader) {
          c.header = std::move(j);
        } else {
          c.launches.push_back(trace_json::LaunchFrom(j));
          launch_json.push_back(j.contains("hazards") ? nlohmann::json{{"hazards", j["hazards"]}}
                                                      : nlohmann::json::object());
          if (Status st = CheckLaunch(c.launches.back(), c.launches.size() - 1); !st.ok())
            return st;
        }
      } else if (Status st = ReadRecords(raw, &c.launches.back(), c.launches.size() - 1, version);
                 !st.ok()) {
        return st;
      }
    } catch (const std::exception& e) {
      return Corrupt("section " + std::to_string(s) + ": " + e.what());
    }
  }
  if (r.left() != 0) return Corrupt(std::to_string(r.left()) + " bytes after the last section");
  // The hazards the file kept; a file from before them: found again from the records.
  for (std::size_t i = 0; i < c.launches.size(); ++i) {
    if (i < launch_json.size() && launch_json[i].contains("hazards")) {
      auto h = HazardsFromJson(launch_json[i].at("hazards"));
      if (!h.ok()) return Corrupt("launch " + std::to_string(i) + ": " + h.status().message());
      for (const HazardGroup& g : h->groups) {
        if (g.first_site >= c.launches[i].sites.size() ||
            g.second_site >= c.launches[i].sites.size())
          return Corrupt("launch " + std::to_string(i) +
                         ": a hazard names a site it does not have");
      }
      c.launches[i].hazards = std::move(h).value();
    } else {
      c.launches[i].hazards = FindHazards(c.launches[i]);
    }
  }
  return c;
}

Status WriteTraceFile(const std::filesystem::path& path, const TraceContents& contents) {
  return WriteFileAtomically(
      path, [&](const PiecePut& put) { PutTrace(contents, put); }, contents.durable);
}

Result<TraceContents> ReadTraceFile(const std::filesystem::path& path) {
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (ec) return Status::Error("cannot open " + path.string() + ": " + ec.message());
  if (size > 16 * kMaxTraceSectionBytes)
    return Status::Error(path.string() + " is " + std::to_string(size) +
                         " bytes; trace files are at most " +
                         std::to_string(16 * kMaxTraceSectionBytes));
  // Mapped, not read into a buffer: a program's launch of 190 MB of kept records is parsed where
  // the page cache holds it.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::Error("cannot open " + path.string() + ": " + std::strerror(errno));
  void* map = size == 0 ? nullptr : ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
  const int map_errno = errno;
  ::close(fd);
  if (map == MAP_FAILED)
    return Status::Error("cannot read " + path.string() + ": " + std::strerror(map_errno));
  auto c = ParseTrace(std::span(static_cast<const std::uint8_t*>(map), size));
  if (map != nullptr) ::munmap(map, size);
  if (!c.ok()) return Status::Error(path.string() + ": " + c.status().message());
  return c;
}

}  // namespace ws
