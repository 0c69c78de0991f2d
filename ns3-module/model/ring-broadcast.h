/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef RING_BROADCAST_H
#define RING_BROADCAST_H

#include "collective.h"

#include <vector>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief Pipelined ring broadcast from a root.
 *
 * The buffer of S bytes travels around the ring from the root (Root, Root + 1, ...) in
 * ceil(S / ChunkBytes) messages (one empty message when S is 0); each participant forwards a
 * chunk to the next as soon as the chunk has arrived and the participant has entered, so the
 * chunks are in flight on every hop at once. The root is complete when it has entered and its
 * socket has accepted the last chunk; another participant when it has received every chunk and
 * its socket has accepted the last one it forwards (the last participant of the ring forwards
 * nothing).
 *
 * Registered with CollectiveHelper as broadcast/ring.
 */
class RingBroadcast : public Collective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    RingBroadcast();
    ~RingBroadcast() override;

    double GetBusBandwidthFactor() const override;

    /// \return the number of messages each hop carries
    uint64_t GetMessageCount() const;

  protected:
    void DoSetup() override;
    void DoEnter(uint32_t index) override;
    void DoReceive(uint32_t index, uint32_t from, uint64_t cookie, uint64_t bytes) override;

  private:
    /**
     * Forward every chunk a participant is ready to, and complete it once it has everything.
     * \param index the participant
     */
    void Advance(uint32_t index);
    /**
     * The last chunk a participant sends is in its socket.
     * \param index the participant
     */
    void HandleLastSent(uint32_t index);
    /**
     * \param chunk a chunk's index
     * \return its size
     */
    uint64_t ChunkSize(uint64_t chunk) const;
    /**
     * \param index a participant
     * \return its distance from the root along the ring
     */
    uint32_t Position(uint32_t index) const;

    uint32_t m_root;                   //!< Index of the participant that holds the data
    uint64_t m_chunkBytes;             //!< Largest message
    uint64_t m_messages;               //!< Messages per hop
    std::vector<uint64_t> m_received;  //!< Chunks each participant has received
    std::vector<uint64_t> m_forwarded; //!< Chunks each participant has sent on
};

} // namespace ns3

#endif /* RING_BROADCAST_H */
