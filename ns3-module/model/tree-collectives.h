/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TREE_COLLECTIVES_H
#define TREE_COLLECTIVES_H

#include "scheduled-collective.h"

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief Base of the collectives that move data along a tree: O(log n) steps for small
 * buffers, against a ring's n - 1. With ChunkBytes set, data travels as pieces and each piece
 * moves on as soon as it may, so the tree's levels pipeline.
 */
class TreeCollective : public ScheduledCollective
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
    explicit TreeCollective(std::string operation);

    /// A participant's place in a tree.
    struct Node
    {
        uint32_t parent;                //!< Its parent; itself at the root
        std::vector<uint32_t> children; //!< Its children
    };

    /**
     * \brief The binomial tree rooted at root: relative index v's parent is v less its lowest
     * set bit; its children are v + 2^k for every 2^k below that bit (the largest first).
     * \param n the group size
     * \param root the root
     * \param index a participant
     * \return its place
     */
    static Node GetBinomialNode(uint32_t n, uint32_t root, uint32_t index);
    /**
     * \brief The in-order binary tree on positions 0..n-1: a range's middle is the root of its
     * subtree, the two halves its children's.
     * \param n the group size
     * \param position a position
     * \return its place, in positions
     */
    static Node GetInOrderNode(uint32_t n, uint32_t position);

  protected:
    /**
     * \param region a region
     * \return its pieces, ChunkBytes long
     */
    std::vector<CollectiveProgram::Region> Pieces(const CollectiveProgram::Region& region) const;

  private:
    uint64_t m_chunkBytes; //!< ChunkBytes attribute
};

/**
 * \ingroup uniference
 * \brief Double binary tree all-reduce, as NCCL's tree algorithm: two binary trees (in-order on the indices, the second on the indices mirrored, so that most leaves of one are inner nodes of the other), each carrying half of the buffer up as a reduction and back down as a broadcast.
 */
class TreeAllReduce : public TreeCollective
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
    TreeAllReduce();

  protected:
    void BuildProgram(uint32_t index, CollectiveProgram& program) const override;
};

/**
 * \ingroup uniference
 * \brief Binomial-tree broadcast from the root, each piece forwarded as soon as it has arrived.
 */
class TreeBroadcast : public TreeCollective
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
    TreeBroadcast();

  protected:
    void BuildProgram(uint32_t index, CollectiveProgram& program) const override;
};

/**
 * \ingroup uniference
 * \brief Binomial-tree reduce to the root: each inner node sums its children's partial sums into a scratch copy of its own buffer and passes the sum up.
 */
class TreeReduce : public TreeCollective
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
    TreeReduce();

  protected:
    void BuildProgram(uint32_t index, CollectiveProgram& program) const override;
};

} // namespace ns3

#endif /* TREE_COLLECTIVES_H */
