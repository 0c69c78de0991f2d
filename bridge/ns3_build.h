// Which ns-3 this program runs on: Debian's packaged 3.37 (logging compiled in, no MPI) or
// the release build of scripts/build-ns3.sh (logging compiled out, MPI). Results are the same
// on both; speed and ns-3's distributed engine are not, so `uniference --version` says which.
#pragma once

#include <string>

namespace uniference {

struct Ns3Build {
  std::string version;  // the version find_package found when this program was built
  std::string library;  // ns-3's core library as the dynamic loader loaded it
  bool logging;         // NS_LOG compiled in (NS3_LOG_ENABLE)
  bool mpi;             // the ns-3 it was built against has the mpi module
};

Ns3Build ns3_build();

// Several lines, for --version: the version, the library, logging, MPI.
std::string describe(const Ns3Build& build);

// The same on one line, for a report's setup.
std::string describe_briefly(const Ns3Build& build);

}  // namespace uniference
