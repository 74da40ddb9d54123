// The parent's side of a run's progress (progress.h): the mapped cell, read while it waits.
#include "warpscope/program/progress.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>

#include "program_internal.h"
#include "warpscope/trace/units.h"

namespace ws {

std::string ProgressText(const ProgramProgress& p) {
  return "launch " + std::to_string(p.launch) + (p.kernel.empty() ? "" : " (" + p.kernel + ")") +
         ": " + FormatNumber(static_cast<double>(p.blocks_done)) + " of " +
         FormatNumber(static_cast<double>(p.blocks)) + " blocks";
}

namespace prog_internal {

ProgressMap::ProgressMap(const std::string& path) : path_(path) {
  if (path.empty()) return;
  const int fd = open(path.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return;
  if (ftruncate(fd, sizeof(ProgressCell)) == 0) {
    void* p = mmap(nullptr, sizeof(ProgressCell), PROT_READ, MAP_SHARED, fd, 0);
    if (p != MAP_FAILED) cell_ = static_cast<const ProgressCell*>(p);
  }
  close(fd);
}

ProgressMap::~ProgressMap() {
  if (cell_ != nullptr) munmap(const_cast<ProgressCell*>(cell_), sizeof(ProgressCell));
  if (!path_.empty()) unlink(path_.c_str());
}

ProgramProgress ProgressMap::Read() const {
  ProgramProgress p;
  if (cell_ == nullptr) return p;
  p.launch = cell_->launch.load(std::memory_order_acquire);
  char name[sizeof cell_->kernel + 1] = {};
  std::memcpy(name, cell_->kernel, sizeof cell_->kernel);
  p.kernel = name;
  p.blocks = cell_->blocks.load(std::memory_order_relaxed);
  p.blocks_done = cell_->blocks_done.load(std::memory_order_relaxed);
  if (p.blocks_done > p.blocks) p.blocks_done = p.blocks;  // read while a launch began
  return p;
}

}  // namespace prog_internal
}  // namespace ws
