/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef HIERARCHICAL_COLLECTIVES_H
#define HIERARCHICAL_COLLECTIVES_H

#include "ring-collectives.h"

namespace ns3
{

/**
 * \ingroup uniference
 * \brief Two-level all-reduce for servers of LocalSize participants (participant i on server
 * i / LocalSize): a ring reduce-scatter inside each server, a ring all-reduce of each
 * participant's reduced block among the participants of the same local index on every server,
 * and a ring all-gather inside each server. Only 1 / LocalSize of the buffer crosses servers
 * per participant.
 */
class HierarchicalAllReduce : public RingCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    HierarchicalAllReduce();

  protected:
    void BuildProgram(uint32_t index, CollectiveProgram& program) const override;

  private:
    uint32_t m_localSize; //!< LocalSize attribute
};

/**
 * \ingroup uniference
 * \brief Two-hop all-to-all for servers of LocalSize participants: each participant first hands
 * a local peer everything bound for that peer's counterparts (the same local index) on every
 * server, then each sends one aggregated message per remote server to its counterpart there.
 * Fewer, larger messages cross the servers' links than in a direct exchange.
 */
class HierarchicalAllToAll : public ScheduledCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    HierarchicalAllToAll();

    /// \return false: the two-hop exchange packs equal blocks per server
    bool TakesUnevenSplits() const override;

  protected:
    void BuildProgram(uint32_t index, CollectiveProgram& program) const override;

  private:
    uint32_t m_localSize; //!< LocalSize attribute
};

} // namespace ns3

#endif /* HIERARCHICAL_COLLECTIVES_H */
