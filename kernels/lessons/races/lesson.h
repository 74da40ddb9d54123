// races: a missing __syncthreads(), found in the records and made to happen by the schedule
// (Kirk & Hwu exercises 4.8 and 4.10, the reverse and the transpose without their barriers).
//
// Index of this file:
// [SECTION] Lesson: its description and the book's exercises
// [SECTION] Lesson: the variants' runs
#pragma once

#include <utility>

#include "warpscope/kernels/lesson.h"
// The book's BlockTranspose takes A_height and never reads it; the listing stays as printed.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "warpscope/lesson_kernels/races.cuh"  // races.cuh, in the recording API
#pragma GCC diagnostic pop

namespace ws::lessons::races {

struct Figures {
  static constexpr const char* kKind = "races";
  static constexpr int kVersion = 1;
  std::uint64_t hazards = 0;    // pairs of racing accesses among the checked blocks
  std::uint64_t same_warp = 0;  // of which both threads are in one warp
  std::uint64_t wrong = 0;      // output elements that differ from the CPU's
  std::uint64_t elements = 0;   // output elements
  std::string schedule;         // the emulator's thread order ("" on a GPU)
};
NLOHMANN_DEFINE_TYPE_NON_INTRUSIVE(Figures, hazards, same_warp, wrong, elements, schedule)

//-------------------------------------------------------------------------------------------------
// [SECTION] Lesson: its description and the book's exercises
//-------------------------------------------------------------------------------------------------

struct Lesson {
  static LessonInfo Info() {
    LessonInfo l;
    l.id = "races";
    l.title = "Races: the __syncthreads() that is missing";
    l.order = 75;
    const std::vector<std::string> not_tile = {"threads", "blocks", "width", "bins"};
    l.variants = {
        {"block-transpose", "exercise 4.10 as printed: a tile transposed in place, no barrier",
         not_tile},
        {"block-transpose-fixed", "exercise 4.10 b: the same with __syncthreads()", not_tile},
        {"transpose-no-sync",
         "the coalesced transpose with its __syncthreads() deleted",
         {"block_width", "tiles", "threads", "blocks", "bins"}},
        {"warp-exchange",
         "exercise 4.8: neighbours swap through shared memory, no barrier",
         {"block_width", "tiles", "width", "bins"}},
        {"reverse-no-sync",
         "the shared-memory reverse without its barrier",
         {"block_width", "tiles", "blocks", "width", "bins"}},
        {"histogram-no-atomic",
         "the slides' race condition: bins[data[i] % bins] += 1 in global memory, no atomic",
         {"block_width", "tiles", "width", "blocks"}}};
    for (VariantSpec& v : l.variants) v.races = v.name != "block-transpose-fixed";
    l.presets = Presets();
    l.params = {{"block_width", 4, 1, 20, 1, "BLOCK_WIDTH: the tile is BLOCK_WIDTH x BLOCK_WIDTH"},
                {"tiles", 2, 1, 16, 1, "tiles per side of the matrix"},
                {"threads", 32, 2, 1024, 1, "threads per block"},
                {"blocks", 4, 1, 64, 1, "blocks"},
                {"width", 64, 32, 1024, 32, "matrix width and height (a multiple of 32)"},
                {"bins", 8, 1, 1024, 1, "histogram bins"}};
    l.explanation =
        "A __syncthreads() is there so that no thread reads a shared slot before the thread "
        "that fills it has written it (a read-after-write hazard), nor overwrites one another "
        "still has to read. Delete it and Warpscope pairs every write with the reads of other "
        "threads that no barrier separates: the hazards view lists them by source line. "
        "Whether the output goes wrong depends on the order the threads run in; pick it with "
        "the schedule (Run menu, or --schedule). "
        "Exercise 4.10 (BlockTranspose): each thread writes blockA[ty][tx] and reads "
        "blockA[tx][ty], which thread (ty, tx) writes: BLOCK_WIDTH^2 - BLOCK_WIDTH races per "
        "block (the diagonal reads its own). On the G80 the book had in mind, a warp's 32 "
        "lanes run in lockstep, so a block of at most 32 threads (BLOCK_WIDTH 1 to 5) stores "
        "its whole tile before any lane loads: the lockstep schedule gets every element right, "
        "and from BLOCK_WIDTH 6 on (36 threads, two warps) the first warp reads slots the "
        "second has not written. The fix (4.10 b) is a __syncthreads() between the store and "
        "the load, for every BLOCK_WIDTH. Since Volta (compute 7.0), threads of a warp are "
        "scheduled independently: the races inside one warp are real too, so only BLOCK_WIDTH "
        "1 is correct by the rules; the random schedule shows it going wrong. "
        "Exercise 4.8: leaving out __syncthreads() in 32-thread blocks relied on lockstep "
        "warps. It was fragile on the G80 (the warp size is not part of the language) and is "
        "wrong since Volta: use __syncwarp() at least, or keep the barrier. The warp-exchange "
        "variant's figures count the races, all within one warp at 32 threads. "
        "The slides' race condition (memory model, before atomics) is a histogram: "
        "bins[data[i] % bins] += 1 is a load, an add and a store, so two threads with one bin "
        "can load the same count and one increment is lost. The race is in global memory, and no "
        "barrier fixes it (the increments all fall between the same two barriers; across "
        "blocks there is none): the fix is atomicAdd (the atomics lesson). One block of "
        "`threads` runs it here. Run in order each thread finishes before the next "
        "starts and the counts come out right; in lockstep a warp's lanes all load, then all "
        "store, and each bin gains 1 per warp instead of one per thread.";
    l.source_file = "races.cuh";
    l.read_figures = &ReadFigures<Figures>;
    l.emulator_cost = [](const Params& p) {
      return At(p, "block_width") * At(p, "block_width") * At(p, "tiles") * At(p, "tiles") +
             At(p, "threads") * At(p, "blocks") + At(p, "width") * At(p, "width");
    };
    l.keep_all_blocks = false;
    l.front_panel = "hazards";
    l.figures = {{"hazards", "Racing pairs of accesses", "pairs"},
                 {"same_warp", "Of which within one warp", "pairs"},
                 {"wrong", "Output elements wrong", "elements"},
                 {"elements", "Output elements", "elements"},
                 {"schedule", "Thread order (emulator)", ""}};
    return l;
  }

