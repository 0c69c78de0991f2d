/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RING_ALL_GATHER_H
#define RING_ALL_GATHER_H

#include "collective.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief Ring all-gather.
 *
 * The output of S bytes is made of n chunks of about S/n (Collective::GetChunkBytes),
 * participant i contributing chunk i. Participant i sends to (i + 1) % n; in step t
 * (0 .. n-2) it sends chunk (i - t) % n: its own first, then each chunk it has just received.
 * Step t + 1 of participant i waits until i has entered and has received step t from
 * (i - 1) % n. A participant is complete when it has received n - 1 chunks. With one
 * participant the operation completes on Enter.
 */
class RingAllGather : public Collective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RingAllGather();
    ~RingAllGather() override;

    double GetBusBandwidthFactor() const override;

  protected:
    void DoSetup() override;
    void DoEnter(uint32_t index) override;
    void DoReceive(uint32_t index, uint32_t from, uint64_t cookie, uint64_t bytes) override;

  private:
    /**
     * Send every step a participant is ready for, and complete it once it has everything.
     * \param index the participant
     */
    void Advance(uint32_t index);
    /**
     * \param index a participant
     * \param step a step
     * \return the bytes the participant sends in that step
     */
    uint64_t StepBytes(uint32_t index, uint32_t step) const;

    uint32_t m_steps;                 //!< n - 1
    std::vector<uint32_t> m_sent;     //!< Steps each participant has sent
    std::vector<uint32_t> m_received; //!< Steps each participant has received
};

} // namespace ns3

#endif /* RING_ALL_GATHER_H */
