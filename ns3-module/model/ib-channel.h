/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_CHANNEL_H
#define IB_CHANNEL_H

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