  // The seeds' exercises on this lesson (Kirk & Hwu 4.8 and 4.10), with their answers.
  static std::vector<Preset> Presets() {
    return {
        {"4.8",
         "Kirk & Hwu 4.8: a CUDA programmer says that with only 32 threads in each block they "
         "can leave out __syncthreads() wherever barrier synchronisation is needed. A good "
         "idea?",
         "warp-exchange",
         {},
         "random:1",
         {"hazards", "same_warp", "wrong"},
         "No. On a G80 the 32 lanes of a warp ran in lockstep, so a one-warp block got right "
         "answers without the barrier (the lockstep order: none wrong), but the warp size is "
         "not part of the language, and since Volta (compute 7.0) a warp's lanes are scheduled "
         "independently: all 128 racing pairs are inside a warp, and the emulator's random:1 "
         "order gets 52 of 128 elements wrong (a GPU run may come out right: a race that "
         "passes once is still a race). Keep __syncthreads(), or __syncwarp() at the least."},
        {"4.10 a",
         "Kirk & Hwu 4.10 a: BlockTranspose, as printed, with BLOCK_WIDTH anywhere from 1 to 20. "
         "For which BLOCK_WIDTH values does it execute correctly? (Here 8, on a G80's lockstep "
         "warps.)",
         "block-transpose",
         {{"block_width", 8}},
         "lockstep",
         {"hazards", "same_warp", "wrong"},
         "On the G80 the book had in mind, only while a block is one warp: BLOCK_WIDTH 1 to 5 "
         "(at most 32 threads), whose lanes store the whole tile before any loads. From 6 on "
         "the first warp loads slots the second has not stored: at 8, 224 racing pairs (96 "
         "inside a warp) and, in the emulator's lockstep order, 64 of 256 elements wrong. Since "
         "Volta only BLOCK_WIDTH 1 is "
         "right by the rules."},
        {"4.10 b",
         "Kirk & Hwu 4.10 b: if it does not work for all BLOCK_WIDTH values, what fixes it for "
         "all of them?",
         "block-transpose-fixed",
         {{"block_width", 8}},
         "random:1",
         {"hazards", "wrong"},
         "A __syncthreads() between the store to blockA and the load from it: every slot is "
         "written before any is read. No hazard, and every element right in any thread order "
         "and for every BLOCK_WIDTH."}};
  }

  //-----------------------------------------------------------------------------------------------
  // [SECTION] Lesson: the variants' runs
  //-----------------------------------------------------------------------------------------------

