/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "ib-channel.h"

#include "ib-net-device.h"

#include "ns3/abort.h"
#include "ns3/log.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbChannel");

NS_OBJECT_ENSURE_REGISTERED(IbChannel);

TypeId
IbChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbChannel")
                            .SetParent<Channel>()
                            .SetGroupName("Uniference")
                            .AddConstructor<IbChannel>()
                            .AddAttribute("Delay",
                                          "Propagation delay of the cable, each direction.",
                                          TimeValue(NanoSeconds(100)),
                                          MakeTimeAccessor(&IbChannel::m_delay),
                                          MakeTimeChecker(Time(0)));
    return tid;
}

IbChannel::IbChannel()
    : m_attached(0)
{
}

void
IbChannel::Attach(Ptr<IbNetDevice> device)
{
    NS_LOG_FUNCTION(this << device);
    NS_ABORT_MSG_IF(m_attached == 2, "IbChannel: a cable has two ends, both are in use");
    m_ends[m_attached++] = device;
}

Ptr<IbNetDevice>
IbChannel::GetPeer(Ptr<const IbNetDevice> device) const
{
    if (m_attached < 2)
    {
        return nullptr;
    }
    return m_ends[0] == device ? m_ends[1] : m_ends[0];
}

Time
IbChannel::GetDelay() const
{
    return m_delay;
}

void
IbChannel::PrepareEnd(Ptr<IbNetDevice> /* end */)
{
}

bool
IbChannel::IsRemote(Ptr<const IbNetDevice> /* end */) const
{
    return false;
}

void
IbChannel::CarryPacket(const IbNetDevice* /* from */,
                       const IbPacket& /* packet */,
                       int64_t /* handOverPs */)
{
    NS_ABORT_MSG("IbChannel: both ends of this cable are in this process");
}

void
IbChannel::CarryCredits(const IbNetDevice* /* from */,
                        int64_t /* startPs */,
                        int64_t /* arrivalPs */,
                        uint8_t /* vl */,
                        int64_t /* freedTotal */,
                        bool /* merge */)
{
    NS_ABORT_MSG("IbChannel: both ends of this cable are in this process");
}

std::size_t
IbChannel::GetNDevices() const
{
    return m_attached;
}

Ptr<NetDevice>
IbChannel::GetDevice(std::size_t i) const
{
    NS_ABORT_MSG_UNLESS(i < m_attached, "IbChannel: no device " << i);
    return m_ends[i];
}

void
IbChannel::DoDispose()
{
    m_ends[0] = nullptr;
    m_ends[1] = nullptr;
    Channel::DoDispose();
}

} // namespace ns3
