/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "fault-error-model.h"

#include "ns3/log.h"
#include "ns3/packet.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("FaultErrorModel");

NS_OBJECT_ENSURE_REGISTERED(FaultErrorModel);

TypeId
FaultErrorModel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::FaultErrorModel")
            .SetParent<ErrorModel>()
            .SetGroupName("Uniference")
            .AddConstructor<FaultErrorModel>()
            .AddAttribute("Inner",
                          "The error model that decides outside the fault windows (the one "
                          "the device had before); null: nothing is lost there.",
                          PointerValue(),
                          MakePointerAccessor(&FaultErrorModel::m_inner),
                          MakePointerChecker<ErrorModel>())
            .AddTraceSource("Drop",
                            "A packet a fault window lost, and the window's index.",
                            MakeTraceSourceAccessor(&FaultErrorModel::m_dropTrace),
                            "ns3::FaultErrorModel::DropCallback");
    return tid;
}

FaultErrorModel::FaultErrorModel()
    : m_uniform(CreateObject<UniformRandomVariable>())
{
}

uint32_t
FaultErrorModel::AddWindow(Time start, Time end, double loss)
{
    NS_LOG_FUNCTION(this << start << end << loss);
    NS_ABORT_MSG_UNLESS(start <= end, "a fault window must not end before it starts");
    NS_ABORT_MSG_UNLESS(loss > 0 && loss <= 1, "a fault window's loss must be in (0, 1]");
    m_windows.push_back({start, end, loss, 0});
    return uint32_t(m_windows.size() - 1);
}

uint64_t
FaultErrorModel::GetDrops(uint32_t window) const
{
    return m_windows.at(window).drops;
}

int64_t
FaultErrorModel::AssignStreams(int64_t stream)
{
    NS_LOG_FUNCTION(this << stream);
    m_uniform->SetStream(stream);
    return 1;
}

bool
FaultErrorModel::DoCorrupt(Ptr<Packet> p)
{
    const Time now = Simulator::Now();
    for (uint32_t i = 0; i < m_windows.size(); ++i)
    {
        Window& window = m_windows[i];
        if (now < window.start || now >= window.end)
        {
            continue;
        }
        // A whole outage draws nothing, so adding one leaves the other windows' draws as
        // they were.
        if (window.loss >= 1 || m_uniform->GetValue() < window.loss)
        {
            ++window.drops;
            m_dropTrace(p, i);
            return true;
        }
    }
    return m_inner && m_inner->IsCorrupt(p);
}

void
FaultErrorModel::DoReset()
{
    NS_LOG_FUNCTION(this);
    if (m_inner)
    {
        m_inner->Reset();
    }
}

} // namespace ns3
