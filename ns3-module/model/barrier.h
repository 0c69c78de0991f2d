/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef BARRIER_H
#define BARRIER_H

#include "collective.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief Dissemination barrier (Hensgen, Finkel and Manber, 1988).
 *
 * In round k (0 .. ceil(log2 n) - 1) participant i sends an empty message to (i + 2^k) % n and
 * waits for one from (i - 2^k) % n; it starts round k + 1 once that message has arrived. After
 * the last round every participant has heard, directly or through others, from all of them, so
 * nobody completes before everybody has entered. The operation's size is ignored.
 *
 * Registered with CollectiveHelper as barrier/dissemination.
 */
class Barrier : public Collective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    Barrier();
    ~Barrier() override;

    double GetBusBandwidthFactor() const override;

    /// \return the number of rounds, ceil(log2 n)
    uint32_t GetRounds() const;

  protected:
    void DoSetup() override;
    void DoEnter(uint32_t index) override;
    void DoReceive(uint32_t index, uint32_t from, uint64_t cookie, uint64_t bytes) override;

  private:
    /**
     * Send every round a participant is ready for, and complete it after the last.
     * \param index the participant
     */
    void Advance(uint32_t index);

    uint32_t m_rounds;                         //!< ceil(log2 n)
    std::vector<uint32_t> m_sent;              //!< Rounds each participant has sent
    std::vector<std::vector<bool>> m_received; //!< Rounds each participant has heard
};

} // namespace ns3

#endif /* BARRIER_H */