  template <int W, LessonBackend B>
  static Status LaunchTile(B& b, bool fixed, Dim3 grid, Global<float> a, int width, int height) {
    const Dim3 block{static_cast<std::uint32_t>(W), static_cast<std::uint32_t>(W), 1};
    Status s = fixed
                   ? WS_LAUNCH(b, BlockTransposeFixed<W>, grid, block, W * W * 4, a, width, height)
                   : WS_LAUNCH(b, BlockTranspose<W>, grid, block, W * W * 4, a, width, height);
    if (s.ok()) {  // the instance the student picked: BlockTranspose<4>
      std::string& name = b.launches().back().kernel;
      name = name.substr(0, name.find('<')) + "<" + std::to_string(W) + ">";
    }
    return s;
  }

  template <LessonBackend B, int... Ws>
  static Status DispatchTile(B& b, int w, bool fixed, Dim3 grid, Global<float> a, int width,
                             int height, std::integer_sequence<int, Ws...>) {
    Status s = NotAllowed("block_width", w, "BLOCK_WIDTH is 1 to 20");
    ((w == Ws + 1 ? (s = LaunchTile<Ws + 1>(b, fixed, grid, a, width, height), true) : false) ||
     ...);
    return s;
  }

  template <typename T>
  static std::uint64_t Wrong(const std::vector<T>& got, const std::vector<T>& want) {
    std::uint64_t n = 0;
    for (std::size_t i = 0; i < want.size(); ++i) n += i >= got.size() || !(got[i] == want[i]);
    return n;
  }

  template <LessonBackend B>
  static Status Run(B& b, LessonCall& c) {
    Figures f;
    Status s;
    if (c.Is("block-transpose") || c.Is("block-transpose-fixed"))
      s = RunBlockTranspose(b, c, &f);
    else if (c.Is("transpose-no-sync"))
      s = RunTransposeNoSync(b, c, &f);
    else if (c.Is("warp-exchange"))
      s = RunWarpExchange(b, c, &f);
    else if (c.Is("histogram-no-atomic"))
      s = RunHistogramNoAtomic(b, c, &f);
    else  // reverse-no-sync
      s = RunReverseNoSync(b, c, &f);
    if (!s.ok()) return s;
    const HazardReport& h = b.launches().back().hazards;
    f.hazards = h.Total();
    for (const HazardGroup& g : h.groups) f.same_warp += g.same_warp;
    if (B::kName == std::string("emu")) f.schedule = c.options.schedule.Name();
    c.SetFigures(f);
    return {};
  }

  // Exercise 4.10: each tile of the matrix transposed in place, with or without the barrier.
  template <LessonBackend B>
  static Status RunBlockTranspose(B& b, LessonCall& c, Figures* fp) {
    Figures& f = *fp;
    const int w = c.I("block_width");
    const int side = w * c.I("tiles");
    const auto n = static_cast<std::size_t>(side) * static_cast<std::size_t>(side);
    const std::vector<float> in = Ramp(n);
    auto a = b.template Upload<float>("A_elements", in);
    const Dim3 grid{static_cast<std::uint32_t>(side / w), static_cast<std::uint32_t>(side / w), 1};
    if (Status s = DispatchTile(b, w, c.Is("block-transpose-fixed"), grid, a, side, side,
                                std::make_integer_sequence<int, 20>{});
        !s.ok())
      return s;
    std::vector<float> want(n);  // each tile transposed in place
    for (int y = 0; y < side; ++y) {
      for (int x = 0; x < side; ++x) {
        const int tx = x / w * w, ty = y / w * w;  // the tile's corner
        want[static_cast<std::size_t>(y * side + x)] =
            in[static_cast<std::size_t>((ty + (x - tx)) * side + tx + (y - ty))];
      }
    }
    const std::vector<float> got = b.Download(a);
    f.wrong = Wrong(got, want);
    f.elements = n;
    c.check =
        CompareAt(got, want, c.variant + " " + std::to_string(side) + "x" + std::to_string(side));
    return {};
  }

