// The time model of a stencil split along z over several GPUs (the Optimizing CUDA slides'
// multi-GPU 3DFD): each GPU computes its slab of planes and, every time step, exchanges `halo`
// xy-planes (ghost nodes) with each neighbour over a link. Documented in docs/MULTI-GPU.md.
//
//   a plane      nx x ny points, computed at `mpoints` million points per second per GPU:
//                t_plane = nx ny / mpoints microseconds
//   a message    halo planes of 4-byte floats: latency + halo nx ny 4 B / bandwidth
//   a GPU        sends one message to each neighbour in turn on its link's outgoing direction
//                and receives theirs on the incoming one at the same time (full duplex); a GPU
//                at either end has one neighbour, the others two
//   serial       compute all the slab's planes, then exchange
//   overlap      compute the halo planes next to each neighbour first, then exchange them while
//                the interior is computed (asynchronous copies, as the slides advise)
// A time step ends when the slowest GPU is done; the others are idle until then. A single GPU
// has no neighbour: nz planes of compute and nothing else.
#pragma once

#include <string>
#include <vector>

#include "warpscope/trace/status.h"

namespace ws {

struct LinkSpec {
  std::string name;       // "infiniband-sdr", ...
  std::string label;      // for people: "InfiniBand SDR + host copies (the slides' cluster)"
  double gbps = 1;        // effective bytes per second per direction, in GB/s (1e9 B/s)
  double latency_us = 0;  // fixed cost of one message
  std::string source;     // where the figures come from
};
// The links the lesson offers, in its choice order (docs/MULTI-GPU.md).
const std::vector<LinkSpec>& Links();

struct DecompositionParams {
  int nx = 24, ny = 24, nz = 64;
  int gpus = 4;
  int halo = 4;           // ghost planes exchanged with each neighbour (8th order: 4)
  double mpoints = 3000;  // million points per second per GPU (the slides' single-GPU 3DFD)
  LinkSpec link;
  bool overlap = false;
};

// The planes GPU g of n holds when nz planes are dealt out as evenly as they go (the first
// nz % n GPUs one more).
int SlabPlanes(int nz, int gpus, int g);

// Refuses what cannot be split: a GPU with fewer planes than the halo (its neighbours' ghost
// planes would have to come from further away), sizes out of range; the message names the
// limit and the value.
Status CheckDecomposition(const DecompositionParams& p);

enum class GpuWork : int { kCompute = 0, kSend = 1, kReceive = 2, kIdle = 3 };
const char* ToString(GpuWork w);  // "compute", "send", "receive", "idle"

struct GpuSegment {
  int gpu = 0;
  GpuWork kind = GpuWork::kCompute;
  double start_us = 0, end_us = 0;
};

struct DecompositionStep {
  double step_us = 0;     // one time step: when the slowest GPU is done
  double compute_us = 0;  // the largest slab's compute
  double comm_us = 0;     // an inner GPU's exchange (two neighbours), or an end GPU's with two GPUs
  std::vector<GpuSegment> segments;  // per GPU: compute, send, receive, idle (idle only if > 0)
};
DecompositionStep ModelStep(const DecompositionParams& p);

// One GPU's time for the whole nz planes over `p`'s step time.
double Speedup(const DecompositionParams& p);

// The smallest nz (a multiple of gpus) at which a GPU's compute covers its communication, so that
// with overlap the speedup is gpus exactly there and at every larger multiple of gpus: where the
// slides' "linear scaling" begins. Without overlap the exchange still adds to every step, and
// the speedup only approaches gpus. 0 for one GPU.
int CrossoverZ(const DecompositionParams& p);

}  // namespace ws
