/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef CHAIN_COLLECTIVES_H
#define CHAIN_COLLECTIVES_H

#include "scheduled-collective.h"

namespace ns3
{

/**
 * \ingroup uniference
 * \brief Pipelined chain broadcast, NCCL's ring broadcast: the data leaves the root in ChunkBytes pieces and each participant forwards a piece to the next as soon as it has it.
 */
class RingBroadcast : public ScheduledCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \brief This schedule's time over uncongested links (CollectiveRegistry's alpha-beta
     * model, which presets such as `auto` compare).
     * \param bytes the operation's size S
     * \param n the group size
     * \param link the path's alpha and beta
     * \return seconds
     */
    static double AlphaBetaSeconds(uint64_t bytes, uint32_t n, const AlphaBeta& link);
    RingBroadcast();

  protected:
    void BuildProgram(uint32_t index, CollectiveProgram& program) const override;

  private:
    uint64_t m_chunkBytes; //!< ChunkBytes attribute
};

/**
 * \ingroup uniference
 * \brief Pipelined chain reduce, NCCL's ring reduce: pieces start at the participant after the root, and each participant adds its own to a piece and passes it on, the root last.
 */
class RingReduce : public ScheduledCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \brief This schedule's time over uncongested links (CollectiveRegistry's alpha-beta
     * model, which presets such as `auto` compare).
     * \param bytes the operation's size S
     * \param n the group size
     * \param link the path's alpha and beta
     * \return seconds
     */
    static double AlphaBetaSeconds(uint64_t bytes, uint32_t n, const AlphaBeta& link);
    RingReduce();

  protected:
    void BuildProgram(uint32_t index, CollectiveProgram& program) const override;

  private:
    uint64_t m_chunkBytes; //!< ChunkBytes attribute
};

} // namespace ns3

#endif /* CHAIN_COLLECTIVES_H */
