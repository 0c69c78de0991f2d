/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RDMA_CONGESTION_CONTROL_H
#define RDMA_CONGESTION_CONTROL_H

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/traced-value.h"

#include <cstdint>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief How fast one RDMA queue pair may inject: the base class sends at line rate and
 * ignores congestion notifications (congestion control off).
 *
 * RdmaMessageTransport asks, after each packet, how long until the queue pair may send the
 * next one, and reports every congestion notification packet (CNP, InfiniBand's BECN) that
 * comes back from the receiver. Subclasses keep their own state and timers; one instance per
 * queue pair.
 */
class RdmaCongestionControl : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RdmaCongestionControl();
    ~RdmaCongestionControl() override;

    /// \param lineRate the rate of the port the queue pair sends on
    virtual void SetLineRate(DataRate lineRate);

    /**
     * \brief A packet left; when may the next one?
     * \param wireBytes its size on the wire
     * \param serialisationPs its serialisation time at line rate, in ps
     * \return ps from this packet's start until the queue pair may start the next
     */
    virtual int64_t NextPacketGapPs(uint32_t wireBytes, int64_t serialisationPs);

    /// The receiver reported congestion on this queue pair's path.
    virtual void OnCongestionNotification();

    /// \return the rate the queue pair may inject at now, in bit/s
    double GetRate() const;

  protected:
    void DoDispose() override;

    double m_lineRate;             //!< Port rate, bit/s
    TracedValue<double> m_rate;    //!< Allowed rate, bit/s
};

/**
 * \ingroup uniference
 *
 * \brief InfiniBand congestion control (IBA annex A10), the source side.
 *
 * Every BECN raises the queue pair's congestion control table index (CCTI) by CctiIncrease,
 * up to CctiLimit; every CctiTimer without one lowers it by one. The table is linear: at index
 * i the queue pair waits i x IpdStep packet times between packets, so its rate is line rate /
 * (1 + i x IpdStep).
 */
class IbCongestionControl : public RdmaCongestionControl
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    IbCongestionControl();

    int64_t NextPacketGapPs(uint32_t wireBytes, int64_t serialisationPs) override;
    void OnCongestionNotification() override;

    /// \return the current table index
    uint32_t GetIndex() const;

  protected:
    void DoDispose() override;

  private:
    /// CctiTimer expired: recover one step.
    void Recover();
    /// Recompute the traced rate from the index.
    void UpdateRate();

    uint32_t m_ccti;         //!< Current index
    uint32_t m_increase;     //!< Steps per BECN
    uint32_t m_limit;        //!< Highest index
    Time m_timer;            //!< Recovery period
    double m_ipdStep;        //!< Inter-packet delay per index step, in packet times
    EventId m_recovery;      //!< Pending recovery
};

/**
 * \ingroup uniference
 *
 * \brief DCQCN (Zhu et al., SIGCOMM 2015), the reaction point: rate-based, for RoCE-style
 * comparison.
 *
 * On a CNP: the target rate takes the current rate, the current rate drops by a factor
 * (1 - alpha/2), and alpha moves towards 1 by G. Without CNPs, alpha decays by (1 - G) every
 * AlphaTimer, and the rate recovers every RateTimer or every ByteCounter bytes sent: first
 * FastRecoverySteps halvings of the distance to the target, then additive increase of the
 * target by RateAi, then hyper increase by RateHai. Defaults are the paper's.
 */
class Dcqcn : public RdmaCongestionControl
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    Dcqcn();

    void SetLineRate(DataRate lineRate) override;
    int64_t NextPacketGapPs(uint32_t wireBytes, int64_t serialisationPs) override;
    void OnCongestionNotification() override;

    /// \return alpha, the congestion estimate
    double GetAlpha() const;

  protected:
    void DoDispose() override;

  private:
    /// AlphaTimer expired without a CNP.
    void DecayAlpha();
    /// RateTimer expired.
    void TimerIncrease();
    /// One recovery step (timer or byte counter).
    void Increase(bool byTimer);

    double m_g;              //!< Alpha gain
    double m_alpha;          //!< Congestion estimate
    double m_target;         //!< Target rate, bit/s
    DataRate m_rateAi;       //!< Additive increase
    DataRate m_rateHai;      //!< Hyper increase
    DataRate m_minRate;      //!< Floor
    Time m_alphaTimer;       //!< Alpha decay period
    Time m_rateTimer;        //!< Rate increase period
    uint64_t m_byteCounter;  //!< Bytes per byte-counter increase
    uint32_t m_fastSteps;    //!< Fast-recovery steps
    uint64_t m_bytesSinceStep; //!< Bytes sent since the last byte-counter step
    uint32_t m_timerSteps;   //!< Timer steps since the last CNP
    uint32_t m_byteSteps;    //!< Byte-counter steps since the last CNP
    EventId m_alphaEvent;    //!< Pending alpha decay
    EventId m_rateEvent;     //!< Pending timer increase
};

} // namespace ns3

#endif /* RDMA_CONGESTION_CONTROL_H */
