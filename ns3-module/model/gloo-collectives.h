/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef GLOO_COLLECTIVES_H
#define GLOO_COLLECTIVES_H

#include "scheduled-collective.h"

namespace ns3
{

/**
 * \ingroup uniference
 * \brief All-reduce as Gloo's ring runs it (gloo/allreduce.cc, ring): the buffer cut into a multiple of n segments of at most SegmentBytes (at least two per participant), a reduce-scatter and then an all-gather that send to the previous participant and receive from the next, with at most two sends and two receives in flight.
 */
class GlooAllReduce : public ScheduledCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    GlooAllReduce();

  protected:
    void BuildProgram(uint32_t index, CollectiveProgram& program) const override;

  private:
    uint64_t m_segmentBytes; //!< SegmentBytes attribute
};

/**
 * \ingroup uniference
 * \brief All-gather as Gloo runs it (gloo/allgather.cc): a ring towards the next participant that forwards every block in two halves, each send posted before its receive, with at most two sends and two receives in flight. With ReceiveFirst, two participants run GlooComm's exchange instead (as GlooAllToAll's).
 */
class GlooAllGather : public ScheduledCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    GlooAllGather();

  protected:
    void BuildProgram(uint32_t index, CollectiveProgram& program) const override;

  private:
    bool m_receiveFirst; //!< ReceiveFirst attribute
};

/**
 * \ingroup uniference
 * \brief Broadcast as Gloo runs it (gloo/broadcast.cc): a binomial tree in which every message is the whole buffer and a participant forwards to its children in increasing order of distance, once it has received all of it.
 */
class GlooBroadcast : public ScheduledCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    GlooBroadcast();

  protected:
    void BuildProgram(uint32_t index, CollectiveProgram& program) const override;
};

/**
 * \ingroup uniference
 * \brief All-to-all (and all-to-all-v) as Gloo runs it (gloo/alltoall.cc, alltoallv.cc): for k =
 * 1 ... n - 1, a send to i + k and then a receive from i - k, all posted before any wait, so on a
 * pair whose send goes first the peer's ready notice can queue behind data. With ReceiveFirst,
 * as the project's Gloo deployment runs it (GlooComm, compute/backends/gloo_comm.cpp): every
 * receive, from i - 1 first, before any send, to i + 1 first, so every ready notice leaves ahead
 * of the data; empty blocks are neither sent nor received.
 */
class GlooAllToAll : public ScheduledCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    GlooAllToAll();

  protected:
    void BuildProgram(uint32_t index, CollectiveProgram& program) const override;

  private:
    bool m_receiveFirst; //!< ReceiveFirst attribute
};

} // namespace ns3

#endif /* GLOO_COLLECTIVES_H */
