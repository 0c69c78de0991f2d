#include "bridge/wan_models.h"

#include <ns3/nstime.h>

namespace uniference {

namespace {

// Sub-THz links lose their beam to people and vehicles crossing it. Measured mmWave and
// sub-THz blockages come about every few seconds in busy places, last some hundreds of
// milliseconds, and the beam takes tens of milliseconds to find again.
FadeConfig human_blockage() {
  FadeConfig fade;
  fade.mean_clear_s = 2.0;
  fade.mean_fade_s = 0.3;
  fade.rate_factor = 0;
  fade.recovery = ns3::MilliSeconds(20);
  return fade;
}

}  // namespace

const NamedRegistry<WanModel>& wan_models() {
  static const NamedRegistry<WanModel> registry(
      "wide-area link model",
      {
          {"fixed", "a constant delay (Attribute Delay), as a terrestrial long-haul link",
           "ns3::FixedDelayCondition", {{"Delay", "10ms"}}, std::nullopt},
          {"leo",
           "a low-Earth-orbit bent pipe: delay from the slant range over a pass (Altitude "
           "550 km, MinElevation 25, MaxElevation 90, PassTime), a handover every "
           "HandoverInterval (15 s) with HandoverOutage and HandoverDelayStep",
           "ns3::LeoPassCondition", {}, std::nullopt},
          {"geo",
           "a geostationary bent pipe: two slant ranges to 35,786 km at Elevation (90: "
           "238.7 ms one way)",
           "ns3::GeoCondition", {}, std::nullopt},
          {"thz",
           "a sub-THz beam: a short fixed Delay (33 ns, 10 m) and human blockage (a fade every "
           "2 s on average, 0.3 s long, the link out, 20 ms of beam recovery)",
           "ns3::FixedDelayCondition", {{"Delay", "33ns"}}, human_blockage()},
          {"trace",
           "a measured link replayed from a CSV file (Attribute File: time_s,delay_ms,"
           "rate_mbps; rate 0 is an outage)",
           "ns3::TraceCondition", {}, std::nullopt, true},
      });
  return registry;
}

}  // namespace uniference
