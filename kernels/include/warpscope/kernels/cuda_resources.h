// A kernel's registers and memory on a GPU: cudaFuncGetAttributes' figures as a launch keeps
// them, with the spill counts only ptxas reports taken from the build's table where the table
// describes this very code (its architecture, the same registers and local bytes).
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "warpscope/trace/kernel_resources.h"

namespace ws {

inline KernelResources ResourcesOf(const cudaFuncAttributes& a, const std::string& device,
                                   const std::string& kernel, const ResourceTable* table) {
  KernelResources r;
  r.registers = a.numRegs;
  r.local_bytes = static_cast<std::uint32_t>(a.localSizeBytes);
  r.shared_bytes = static_cast<std::uint32_t>(a.sharedSizeBytes);
  r.source =
      "cudaFuncGetAttributes on " + device + " (sm_" + std::to_string(a.binaryVersion) + " code)";
  const KernelResources* t = table != nullptr ? table->Find(kernel) : nullptr;
  if (t != nullptr && table->arch() == a.binaryVersion && t->registers == a.numRegs &&
      t->local_bytes == a.localSizeBytes) {
    r.spills_known = true;
    r.spill_stores = t->spill_stores;
    r.spill_loads = t->spill_loads;
    r.barriers = t->barriers;
    r.source += "; spills from ptxas's table (the same registers)";
  }
  return r;
}

}  // namespace ws
