// One simulation across the processes of mpirun, on ns-3's own distributed engine
// (MpiInterface and its granted-time-window simulator): each process builds the whole
// network, runs the nodes the topology gives it (IbFabricHelper::SetPartitions) and the
// LPs on them, and process 0 gathers what the others recorded. Where ns-3 has no mpi module
// (Debian's package), available() is false and enable() says so.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace uniference::distributed {

// Whether this build's ns-3 has its mpi module.
bool available();
// Why a run cannot be split across processes here; empty where it can.
std::string why_unavailable();
// Whether this process was started by mpirun (or srun) among more than one.
bool launched_with_peers();
// Makes this process one of mpirun's: ns-3's distributed simulator, MPI initialised. Before
// anything touches ns-3's simulator. Throws std::runtime_error where MPI is not available.
void enable(int* argc, char*** argv);
// Whether enable() ran.
bool enabled();
// This process's number and their count (0 and 1 when not enabled).
uint32_t process();
uint32_t processes();
// Every process's `mine`, in process order, on process 0; empty elsewhere. Every process
// calls it, at the same point.
std::vector<std::string> gather(const std::string& mine);
// The largest of every process's `mine`, on every process.
int64_t max_over_processes(int64_t mine);
// Ends MPI (after the last gather), where enable() began it.
void finish();

// Data beside the packets. A message's packets cross to another process as ns-3 packets with
// no payload; where the receiver needs the sender's values (a shape-only run's token ids and
// routing counts), the sender posts them under a key when it sends, and the receiving
// process takes them when the message is delivered: by then the sender has posted them, as
// its packets left after. Keys are the caller's: unique per message.
void post(uint32_t to_process, const std::string& key, const std::string& bytes);
// Blocks until the values `from_process` posted under `key` are here.
std::string take(uint32_t from_process, const std::string& key);

}  // namespace uniference::distributed
