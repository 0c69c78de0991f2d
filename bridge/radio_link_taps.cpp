#include "bridge/radio_link_taps.h"

#include "bridge/link_sampler_state.h"
#include "bridge/node_names.h"

#include <ns3/he-configuration.h>
#include <ns3/lte-amc.h>
#include <ns3/lte-common.h>
#include <ns3/lte-enb-net-device.h>
#include <ns3/lte-enb-phy.h>
#include <ns3/lte-ue-net-device.h>
#include <ns3/lte-ue-phy.h>
#include <ns3/lte-ue-rrc.h>
#include <ns3/node-list.h>
#include <ns3/txop.h>
#include <ns3/wifi-mac-queue.h>
#include <ns3/wifi-mac.h>
#include <ns3/wifi-mode.h>
#include <ns3/wifi-net-device.h>
#include <ns3/wifi-phy.h>
#include <ns3/wifi-psdu.h>

#include <map>
#include <string>
#include <vector>

namespace uniference {

namespace {

using State = LinkSampler::State;
using link_taps::count;
using link_taps::tap_queue_discs;
using link_taps::queue_level;

// A Wi-Fi station's transmission into its cell: the PPDU's PSDUs (data, acknowledgements,
// MAC headers included) and its air time, preamble and PHY header included.
void wifi_tx(std::shared_ptr<State> state, size_t index, ns3::WifiPhyBand band,
             ns3::WifiConstPsduMap psdus, ns3::WifiTxVector tx_vector, double) {
  uint64_t bytes = 0;
  for (const auto& [station, psdu] : psdus) bytes += psdu->GetSize();
  state->packet(index, bytes, ns3::WifiPhy::CalculateTxDuration(psdus, tx_vector, band).GetPicoSeconds());
}

// The data rate a station sends its data frames at: its constant-rate manager's mode on its
// channel width and guard interval, one stream; 0 where the manager adapts its rate.
uint64_t wifi_data_rate(const ns3::Ptr<ns3::WifiNetDevice>& device) {
  ns3::WifiModeValue mode;
  if (!device->GetRemoteStationManager()->GetAttributeFailSafe("DataMode", mode)) return 0;
  const auto he = device->GetHeConfiguration();
  const uint16_t guard_ns = he ? uint16_t(he->GetGuardInterval().GetNanoSeconds()) : 800;
  return mode.Get().GetDataRate(device->GetPhy()->GetChannelWidth(), guard_ns, 1);
}

// The MAC's queues of a station, one per access category with QoS.
std::vector<ns3::Ptr<ns3::WifiMacQueue>> wifi_queues(const ns3::Ptr<ns3::WifiMac>& mac) {
  if (!mac->GetQosSupported()) return {mac->GetTxop()->GetWifiMacQueue()};
  std::vector<ns3::Ptr<ns3::WifiMacQueue>> queues;
  for (const ns3::AcIndex ac : {ns3::AC_BE, ns3::AC_BK, ns3::AC_VI, ns3::AC_VO}) queues.push_back(mac->GetTxopQueue(ac));
  return queues;
}

// One LTE cell: how many resource blocks each way it has, and the cell's downlink to each
// device, found by the RNTI the cell gave it when it attached (the PHY reports no IMSI).
struct LteCell {
  ns3::Ptr<ns3::LteAmc> amc;
  uint16_t ul_blocks = 0;
  uint16_t dl_blocks = 0;
  std::vector<std::pair<ns3::LteUeNetDevice*, size_t>> downlinks;  // raw: the devices outlive it
  std::map<uint16_t, size_t> downlink_of;                          // RNTI -> direction, as met

