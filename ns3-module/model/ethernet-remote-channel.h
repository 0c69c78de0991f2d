/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ETHERNET_REMOTE_CHANNEL_H
#define ETHERNET_REMOTE_CHANNEL_H

#include "ethernet-channel.h"

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief An Ethernet cable whose two ends live in different processes of a distributed
 * simulation (ns-3's MpiInterface; built where ns-3 has its mpi module).
 *
 * Every process builds the whole network, each node with the system id of the process that
 * runs it. A frame for a remote end leaves as ns-3 serialises packets (headers, payload, byte
 * tags) through MpiInterface::SendPacket, due at the far process after the cable's delay, which
 * is also the lookahead ns-3's granted-time-window engine takes from it (the engine reads the
 * Delay of the cables of point-to-point devices, which an EthernetNetDevice on a cable between
 * processes says it is). There the frame's last bit comes in after its time on the wire, which
 * the far process reckons from the sending device as that device does, so the frame arrives at
 * the nanosecond and, first among that nanosecond's events, in the place it has in one
 * process (EthernetChannel). That needs a frame to take at least a nanosecond on the wire:
 * a cable faster than 576 Gbit/s is refused.
 */
class EthernetRemoteChannel : public EthernetChannel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    bool Attach(Ptr<EthernetNetDevice> device) override;
    void Transmit(Ptr<Packet> frame,
                  const EthernetNetDevice* sender,
                  Time serialization) const override;
    bool CrossesProcesses() const override;

  private:
    /// Check the cable and listen for frames at its local ends; once both ends are plugged in.
    void Prepare();
    /// \param end the local end's index \param frame a frame from the other process
    void Receive(std::size_t end, Ptr<Packet> frame);
};

} // namespace ns3

#endif /* ETHERNET_REMOTE_CHANNEL_H */
