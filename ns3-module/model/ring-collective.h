/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RING_COLLECTIVE_H
#define RING_COLLECTIVE_H

#include "collective.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief Base of the collectives that run in lockstep steps around the ring.
 *
 * Participant i always sends to (i + 1) % n and receives from (i - 1) % n. In each of
 * GetStepCount() steps it sends GetStepBytes(i, step) bytes. Step 0 waits only for i to enter;
 * step s + 1 also waits until i has received step s from (i - 1) % n, because it forwards (or
 * reduces and forwards) what arrived in step s. A participant is complete when it has received
 * all GetStepCount() steps; with no steps (a group of one) it completes on Enter.
 *
 * By default a step is one message. With ChunkBytes set, a step travels as messages of at most
 * ChunkBytes (the last one shorter), and the k-th message of step s + 1 waits only for the
 * k-th message of step s: the steps are pipelined, as NCCL slices a ring step. Messages carry
 * their rank in the sender's sequence as cookie (the step, with one message per step). A
 * message that is not the next one expected from the previous participant, with its size, is
 * a fatal error.
 *
 * Subclasses say how many steps there are and what each carries; a step forwards what arrived
 * in the step before, so GetStepBytes(i, s + 1) == GetStepBytes((i - 1) % n, s).
 */
class RingCollective : public Collective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \param name the operation as the fatal error on an unexpected message names it
     */
    explicit RingCollective(std::string name);
    ~RingCollective() override;

  protected:
    void DoSetup() override;
    void DoEnter(uint32_t index) override;
    void DoReceive(uint32_t index, uint32_t from, uint64_t cookie, uint64_t bytes) override;

    /**
     * Called once, from DoSetup; GetN() and GetBytes() are known.
     * \return the number of steps each participant sends and receives
     */
    virtual uint32_t GetStepCount() const = 0;
    /**
     * \param index a participant
     * \param step a step
     * \return the bytes the participant sends in that step
     */
    virtual uint64_t GetStepBytes(uint32_t index, uint32_t step) const = 0;

  private:
    /// How far a participant has got in its sequence of messages, sent or received.
    struct Position
    {
        uint32_t step{0};     //!< Current step
        uint64_t piece{0};    //!< Message within the step
        uint64_t messages{0}; //!< Messages before this one, over all steps
    };

    /**
     * \param stepBytes the bytes of a step
     * \return the number of messages that carry it
     */
    uint64_t GetPieceCount(uint64_t stepBytes) const;
    /**
     * \param stepBytes the bytes of a step
     * \param piece a message of the step
     * \return its payload size
     */
    uint64_t GetPieceBytes(uint64_t stepBytes, uint64_t piece) const;
    /**
     * Move a position on by one message.
     * \param position the position
     * \param stepBytes the bytes of its current step
     */
    void Next(Position& position, uint64_t stepBytes) const;
    /**
     * Send every message a participant is ready for, and complete it once it has everything.
     * \param index the participant
     */
    void Advance(uint32_t index);

    std::string m_name;               //!< The operation, for error messages
    uint64_t m_chunkBytes;            //!< Largest message, 0 for one message per step
    uint32_t m_steps;                 //!< GetStepCount(), from DoSetup
    std::vector<Position> m_sent;     //!< Next message each participant sends
    std::vector<Position> m_received; //!< Next message each participant expects
};

} // namespace ns3

#endif /* RING_COLLECTIVE_H */
