/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef VARYING_LINK_HELPER_H
#define VARYING_LINK_HELPER_H

#include "ns3/data-rate.h"
#include "ns3/net-device-container.h"
#include "ns3/node.h"
#include "ns3/object-factory.h"
#include "ns3/queue.h"

#include <string>
#include <vector>

namespace ns3
{

class VaryingLinkChannel;

/**
 * \ingroup uniference
 *
 * \brief Builds links whose delay, rate and availability change with time: two
 * PointToPointNetDevices on a VaryingLinkChannel, with the channel's conditions (a path and
 * its impairments) and, optionally, a receive error model on each end.
 *
 * \code
 *   VaryingLinkHelper leo;
 *   leo.SetDataRates(DataRate("20Mbps"), DataRate("100Mbps")); // up, down
 *   leo.SetPath("ns3::LeoPassCondition", "HandoverOutage", TimeValue(MilliSeconds(50)));
 *   leo.AddImpairment("ns3::FadeCondition", "FadeRateFactor", DoubleValue(0.5));
 *   leo.SetReceiveErrorModel("ns3::GilbertElliottErrorModel", "P", DoubleValue(0.01));
 *   NetDeviceContainer devices = leo.Install(terminal, gateway);
 * \endcode
 *
 * ns-3's PointToPointHelper always builds the stock channel, whose delay is fixed.
 */
class VaryingLinkHelper
{
  public:
    VaryingLinkHelper();

    /**
     * \brief Set an attribute of both devices (ns3::PointToPointNetDevice): Mtu, DataRate.
     * \param name the attribute
     * \param value its value
     */
    void SetDeviceAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Set the queue inside each device (ns3::DropTailQueue<Packet> of 100 packets
     * unless set).
     * \tparam Ts \deduced argument types
     * \param type a queue type
     * \param args name and AttributeValue pairs, for example "MaxSize", StringValue("2p")
     */
    template <typename... Ts>
    void SetQueue(std::string type, Ts&&... args);

    /**
     * \brief Give each direction its own rate.
     * \param firstToSecond the rate of the first node's device (Install's a)
     * \param secondToFirst the rate of the second node's device (Install's b)
     */
    void SetDataRates(DataRate firstToSecond, DataRate secondToFirst);

    /**
     * \brief Set an attribute of the channel (ns3::VaryingLinkChannel): OutageMode.
     * \param name the attribute
     * \param value its value
     */
    void SetChannelAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Choose the path: the condition that gives the link its delay.
     * \tparam Ts \deduced argument types
     * \param type a LinkCondition, for example ns3::LeoPassCondition
     * \param args name and AttributeValue pairs
     */
    template <typename... Ts>
    void SetPath(const std::string& type, Ts&&... args);

    /**
     * \brief Set an attribute of the path's condition (after SetPath).
     * \param name the attribute
     * \param value its value
     */
    void SetPathAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \brief Add a condition after the path, for example ns3::FadeCondition for rain fade or
     * blockage.
     * \tparam Ts \deduced argument types
     * \param type a LinkCondition
     * \param args name and AttributeValue pairs
     */
    template <typename... Ts>
    void AddImpairment(const std::string& type, Ts&&... args);

    /**
     * \brief Give each device an error model of this type on what it receives.
     * \tparam Ts \deduced argument types
     * \param type an ErrorModel, for example ns3::GilbertElliottErrorModel
     * \param args name and AttributeValue pairs
     */
    template <typename... Ts>
    void SetReceiveErrorModel(const std::string& type, Ts&&... args);

    /**
     * \brief Build the link between two nodes.
     * \param a the first node
     * \param b the second node
     * \return a's device, then b's
     */
    NetDeviceContainer Install(Ptr<Node> a, Ptr<Node> b);

    /**
     * \brief The Shannon capacity of a channel, a link budget's upper bound on its rate.
     * \param bandwidth hertz
     * \param snrDb signal to noise ratio, decibels
     * \return bandwidth * log2(1 + SNR)
     */
    static DataRate ShannonRate(double bandwidth, double snrDb);

  private:
    ObjectFactory m_deviceFactory;              //!< PointToPointNetDevice
    ObjectFactory m_queueFactory;               //!< each device's queue
    ObjectFactory m_channelFactory;             //!< VaryingLinkChannel
    ObjectFactory m_pathFactory;                //!< the path's condition
    std::vector<ObjectFactory> m_impairments;   //!< later conditions
    ObjectFactory m_errorModelFactory;          //!< unset: no error model
    bool m_perDirectionRates;                   //!< SetDataRates called
    DataRate m_rates[2];                        //!< a's, then b's
};

template <typename... Ts>
void
VaryingLinkHelper::SetQueue(std::string type, Ts&&... args)
{
    QueueBase::AppendItemTypeIfNotPresent(type, "Packet");
    m_queueFactory.SetTypeId(type);
    m_queueFactory.Set(std::forward<Ts>(args)...);
}

template <typename... Ts>
void
VaryingLinkHelper::SetPath(const std::string& type, Ts&&... args)
{
    m_pathFactory.SetTypeId(type);
    m_pathFactory.Set(std::forward<Ts>(args)...);
}

template <typename... Ts>
void
VaryingLinkHelper::AddImpairment(const std::string& type, Ts&&... args)
{
    ObjectFactory factory;
    factory.SetTypeId(type);
    factory.Set(std::forward<Ts>(args)...);
    m_impairments.push_back(factory);
}

template <typename... Ts>
void
VaryingLinkHelper::SetReceiveErrorModel(const std::string& type, Ts&&... args)
{
    m_errorModelFactory.SetTypeId(type);
    m_errorModelFactory.Set(std::forward<Ts>(args)...);
}

} // namespace ns3

#endif /* VARYING_LINK_HELPER_H */
