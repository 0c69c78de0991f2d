/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_CHANNEL_H
#define IB_CHANNEL_H

#include "ib-packet.h"

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"

namespace ns3
{

class IbNetDevice;

/**
 * \ingroup uniference
 *
 * \brief A full-duplex cable between two IbNetDevice ports: one propagation delay, no loss.
 */
class IbChannel : public Channel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    IbChannel();

    /**
     * \brief Plug a port into the next free end of the cable.
     * \param device the port; a cable takes two
     */
    void Attach(Ptr<IbNetDevice> device);

    /**
     * \param device one end
     * \return the other end, or null while it is free
     */
    Ptr<IbNetDevice> GetPeer(Ptr<const IbNetDevice> device) const;

    /// \return the propagation delay
    Time GetDelay() const;

    /**
     * \brief Called by each end as it initialises: a cable between processes prepares to
     * receive for the local end.
     * \param end one end of the cable
     */
    virtual void PrepareEnd(Ptr<IbNetDevice> end);
    /**
     * \param end one end of the cable
     * \return whether that end lives in another process of a distributed simulation; never,
     * for this cable (IbRemoteChannel's ends can)
     */
    virtual bool IsRemote(Ptr<const IbNetDevice> end) const;
    /**
     * \brief Take a packet to the end in another process (IbRemoteChannel only).
     * \param from the sending end
     * \param packet the packet, lastBitPs set
     * \param handOverPs when the other end hands it to its owner
     */
    virtual void CarryPacket(const IbNetDevice* from, const IbPacket& packet, int64_t handOverPs);
    /**
     * \brief Take a credit update to the end in another process (IbRemoteChannel only); see
     * IbNetDevice::TakeCredits for the arguments.
     */
    virtual void CarryCredits(const IbNetDevice* from,
                              int64_t startPs,
                              int64_t arrivalPs,
                              uint8_t vl,
                              int64_t freedTotal,
                              bool merge);

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

  protected:
    void DoDispose() override;

  private:
    Time m_delay;                 //!< Propagation delay, both directions
    Ptr<IbNetDevice> m_ends[2];   //!< The two ports
    std::size_t m_attached;       //!< Ports attached so far
};

} // namespace ns3

#endif /* IB_CHANNEL_H */
