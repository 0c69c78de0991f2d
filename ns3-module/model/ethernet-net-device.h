/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ETHERNET_NET_DEVICE_H
#define ETHERNET_NET_DEVICE_H

#include "ns3/data-rate.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/nstime.h"
#include "ns3/ptr.h"
#include "ns3/queue-fwd.h"
#include "ns3/traced-callback.h"

#include <cstdint>

namespace ns3
{

class EthernetChannel;
class ErrorModel;
class EventId;

/**
 * \ingroup uniference
 *
 * \brief A full-duplex Ethernet port: a MAC with a transmit queue, on an EthernetChannel.
 *
 * Frames carry a real 14-byte Ethernet II header (EthernetHeader: destination, source,
 * EtherType), so that pcap files read as Ethernet (DLT_EN10MB) and a switch reads the
 * destination from the frame. What the wire carries beyond the frame's bytes is counted in time
 * but not stored: the FCS (FcsSize), the preamble and start-of-frame delimiter
 * (PreambleSize) and the inter-frame gap (InterframeGap). A frame shorter than the Ethernet
 * minimum (60 bytes before the FCS) is timed as padded to it. The far end receives a frame once
 * its FCS has arrived: (preamble + frame + FCS) x 8 / DataRate after it started, plus the
 * channel's delay; the transmitter starts its next frame after the gap as well.
 *
 * The device supports SendFrom (a bridge or switch may send with another source address) and
 * needs ARP. Frames to another MAC address reach the node only through the promiscuous
 * callback. A switch port instead takes every frame whole through SetFrameReceiveCallback and
 * sends frames as they are with SendFrame, so that forwarding neither strips nor rebuilds the
 * header.
 *
 * The per-frame path logs nothing: Debian's ns-3 is built with logging compiled in, and every
 * log check costs on a path that runs once per frame per hop.
 */
class EthernetNetDevice : public NetDevice
{
  public:
    /// Bytes of the Ethernet II header every frame carries: destination, source, EtherType.
    static constexpr uint32_t HEADER_BYTES = 14;

    /// Bytes an Ethernet frame is padded to, header included and FCS excluded.
    static constexpr uint32_t MIN_FRAME_SIZE = 60;

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    EthernetNetDevice();
    ~EthernetNetDevice() override;

    /**
     * \brief Plug the device into a cable.
     * \param channel the cable
     * \return false if the cable has no free end
     */
    bool Attach(Ptr<EthernetChannel> channel);

    /**
     * \param queue the transmit queue
     */
    void SetQueue(Ptr<Queue<Packet>> queue);
    /// \return the transmit queue
    Ptr<Queue<Packet>> GetQueue() const;

    /**
     * \param em an error model applied to received frames, or null for none
     */
    void SetReceiveErrorModel(Ptr<ErrorModel> em);

    /**
     * \param bytes bytes of a frame as stored (Ethernet header and payload)
     * \return the time the transmitter is busy with it: preamble, frame (padded), FCS and gap
     */
    Time GetTransmitTime(uint32_t bytes) const;

    /**
     * \param bytes bytes of a frame as stored (Ethernet header and payload)
     * \return the time from its first bit to its last (preamble, frame padded, FCS): when the
     * far end has it, less the cable's delay
     */
    Time GetFrameTime(uint32_t bytes) const;

    /**
     * A frame received whole, Ethernet header included: the receiving device and the frame.
     */
    using FrameReceiveCallback = Callback<void, Ptr<EthernetNetDevice>, Ptr<Packet>>;

    /**
     * \brief Hand every received frame whole to cb instead of up to the node (a switch port).
     * \param cb the callback
     */
    void SetFrameReceiveCallback(FrameReceiveCallback cb);

    /**
     * \brief Queue a frame as it is, Ethernet header included, for transmission (a switch
     * forwarding it).
     * \param frame the frame
     * \return false if the queue dropped it
     */
    bool SendFrame(Ptr<Packet> frame);

    /**
     * \brief Called by the channel when a frame has arrived.
     * \param frame the frame, Ethernet header included
     */
    void Receive(Ptr<Packet> frame);

    // NetDevice
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsPointToPoint() const override;
    bool IsBridge() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

  protected:
    void DoDispose() override;

  private:
    /**
     * Queue a frame and start the transmitter if it is idle.
     * \param frame the frame, Ethernet header included
     * \return false if the queue dropped it
     */
    bool Enqueue(Ptr<Packet> frame);
    /// Take the next frame from the queue onto the wire, if there is one.
    void TransmitNext();
    /// The current frame and its gap are over.
    void TransmitComplete();

    Ptr<Node> m_node;                 //!< The node it is installed on
    Ptr<EthernetChannel> m_channel;   //!< The cable, once attached
    Ptr<Queue<Packet>> m_queue;       //!< Frames waiting for the transmitter
    Ptr<ErrorModel> m_receiveErrorModel; //!< Corrupts received frames, if set
    Mac48Address m_address;           //!< This port's MAC address
    DataRate m_dataRate;              //!< Bit rate of the wire
    uint16_t m_mtu;                   //!< Largest payload (IP packet) of a frame
    uint32_t m_fcsSize;               //!< Frame check sequence, bytes
    uint32_t m_preambleSize;          //!< Preamble and start-of-frame delimiter, bytes
    uint32_t m_interframeGap;         //!< Idle bytes after every frame
    uint32_t m_ifIndex;               //!< Index on its node
    bool m_linkUp;                    //!< Attached to a cable
    Ptr<Packet> m_currentFrame;       //!< On the wire now, null when idle
    NetDevice::ReceiveCallback m_rxCallback;         //!< Up to the node
    NetDevice::PromiscReceiveCallback m_promiscCallback; //!< Up to the node, every frame
    FrameReceiveCallback m_frameCallback;            //!< Whole frames to a switch
    TracedCallback<> m_linkChangeCallbacks;          //!< Link went up

    TracedCallback<Ptr<const Packet>> m_macTxTrace;        //!< Packet from above accepted
    TracedCallback<Ptr<const Packet>> m_macTxDropTrace;    //!< Dropped before the queue
    TracedCallback<Ptr<const Packet>> m_macRxTrace;        //!< Packet handed up for this host
    TracedCallback<Ptr<const Packet>> m_macPromiscRxTrace; //!< Packet handed up promiscuously
    TracedCallback<Ptr<const Packet>> m_phyTxBeginTrace;   //!< Frame starts on the wire
    TracedCallback<Ptr<const Packet>> m_phyTxEndTrace;     //!< Frame and its gap are over
    TracedCallback<Ptr<const Packet>> m_phyRxEndTrace;     //!< Frame received whole
    TracedCallback<Ptr<const Packet>> m_phyRxDropTrace;    //!< Frame corrupted on the wire
    TracedCallback<Ptr<const Packet>> m_snifferTrace;      //!< Frames to or from this host
    TracedCallback<Ptr<const Packet>> m_promiscSnifferTrace; //!< Every frame
};

} // namespace ns3

#endif /* ETHERNET_NET_DEVICE_H */
