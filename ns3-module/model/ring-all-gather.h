/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RING_ALL_GATHER_H
#define RING_ALL_GATHER_H

#include "ring-collective.h"

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
 * participant the operation completes on Enter. With the ChunkBytes attribute each step travels
 * in pieces that are forwarded as they arrive (see RingCollective).
 *
 * Registered with CollectiveHelper as all_gather/ring.
 */
class RingAllGather : public RingCollective
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
    /// \return n - 1
    uint32_t GetStepCount() const override;
    uint64_t GetStepBytes(uint32_t index, uint32_t step) const override;
};

} // namespace ns3

#endif /* RING_ALL_GATHER_H */
