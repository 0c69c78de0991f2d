#include "bridge/distributed.h"

#include <cstdlib>
#include <stdexcept>

#ifdef NS3_MPI
#include <ns3/global-value.h>
#include <ns3/mpi-interface.h>
#include <ns3/string.h>

#include <mpi.h>

#include <cstring>
#include <map>
#include <memory>
#endif

namespace uniference::distributed {

bool launched_with_peers() {
  // Open MPI's mpirun, MPICH's process manager, and a step Slurm's srun launched (not the
  // batch script of a many-task job, which runs once).
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE", "SLURM_STEP_NUM_TASKS"}) {
    const char* value = std::getenv(name);
    if (value != nullptr && std::atoi(value) > 1) return true;
  }
  return false;
}

#ifdef NS3_MPI

bool available() { return true; }

std::string why_unavailable() { return ""; }

namespace {
// The values beside the packets travel on a communicator of their own, apart from ns-3's.
MPI_Comm g_data = MPI_COMM_NULL;
// Posted and not yet known to be sent: each buffer lives until its send completes.
struct Posted {
  std::string buffer;
  MPI_Request request;
};
std::vector<std::unique_ptr<Posted>> g_posted;
// Taken from the wire before they were asked for, by (process, key).
std::map<std::pair<uint32_t, std::string>, std::string> g_early;

void reap_posted() {
  for (auto it = g_posted.begin(); it != g_posted.end();) {
    int done = 0;
    MPI_Test(&(*it)->request, &done, MPI_STATUS_IGNORE);
    it = done ? g_posted.erase(it) : it + 1;
  }
}
}  // namespace

void enable(int* argc, char*** argv) {
  ns3::GlobalValue::Bind("SimulatorImplementationType",
                         ns3::StringValue("ns3::DistributedSimulatorImpl"));
  ns3::MpiInterface::Enable(argc, argv);
  MPI_Comm_dup(ns3::MpiInterface::GetCommunicator(), &g_data);
}

void post(uint32_t to_process, const std::string& key, const std::string& bytes) {
  reap_posted();
  auto posted = std::make_unique<Posted>();
  const uint32_t key_length = uint32_t(key.size());
  posted->buffer.append(reinterpret_cast<const char*>(&key_length), sizeof key_length);
  posted->buffer += key;
  posted->buffer += bytes;
  MPI_Isend(posted->buffer.data(), int(posted->buffer.size()), MPI_CHAR, int(to_process), 0, g_data,
            &posted->request);
  g_posted.push_back(std::move(posted));
}

std::string take(uint32_t from_process, const std::string& key) {
  const auto wanted = std::make_pair(from_process, key);
  for (;;) {
    if (auto early = g_early.find(wanted); early != g_early.end()) {
      std::string bytes = std::move(early->second);
      g_early.erase(early);
      return bytes;
    }
    MPI_Status status;
    MPI_Probe(int(from_process), 0, g_data, &status);
    int length = 0;
    MPI_Get_count(&status, MPI_CHAR, &length);
    std::string message(size_t(length), '\0');
    MPI_Recv(message.data(), length, MPI_CHAR, int(from_process), 0, g_data, MPI_STATUS_IGNORE);
    uint32_t key_length = 0;
    std::memcpy(&key_length, message.data(), sizeof key_length);
    g_early.emplace(std::make_pair(from_process, message.substr(sizeof key_length, key_length)),
                    message.substr(sizeof key_length + key_length));
  }
}

bool enabled() { return ns3::MpiInterface::IsEnabled(); }

uint32_t process() { return enabled() ? ns3::MpiInterface::GetSystemId() : 0; }

uint32_t processes() { return enabled() ? ns3::MpiInterface::GetSize() : 1; }

std::vector<std::string> gather(const std::string& mine) {
  if (!enabled()) return {mine};
  MPI_Comm world = ns3::MpiInterface::GetCommunicator();
  const int count = static_cast<int>(processes());
  const int length = static_cast<int>(mine.size());
  std::vector<int> lengths(size_t(count), 0);
  MPI_Gather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, 0, world);
  std::vector<int> offsets(size_t(count), 0);
  int total = 0;
  for (int p = 0; p < count; ++p) {
    offsets[size_t(p)] = total;
    total += lengths[size_t(p)];
  }
  std::string all(size_t(process() == 0 ? total : 0), '\0');
  MPI_Gatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR,
              0, world);
  if (process() != 0) return {};
  std::vector<std::string> parts;
  for (int p = 0; p < count; ++p) parts.push_back(all.substr(size_t(offsets[size_t(p)]), size_t(lengths[size_t(p)])));
  return parts;
}

int64_t max_over_processes(int64_t mine) {
  if (!enabled()) return mine;
  int64_t largest = mine;
  MPI_Allreduce(&mine, &largest, 1, MPI_INT64_T, MPI_MAX, ns3::MpiInterface::GetCommunicator());
  return largest;
}

void finish() {
  if (!enabled()) return;
  // A value whose message never arrived (a run that ended early) is not waited for.
  for (auto& posted : g_posted) {
    MPI_Cancel(&posted->request);
    MPI_Wait(&posted->request, MPI_STATUS_IGNORE);
  }
  g_posted.clear();
  if (g_data != MPI_COMM_NULL) MPI_Comm_free(&g_data);
  ns3::MpiInterface::Disable();
}

#else

bool available() { return false; }

std::string why_unavailable() {
  return "this build's ns-3 has no mpi module (Debian's package has none), so a run cannot be "
         "split across processes: build ns-3 with it (scripts/build.sh --ns3 source) and use "
         "that build's uniference";
}

void enable(int*, char***) { throw std::runtime_error(why_unavailable()); }

bool enabled() { return false; }
uint32_t process() { return 0; }
uint32_t processes() { return 1; }
std::vector<std::string> gather(const std::string& mine) { return {mine}; }
int64_t max_over_processes(int64_t mine) { return mine; }
void finish() {}
void post(uint32_t, const std::string&, const std::string&) { throw std::runtime_error(why_unavailable()); }
std::string take(uint32_t, const std::string&) { throw std::runtime_error(why_unavailable()); }

#endif

}  // namespace uniference::distributed
