/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ETHERNET_CHANNEL_H
#define ETHERNET_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

namespace ns3
{

class EthernetNetDevice;
class Packet;

/**
 * \ingroup uniference
 *
 * \brief A full-duplex Ethernet cable between exactly two EthernetNetDevices.
 *
 * Each direction is its own wire, so the two ends transmit at the same time without collisions
 * (unlike ns-3's CsmaChannel, which is half-duplex and shared). The channel only carries
 * frames: it delivers a frame to the other end once the frame's last bit has crossed it, that
 * is its serialization time (which the sending device computes) plus the propagation Delay.
 *
 * A frame's arrival comes before the other events of its nanosecond, among arrivals by the
 * receiving port (node id, interface), where the simulation runs ns3::FabricFirstScheduler:
 * an order that depends on the port alone, so that a network cut across processes
 * (EthernetRemoteChannel) runs each nanosecond as one process does.
 */
class EthernetChannel : public Channel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    EthernetChannel();
    ~EthernetChannel() override;

    /**
     * \brief Plug a device into a free end; called by EthernetNetDevice::Attach.
     * \param device the device
     * \return false if both ends are taken
     */
    virtual bool Attach(Ptr<EthernetNetDevice> device);

    /**
     * \brief Carry a frame from one end to the other.
     * \param frame the frame, Ethernet header included; the receiver takes it over
     * \param sender the device at the sending end
     * \param serialization time from the frame's first to last bit on the wire
     */
    virtual void Transmit(Ptr<Packet> frame,
                          const EthernetNetDevice* sender,
                          Time serialization) const;

    /// \return the one-way propagation delay
    Time GetDelay() const;

    /// \return whether the two ends run in different processes (EthernetRemoteChannel)
    virtual bool CrossesProcesses() const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

  protected:
    /**
     * \brief Hand a frame to a device after a while, first among its nanosecond's events.
     * \param receiver the device
     * \param frame the frame
     * \param after how long from now
     */
    static void Arrive(const Ptr<EthernetNetDevice>& receiver, Ptr<Packet> frame, Time after);

    /**
     * \param device one end
     * \return the other end, null while unplugged
     */
    Ptr<EthernetNetDevice> GetPeer(const EthernetNetDevice* device) const;

    void DoDispose() override;

  private:
    Time m_delay;                     //!< Propagation delay, both directions
    Ptr<EthernetNetDevice> m_ends[2]; //!< The devices plugged in, in order of Attach
};

} // namespace ns3

#endif /* ETHERNET_CHANNEL_H */
