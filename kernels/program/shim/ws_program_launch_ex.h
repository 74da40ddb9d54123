// cudaLaunchKernelEx's configuration and attributes as a program on the emulator sees them (part
// of ws_program_api.h, which includes it after dim3 and cudaStream_t; driver_types.h's numbers and
// layout). The launch itself is ws_program_graph_calls.h's, on both roads.
#pragma once

// cudaLaunchKernelEx's configuration and attributes (driver_types.h's numbers and layout). The
// cluster's dimension and a cooperative launch are honoured; the others are taken and change
// nothing on the emulator (a priority, programmatic serialization).
enum cudaLaunchAttributeID {
  cudaLaunchAttributeIgnore = 0,
  cudaLaunchAttributeAccessPolicyWindow = 1,
  cudaLaunchAttributeCooperative = 2,
  cudaLaunchAttributeSynchronizationPolicy = 3,
  cudaLaunchAttributeClusterDimension = 4,
  cudaLaunchAttributeClusterSchedulingPolicyPreference = 5,
  cudaLaunchAttributeProgrammaticStreamSerialization = 6,
  cudaLaunchAttributeProgrammaticEvent = 7,
  cudaLaunchAttributePriority = 8,
};
union cudaLaunchAttributeValue {
  char pad[64];
  int cooperative;
  struct {
    unsigned int x, y, z;
  } clusterDim;
  int priority;
  unsigned int programmaticStreamSerializationAllowed;
};
struct cudaLaunchAttribute {
  cudaLaunchAttributeID id;
  char pad[8 - sizeof(cudaLaunchAttributeID)];
  cudaLaunchAttributeValue val;
};
// (Its gridDim and blockDim named as the rewriter renames a member named as a built-in:
// WS_BUILTIN_MEMBER, ws_program_graphs.h.)
struct cudaLaunchConfig_t {
#if defined(WS_PROGRAM_PARSE)
  dim3 gridDim;
  dim3 blockDim;
#else
  dim3 ws_user_gridDim;
  dim3 ws_user_blockDim;
#endif
  std::size_t dynamicSmemBytes;
  cudaStream_t stream;
  cudaLaunchAttribute* attrs;
  unsigned int numAttrs;
};
