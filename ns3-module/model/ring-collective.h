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
 * GetStepCount() steps it sends one message of GetStepBytes(i, step) bytes, with the step as
 * cookie. Step 0 waits only for i to enter; step s + 1 also waits until i has received step s
 * from (i - 1) % n, because it forwards (or reduces and forwards) what arrived in step s. A
 * participant is complete when it has received all GetStepCount() steps; with no steps (a group
 * of one) it completes on Enter. A message that is not the next step expected from the
 * previous participant, with its size, is a fatal error.
 *
 * Subclasses say how many steps there are and what each carries.
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
    /**
     * Send every step a participant is ready for, and complete it once it has everything.
     * \param index the participant
     */
    void Advance(uint32_t index);

    std::string m_name;               //!< The operation, for error messages
    uint32_t m_steps;                 //!< GetStepCount(), from DoSetup
    std::vector<uint32_t> m_sent;     //!< Steps each participant has sent
    std::vector<uint32_t> m_received; //!< Steps each participant has received
};

} // namespace ns3

#endif /* RING_COLLECTIVE_H */
