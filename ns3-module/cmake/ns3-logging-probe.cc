// Prints a log line if, and only if, the ns-3 this program links was built with logging
// compiled in: Simulator::Destroy logs its call at LOG_FUNCTION. ns3-build-facts.cmake runs it
// at configure time, because the installed ns-3 records the fact nowhere else.
#include <ns3/log.h>
#include <ns3/simulator.h>

int main() {
  ns3::LogComponentEnable("Simulator", ns3::LOG_LEVEL_FUNCTION);
  ns3::Simulator::Destroy();
  return 0;
}
