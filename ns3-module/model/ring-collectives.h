/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RING_COLLECTIVES_H
#define RING_COLLECTIVES_H

#include "scheduled-collective.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief Base of the collectives that pass blocks around a ring, as NCCL's and Gloo's ring
 * algorithms do.
 *
 * A ring of m members; in each of m - 1 steps every member sends a block to the next and
 * receives one from the previous; a block a member forwards (after reducing its own into it,
 * in a reduce-scatter) is the one it received in the step before. With ChunkBytes set, a block
 * travels as pieces and piece k of a step waits only for piece k of the step before, so the
 * steps pipeline as NCCL slices a ring step. With Channels > 1 the buffer is cut into that many
 * parts, each with a ring of its own, running at once.
 */
class RingCollective : public ScheduledCollective
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
    explicit RingCollective(std::string operation);

  protected:
    /// Participant indices in ring order.
    typedef std::vector<uint32_t> Ring;

    /// What a reduce-scatter leaves behind.
    struct ReduceScatterSteps
    {
        std::vector<CollectiveProgram::Step> owned; //!< Per piece of the owned block: its last reduction
        std::vector<std::vector<CollectiveProgram::Step>> sends; //!< Per step: its sends, by piece
    };

    /**
     * \brief Reduce-scatter around a ring: the member at position p ends up owning the full
     * reduction of block (p + 1) % m.
     * \param program the member's program
     * \param ring the members
     * \param position the member's position in the ring
     * \param blocks the block of each position, regions of the member's buffers
     * \param start what the first step waits for
     * \return the steps the owned block's reduction ended with, and the sends of each step
     */
    ReduceScatterSteps AddReduceScatter(CollectiveProgram& program,
                                        const Ring& ring,
                                        uint32_t position,
                                        const std::vector<CollectiveProgram::Region>& blocks,
                                        const std::vector<CollectiveProgram::Step>& start) const;
    /**
     * \brief All-gather around a ring: every member ends up with every block.
     * \param program the member's program
     * \param ring the members
     * \param position the member's position in the ring
     * \param blocks the block of each position
     * \param owned the block the member holds to begin with
     * \param start what the first step waits for
     * \param ownedReady per piece of the owned block, a step its first send waits for (or empty)
     * \param overwrites per step, sends that read the blocks this all-gather overwrites in that
     *        step (or empty): a write waits for the reads of the same region
     * \return the last step of each received piece
     */
    std::vector<CollectiveProgram::Step> AddAllGather(
        CollectiveProgram& program,
        const Ring& ring,
        uint32_t position,
        const std::vector<CollectiveProgram::Region>& blocks,
        uint32_t owned,
        const std::vector<CollectiveProgram::Step>& start,
        const std::vector<CollectiveProgram::Step>& ownedReady = {},
        const std::vector<std::vector<CollectiveProgram::Step>>& overwrites = {}) const;

    /**
     * \param whole a buffer region
     * \param channel a channel
     * \return the part of the region that channel carries
     */
    CollectiveProgram::Region ChannelPart(const CollectiveProgram::Region& whole,
                                          uint32_t channel) const;
    /// \return the number of channels
    uint32_t GetChannels() const;
    /// \return the group in index order, the ring of the whole group
    Ring GetWholeRing() const;

  private:
    /**
     * \param block a block
     * \return its pieces
     */
    std::vector<CollectiveProgram::Region> Pieces(const CollectiveProgram::Region& block) const;

    uint64_t m_chunkBytes; //!< ChunkBytes attribute
    uint32_t m_channels;   //!< Channels attribute
};

/**
 * \ingroup uniference
 * \brief Ring all-reduce: a ring reduce-scatter, then a ring all-gather of the reduced blocks.
 */
class RingAllReduce : public RingCollective
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
    RingAllReduce();

  protected:
    void BuildProgram(uint32_t index, CollectiveProgram& program) const override;
};

/**
 * \ingroup uniference
 * \brief Ring reduce-scatter, on a scratch copy of the input: participant i keeps block i.
 */
class RingReduceScatter : public RingCollective
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
    RingReduceScatter();

  protected:
    void BuildProgram(uint32_t index, CollectiveProgram& program) const override;
};

/**
 * \ingroup uniference
 * \brief Ring all-gather: each participant's block travels once around the ring.
 */
class RingAllGather : public RingCollective
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
    RingAllGather();

  protected:
    void BuildProgram(uint32_t index, CollectiveProgram& program) const override;
};

} // namespace ns3

#endif /* RING_COLLECTIVES_H */
