#include "bridge/ns3_build.h"

#include <ns3/simulator.h>

#include <link.h>

#include <cstring>
#include <sstream>

namespace uniference {
namespace {

// The loaded object whose file name names ns-3's core library. Read from the loader's own
// list rather than from the build: a library of the same soname in the system's folders
// (Debian's package and the source build share sonames) would otherwise go unnoticed.
std::string loaded_core_library() {
  std::string found;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* out) {
        const char* name = info->dlpi_name;
        if (name != nullptr && std::strstr(name, "libns3") != nullptr &&
            std::strstr(name, "core") != nullptr) {
          *static_cast<std::string*>(out) = name;
          return 1;
        }
        return 0;
      },
      &found);
  return found;
}

}  // namespace

Ns3Build ns3_build() {
  // Referencing the simulator keeps the core library a direct dependency of every program
  // that asks, whatever --as-needed would drop.
  (void)&ns3::Simulator::Now;
#ifdef NS3_LOG_ENABLE
  const bool logging = true;
#else
  const bool logging = false;
#endif
  return {UNIFERENCE_NS3_VERSION, loaded_core_library(), logging, UNIFERENCE_NS3_MPI != 0};
}

std::string describe(const Ns3Build& build) {
  std::ostringstream out;
  out << "ns-3 " << build.version << "\n"
      << "  library: " << (build.library.empty() ? "(not loaded)" : build.library) << "\n"
      << "  logging: " << (build.logging ? "compiled in (NS_LOG)" : "compiled out") << "\n"
      << "  MPI:     " << (build.mpi ? "yes (ns-3's distributed engine)" : "no") << "\n";
  return out.str();
}

std::string describe_briefly(const Ns3Build& build) {
  return "ns-3 " + build.version + " (" + (build.library.empty() ? "not loaded" : build.library) +
         "; logging " + (build.logging ? "compiled in" : "compiled out") + "; " +
         (build.mpi ? "MPI" : "no MPI") + ")";
}

}  // namespace uniference
