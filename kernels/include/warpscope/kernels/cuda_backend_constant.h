// Constant memory for the GPU backend's lesson drivers (part of cuda_backend.h, which includes it
// after the backend: include that one): a lesson's Global<const T> as real constant memory
// (MakeConstant), and cudaMemcpyToSymbol for a lesson's __constant__ array (CopyToSymbol).
#pragma once

#include "warpscope/kernels/cuda_backend.h"

namespace ws {

// `g` as real constant memory: copied into this translation unit's ws_constant_bank with
// cudaMemcpyToSymbol, so the kernels of this build read it with ld.const. Static, so that no
// translation unit's copy stands in for another's: the plain build fills its own bank and the
// recorded build its own. (One run at a time per process: the offsets are the backend's.)
template <typename B, typename T>
requires std::derived_from<B, CudaBackend>
static Constant<T> MakeConstant(B& b, const Global<const T>& g) {
  static_assert(alignof(T) <= 16, "the bank hands out 16-byte aligned offsets");
  Constant<T> c(g);
  const std::size_t bytes = g.size() * sizeof(T);
  const long long at = b.ReserveConstant(bytes);
  if (at < 0 || g.data() == nullptr) return c;
  b.KeepStatus(WS_CUDA(cudaMemcpyToSymbol(ws_constant_bank, g.data(), bytes,
                                          static_cast<std::size_t>(at), cudaMemcpyDeviceToDevice)));
#if defined(WS_RECORD_BUILD)
  // The other units' kernels read their own banks at the same offsets (cuda_pass_units.h).
  for (PassUnit* u : OtherUnits()) {
    if (u->fill_bank != nullptr)
      b.KeepStatus(WS_CUDA(u->fill_bank(g.data(), bytes, static_cast<std::size_t>(at))));
  }
#endif
  c.set_bank(at);
  return c;
}

// cudaMemcpyToSymbol(sym, ...) for a lesson's __constant__ array: its values copied into this
// build's ws_constant_bank (MakeConstant), and where they lie into the symbol itself.
template <typename B, typename T, unsigned long long N>
requires std::derived_from<B, CudaBackend>
static Status CopyToSymbol(B& b, ConstantArray<T, N>& sym, const Global<const T>& g) {
  if (g.size() != N)
    return Status::Error("a __constant__ array of " + std::to_string(N) + " elements given " +
                         std::to_string(g.size()));
  const Constant<T> c = MakeConstant(b, g);
  const ConstantArray<T, N> value = {g.data(), g.buffer(), c.bank()};
  b.KeepStatus(WS_CUDA(cudaMemcpyToSymbol(sym, &value, sizeof value)));
#if defined(WS_RECORD_BUILD)
  // The other units' arrays of the same name (cuda_pass_units.h), which their kernels read: an
  // array whose name this unit does not know (declared without WS_LESSON_CONSTANT_VIEW) would
  // leave theirs zero, and their kernels would read the bank's first bytes.
  const auto name = ConstantNames().find(&sym);
  for (PassUnit* u : OtherUnits()) {
    if (u->set_state == nullptr) continue;  // the unit is not linked
    const auto set =
        name == ConstantNames().end() ? u->constants.end() : u->constants.find(name->second);
    if (set == u->constants.end())
      return Status::Error("a __constant__ array (" +
                           (name == ConstantNames().end() ? std::string("unnamed") : name->second) +
                           ") that a pass's build of the lessons does not have");
    b.KeepStatus(WS_CUDA(set->second(&value, sizeof value)));
  }
#endif
  return b.status();
}

}  // namespace ws
