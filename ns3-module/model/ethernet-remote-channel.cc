/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

// Built only where ns-3 has its mpi module (NS3_MPI): elsewhere this file is empty, and
// SwitchedStarHelper refuses to cut a network.
#ifdef NS3_MPI

#include "ethernet-remote-channel.h"

#include "ethernet-net-device.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"
#include "ns3/node.h"
#include "ns3/packet.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("EthernetRemoteChannel");

NS_OBJECT_ENSURE_REGISTERED(EthernetRemoteChannel);

TypeId
EthernetRemoteChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::EthernetRemoteChannel")
                            .SetParent<EthernetChannel>()
                            .SetGroupName("Uniference")
                            .AddConstructor<EthernetRemoteChannel>();
    return tid;
}

bool
EthernetRemoteChannel::Attach(Ptr<EthernetNetDevice> device)
{
    if (!EthernetChannel::Attach(device))
    {
        return false;
    }
    if (GetNDevices() == 2)
    {
        Prepare();
    }
    return true;
}

void
EthernetRemoteChannel::Prepare()
{
    NS_ABORT_MSG_UNLESS(MpiInterface::IsEnabled(),
                        "EthernetRemoteChannel: a cable between processes needs "
                        "MpiInterface::Enable before the network is built");
    NS_ABORT_MSG_UNLESS(GetDelay() > Time(0),
                        "EthernetRemoteChannel: a cable between processes needs a delay (the "
                        "lookahead); this one has none");
    for (std::size_t end = 0; end < 2; ++end)
    {
        Ptr<EthernetNetDevice> device = DynamicCast<EthernetNetDevice>(GetDevice(end));
        NS_ABORT_MSG_UNLESS(device->GetFrameTime(0) >= NanoSeconds(1),
                            "EthernetRemoteChannel: a cable between processes needs frames that "
                            "take a nanosecond on the wire; node "
                                << device->GetNode()->GetId()
                                << "'s end sends a minimal frame faster");
        if (device->GetNode()->GetSystemId() != MpiInterface::GetSystemId())
        {
            continue;
        }
        // ns-3's MPI interface hands a message to the MpiReceiver of its node and interface.
        Ptr<MpiReceiver> receiver = device->GetObject<MpiReceiver>();
        if (!receiver)
        {
            receiver = CreateObject<MpiReceiver>();
            device->AggregateObject(receiver);
        }
        receiver->SetReceiveCallback(MakeCallback(&EthernetRemoteChannel::Receive, this).Bind(end));
    }
}

bool
EthernetRemoteChannel::CrossesProcesses() const
{
    return GetNDevices() == 2 &&
           GetDevice(0)->GetNode()->GetSystemId() != GetDevice(1)->GetNode()->GetSystemId();
}

void
EthernetRemoteChannel::Transmit(Ptr<Packet> frame,
                                const EthernetNetDevice* sender,
                                Time serialization) const
{
    Ptr<EthernetNetDevice> receiver = GetPeer(sender);
    if (!receiver || receiver->GetNode()->GetSystemId() == MpiInterface::GetSystemId())
    {
        EthernetChannel::Transmit(frame, sender, serialization);
        return;
    }
    MpiInterface::SendPacket(frame,
                             Simulator::Now() + GetDelay(),
                             receiver->GetNode()->GetId(),
                             receiver->GetIfIndex());
}

void
EthernetRemoteChannel::Receive(std::size_t end, Ptr<Packet> frame)
{
    Ptr<EthernetNetDevice> receiver = DynamicCast<EthernetNetDevice>(GetDevice(end));
    Arrive(receiver, frame, GetPeer(PeekPointer(receiver))->GetFrameTime(frame->GetSize()));
}

} // namespace ns3

#endif // NS3_MPI
