/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef DIRECT_COLLECTIVES_H
#define DIRECT_COLLECTIVES_H

#include "scheduled-collective.h"

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief Base of the collectives whose messages go straight from the participant holding the
 * data to the one that needs it: one hop, no forwarding, as Gloo does several operations and
 * as NCCL exchanges all-to-all. Reductions are summed in index order, from a scratch copy of
 * every contribution, so every participant computes the same values.
 */
class DirectCollective : public ScheduledCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \param operation the operation
     */
    explicit DirectCollective(std::string operation);

  protected:
    /**
     * \brief Add the steps that sum n scratch slots, in index order, into a region.
     * \param program the program
     * \param into the region
     * \param slot the scratch slot of each participant, of into's size
     * \param after what the sum waits for
     * \return the last step
     */
    static CollectiveProgram::Step AddOrderedSum(CollectiveProgram& program,
                                                 const CollectiveProgram::Region& into,
                                                 const std::vector<CollectiveProgram::Region>& slot,
                                                 const std::vector<CollectiveProgram::Step>& after);
    /**
     * \brief One SCRATCH slot per participant, asked for from the program.
     * \param program the program
     * \param count elements of a slot
     * \return the slots, in participant order
     */
    std::vector<CollectiveProgram::Region> AddSlots(CollectiveProgram& program, uint64_t count) const;
    /// \return the largest number of sends a participant has in flight; 0 for no limit
    uint32_t GetWindow() const;

  private:
    uint32_t m_window; //!< Window attribute
};

/**
 * \ingroup uniference
 * \brief One-shot all-reduce: every participant sends its whole buffer to every other and sums all contributions in index order.
 */
class DirectAllReduce : public DirectCollective
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
    DirectAllReduce();

  protected:
    void BuildProgram(uint32_t index, CollectiveProgram& program) const override;
};

/**
 * \ingroup uniference
 * \brief Reduce-scatter in one round: block j of every input goes straight to participant j, which sums them in index order.
 */
class DirectReduceScatter : public DirectCollective
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
    DirectReduceScatter();

  protected:
    void BuildProgram(uint32_t index, CollectiveProgram& program) const override;
};

/**
 * \ingroup uniference
 * \brief All-gather in one round: every participant sends its block to every other.
 */
class DirectAllGather : public DirectCollective
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
    DirectAllGather();

  protected:
    void BuildProgram(uint32_t index, CollectiveProgram& program) const override;
};

/**
 * \ingroup uniference
 * \brief All-to-all in one round: participant i sends block j to j, to i + 1 first, at most Window sends in flight.
 */
class DirectAllToAll : public DirectCollective
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
    DirectAllToAll();

  protected:
    void BuildProgram(uint32_t index, CollectiveProgram& program) const override;
};

/**
 * \ingroup uniference
 * \brief Pairwise all-to-all: in step k participant i sends to i + k and receives from i - k, one step after the other.
 */
class PairwiseAllToAll : public DirectCollective
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
    PairwiseAllToAll();

  protected:
    void BuildProgram(uint32_t index, CollectiveProgram& program) const override;
};

/**
 * \ingroup uniference
 * \brief Broadcast by the root sending its whole buffer to each participant in turn.
 */
class DirectBroadcast : public DirectCollective
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
    DirectBroadcast();

  protected:
    void BuildProgram(uint32_t index, CollectiveProgram& program) const override;
};

/**
 * \ingroup uniference
 * \brief Reduce by every participant sending its buffer to the root, which sums them in index order.
 */
class DirectReduce : public DirectCollective
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
    DirectReduce();

  protected:
    void BuildProgram(uint32_t index, CollectiveProgram& program) const override;
};

/**
 * \ingroup uniference
 * \brief Gather by every participant sending its block to the root.
 */
class DirectGather : public DirectCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    DirectGather();

  protected:
    void BuildProgram(uint32_t index, CollectiveProgram& program) const override;
};

/**
 * \ingroup uniference
 * \brief Scatter by the root sending each participant its block.
 */
class DirectScatter : public DirectCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    DirectScatter();

  protected:
    void BuildProgram(uint32_t index, CollectiveProgram& program) const override;
};

/**
 * \ingroup uniference
 * \brief Gather of different sizes (gather_v): participant j sends its SetSplits count
 * straight to the root, which places each in its output in index order. Every participant's
 * splits hold every participant's count; without splits the blocks are equal, as a gather's.
 */
class DirectGatherV : public DirectCollective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();
    DirectGatherV();

  protected:
    void BuildProgram(uint32_t index, CollectiveProgram& program) const override;
};

} // namespace ns3

#endif /* DIRECT_COLLECTIVES_H */
