// How the GPU road records a program's access (part of ws_program_cuda.h, which includes it inside
// namespace ws::prog, after ws_program_state): the access's space from its address (the block's
// own shared memory, another block's of its cluster, a buffer of the program's, a thread's own
// array), its site key and offset, and the bad access's note where it is none of them.
#pragma once

#if defined(__CUDA_ARCH__)
__device__ inline void NoteBadAccess(const void* p, unsigned int bytes, unsigned int place,
                                     unsigned int op) {
  BadAccess* b = ws_program_state.bad;
  if (b == nullptr || atomicCAS(&b->flag, 0u, 1u) != 0u) return;
  b->place = place;
  b->op = op;
  b->bytes = bytes;
  b->block[0] = blockIdx.x;
  b->block[1] = blockIdx.y;
  b->block[2] = blockIdx.z;
  b->thread[0] = threadIdx.x;
  b->thread[1] = threadIdx.y;
  b->thread[2] = threadIdx.z;
  b->address = reinterpret_cast<unsigned long long>(p);
  __threadfence_system();
  b->flag = 2;  // complete
}

// The offset of shared address `p` in its block's window. An H200's shared window puts each block
// of a cluster at its rank << 24, the block's own memory as well: __cvta_generic_to_shared gives
// rank 1's tile[5] as 0x1000414 in every block of the cluster, rank 0's as 0x414
// (kernels/cluster/dsmem_probe.cu, 2026-12-01). A window is below 2^24 bytes: the low 24 bits.
__device__ inline unsigned int SharedWindowOffset(const void* p) {
  return static_cast<unsigned int>(__cvta_generic_to_shared(p)) & 0xffffffu;
}

// The shared array (its offset) holding shared offset `at`, from the launch's table.
__device__ inline unsigned int SharedBase(unsigned int at) {
  const unsigned int* t = ws_program_state.shared;
  unsigned int base = 0, best = 0;
  // Only the slots registered so far (this thread's own arrays among them): most kernels have
  // one or two, and every one of the 64 had cost two loads per shared access.
  const unsigned int slots = min(t[2 * kSharedSlots], kSharedSlots);
  for (unsigned int k = 0; k < slots; ++k) {
    const unsigned int begin = t[2 * k];
    if (begin == 0) continue;
    if (at - (begin - 1) < t[2 * k + 1] && begin >= best) {
      best = begin;
      base = begin - 1;
    }
  }
  return base;
}

// trace/records.h's kSeveralBuffers: a site over several buffers.
constexpr unsigned int kSeveralBuffersKey = 0xffffu;
__device__ inline InstanceView* ThreadInstanceView();
// The thread's current dynamic instance (ws_program_instance.h), with kEventInstance set; 0
// where the launch has no table of them.
__device__ inline unsigned long long InstanceKey() {
  const InstanceView* v = ThreadInstanceView();
  return v != nullptr ? (1ull << 32) | v->instance : 0ull;
}
// `copy_lines`: an asynchronous copy's shared write (its key kKeyAsyncCopy), the global 128-byte
// lines its lanes' sources lie in (ws_gpu_async.h).
// A shared access at offset `at` of the block's window (`remote`: the window of the cluster's
// block of that rank, whose accesses the hazard pass leaves out).
__device__ inline void RecordShared(unsigned int at, unsigned int bytes, unsigned int place,
                                    unsigned int op, unsigned int copy_lines = 0,
                                    unsigned int remote = 0) {
  if (remote != 0 && ::ws::dev::HazardPass(ws_recorder_state.mode)) return;
  const unsigned int base = ws_recorder_state.mode == ::ws::dev::kRecord ? SharedBase(at) : 0u;
  const std::uint64_t key = MakeSiteKey(place, kKeyShared, op & ~kOpBulk, bytes, base / 4);
  if ((op & kOpBulk) != 0)
    ::ws::dev::RecordAccess(BulkCopyKey(key), at + remote, InstanceKey());
  else if (copy_lines != 0)
    ::ws::dev::RecordCopyWrite(key | kKeyAsyncCopy, at + remote, InstanceKey(), copy_lines);
  else
    ::ws::dev::RecordAccess(key, at + remote, InstanceKey());
}
__device__ inline void RecordDevice(const void* p, unsigned int bytes, unsigned int place,
                                    unsigned int op, unsigned int copy_lines = 0) {
  if (ws_recorder_state.mode == ::ws::dev::kOff) return;
#if __CUDA_ARCH__ >= 900
  // Shared memory of the cluster's blocks first (isspacep.shared is false for another block's):
  // another block's is recorded at its offset in that block's window moved up by
  // RemoteSharedOffset(its rank), as the emulator records it.
  if (__isClusterShared(p)) {
    const unsigned int rank = __cluster_query_shared_rank(p);
    RecordShared(SharedWindowOffset(p), bytes, place, op, copy_lines,
                 rank == __clusterRelativeBlockRank() ? 0u : RemoteSharedOffset(rank));
    return;
  }
#endif
  if (__isShared(p)) {
    RecordShared(SharedWindowOffset(p), bytes, place, op, copy_lines);
    return;
  }
  if (__isLocal(p)) return;  // a kernel's own local array
  const ProgramDeviceState& s = ws_program_state;
  const auto addr = reinterpret_cast<unsigned long long>(p);
  unsigned int lo = 0, hi = s.regions;  // the last region beginning at or below addr
  while (lo < hi) {
    const unsigned int mid = (lo + hi) / 2;
    if (s.region_begin[mid] <= addr) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  const bool several = (op & kOpSeveral) != 0, bulk = (op & kOpBulk) != 0;
  op &= ~(kOpSeveral | kOpBulk);
  if (lo > 0 && addr + bytes <= s.region_end[lo - 1]) {
    const unsigned int k = s.region_key[lo - 1];
    const auto offset = addr - s.region_begin[lo - 1];
    const std::uint64_t key =
        MakeSiteKey(place, k >> 16, op, bytes, several ? kSeveralBuffersKey : (k & 0xffffu));
    // A row of a T**: one site keyed by no buffer, its offsets virtual addresses.
    ::ws::dev::RecordAccess(
        bulk ? BulkCopyKey(key) : key,
        static_cast<unsigned int>(several ? s.region_base[lo - 1] + offset : offset),
        InstanceKey());
    return;
  }
  NoteBadAccess(p, bytes, place, op);
}
#endif
