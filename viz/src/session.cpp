#include "warpscope/viz/session.h"

namespace ws {

const BlockView& Session::block_view() {
  if (run != view_run_ || sel.block != view_block_) {
    view_run_ = run;
    view_block_ = sel.block;
    view_ = run && run->has_launch() ? BuildBlockView(run->main_launch(), sel.block) : BlockView{};
  }
  return view_;
}

namespace {
// The block the views show of `r`: the selected one while it exists.
std::uint32_t ViewBlock(const LessonRun& r, std::uint32_t block) {
  return block < r.main_launch().grid.count() ? block : 0;
}
}  // namespace

void Session::Install(std::shared_ptr<const LessonRun> r, BlockView view) {
  written.reset();
  if (!what_if.empty() && r && r->has_launch() && !r->what_if) {
    auto w = ApplyWhatIf(*r, what_if);
    if (w.ok()) {
      written = std::move(r);
      what_if_error.clear();
      auto shown = std::make_shared<const LessonRun>(std::move(*w));
      BlockView v = BuildBlockView(shown->main_launch(), ViewBlock(*shown, sel.block));
      Show(std::move(shown), std::move(v));
      return;
    }
    what_if_error = w.status().message();
  }
  Show(std::move(r), std::move(view));
}

bool Session::SetWhatIf(const std::string& spec) {
  std::shared_ptr<const LessonRun> base = as_written();
  if (spec.empty()) {
    what_if.clear();
    what_if_error.clear();
    if (written) {
      BlockView v = BuildBlockView(base->main_launch(), ViewBlock(*base, sel.block));
      Install(base, std::move(v));
    }
    return true;
  }
  if (!base || !base->has_launch()) {
    what_if_error = "a what-if needs a run with a kernel launch";
    return false;
  }
  auto w = ApplyWhatIf(*base, spec);
  if (!w.ok()) {
    what_if_error = w.status().message();
    return false;
  }
  what_if = spec;
  what_if_error.clear();
  written = std::move(base);
  auto shown = std::make_shared<const LessonRun>(std::move(*w));
  BlockView v = BuildBlockView(shown->main_launch(), ViewBlock(*shown, sel.block));
  Show(std::move(shown), std::move(v));
  return true;
}

void Session::Show(std::shared_ptr<const LessonRun> r, BlockView view) {
  const bool same_kernel = run && r && run->lesson == r->lesson && run->has_launch() &&
                           r->has_launch() &&
                           run->main_launch().kernel == r->main_launch().kernel &&
                           run->main_launch().sites.size() == r->main_launch().sites.size();
  run = std::move(r);
  ++generation;
  if (!same_kernel) {
    sel = Selection{};
    step = -1;
    playing = false;
  }
  sel.request = -1;
  if (run && run->has_launch() && sel.block >= run->main_launch().grid.count()) sel.block = 0;
  if (!run || !run->has_launch() ||
      sel.hazard >= static_cast<int>(run->main_launch().hazards.groups.size()))
    sel.hazard = -1;
  view_run_ = run;
  view_block_ = sel.block;
  view_ = view.block == sel.block && run && run->has_launch()
              ? std::move(view)
              : (run && run->has_launch() ? BuildBlockView(run->main_launch(), sel.block)
                                          : BlockView{});
  if (step >= static_cast<int>(view_.steps.size())) step = static_cast<int>(view_.steps.size()) - 1;
  if (step >= 0)
    SelectStep(step);
  else if (sel.site >= 0)
    SelectSite(sel.site);
}

const BlockRequest* Session::current_request() {
  const BlockView& v = block_view();
  if (sel.request >= 0 && sel.request < static_cast<int>(v.requests.size())) {
    const BlockRequest& r = v.requests[static_cast<std::size_t>(sel.request)];
    if (static_cast<int>(r.site) == sel.site) return &r;
  }
  int i = v.FindRequest(sel.site, sel.warp);
  if (i < 0) i = v.FindRequest(sel.site, -1);
  return i >= 0 ? &v.requests[static_cast<std::size_t>(i)] : nullptr;
}

void Session::SelectRequest(int index) {
  const BlockView& v = block_view();
  if (index < 0 || index >= static_cast<int>(v.requests.size())) return;
  const BlockRequest& r = v.requests[static_cast<std::size_t>(index)];
  sel.request = index;
  sel.site = r.site;
  sel.warp = static_cast<int>(r.warp);
}

void Session::SelectStep(int index) {
  const BlockView& v = block_view();
  if (index < 0 || index >= static_cast<int>(v.steps.size())) {
    step = -1;
    sel.barrier_instance = -1;
    return;
  }
  step = index;
  const PlaybackStep& s = v.steps[static_cast<std::size_t>(index)];
  if (s.warp_op) {
    sel.barrier_instance = -1;
    sel.warp_op = s.index;
    sel.warp = static_cast<int>(v.warp_ops[static_cast<std::size_t>(s.index)].warp);
  } else if (s.barrier) {
    sel.barrier_instance = s.index;
  } else {
    sel.barrier_instance = -1;
    SelectRequest(s.index);
  }
}

void Session::SelectSite(int site) {
  sel.site = site;
  sel.request = -1;
  const BlockView& v = block_view();
  int i = v.FindRequest(site, sel.warp);
  if (i < 0) i = v.FindRequest(site, -1);
  if (i >= 0) SelectRequest(i);
}

void Session::SelectHazard(int index, int side) {
  sel.hazard = -1;
  if (!run || !run->has_launch()) return;
  const std::vector<HazardGroup>& groups = run->main_launch().hazards.groups;
  if (index < 0 || index >= static_cast<int>(groups.size())) return;
  const HazardGroup& g = groups[static_cast<std::size_t>(index)];
  const HazardAccess& access = side == 0 ? g.example_first : g.example_second;
  sel.block = access.block;
  sel.site = access.site;
  sel.warp = access.thread / 32;
  sel.request = -1;
  playing = false;
  // The access's request: its site and warp, the last one made by the example's time.
  const BlockView& v = block_view();
  int request = -1;
  for (std::size_t i = 0; i < v.requests.size(); ++i) {
    const BlockRequest& r = v.requests[i];
    if (r.site == access.site && static_cast<int>(r.warp) == sel.warp && r.time <= access.time)
      request = static_cast<int>(i);
  }
  if (request < 0) request = v.FindRequest(sel.site, sel.warp);
  step = -1;
  for (std::size_t i = 0; i < v.steps.size(); ++i) {
    const PlaybackStep& s = v.steps[i];
    if (!s.barrier && !s.warp_op && s.index == request) step = static_cast<int>(i);
  }
  if (step >= 0)
    SelectStep(step);
  else if (request >= 0)
    SelectRequest(request);
  sel.lane = access.thread % 32;
  sel.hazard = index;
  sel.hazard_side = side == 0 ? 0 : 1;
}

const HazardGroup* Session::selected_hazard() const {
  if (!run || !run->has_launch() || sel.hazard < 0) return nullptr;
  const std::vector<HazardGroup>& groups = run->main_launch().hazards.groups;
  return sel.hazard < static_cast<int>(groups.size())
             ? &groups[static_cast<std::size_t>(sel.hazard)]
             : nullptr;
}

void Session::RequestSweep(const ParamSpec& spec, std::size_t variants) {
  sweep = {};
  sweep.param = spec.name;
  sweep.values = SweepValues(spec);
  sweep.total = sweep.values.size() * variants;
  sweep.requested = true;
}

HazardMark MarkHazard(const Session& session, std::uint32_t block, const BlockRequest& req) {
  HazardMark m;
  const HazardGroup* g = session.selected_hazard();
  if (g == nullptr || (req.site != g->first_site && req.site != g->second_site)) return m;
  // Shared memory is per block: the example's block only. A global address is one place for
  // every block, but the mark follows the example there too.
  if (block != g->example_first.block && block != g->example_second.block) return m;
  for (const LaneAccess& l : req.lanes) {
    if (g->example_address >= l.address && g->example_address < l.address + l.size)
      m.lanes |= 1u << l.lane;
  }
  if (m.lanes == 0) return m;
  m.group = g;
  m.address = g->example_address;
  return m;
}

}  // namespace ws
