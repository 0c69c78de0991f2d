/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "rdma-congestion-control.h"

#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("RdmaCongestionControl");

NS_OBJECT_ENSURE_REGISTERED(RdmaCongestionControl);
NS_OBJECT_ENSURE_REGISTERED(IbCongestionControl);
NS_OBJECT_ENSURE_REGISTERED(Dcqcn);

TypeId
RdmaCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::RdmaCongestionControl")
            .SetParent<Object>()
            .SetGroupName("Uniference")
            .AddConstructor<RdmaCongestionControl>()
            .AddTraceSource("Rate",
                            "The rate the queue pair may inject at, in bit/s.",
                            MakeTraceSourceAccessor(&RdmaCongestionControl::m_rate),
                            "ns3::TracedValueCallback::Double");
    return tid;
}

RdmaCongestionControl::RdmaCongestionControl()
    : m_lineRate(0),
      m_rate(0)
{
}

RdmaCongestionControl::~RdmaCongestionControl() = default;

void
RdmaCongestionControl::DoDispose()
{
    Object::DoDispose();
}

void
RdmaCongestionControl::SetLineRate(DataRate lineRate)
{
    m_lineRate = static_cast<double>(lineRate.GetBitRate());
    m_rate = m_lineRate;
}

int64_t
RdmaCongestionControl::NextPacketGapPs(uint32_t /* wireBytes */, int64_t serialisationPs)
{
    return serialisationPs;
}

void
RdmaCongestionControl::OnCongestionNotification()
{
}

double
RdmaCongestionControl::GetRate() const
{
    return m_rate;
}

// InfiniBand congestion control

