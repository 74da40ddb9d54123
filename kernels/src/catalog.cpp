#include "warpscope/kernels/catalog.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "lesson_registry.h"
#include "warpscope/kernels/lesson_sources.h"
#include "warpscope/kernels/resource_tables.h"
#include "warpscope/trace/units.h"

namespace ws {
namespace {

std::string Names(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + n;
  return s;
}

struct Catalogue {
  std::vector<LessonEntry> entries;  // in teaching order
  std::vector<LessonInfo> visible;
};

const Catalogue& TheCatalogue() {
  static const Catalogue c = [] {
    Catalogue cat;
    cat.entries = MakeLessonEntries();
    std::sort(
        cat.entries.begin(), cat.entries.end(), [](const LessonEntry& a, const LessonEntry& b) {
          return a.info.order != b.info.order ? a.info.order < b.info.order : a.info.id < b.info.id;
        });
    for (LessonEntry& e : cat.entries) {
      if (!e.info.source_file.empty()) e.info.source = lesson_sources::Find(e.info.source_file);
      if (!e.info.hidden) cat.visible.push_back(e.info);
    }
    return cat;
  }();
  return c;
}

const LessonEntry* FindEntry(const std::string& id) {
  for (const LessonEntry& e : TheCatalogue().entries) {
    if (e.info.id == id) return &e;
  }
  return nullptr;
}

// The emulator's modeled time: the bytes the sectors move at the preset's DRAM bandwidth.
// Local-memory sectors the driver counted (`unrecorded`) are charged the same way.
Timing ModeledTime(const LaunchTrace& t, const DevicePreset& preset, std::uint64_t unrecorded) {
  std::uint64_t sectors = unrecorded;
  for (std::size_t i = 0; i < t.sites.size(); ++i) {
    if (t.sites[i].space != MemorySpace::kShared) sectors += t.stats.sites[i].sectors;
  }
  return {"modeled", static_cast<double>(sectors) * 32.0 / (preset.bandwidth_gbps * 1e6),
          "sectors x 32 B at " + std::to_string(static_cast<int>(preset.bandwidth_gbps)) +
              " GB/s (" + preset.name + ")" +
              (unrecorded > 0
                   ? ", " + FormatNumber(static_cast<double>(unrecorded)) + " of them local memory"
                   : std::string()) +
              "; a model, not a measurement"};
}

std::string FormatScale(double x) {
  char text[32];
  std::snprintf(text, sizeof text, x == std::floor(x) && x < 1e15 ? "%.0f" : "%.3g", x);
  return text;
}

// The work at `timed` over the work at `run`, by the lesson's emulator_cost; 0 when unknown.
double WorkScale(const LessonInfo& info, const Params& run, const Params& timed) {
  const double work = info.emulator_cost != nullptr ? info.emulator_cost(run) : 0;
  return work > 0 ? info.emulator_cost(timed) / work : 0;
}

// The GPU's time is taken at the lesson's timed size (LessonInfo::timed_size); the model's is
// scaled to it by the lesson's work (emulator_cost), so that both plot comparable figures.
void ScaleToTimedSize(const LessonInfo& info, const Params& params, Timing* t) {
  const Params timed = info.TimedParams(params);
  const double scale = WorkScale(info, params, timed);
  if (timed == params || scale <= 0) return;
  t->work_scale = scale;
  t->own_ms = t->ms;
  t->ms *= t->work_scale;
  t->timed_at = info.timed_size.label;
  t->note += "; scaled to " + info.timed_size.label + " (" + FormatScale(t->work_scale) +
             "x the work of this run)";
}

// A recorded GPU run's registers and memory: those of the uninstrumented build's launch of the
// same kernel (the recording build's are the recorder's). The emulator's launches have ptxas's
// table from their backend (LessonCall::compiled), a timed run cudaFuncGetAttributes'.
void TakeResources(std::vector<LaunchTrace>* launches, const std::vector<LaunchTrace>& measured) {
  for (LaunchTrace& l : *launches) {
    for (const LaunchTrace& m : measured) {
      if (m.kernel == l.kernel && m.resources.known()) {
        l.resources = m.resources;
        break;
      }
    }
  }
}

Status RunOnEmulator(const LessonEntry& e, LessonCall& call, LessonRun* run) {
  auto preset = FindDevicePreset(call.options.preset);
  if (!preset) return preset.status();
  BackendResult out;
  Status s = e.emu(call, *preset, &out);
  run->device = std::move(out.device);
  run->launches = std::move(out.launches);
  run->schedule = call.options.schedule;
  if (!s.ok()) return s;
  if (run->launches.empty()) return Status::Error("the lesson launched no kernel");
  run->timing = call.timing ? *call.timing
                            : ModeledTime(run->main_launch(), *preset, call.unrecorded_sectors);
  if (!call.timing) ScaleToTimedSize(e.info, call.params, &run->timing);
  return {};
}

// A kernel lesson on a GPU: the recorded build for the records, then the same driver on the
// uninstrumented build for the time; both must agree on the output check.
Status RunOnGpu(const LessonEntry& e, LessonCall& call, LessonRun* run) {
  const GpuRunner recorded = FindRecordedGpuRunner(e.info.id);
  const GpuRunner timed = FindTimedGpuRunner(e.info.id);
  if (recorded == nullptr || timed == nullptr) {
    return Status::Error(
        "this build of Warpscope has no CUDA runner (nvcc was not found at build time); use "
        "--backend emu");
  }
  LessonCall plain = call;
  BackendResult time;
  if (!call.options.record) {  // the uninstrumented build only (what a profiler should see)
    if (Status s = timed(plain, &time); !s.ok()) return s;
    call = std::move(plain);
    run->device = std::move(time.device);
    run->launches = std::move(time.launches);
    run->timing = time.timing;
    return {};
  }
  BackendResult rec;
  if (Status s = recorded(call, &rec); !s.ok()) return s;
  plain.params = e.info.TimedParams(call.params);  // timed where the launch overhead is small
  run->device = std::move(rec.device);
  run->launches = std::move(rec.launches);
  if (Status s = timed(plain, &time); !s.ok()) return s;
  TakeResources(&run->launches, time.launches);
  const VariantSpec* variant = e.info.FindVariant(call.variant);
  if (plain.check.ok != call.check.ok && variant != nullptr && variant->races) {
    // A race: the two builds interleave their threads differently, so their outputs may differ.
    // The uninstrumented build's is the kernel's own; the recording build's is said beside it.
    call.check.message =
        plain.check.message + " (the recording build, slower, got: " + call.check.message + ")";
    call.check.ok = plain.check.ok;
  } else if (plain.check.ok != call.check.ok) {
    return Status::Error(
        "the uninstrumented build's output check differs from the recorded build's: " +
        plain.check.message);
  }
  if (e.info.figures_from_timed_build) call.figures = plain.figures;
  run->timing = rec.timing;  // the recording's cost
  run->timing.kind = time.timing.kind;
  run->timing.ms = time.timing.ms;
  run->timing.note = time.timing.note;
  run->timing.own_ms = time.timing.ms;
  if (plain.params != call.params) {
    // The recording's cost is measured against the uninstrumented build at the same size.
    LessonCall own = call;
    BackendResult own_time;
    if (Status s = timed(own, &own_time); !s.ok()) return s;
    run->timing.own_ms = own_time.timing.ms;
    run->timing.timed_at = e.info.timed_size.label;
    const double scale = WorkScale(e.info, call.params, plain.params);
    run->timing.work_scale = scale > 0 ? scale : 1;
    run->timing.note +=
        ", timed at " + e.info.timed_size.label + " (the records come from the run's own size)";
  }
  return {};
}

// A lesson that measures a GPU and is not a recorded kernel (transfers).
Status RunGpuOnly(const LessonEntry& e, LessonCall& call, LessonRun* run) {
  const GpuRunner gpu = FindRecordedGpuRunner(e.info.id);
  if (gpu == nullptr) {
    return Status::Error(e.info.id +
                         " measures a GPU, and this build of Warpscope has no CUDA runner (nvcc "
                         "was not found at build time)");
  }
  BackendResult out;
  if (Status s = gpu(call, &out); !s.ok()) return s;
  run->device = std::move(out.device);
  if (call.timing) run->timing = *call.timing;
  return {};
}

// A site's file and code: the embedded lesson source whose tag the recorder gave the site (the
// lesson's own kernel first; a helper header of another folder otherwise).
void NameSite(const LessonInfo& info, std::uint16_t tag, std::uint32_t line, std::string* file,
              std::string* code) {
  if (tag == FileTagOf(info.source_file)) {
    *file = info.source_file;
    *code = SourceLine(info.source, line);
    return;
  }
  for (const lesson_sources::File& f : lesson_sources::Files()) {
    if (FileTagOf(std::string(f.name)) == tag) {
      *file = f.name;
      *code = SourceLine(f.text, line);
      return;
    }
  }
  file->clear();
  code->clear();
}

}  // namespace

const ResourceTable& CompilerResourceTable() {
  static const ResourceTable table = [] {
    ResourceTable t;
    const Status s = ParseResourceTable(resource_tables::Find("sm_90.txt"), &t);
    if (!s.ok()) std::fprintf(stderr, "warpscope: %s\n", s.message().c_str());
    return t;
  }();
  return table;
}

const std::vector<LessonInfo>& Lessons() {
  return TheCatalogue().visible;
}

const LessonInfo* FindLesson(const std::string& id) {
  const LessonEntry* e = FindEntry(id);
  return e != nullptr ? &e->info : nullptr;
}

const LessonInfo& FirstLesson() {
  for (const LessonInfo& l : Lessons()) {
    if (l.opens_first) return l;
  }
  return Lessons().front();
}

std::string NeedsGpuMessage(const LessonInfo& lesson) {
  return lesson.id +
         " measures a GPU and cannot run on the emulator: run it with --backend "
         "cuda on a machine with a GPU (the app shows the capture shipped with "
         "Warpscope instead)";
}

Result<LessonRequest> ResolveLesson(const std::string& id, const std::string& variant_in,
                                    const Params& overrides) {
  const LessonInfo* info = FindLesson(id);
  if (info == nullptr) {
    std::vector<std::string> ids;
    for (const auto& l : Lessons()) ids.push_back(l.id);
    return Status::Error("unknown lesson '" + id + "'; lessons are: " + Names(ids));
  }
  LessonRequest rq;
  rq.info = info;
  rq.variant = variant_in.empty() ? info->variants.front().name : variant_in;
  if (info->FindVariant(rq.variant) == nullptr) {
    std::vector<std::string> variants;
    for (const auto& v : info->variants) variants.push_back(v.name);
    return Status::Error("unknown variant '" + rq.variant + "' for " + id +
                         "; variants are: " + Names(variants));
  }
  std::vector<std::string> param_names;
  for (const ParamSpec& p : info->params) {
    rq.params[p.name] = p.default_value;
    param_names.push_back(p.name);
  }
  for (const auto& [name, value] : overrides) {
    const ParamSpec* spec = info->FindParam(name);
    if (spec == nullptr) {
      return Status::Error("unknown parameter '" + name + "' for " + id +
                           "; parameters are: " + Names(param_names));
    }
    if (Status s = CheckParam(*spec, value); !s.ok()) return Status::Error(id + ": " + s.message());
    rq.params[name] = value;
  }
  return rq;
}

Result<long long> ParseParamValue(const LessonInfo* info, const std::string& name,
                                  const std::string& text) {
  const ParamSpec* spec = info != nullptr ? info->FindParam(name) : nullptr;
  if (spec != nullptr && !spec->choices.empty()) {
    auto squeeze = [](std::string t) {
      t.erase(std::remove(t.begin(), t.end(), ' '), t.end());
      return t;
    };
    for (std::size_t i = 0; i < spec->choices.size(); ++i) {
      if (squeeze(spec->choices[i]) == squeeze(text)) return static_cast<long long>(i);
    }
  }
  // A whole number: the value itself, or (a parameter with choices) the choice's index.
  long long value = 0;
  const char* end = text.data() + text.size();
  const auto [at, ec] = std::from_chars(text.data(), end, value);
  if (ec == std::errc() && at == end && !text.empty()) return value;
  if (spec != nullptr && !spec->choices.empty())
    return Status::Error(name + ": '" + text + "' is not one of: " + Names(spec->choices));
  if (ec == std::errc::result_out_of_range)
    return Status::Error(name + ": " + text + " is too large for a whole number");
  return Status::Error(name + ": '" + text + "' is not a whole number");
}

Result<Params> ParseSetArguments(const LessonInfo* info, const std::string& variant,
                                 const std::vector<std::string>& arguments,
                                 std::vector<std::string>* notes) {
  Params params;
  const VariantSpec* v =
      info == nullptr ? nullptr
                      : info->FindVariant(variant.empty() ? info->variants.front().name : variant);
  for (const std::string& a : arguments) {
    const auto eq = a.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == a.size())
      return Status::Error("--set needs NAME=VALUE (got '" + a + "')");
    const std::string name = a.substr(0, eq);
    auto value = ParseParamValue(info, name, a.substr(eq + 1));
    if (!value.ok()) return Status::Error("--set " + value.status().message());
    params[name] = *value;
    if (v != nullptr && notes != nullptr &&
        std::find(v->ignores.begin(), v->ignores.end(), name) != v->ignores.end())
      notes->push_back(name + " does nothing in the " + v->name + " variant (" + v->summary +
                       "); it is kept for the other variants");
  }
  return params;
}

