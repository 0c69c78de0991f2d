/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RING_ALL_REDUCE_H
#define RING_ALL_REDUCE_H

#include "ring-collective.h"

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief Ring all-reduce: a reduce-scatter followed by an all-gather around the ring.
 *
 * The buffer of S bytes is split into n chunks of about S/n (Collective::GetChunkBytes).
 * Participant i always sends to (i + 1) % n; in each of the 2(n - 1) steps it sends one chunk:
 * during the reduce-scatter (steps 0 .. n-2) the partial sum it has just reduced, during the
 * all-gather the fully reduced chunks. Step s + 1 of participant i waits until i has entered
 * and has received the chunk of step s from (i - 1) % n. A participant is complete when it has
 * received its last chunk. With one participant the operation completes on Enter. With the
 * ChunkBytes attribute each step travels in pieces that are forwarded as they arrive (see
 * RingCollective).
 *
 * Registered with CollectiveHelper as all_reduce/ring.
 */
class RingAllReduce : public RingCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RingAllReduce();
    ~RingAllReduce() override;

    double GetBusBandwidthFactor() const override;

  protected:
    /// \return 2(n - 1)
    uint32_t GetStepCount() const override;
    uint64_t GetStepBytes(uint32_t index, uint32_t step) const override;
};

} // namespace ns3

#endif /* RING_ALL_REDUCE_H */