TypeId
IbCongestionControl::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::IbCongestionControl")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("Uniference")
            .AddConstructor<IbCongestionControl>()
            .AddAttribute("CctiIncrease",
                          "Table steps per BECN.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&IbCongestionControl::m_increase),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("CctiLimit",
                          "Highest table index.",
                          UintegerValue(127),
                          MakeUintegerAccessor(&IbCongestionControl::m_limit),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("CctiTimer",
                          "Period after which the index drops one step.",
                          TimeValue(MicroSeconds(10)),
                          MakeTimeAccessor(&IbCongestionControl::m_timer),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("IpdStep",
                          "Inter-packet delay per index step, in packet serialisation times.",
                          DoubleValue(0.1),
                          MakeDoubleAccessor(&IbCongestionControl::m_ipdStep),
                          MakeDoubleChecker<double>(0));
    return tid;
}

IbCongestionControl::IbCongestionControl()
    : m_ccti(0),
      m_increase(1),
      m_limit(127),
      m_ipdStep(0.1)
{
}

void
IbCongestionControl::DoDispose()
{
    m_recovery.Cancel();
    RdmaCongestionControl::DoDispose();
}

int64_t
IbCongestionControl::NextPacketGapPs(uint32_t /* wireBytes */, int64_t serialisationPs)
{
    return serialisationPs + static_cast<int64_t>(serialisationPs * m_ccti * m_ipdStep);
}

void
IbCongestionControl::OnCongestionNotification()
{
    m_ccti = std::min(m_ccti + m_increase, m_limit);
    UpdateRate();
    if (!m_recovery.IsRunning())
    {
        m_recovery = Simulator::Schedule(m_timer, &IbCongestionControl::Recover, this);
    }
}

void
IbCongestionControl::Recover()
{
    if (m_ccti > 0)
    {
        --m_ccti;
        UpdateRate();
    }
    if (m_ccti > 0)
    {
        m_recovery = Simulator::Schedule(m_timer, &IbCongestionControl::Recover, this);
    }
}

void
IbCongestionControl::UpdateRate()
{
    m_rate = m_lineRate / (1.0 + m_ccti * m_ipdStep);
}

uint32_t
IbCongestionControl::GetIndex() const
{
    return m_ccti;
}

// DCQCN

TypeId
Dcqcn::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::Dcqcn")
            .SetParent<RdmaCongestionControl>()
            .SetGroupName("Uniference")
            .AddConstructor<Dcqcn>()
            .AddAttribute("G",
                          "Gain of the congestion estimate alpha.",
                          DoubleValue(1.0 / 256),
                          MakeDoubleAccessor(&Dcqcn::m_g),
                          MakeDoubleChecker<double>(0, 1))
            .AddAttribute("AlphaTimer",
                          "Period of alpha's decay without CNPs.",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&Dcqcn::m_alphaTimer),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("RateTimer",
                          "Period of timer-driven rate increases.",
                          TimeValue(MicroSeconds(55)),
                          MakeTimeAccessor(&Dcqcn::m_rateTimer),
                          MakeTimeChecker(NanoSeconds(1)))
            .AddAttribute("ByteCounter",
                          "Bytes sent per byte-counter-driven rate increase.",
                          UintegerValue(10 * 1000 * 1000),
                          MakeUintegerAccessor(&Dcqcn::m_byteCounter),
                          MakeUintegerChecker<uint64_t>(1))
            .AddAttribute("FastRecoverySteps",
                          "Increases that halve the distance to the target before additive "
                          "increase starts.",
                          UintegerValue(5),
                          MakeUintegerAccessor(&Dcqcn::m_fastSteps),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("RateAi",
                          "Additive increase of the target rate.",
                          DataRateValue(DataRate("40Mbps")),
                          MakeDataRateAccessor(&Dcqcn::m_rateAi),
                          MakeDataRateChecker())
            .AddAttribute("RateHai",
                          "Hyper increase of the target rate.",
                          DataRateValue(DataRate("400Mbps")),
                          MakeDataRateAccessor(&Dcqcn::m_rateHai),
                          MakeDataRateChecker())
            .AddAttribute("MinRate",
                          "Lowest rate.",
                          DataRateValue(DataRate("100Mbps")),
                          MakeDataRateAccessor(&Dcqcn::m_minRate),
                          MakeDataRateChecker());
    return tid;
}

Dcqcn::Dcqcn()
    : m_g(1.0 / 256),
      m_alpha(1.0),
      m_target(0),
      m_byteCounter(10 * 1000 * 1000),
      m_fastSteps(5),
      m_bytesSinceStep(0),
      m_timerSteps(0),
      m_byteSteps(0)
{
}

void
Dcqcn::DoDispose()
{
    m_alphaEvent.Cancel();
    m_rateEvent.Cancel();
    RdmaCongestionControl::DoDispose();
}

void
Dcqcn::SetLineRate(DataRate lineRate)
{
    RdmaCongestionControl::SetLineRate(lineRate);
    m_target = m_lineRate;
}

int64_t
Dcqcn::NextPacketGapPs(uint32_t wireBytes, int64_t serialisationPs)
{
    if (m_rate >= m_lineRate)
    {
        return serialisationPs;
    }
    m_bytesSinceStep += wireBytes;
    if (m_bytesSinceStep >= m_byteCounter)
    {
        m_bytesSinceStep = 0;
        Increase(false);
    }
    return static_cast<int64_t>(wireBytes * 8e12 / m_rate);
}

void
Dcqcn::OnCongestionNotification()
{
    m_target = m_rate.Get();
    m_rate = std::max(m_rate.Get() * (1 - m_alpha / 2), static_cast<double>(m_minRate.GetBitRate()));
    m_alpha = (1 - m_g) * m_alpha + m_g;
    m_timerSteps = 0;
    m_byteSteps = 0;
    m_bytesSinceStep = 0;
    m_alphaEvent.Cancel();
    m_alphaEvent = Simulator::Schedule(m_alphaTimer, &Dcqcn::DecayAlpha, this);
    m_rateEvent.Cancel();
    m_rateEvent = Simulator::Schedule(m_rateTimer, &Dcqcn::TimerIncrease, this);
}

void
Dcqcn::DecayAlpha()
{
    m_alpha = (1 - m_g) * m_alpha;
    if (m_rate < m_lineRate)
    {
        m_alphaEvent = Simulator::Schedule(m_alphaTimer, &Dcqcn::DecayAlpha, this);
    }
}

void
Dcqcn::TimerIncrease()
{
    Increase(true);
    if (m_rate < m_lineRate)
    {
        m_rateEvent = Simulator::Schedule(m_rateTimer, &Dcqcn::TimerIncrease, this);
    }
}

void
Dcqcn::Increase(bool byTimer)
{
    (byTimer ? m_timerSteps : m_byteSteps)++;
    uint32_t stage = std::max(m_timerSteps, m_byteSteps);
    if (stage > m_fastSteps)
    {
        bool hyper = std::min(m_timerSteps, m_byteSteps) > m_fastSteps;
        m_target += static_cast<double>(hyper ? m_rateHai.GetBitRate() : m_rateAi.GetBitRate());
        m_target = std::min(m_target, m_lineRate);
    }
    m_rate = std::min((m_rate.Get() + m_target) / 2, m_lineRate);
}

double
Dcqcn::GetAlpha() const
{
    return m_alpha;
}

} // namespace ns3
