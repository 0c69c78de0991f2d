// The NCCL backend: Comm over NVIDIA's collective library, one rank per GPU.
//
// Debian's libtorch is CPU-only, so shard code hands this backend CPU tensors. Each
// operation stages them: the data goes through page-locked host memory to a device
// buffer on the communicator's own CUDA stream, NCCL runs on that stream, the result
// comes back the same way, and wait() copies it into the caller's tensor. Tensors that
// already live on this rank's GPU (a CUDA-enabled libtorch) are used in place.
//
// What NCCL imposes, unlike Gloo and SimComm:
// - No tags: send/recv ignore `tag`; messages between two ranks match in the order
//   they were posted.
// - A send is a rendezvous: every operation of a communicator runs in order on its one
//   stream, so one posted after a send starts only once the peer has posted the matching
//   receive. Programs that are safe with synchronous sends (MPI_Ssend) are safe here.
// - No sends to oneself.
// - Creating the world communicator and split() wait for every rank, without a timeout.
//
// This header includes no CUDA or NCCL header: every build has it, and a build without
// them reports the backend unavailable (see docs/nccl.md).
#pragma once

#include "compute/backends/backend.h"
#include "compute/comm.h"

#include <chrono>
#include <memory>
#include <string>

namespace uniference {

// Whether CMake found the CUDA runtime and NCCL for this build.
bool nccl_compiled_in();

// Empty when this build has NCCL and a GPU is visible; else why not, for users' errors
// and tests' reasons to skip.
std::string nccl_unavailable();

// GPUs this process sees (cudaGetDeviceCount); 0 without CUDA, a driver or a GPU.
int visible_gpu_count();

// The NCCL library this process runs with, as "NCCL 2.28.9"; empty without NCCL.
std::string nccl_version_text();

// The world communicator. Rank 0 makes NCCL's unique id and publishes it in `store`
// under "uniference/nccl/uid"; the other ranks read it from there, so one store serves
// one world communicator (wrap it in a c10d::PrefixStore for more). The rank drives GPU
// placement.local_rank. `timeout` bounds each operation's wait(): past it the
// communicator is aborted and wait() throws, naming the operation and its peer.
// Throws std::runtime_error saying why where NCCL is unavailable.
std::unique_ptr<Comm> make_nccl_comm(const c10::intrusive_ptr<c10d::Store>& store,
                                     const RankPlacement& placement,
                                     std::chrono::milliseconds timeout);

}  // namespace uniference