Result<LessonRun> RunLesson(const std::string& id, const std::string& variant_in,
                            const Params& overrides, const std::string& backend,
                            const RunOptions& options) {
  auto request = ResolveLesson(id, variant_in, overrides);
  if (!request.ok()) return request.status();
  const LessonEntry& e = *FindEntry(id);
  const LessonInfo& info = e.info;
  if (backend != "emu" && backend != "cuda")
    return Status::Error("unknown backend '" + backend + "'; backends are: emu, cuda");
  if (auto preset = FindDevicePreset(options.preset); !preset.ok()) return preset.status();

  LessonRun run;
  run.lesson = id;
  run.variant = request->variant;
  run.backend = backend;
  run.params = request->params;
  run.info = &info;
  LessonCall call;
  call.variant = request->variant;
  call.params = request->params;
  call.options = options;
  call.compiled = &CompilerResourceTable();
  if (info.keep_all_blocks) call.options.keep_all_blocks = true;

  Status s;
  switch (info.kind) {
    case LessonKind::kCalculator:
    case LessonKind::kModel:  // the same on every backend
      s = e.model(call);
      run.device = call.device;
      if (call.timing) run.timing = *call.timing;
      break;
    case LessonKind::kGpuOnly:  // measured on a GPU or not at all
      if (backend != "cuda") return Status::Error(NeedsGpuMessage(info));
      s = RunGpuOnly(e, call, &run);
      break;
    case LessonKind::kKernel:
      if (backend == "cuda") {
        const VariantSpec* v = info.FindVariant(call.variant);
        if (!v->gpu_refusal.empty()) return Status::Error(id + ": " + v->gpu_refusal);
        s = RunOnGpu(e, call, &run);
      } else {
        s = RunOnEmulator(e, call, &run);
      }
      break;
  }
  if (!s.ok()) return Status::Error(id + ": " + s.message());
  run.check = call.check;
  run.figures = call.figures;
  for (LaunchTrace& t : run.launches) {
    for (SiteInfo& site : t.sites) NameSite(info, site.file_tag, site.line, &site.file, &site.code);
    for (BarrierSite& b : t.barrier_sites) NameSite(info, b.file_tag, b.line, &b.file, &b.code);
    for (WarpOpSite& w : t.warp_op_sites) NameSite(info, w.file_tag, w.line, &w.file, &w.code);
  }
  return run;
}

}  // namespace ws