  long downlink(uint16_t rnti) {
    if (const auto found = downlink_of.find(rnti); found != downlink_of.end()) return long(found->second);
    for (const auto& [device, index] : downlinks) {
      if (device->GetRrc()->GetRnti() == rnti) return long(downlink_of[rnti] = index);
    }
    return -1;
  }
};

constexpr int kHighestMcs = 28;
constexpr int64_t kSubframePs = 1'000'000'000;  // 1 ms

// Resource blocks of a transport block of `bytes` at `mcs`: the fewest whose TB size (3GPP
// 36.213's table, as ns-3's LteAmc gives it) holds it.
int resource_blocks(const LteCell& cell, bool uplink, uint8_t mcs, uint16_t bytes) {
  const uint16_t blocks = uplink ? cell.ul_blocks : cell.dl_blocks;
  for (int n = 1; n <= blocks; ++n) {
    const int bits = uplink ? cell.amc->GetUlTbSizeFromMcs(mcs, n) : cell.amc->GetDlTbSizeFromMcs(mcs, n);
    if (bits / 8 >= bytes) return n;
  }
  return blocks;
}

// A transport block on the air: its bytes, and its resource blocks' share of the subframe.
void lte_block(State& state, const LteCell& cell, bool uplink, size_t index,
               const ns3::PhyTransmissionStatParameters& tb) {
  const int blocks = resource_blocks(cell, uplink, tb.m_mcs, tb.m_size);
  state.packet(index, tb.m_size, kSubframePs * blocks / (uplink ? cell.ul_blocks : cell.dl_blocks));
}

void lte_uplink(std::shared_ptr<State> state, std::shared_ptr<LteCell> cell, size_t index,
                ns3::PhyTransmissionStatParameters tb) {
  lte_block(*state, *cell, true, index, tb);
}

void lte_downlink(std::shared_ptr<State> state, std::shared_ptr<LteCell> cell,
                  ns3::PhyTransmissionStatParameters tb) {
  const long index = cell->downlink(tb.m_rnti);
  if (index >= 0) lte_block(*state, *cell, false, size_t(index), tb);
}

uint64_t lte_peak_bps(const LteCell& cell, bool uplink) {
  const int bits = uplink ? cell.amc->GetUlTbSizeFromMcs(kHighestMcs, cell.ul_blocks)
                          : cell.amc->GetDlTbSizeFromMcs(kHighestMcs, cell.dl_blocks);
  return uint64_t(bits) * 1000;  // one transport block per 1 ms subframe
}

}  // namespace

void tap_wifi_stations(const std::shared_ptr<State>& state) {
  using Packet = ns3::Ptr<const ns3::Packet>;
  constexpr auto drops = &State::Direction::drops;
  for (uint32_t n = 0; n < ns3::NodeList::GetNNodes(); ++n) {
    const ns3::Ptr<ns3::Node> node = ns3::NodeList::GetNode(n);
    for (uint32_t d = 0; d < node->GetNDevices(); ++d) {
      const auto wifi = ns3::DynamicCast<ns3::WifiNetDevice>(node->GetDevice(d));
      if (!wifi) continue;
      State::Direction direction;
      direction.name = node_name(node) + " -> wifi";
      direction.rate_bps = wifi_data_rate(wifi);
      const size_t index = state->directions.size();
      state->directions.push_back(std::move(direction));
      wifi->GetPhy()->TraceConnectWithoutContext(
          "PhyTxPsduBegin", ns3::MakeBoundCallback(&wifi_tx, state, index, wifi->GetPhy()->GetPhyBand()));
      // Dropped: a full queue, or the retry limit reached.
      wifi->GetMac()->TraceConnectWithoutContext("MacTxDrop", ns3::MakeBoundCallback(&count<drops, Packet>, state, index));
      wifi->GetMac()->TraceConnectWithoutContext(
          "DroppedMpdu", ns3::MakeBoundCallback(&count<drops, ns3::WifiMacDropReason, ns3::Ptr<const ns3::WifiMpdu>>, state, index));
      for (const auto& queue : wifi_queues(wifi->GetMac())) {
        queue->TraceConnectWithoutContext("BytesInQueue", ns3::MakeBoundCallback(&queue_level, state, index));
      }
      tap_queue_discs(state, index, wifi);
    }
  }
}

void tap_lte_cells(const std::shared_ptr<State>& state) {
  std::vector<ns3::Ptr<ns3::LteUeNetDevice>> devices;
  std::vector<ns3::Ptr<ns3::LteEnbNetDevice>> cells;
  for (uint32_t n = 0; n < ns3::NodeList::GetNNodes(); ++n) {
    const ns3::Ptr<ns3::Node> node = ns3::NodeList::GetNode(n);
    for (uint32_t d = 0; d < node->GetNDevices(); ++d) {
      if (auto ue = ns3::DynamicCast<ns3::LteUeNetDevice>(node->GetDevice(d))) devices.push_back(ue);
      if (auto enb = ns3::DynamicCast<ns3::LteEnbNetDevice>(node->GetDevice(d))) cells.push_back(enb);
    }
  }
  // One cell is what the topologies build; with several, a device is counted in the first.
  for (const auto& enb : cells) {
    auto cell = std::make_shared<LteCell>();
    cell->amc = ns3::CreateObject<ns3::LteAmc>();
    cell->ul_blocks = enb->GetUlBandwidth();
    cell->dl_blocks = enb->GetDlBandwidth();
    const std::string enb_name = node_name(enb->GetNode());
    for (const auto& ue : devices) {
      const std::string ue_name = node_name(ue->GetNode());
      State::Direction up;
      up.name = ue_name + " -> " + enb_name;
      up.rate_bps = lte_peak_bps(*cell, true);
      ue->GetPhy()->TraceConnectWithoutContext(
          "UlPhyTransmission", ns3::MakeBoundCallback(&lte_uplink, state, cell, state->directions.size()));
      state->directions.push_back(std::move(up));
      State::Direction down;
      down.name = enb_name + " -> " + ue_name;
      down.rate_bps = lte_peak_bps(*cell, false);
      cell->downlinks.emplace_back(ns3::PeekPointer(ue), state->directions.size());
      state->directions.push_back(std::move(down));
    }
    enb->GetPhy()->TraceConnectWithoutContext("DlPhyTransmission", ns3::MakeBoundCallback(&lte_downlink, state, cell));
    devices.clear();
  }
}

}  // namespace uniference
