#include "warpscope/trace/program_record.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace ws {

const char* ToString(ProgramStage s) {
  switch (s) {
    case ProgramStage::kRead:
      return "read";
    case ProgramStage::kCompile:
      return "compile";
    case ProgramStage::kRun:
      return "run";
    case ProgramStage::kDone:
      return "done";
  }
  return "?";
}

std::string ProgramRecord::KernelFile(const std::string& kernel) const {
  const std::string name = kernel.substr(0, kernel.find('<'));
  for (const ProgramKernel& k : kernel_files) {
    if (k.name == name) return k.file;
  }
  return "";
}

std::string_view ProgramRecord::TextOf(std::string_view name) const {
  if (name == file) return source;
  for (const auto& [n, t] : files) {
    if (n == name) return t;
  }
  return {};
}

std::string NoteText(const ProgramDiagnostic& d) {
  if (!d.file.empty()) return d.file + ":" + std::to_string(d.line) + ": " + d.message;
  if (d.line > 0) return "line " + std::to_string(d.line) + ": " + d.message;
  return d.message;
}

std::vector<std::string> ProgramRecord::Notes() const {
  std::vector<std::string> notes;
  for (const ProgramDiagnostic& d : warnings) notes.push_back(NoteText(d));
  return notes;
}

KernelTimesRead ParseKernelTimes(std::string_view text) {
  KernelTimesRead read;
  struct Started {
    unsigned long long start;
    ProgramRecord::KernelTime time;
  };
  std::vector<Started> started;
  std::istringstream in{std::string(text)};
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.empty()) continue;
    std::istringstream fields(line);
    unsigned long long start = 0, end = 0;
    std::string name;
    if (!(fields >> start >> end >> name) || end < start) {
      read.error = "line " + std::to_string(number) +
                   " of the kernel times is not one: " + line.substr(0, 120);
      return read;
    }
    started.push_back({start, {name, static_cast<double>(end - start) * 1e-6}});
  }
  std::stable_sort(started.begin(), started.end(),
                   [](const Started& a, const Started& b) { return a.start < b.start; });
  for (Started& s : started) read.times.push_back(std::move(s.time));
  return read;
}

double ProgramRecord::KernelCounters::Of(std::string_view metric) const {
  for (const auto& [name, value] : values)
    if (name == metric) return value;
  return -1;
}

KernelCountersRead ParseKernelCounters(std::string_view text) {
  KernelCountersRead read;
  std::vector<std::string> metrics;
  std::istringstream in{std::string(text)};
  int number = 0;
  const auto bad = [&](const std::string& line) {
    read.error = "line " + std::to_string(number) +
                 " of the kernel counters is not one: " + line.substr(0, 120);
  };
  for (std::string line; std::getline(in, line);) {
    ++number;
    if (line.empty()) continue;
    std::istringstream fields(line);
    std::string word;
    fields >> word;
    if (line.rfind("error: ", 0) == 0) {
      read.error = line.substr(7);
      return read;
    } else if (line.rfind("# metrics", 0) == 0) {
      fields >> word;
      metrics.clear();
      for (std::string m; fields >> m;) metrics.push_back(m);
    } else if (line.rfind("# unavailable ", 0) == 0) {
      fields >> word;
      if (fields >> word) read.unavailable.push_back(word);
    } else if (line.rfind("# not counted: ", 0) == 0) {
      read.not_counted.push_back(line.substr(15, 200));
    } else if (line.rfind("#", 0) == 0) {
      continue;  // a comment
    } else if (word == "launch" && !metrics.empty()) {
      ProgramRecord::KernelCounters c;
      if (!(fields >> c.kernel)) return bad(line), read;
      for (const std::string& m : metrics) {
        std::string v;
        if (!(fields >> v)) return bad(line), read;
        if (v == "-") continue;
        char* end = nullptr;
        const double value = std::strtod(v.c_str(), &end);
        if (end == v.c_str() || *end != '\0' || !std::isfinite(value) || value < 0)
          return bad(line), read;
        c.values.emplace_back(m, value);
      }
      if (fields >> word) return bad(line), read;
      read.counters.push_back(std::move(c));
    } else {
      return bad(line), read;
    }
  }
  return read;
}

}  // namespace ws
