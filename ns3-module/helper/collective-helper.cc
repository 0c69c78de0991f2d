/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-helper.h"

#include "attribute-check.h"

#include "ns3/collective-application.h"
#include "ns3/fatal-error.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveHelper");

namespace
{

/**
 * \param names a map's keys
 * \tparam Map a map from names
 * \return the keys, comma-separated
 */
template <typename Map>
std::string
JoinKeys(const Map& names)
{
    std::ostringstream joined;
    for (auto it = names.begin(); it != names.end(); ++it)
    {
        joined << (it == names.begin() ? "" : ", ") << it->first;
    }
    return joined.str();
}

} // namespace

CollectiveHelper::CollectiveHelper(const std::string& operation, const std::string& algorithm)
    : m_operation(operation),
      m_algorithm(algorithm)
{
    NS_LOG_FUNCTION(this << operation << algorithm);
    m_factory.SetTypeId(GetTypeId(operation, algorithm));
}

void
CollectiveHelper::SetAttribute(const std::string& name, const AttributeValue& value)
{
    NS_LOG_FUNCTION(this << name);
    std::string reason = CheckAttributeValue(m_factory.GetTypeId(), name, value);
    if (!reason.empty())
    {
        NS_FATAL_ERROR("CollectiveHelper (" << m_operation << "/" << m_algorithm
                                            << "): " << reason);
    }
    m_factory.Set(name, value);
}

ApplicationContainer
CollectiveHelper::Install(std::vector<Ptr<MessageTransport>> transports, uint64_t bytes) const
{
    Ptr<Collective> collective = Create();
    std::vector<Ptr<MessageTransport>> participants = transports;
    collective->Setup(std::move(participants), bytes);
    ApplicationContainer applications;
    for (uint32_t i = 0; i < transports.size(); ++i)
    {
        if (transports[i]->GetNode()->GetSystemId() != Simulator::GetSystemId())
        {
            continue; // another process of a distributed simulation runs it
        }
        Ptr<CollectiveApplication> application = CreateObject<CollectiveApplication>();
        application->SetCollective(collective, i);
        transports[i]->GetNode()->AddApplication(application);
        applications.Add(application);
    }
    return applications;
}

Ptr<Collective>
CollectiveHelper::Create() const
{
    NS_LOG_FUNCTION(this);
    return m_factory.Create<Collective>();
}

std::vector<std::string>
CollectiveHelper::GetOperations()
{
    std::vector<std::string> operations;
    for (const auto& entry : CollectiveRegistry::GetTable())
    {
        operations.push_back(entry.first);
    }
    return operations;
}

std::vector<std::string>
CollectiveHelper::GetAlgorithms(const std::string& operation)
{
    std::vector<std::string> algorithms;
    auto it = CollectiveRegistry::GetTable().find(operation);
    if (it != CollectiveRegistry::GetTable().end())
    {
        for (const auto& entry : it->second)
        {
            algorithms.push_back(entry.first);
        }
    }
    return algorithms;
}

bool
CollectiveHelper::IsRegistered(const std::string& operation, const std::string& algorithm)
{
    auto it = CollectiveRegistry::GetTable().find(operation);
    return it != CollectiveRegistry::GetTable().end() && it->second.count(algorithm) != 0;
}

TypeId
CollectiveHelper::GetTypeId(const std::string& operation, const std::string& algorithm)
{
    const CollectiveRegistry::Table& table = CollectiveRegistry::GetTable();
    auto it = table.find(operation);
    if (it == table.end())
    {
        NS_FATAL_ERROR("unknown collective operation \"" << operation
                                                         << "\"; known: " << JoinKeys(table));
    }
    auto found = it->second.find(algorithm);
    if (found == it->second.end())
    {
        NS_FATAL_ERROR("unknown " << operation << " algorithm \"" << algorithm
                                  << "\"; known: " << JoinKeys(it->second));
    }
    return found->second;
}

} // namespace ns3
