/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef BARRIER_H
#define BARRIER_H

#include "scheduled-collective.h"

namespace ns3
{

/**
 * \ingroup uniference
 * \brief Dissemination barrier: in round k participant i sends an empty message to i + 2^k and
 * waits for one from i - 2^k; after ceil(log2 n) rounds everybody has heard, through some chain,
 * from everybody.
 */
class Barrier : public ScheduledCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    Barrier();

    /// \return the number of rounds, ceil(log2 n); Setup must have run
    uint32_t GetRounds() const;

  protected:
    void BuildProgram(uint32_t index, CollectiveProgram& program) const override;
};

} // namespace ns3

#endif /* BARRIER_H */