  template <LessonBackend B>
  static Status RunTransposeNoSync(B& b, LessonCall& c, Figures* fp) {
    Figures& f = *fp;
    const int side = c.I("width");
    if (side % 32 != 0) return NotAllowed("width", side, "width must be a multiple of 32");
    const auto n = static_cast<std::size_t>(side) * static_cast<std::size_t>(side);
    const std::vector<float> in = Ramp(n);
    auto idata = b.template Upload<float>("idata", in);
    auto odata = b.template Alloc<float>("odata", n);
    const Dim3 grid{static_cast<std::uint32_t>(side / 32), static_cast<std::uint32_t>(side / 32),
                    1};
    if (Status s = WS_LAUNCH(b, transposeNoSync<32>, grid, (Dim3{32, 32, 1}), 32 * 32 * 4, odata,
                             idata, side, side);
        !s.ok())
      return s;
    b.launches().back().kernel = "transposeNoSync<32>";
    std::vector<float> want(n);
    for (int y = 0; y < side; ++y) {
      for (int x = 0; x < side; ++x)
        want[static_cast<std::size_t>(x * side + y)] = in[static_cast<std::size_t>(y * side + x)];
    }
    const std::vector<float> got = b.Download(odata);
    f.wrong = Wrong(got, want);
    f.elements = n;
    c.check = CompareAt(got, want,
                        "transpose-no-sync " + std::to_string(side) + "x" + std::to_string(side));
    return {};
  }

  template <LessonBackend B>
  static Status RunWarpExchange(B& b, LessonCall& c, Figures* fp) {
    Figures& f = *fp;
    const int threads = c.I("threads"), blocks = c.I("blocks");
    const auto n = static_cast<std::size_t>(threads) * static_cast<std::size_t>(blocks);
    const std::vector<float> in = Ramp(n);
    auto d_in = b.template Upload<float>("in", in);
    auto d_out = b.template Alloc<float>("out", n);
    if (Status s =
            WS_LAUNCH(b, warpExchange, Grid1D(blocks), Grid1D(threads), 1024 * 4, d_out, d_in);
        !s.ok())
      return s;
    std::vector<float> want(n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::size_t t = i % static_cast<std::size_t>(threads);
      want[i] = in[i - t + (t + 1) % static_cast<std::size_t>(threads)];
    }
    const std::vector<float> got = b.Download(d_out);
    f.wrong = Wrong(got, want);
    f.elements = n;
    c.check = CompareAt(got, want, "warp-exchange");
    return {};
  }

  template <LessonBackend B>
  static Status RunHistogramNoAtomic(B& b, LessonCall& c, Figures* fp) {
    Figures& f = *fp;
    // One block: the emulator runs blocks on parallel workers, so a race between blocks
    // would race on this machine too and the output would depend on them. Within a block the
    // schedule alone decides, and no barrier helps: every increment is in one interval.
    const int threads = c.I("threads"), bins = c.I("bins");
    const auto n = static_cast<std::size_t>(threads);
    std::vector<int> data(n), want(static_cast<std::size_t>(bins), 0);
    for (std::size_t i = 0; i < n; ++i) {
      data[i] = static_cast<int>(i);  // element i falls in bin i % bins
      ++want[i % static_cast<std::size_t>(bins)];
    }
    auto d_bins = b.template Upload<int>("bins", std::vector<int>(want.size(), 0));
    auto d_data = b.template Upload<int>("data", data);
    if (Status s =
            WS_LAUNCH(b, histogramNoAtomic, Grid1D(1), Grid1D(threads), 0, d_bins, d_data, bins);
        !s.ok())
      return s;
    const std::vector<int> got = b.Download(d_bins);
    f.wrong = Wrong(got, want);
    f.elements = want.size();
    c.check = CompareAt(got, want, "histogram-no-atomic");
    return {};
  }

  template <LessonBackend B>
  static Status RunReverseNoSync(B& b, LessonCall& c, Figures* fp) {
    Figures& f = *fp;
    const int n = c.I("threads");
    std::vector<int> a(static_cast<std::size_t>(n)), r(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      a[static_cast<std::size_t>(i)] = i;
      r[static_cast<std::size_t>(i)] = n - i - 1;
    }
    auto d = b.template Upload<int>("d", a);
    if (Status s = WS_LAUNCH(b, reverseNoSync, Grid1D(1), Grid1D(n), 1024 * 4, d, n); !s.ok())
      return s;
    const std::vector<int> got = b.Download(d);
    f.wrong = Wrong(got, r);
    f.elements = static_cast<std::uint64_t>(n);
    c.check = CompareAt(got, r, "reverse-no-sync");
    return {};
  }
};

}  // namespace ws::lessons::races
