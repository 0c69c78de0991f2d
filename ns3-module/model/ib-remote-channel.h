/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_REMOTE_CHANNEL_H
#define IB_REMOTE_CHANNEL_H

#include "ib-channel.h"

#include "ns3/packet.h"

#include <map>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief A cable of the InfiniBand-like fabric whose two ends live in different processes of
 * a distributed simulation (ns-3's MpiInterface; built where ns-3 has its mpi module).
 *
 * Every process builds the whole fabric, each node with the system id of the process that
 * runs it. A packet or credit update that leaves a local end for a remote one travels as an
 * ns3::Packet through MpiInterface::SendPacket and reaches the far end's MpiReceiver; its
 * receive time there is the sender's now plus the cable's delay, which is also what ns-3's
 * granted-time-window engine takes as the lookahead (it reads the Delay attribute of every
 * cut point-to-point cable). A packet's hand-over to the far end is later than that by at
 * least one nanosecond whenever the far end is a switch (its ForwardingLatency) or the
 * packet takes a nanosecond on the line, so the far process schedules it before its time
 * comes, and IbEventQueue's order makes the result the same as in one process. The message
 * is the sender's value bytes: every process runs the same binary.
 *
 * ns-3's MPI interface receives into several buffers and may hand over two messages due at the
 * same nanosecond in either order, so each carries its sequence number and the receiving end
 * takes them in order (a credit update's merge must follow the update).
 */
class IbRemoteChannel : public IbChannel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    IbRemoteChannel();

    void PrepareEnd(Ptr<IbNetDevice> end) override;
    bool IsRemote(Ptr<const IbNetDevice> end) const override;
    void CarryPacket(const IbNetDevice* from, const IbPacket& packet, int64_t handOverPs) override;
    void CarryCredits(const IbNetDevice* from,
                      int64_t startPs,
                      int64_t arrivalPs,
                      uint8_t vl,
                      int64_t freedTotal,
                      bool merge) override;

  private:
    /// What a message carries.
    enum Kind : uint8_t
    {
        PACKET,  //!< an IbPacket and its hand-over time
        CREDITS, //!< a credit update
        MERGE,   //!< a credit update's new count, for the last update sent
    };

    /// A message's bytes, as sent.
    struct Message
    {
        uint64_t seq;       //!< Its place among the messages one end sent the other
        Kind kind;          //!< What it carries
        uint8_t vl;         //!< Credit update's lane
        int64_t a;          //!< PACKET: hand-over time; credits: start time (ps)
        int64_t b;          //!< CREDITS: arrival time (ps)
        int64_t freedTotal; //!< Credits: the cumulative freed count
        IbPacket packet;    //!< PACKET: the packet
    };

    /// \param from the sending end \param message what to send
    void Send(const IbNetDevice* from, const Message& message);
    /// \param end the local end's index \param packet a message from the other process
    void Receive(std::size_t end, Ptr<Packet> packet);
    /// \param end the local end's index \param message the next message for it, in order
    void Deliver(std::size_t end, const Message& message);

    uint64_t m_nextOut[2];              //!< Per sending end: the next message's seq
    uint64_t m_nextIn[2];               //!< Per receiving end: the seq it takes next
    std::map<uint64_t, Message> m_early[2]; //!< Per receiving end: messages ahead of their turn
};

} // namespace ns3

#endif /* IB_REMOTE_CHANNEL_H */
