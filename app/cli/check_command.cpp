// `warpscope-cli check ASSIGNMENT.toml SUBMISSION...`: each submission (a .cu file, or every .cu
// file of a folder) run in its own child with the usual limits, and the assignment's goals
// checked against its run (core/assignment.h). A submission that does not compile, crashes or
// runs past its time fails with the reason, and the next one still runs.
#include "cli/check_command.h"

#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>

#include "core/assignment.h"
#include "core/assignment_report.h"
#include "warpscope/program/program.h"
#include "warpscope/trace/file_io.h"
#include "warpscope/trace/printed_text.h"

namespace ws::cli {
namespace {

// The submissions named: files as given, folders as their .cu files in name order.
Result<std::vector<std::filesystem::path>> Submissions(const std::vector<std::string>& names) {
  std::vector<std::filesystem::path> out;
  for (const std::string& n : names) {
    std::error_code ec;
    if (std::filesystem::is_directory(n, ec)) {
      std::vector<std::filesystem::path> in;
      for (const auto& e : std::filesystem::directory_iterator(n, ec)) {
        if (e.is_regular_file() && e.path().extension() == ".cu") in.push_back(e.path());
      }
      std::sort(in.begin(), in.end());
      if (in.empty()) return Status::Error("folder " + n + " has no .cu file to check");
      out.insert(out.end(), in.begin(), in.end());
    } else if (std::filesystem::is_regular_file(n, ec)) {
      out.emplace_back(n);
    } else {
      return Status::Error("no file or folder " + n);
    }
  }
  return out;
}

nlohmann::json VerdictJson(const std::filesystem::path& file, const Verdict& v) {
  nlohmann::json goals = nlohmann::json::array();
  for (const GoalResult& g : v.goals)
    goals.push_back({{"name", g.goal->name},
                     {"figure", ToString(g.goal->figure)},
                     {"value", g.value},
                     {"site", g.site},
                     {"met", g.met},
                     {"skipped", g.skipped},
                     {"text", g.text}});
  return {{"file", file.string()}, {"met", v.met}, {"failure", v.failure}, {"goals", goals}};
}

// Where submission `f`'s report goes: DIR/NAME.html, NAME its file's stem (then -2, -3 ... when
// two submissions in different folders share it).
std::filesystem::path ReportPath(const std::filesystem::path& dir, const std::filesystem::path& f,
                                 std::set<std::string>* taken) {
  std::string name = f.stem().string();
  for (int n = 2; !taken->insert(name).second; ++n)
    name = f.stem().string() + "-" + std::to_string(n);
  return dir / (name + ".html");
}

}  // namespace

int CheckCommand(const CheckArgs& args) {
  const std::string& assignment = args.assignment;
  const bool json = args.json;
  auto a = LoadAssignment(assignment);
  if (!a.ok()) {
    std::cerr << "warpscope-cli: " << a.status().message() << "\n";
    return 2;
  }
  auto files = Submissions(args.submissions);
  if (!files.ok()) {
    std::cerr << "warpscope-cli: check: " << files.status().message() << "\n";
    return 2;
  }
  // Other people's code: every submission runs in the sandbox, or none runs.
  if (const std::string why = SandboxUnavailable(); !why.empty()) {
    std::cerr << "warpscope-cli: check: " << why << "; not grading unsandboxed\n";
    return 2;
  }
  std::error_code ec;
  if (!args.report_dir.empty() && !std::filesystem::is_directory(args.report_dir, ec) &&
      !std::filesystem::create_directories(args.report_dir, ec)) {
    std::cerr << "warpscope-cli: check: --report: cannot make the folder " << args.report_dir
              << ": " << ec.message() << "\n";
    return 2;
  }
  ProgramOptions po;
  po.sandbox = true;
  po.backend = args.backend;
  po.timeout = std::chrono::milliseconds(static_cast<long long>(args.timeout_s * 1000));
  std::optional<LessonRun> start;
  if (a->needs_start()) start = RunProgramFile(a->start, po);
  nlohmann::json out = {{"assignment", a->title}, {"file", assignment}, {"submissions", {}}};
  if (!json) std::cout << "assignment: " << a->title << " (" << a->goals.size() << " goals)\n";
  bool all = true;
  std::set<std::string> taken;
  for (const std::filesystem::path& f : *files) {
    const LessonRun run = RunProgramFile(f, po);
    const Verdict v = CheckAssignment(*a, run, start ? &*start : nullptr);
    all = all && v.met;
    if (!args.report_dir.empty()) {
      const std::filesystem::path report = ReportPath(args.report_dir, f, &taken);
      if (Status s = WriteFileAtomically(report, AssignmentReportHtml(*a, v, run)); !s.ok()) {
        std::cerr << "warpscope-cli: check: --report: " << s.message() << "\n";
        return 2;
      }
    }
    if (json) {
      out["submissions"].push_back(VerdictJson(f, v));
      continue;
    }
    const auto met =
        std::count_if(v.goals.begin(), v.goals.end(), [](const GoalResult& g) { return g.met; });
    std::cout << "\n"
              << f.string() << ": " << (v.met ? "MET" : "NOT MET") << " (" << met << " of "
              << v.goals.size() << " goals)"
              << (v.failure.empty() ? "" : "; the program " + v.failure) << "\n";
    // A goal's text may quote the program's stderr: its control characters are shown, not obeyed.
    for (const GoalResult& g : v.goals)
      std::cout << "  " << VisibleControls(ValidUtf8(g.text).text) << "\n";
  }
  if (json) std::cout << JsonText(out, 2) << "\n";
  return all ? 0 : 1;
}

}  // namespace ws::cli
