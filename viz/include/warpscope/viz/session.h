// What the views share: the lesson run they draw (from the emulator, a GPU or a trace file), what
// the user selected (site, block, warp, lane, request) and where playback stands. Views only read
// the run; the lesson panel makes runs (in the background) and swaps them in here.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "warpscope/trace/block_view.h"
#include "warpscope/trace/hazards.h"
#include "warpscope/trace/lesson_run.h"
#include "warpscope/trace/what_if.h"

namespace ws {

struct Selection {
  int site = -1;              // index into run->main_launch().sites, -1: none
  std::uint32_t block = 0;    // linear block index
  int warp = -1;              // warp within the block, -1: none
  int lane = -1;              // lane within the warp, -1: none
  int request = -1;           // index into BlockView::requests, -1: the site's first
  int barrier_instance = -1;  // index into BlockView::barriers (playback), -1: none
  int warp_op = -1;           // index into BlockView::warp_ops, -1: none
  int hazard = -1;            // index into run->main_launch().hazards.groups, -1: none
  int hazard_side = 1;        // which of its example's accesses is stepped to: 0 first, 1 second
};

// A compiler's message at a place in the user's program.
struct SourceNote {
  std::uint32_t line = 0, column = 0;  // line 0: not at a line of the program
  std::string message;
};

struct Session {
  std::shared_ptr<const LessonRun> run;  // the last successful run; null before the first
  std::string error;                     // why the last run failed (shown by the lesson panel)
  // Run A of the compare view, pinned beside the current run (B); null: nothing pinned.
  std::shared_ptr<const LessonRun> pinned;
  std::string compare_view = "coalescing";  // the view A and B are drawn in
  // The user's program did not compile: its text as saved and the compiler's messages. The
  // source view shows these in place of the last good run's source; the other views keep the
  // last good run.
  std::vector<SourceNote> compile_errors;
  std::string compile_errors_file, compile_errors_source;
  Selection sel;
  std::uint64_t generation = 0;  // grows with every new run, so views can refresh
  bool running = false;          // a newer run is under way: the views mark theirs as old
  std::string running_what;      // "transpose coalesced tile=16", for the progress line

  // A sweep: the timing view asks for one parameter's values to be run (every variant of the
  // lesson, the other parameters as they are); the lesson panel makes the runs in the background
  // and leaves them in `runs` for the timing view to take.
  struct Sweep {
    std::string param;              // what is (or was last) swept
    std::vector<long long> values;  // in the order they run
    bool requested = false;         // set by the timing view, taken by the lesson panel
    bool active = false;            // runs under way
    bool cancel = false;            // set by the timing view: stop after the current run
    std::size_t done = 0, total = 0;
    std::string note;  // after it: what was skipped or refused, and why ("" when nothing)
    std::vector<std::shared_ptr<const LessonRun>> runs;  // finished, not yet taken
  } sweep;
  // Asks for a sweep of `spec` (the lesson panel starts it on its next frame).
  void RequestSweep(const ParamSpec& spec, std::size_t variants);

  // A view asks for the capture shipped with Warpscope of a variant of the current lesson
  // (assets/traces/LESSON-VARIANT.wstrace: the multi-gpu lesson measured on two GPUs); the lesson
  // panel opens it on its next frame. "": nothing asked.
  std::string open_shipped;
  // A view asks for another of a program's launches to be the one shown, with its site
  // `site_in_launch` selected (the Goals panel, for a goal in that launch); the lesson panel does
  // it on its next frame. -1: nothing asked.
  int show_launch = -1, site_in_launch = -1;
  // A view asks for another to be brought to the front (the what-if's "Compare A | B"); the app
  // does it on its next frame. "": nothing asked.
  std::string focus_panel;
  // Where exports go unless the user says otherwise: the app's screenshot folder.
  std::string export_folder;
  // Scripted runs: the folder the timing view writes its CSV into on its next frame ("": none).
  std::string export_timing_csv;

  // Playback: steps through BlockView::steps of the selected block. -1: not stepping.
  int step = -1;
  bool playing = false;
  double seconds_per_step = 0.5;

  // The selected block's requests and barriers (built on first use, per run and block).
  const BlockView& block_view();
  // The request the views show: the selected one, else the first of the selected site (and
  // warp) in the selected block; nullptr when the block has none (or its records were not kept).
  const BlockRequest* current_request();
  // Selects a request (and its site, warp) everywhere.
  void SelectRequest(int index);
  // Selects a step of the playback and everything it points at; -1 leaves playback.
  void SelectStep(int index);
  // Selects a site (from the source view or a table): its first request in the block.
  void SelectSite(int site);
  // Selects hazard group `index` (the hazards view, the source view's marks): its example's
  // block, one access's site, warp and lane (`side` 0: the first access, 1: the second) and the
  // playback step of that access; the views mark the other access's thread too. -1 clears it.
  void SelectHazard(int index, int side = 1);
  // The selected hazard group, or null.
  const HazardGroup* selected_hazard() const;

  // Makes `r` the current run (with the view of block `view.block`, built off the UI thread) and
  // keeps what can be kept of the selection: the site when the kernel is the same, the block when
  // it still exists. With a what-if set, `r` is shown through it (`written` keeps `r`).
  void Install(std::shared_ptr<const LessonRun> r, BlockView view);

  // What-if layouts (trace/what_if.h): `what_if` is applied to every run installed while it is
  // set, and `run` is then the what-if of `written`, the run as written.
  std::string what_if;        // "tile:swizzle=5,0,5"; "": none
  std::string what_if_error;  // why the last one could not be applied ("": it was)
  std::shared_ptr<const LessonRun> written;
  // Applies `spec` to the run as written ("" clears it); false, with what_if_error, when it
  // cannot be (the run stays as it was).
  bool SetWhatIf(const std::string& spec);
  // The run as written: `written` under a what-if, else `run`.
  const std::shared_ptr<const LessonRun>& as_written() const { return written ? written : run; }

 private:
  void Show(std::shared_ptr<const LessonRun> r, BlockView view);
  std::shared_ptr<const LessonRun> view_run_;
  std::uint32_t view_block_ = 0;
  BlockView view_;
};

// Where the selected hazard (Session::selected_hazard) touches a request: the contested address
// and the lanes whose bytes cover it, when the request is at one of the hazard's two sites in
// its example's block; `group` null otherwise.
struct HazardMark {
  const HazardGroup* group = nullptr;
  std::uint64_t address = 0;  // as the request's lanes give it (shared: offset in the window)
  std::uint32_t lanes = 0;    // bit l: lane l's access covers `address`
};
HazardMark MarkHazard(const Session& session, std::uint32_t block, const BlockRequest& req);

}  // namespace ws
