/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef ETHERNET_SWITCH_H
#define ETHERNET_SWITCH_H

#include "ns3/mac48-address.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/queue-disc.h"
#include "ns3/queue-size.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ns3
{

class EthernetNetDevice;
class Node;
class Packet;

/**
 * \ingroup uniference
 *
 * \brief A layer-2 Ethernet switch: store-and-forward between EthernetNetDevice ports of one
 * node, by a MAC address table.
 *
 * A frame is forwarded once it has arrived whole, on the port the table names for its
 * destination; there it waits in that port's output queue, a drop-tail queue of PortQueueSize
 * (a frame that does not fit is dropped and traced by Drop). The table holds the entries a
 * topology helper adds (AddEntry), which no frame overrides, and, with Learning, the source
 * address of every frame against the port it came in on. An entry may name several
 * equal-cost ports (a fabric's ECMP): a frame then takes the one its flow hashes to, over the
 * IPv4 source and destination, protocol and, for TCP and UDP, ports, salted by HashSeed, so
 * every packet of a flow takes one path and arrives in order. A frame to a broadcast, multicast or
 * unknown address is flooded: copied to every port but the one it came in on. A frame whose
 * destination is behind the port it came in on is filtered (dropped without a trace), as a
 * real switch does. There is no IP inside the switch, and forwarding takes no time beyond the
 * store-and-forward of the frame.
 */
class EthernetSwitch : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    EthernetSwitch();
    ~EthernetSwitch() override;

    /**
     * \brief Make a device a port of this switch: frames it receives are switched, and its
     * transmit queue becomes a drop-tail queue of PortQueueSize.
     * \param port a device on the switch's node, attached to its cable or not yet
     * \return the port's index
     */
    uint32_t AddPort(Ptr<EthernetNetDevice> port);

    /**
     * \brief Forward frames to address out of port, whatever frames teach the switch.
     * \param address a unicast MAC address
     * \param port a port index
     */
    void AddEntry(Mac48Address address, uint32_t port);

    /**
     * \brief Forward frames to address out of one of several equal-cost ports, by flow.
     * \param address a unicast MAC address
     * \param ports port indexes; one port is AddEntry's
     */
    void AddEntry(Mac48Address address, const std::vector<uint32_t>& ports);

    /**
     * \brief Put a queue disc in front of a port, as Linux tc puts one on a bridge port: the
     * frames switched out of the port go through it (ns3::TbfQueueDisc shapes them to a rate
     * with a burst allowance), and it hands them to the port as the port's queue has room.
     * The disc counts a frame by its payload (its IP packet), as the endpoint's disc above IP
     * counts it.
     * \param port a port index
     * \param disc a queue disc not yet initialized, used by nothing else
     */
    void SetPortQueueDisc(uint32_t port, Ptr<QueueDisc> disc);

    /**
     * \param port a port index
     * \return the port's queue disc, or null
     */
    Ptr<QueueDisc> GetPortQueueDisc(uint32_t port) const;

    /// \return the number of ports
    uint32_t GetNPorts() const;
    /**
     * \param i a port index
     * \return the port
     */
    Ptr<EthernetNetDevice> GetPort(uint32_t i) const;

    /**
     * \param address a MAC address
     * \return the port the table names for it (the first of equal-cost ports), or
     * GetNPorts() if none
     */
    uint32_t LookupPort(Mac48Address address) const;

    /**
     * \param frame a frame, Ethernet header included
     * \return the hash of its flow that chooses among equal-cost ports (this switch's
     * HashSeed included); frames that are not IPv4 hash by their MAC addresses
     */
    uint32_t FlowHash(Ptr<const Packet> frame) const;

    /**
     * TracedCallback signature of a frame at a port.
     * \param frame the frame, Ethernet header included
     * \param port the port index
     */
    using PortTracedCallback = void (*)(Ptr<const Packet> frame, uint32_t port);

  protected:
    void DoDispose() override;

  private:
    /// A table entry.
    struct Entry
    {
        uint32_t port;      //!< Port the address is behind (the first of equal-cost ports)
        uint32_t ecmpFirst; //!< Equal-cost ports: their first index in m_ecmpPorts
        uint32_t ecmpCount; //!< How many; 0 or 1 for one port
        bool fixed;         //!< Added by AddEntry: learning leaves it alone
    };

    /**
     * A frame has arrived whole on a port.
     * \param in the port's index
     * \param port the port
     * \param frame the frame
     */
    void Receive(uint32_t in, Ptr<EthernetNetDevice> port, Ptr<Packet> frame);
    /**
     * Queue a frame on an output port.
     * \param out the port index
     * \param frame the frame
     */
    void Output(uint32_t out, Ptr<Packet> frame);
    /**
     * A port's queue disc dropped a frame.
     * \param port the port index
     * \param item the frame as the disc held it
     */
    void DiscDrop(uint32_t port, Ptr<const QueueDiscItem> item);

    /**
     * \param address a MAC address
     * \return it as a table key
     */
    static uint64_t Key(Mac48Address address);
    /**
     * \param bytes six bytes of a MAC address, as in a frame
     * \return it as a table key
     */
    static uint64_t Key(const uint8_t* bytes);

    QueueSize m_portQueueSize;                    //!< Capacity of each port's output queue
    bool m_learning;                              //!< Learn source addresses
    uint32_t m_hashSeed;                          //!< Salts the flow hash per switch
    std::vector<uint32_t> m_ecmpPorts;            //!< Equal-cost port lists of the entries
    std::vector<Ptr<EthernetNetDevice>> m_ports;  //!< By index
    std::vector<Ptr<QueueDisc>> m_portDiscs;      //!< By port index; null: straight to the port
    std::unordered_map<uint64_t, Entry> m_table;  //!< MAC address to port

    TracedCallback<Ptr<const Packet>, uint32_t> m_dropTrace;  //!< Output queue (or disc) full
    TracedCallback<Ptr<const Packet>, uint32_t> m_floodTrace; //!< Flooded, with its in-port
};

} // namespace ns3

#endif /* ETHERNET_SWITCH_H */
