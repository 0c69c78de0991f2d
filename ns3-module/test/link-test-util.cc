/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "link-test-util.h"

#include "ns3/callback.h"
#include "ns3/net-device.h"
#include "ns3/simulator.h"

namespace ns3
{
namespace tests
{

LinkProbe::LinkProbe(NetDeviceContainer devices)
    : m_devices(devices)
{
    m_devices.Get(1)->TraceConnectWithoutContext("MacRx", MakeCallback(&LinkProbe::Arrive, this));
}

void
LinkProbe::SendAt(Time at, uint32_t size)
{
    Simulator::Schedule(at - Simulator::Now(), &LinkProbe::Send, this, size);
}

void
LinkProbe::Send(uint32_t size)
{
    Ptr<Packet> packet = Create<Packet>(size);
    m_byUid[packet->GetUid()].sent = Simulator::Now();
    m_devices.Get(0)->Send(packet, m_devices.Get(1)->GetAddress(), 0x0800);
}

void
LinkProbe::Arrive(Ptr<const Packet> packet)
{
    m_byUid[packet->GetUid()].arrived = Simulator::Now();
}

std::vector<LinkProbe::Record>
LinkProbe::Records() const
{
    std::vector<Record> records;
    for (const auto& [uid, record] : m_byUid)
    {
        records.push_back(record);
    }
    return records; // uids grow with creation, so this is send order
}

} // namespace tests
} // namespace ns3
