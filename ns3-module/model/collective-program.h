/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_PROGRAM_H
#define COLLECTIVE_PROGRAM_H

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief What one participant of a collective does: its point-to-point messages and local
 * reductions, each waiting for earlier steps of its own.
 *
 * A ScheduledCollective asks its algorithm for one program per participant, as a real library
 * runs one such program on each rank. Steps name regions of the participant's buffers in
 * elements. The k-th Send from participant a to participant b pairs with the k-th Recv at b
 * from a (in the order the steps were added, whatever order they run in), like MPI's
 * non-overtaking rule; the two regions must be of the same size.
 *
 * The buffers a program works on follow the operation (c10d's semantics, S the operation's size
 * in elements as nccl-tests counts it, n participants):
 *  - all_reduce, broadcast, reduce: OUTPUT of S, in place (it holds the participant's
 *    contribution when it enters);
 *  - all_gather and gather: INPUT of S / n, OUTPUT of S (a gather's only at the root);
 *  - reduce_scatter: INPUT of S, OUTPUT of S / n;
 *  - scatter: INPUT of S (the root's), OUTPUT of S / n;
 *  - all_to_all: INPUT and OUTPUT of S, block j of INPUT going to participant j;
 *  - SCRATCH: as many elements as the program asks for with UseScratch, for partial results
 *    that must not show in the participant's own buffers.
 */
class CollectiveProgram
{
  public:
    /// A step of the program; steps are numbered in the order they are added.
    typedef uint32_t Step;
    /// A dependency that is not there (dependency lists may contain it; it is skipped).
    static constexpr Step NONE = std::numeric_limits<Step>::max();

    /// The buffers a step reads or writes.
    enum Buffer : uint8_t
    {
        INPUT,
        OUTPUT,
        SCRATCH
    };

    /// Elements [offset, offset + count) of a buffer.
    struct Region
    {
        Buffer buffer;  //!< Which buffer
        uint64_t offset; //!< First element
        uint64_t count;  //!< Number of elements
    };

    /// What a received message or a local step does to its destination region.
    enum Action : uint8_t
    {
        COPY,  //!< Overwrite it
        REDUCE //!< Combine it with the data, element by element, with the operation's reduction
    };

    /// Kinds of steps.
    enum Kind : uint8_t
    {
        SEND,
        RECV,
        LOCAL
    };

    /// One step.
    struct Op
    {
        Kind kind;           //!< What it does
        Action action;       //!< RECV and LOCAL: how it writes its region
        uint32_t peer;       //!< SEND: destination; RECV: source
        uint32_t sequence;   //!< SEND/RECV: its rank among the messages to/from the same peer
        Region region;       //!< SEND: what is sent; RECV and LOCAL: what is written
        Region source;       //!< LOCAL: what is read
        uint64_t extraBytes; //!< SEND/RECV: bytes on the wire beyond the data (headers, handshakes)
        uint32_t firstDependency; //!< Index of its first dependency in GetDependencies()
        uint32_t dependencyCount; //!< Number of dependencies
    };

    /**
     * \param participant the participant the program belongs to (for error messages)
     */
    explicit CollectiveProgram(uint32_t participant = 0);

    /**
     * \brief Part k of a region cut into nearly equal parts, the first count % parts of them one
     * element larger.
     * \param region the region
     * \param parts the number of parts
     * \param k a part
     * \return the part
     */
    static Region Part(const Region& region, uint32_t parts, uint32_t k);
    /**
     * \brief A region cut into pieces of at most maxCount elements, the last one shorter; an
     * empty region is one empty piece.
     * \param region the region
     * \param maxCount the largest piece; 0 keeps the region whole
     * \return the pieces, in order
     */
    static std::vector<Region> Slice(const Region& region, uint64_t maxCount);

    /**
     * \brief Send a region to another participant.
     * \param to the receiving participant
     * \param region what to send; its contents are taken when the step runs
     * \param after steps that must have completed first (NONE entries are skipped)
     * \param extraBytes bytes carried beyond the region's, such as a protocol's header
     * \return the step; it completes when the transport has taken the message's last byte
     */
    Step Send(uint32_t to,
              Region region,
              const std::vector<Step>& after = {},
              uint64_t extraBytes = 0);
    /**
     * \brief Receive a region from another participant.
     * \param from the sending participant
     * \param region where the data goes
     * \param action whether it overwrites the region or is reduced into it
     * \param after steps that must have completed before the data is written
     * \param extraBytes bytes the message carries beyond the region's (the sender's extraBytes)
     * \return the step; it completes once the message has arrived and every step in after
     *         has completed
     */
    Step Recv(uint32_t from,
              Region region,
              Action action,
              const std::vector<Step>& after = {},
              uint64_t extraBytes = 0);
    /**
     * \brief Copy or reduce one region of the participant's buffers into another, taking no
     * simulated time.
     * \param into the destination
     * \param from the source, of the same size
     * \param action copy or reduce
     * \param after steps that must have completed first
     * \return the step
     */
    Step Local(Region into, Region from, Action action, const std::vector<Step>& after = {});
    /**
     * \brief A step that does nothing and completes once all of after have: one name for a set
     * of steps others wait for.
     * \param after the steps
     * \return the step
     */
    Step Join(const std::vector<Step>& after);
    /**
     * \brief Ask for a SCRATCH buffer of at least this many elements.
     * \param count elements
     */
    void UseScratch(uint64_t count);

    /// \return the participant
    uint32_t GetParticipant() const;
    /// \return the steps, in the order they were added
    const std::vector<Op>& GetOps() const;
    /// \return the dependencies of every step, each step's a contiguous run
    const std::vector<Step>& GetDependencies() const;
    /// \return the SCRATCH elements asked for
    uint64_t GetScratchCount() const;
    /**
     * \param step a step
     * \return a one-line description, for error messages
     */
    std::string Describe(Step step) const;

  private:
    /**
     * Append a step with its dependencies.
     * \param op the step, without its dependency fields
     * \param after its dependencies
     * \return its number
     */
    Step Add(Op op, const std::vector<Step>& after);

    uint32_t m_participant;             //!< Whose program this is
    std::vector<Op> m_ops;              //!< The steps
    std::vector<Step> m_dependencies;   //!< Every step's dependencies, contiguous per step
    std::vector<uint32_t> m_sendsTo;    //!< Sends so far, per destination
    std::vector<uint32_t> m_recvsFrom;  //!< Receives so far, per source
    uint64_t m_scratch;                 //!< SCRATCH elements asked for
};

} // namespace ns3

#endif /* COLLECTIVE_PROGRAM_H */
