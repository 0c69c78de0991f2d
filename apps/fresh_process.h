// A simulation in a process of its own: the run forks, runs there, and hands its record back
// through a pipe. A process that has run a model before computes it again faster (its
// allocator holds the memory, its kernels' caches are warm), which a deployment, a new process
// per run, never is; so the simulations a deployment is compared with measure their compute
// the way it ran.
#pragma once

#include "bridge/run_record.h"

#include <functional>

namespace uniference {

// The record `run` returns in a child process. A ScenarioError or other exception it throws
// is thrown again here, with its message; a child that dies (a signal, an exit of its own)
// is a std::runtime_error saying how. The caller must be single-threaded: only the forking
// thread lives on in the child.
RunRecord run_in_fresh_process(const std::function<RunRecord()>& run);

}  // namespace uniference
