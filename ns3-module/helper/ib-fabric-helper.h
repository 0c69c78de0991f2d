/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef IB_FABRIC_HELPER_H
#define IB_FABRIC_HELPER_H

#include "fabric-graph.h"

#include "ns3/attribute.h"
#include "ns3/ib-net-device.h"
#include "ns3/ib-switch.h"
#include "ns3/object-factory.h"
#include "ns3/rdma-message-transport.h"

#include <cstdint>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief Builds an InfiniBand-like fabric: endpoints with RdmaMessageTransport, IbSwitch
 * switches, IbNetDevice cables, and shortest-path forwarding tables.
 *
 * The graph, its named topologies, endpoint ids, the cut across processes and the routes are
 * FabricGraph's; this helper puts the InfiniBand-like parts on it. Attributes set with
 * Set*Attribute apply to every object of that kind. A hop costs its cable's delay plus the
 * serialisation of one full packet, so a faster cable wins a tie in hop count (NVLink inside
 * a server over the NIC and a leaf). Every switch gets all equal-cost next hops (ECMP or
 * adaptive routing choose among them), every endpoint with several ports the port on its
 * cheapest path. Cables between processes are IbRemoteChannels.
 *
 * Every switch gets its HashSeed attribute plus its index as its own seed, so tiers of
 * switches spread flows independently. Endpoint ids are the fabric's LIDs and the transports'
 * EndpointId.
 */
class IbFabricHelper : public FabricGraph
{
  public:
    IbFabricHelper();

    /// \param name an attribute of ns3::IbNetDevice \param value its value
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);
    /// \param name an attribute of ns3::IbChannel \param value its value
    void SetChannelAttribute(const std::string& name, const AttributeValue& value);
    /// \param name an attribute of ns3::IbSwitch \param value its value
    void SetSwitchAttribute(const std::string& name, const AttributeValue& value);
    /// \param name an attribute of ns3::RdmaMessageTransport \param value its value
    void SetTransportAttribute(const std::string& name, const AttributeValue& value);

    /// \param id an endpoint id \return the transport with that id
    Ptr<RdmaMessageTransport> GetTransport(uint32_t id) const;
    /// \return the transports, by endpoint id
    std::vector<Ptr<MessageTransport>> GetTransports() const override;
    /// \param i a switch index \return the switch
    Ptr<IbSwitch> GetSwitch(uint32_t i) const;
    /// \return every port of every switch and endpoint
    std::vector<Ptr<IbNetDevice>> GetPorts() const;
    /**
     * \brief Give the switches' random streams fixed indexes.
     * \param stream the first index
     * \return the number of streams used
     */
    int64_t AssignStreams(int64_t stream);

  private:
    void InstallEndpoint(uint32_t endpoint, uint32_t id, Ptr<Node> node) override;
    void InstallSwitch(uint32_t index, Ptr<Node> node) override;
    BuiltCable InstallCable(const Cable& cable) override;
    void InstallRoute(Vertex at, uint32_t destination, const std::vector<uint32_t>& ports) override;

    ObjectFactory m_deviceFactory;    //!< IbNetDevice
    ObjectFactory m_channelFactory;   //!< IbChannel
    ObjectFactory m_switchFactory;    //!< IbSwitch
    ObjectFactory m_transportFactory; //!< RdmaMessageTransport
    std::vector<Ptr<RdmaMessageTransport>> m_transports; //!< By endpoint index
    std::vector<Ptr<RdmaMessageTransport>> m_byId;       //!< By endpoint id
    std::vector<Ptr<IbSwitch>> m_switches;          //!< By switch index
    std::vector<Ptr<IbNetDevice>> m_ports;          //!< Every port
};

} // namespace ns3

#endif /* IB_FABRIC_HELPER_H */
