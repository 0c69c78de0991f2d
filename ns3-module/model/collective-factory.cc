/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-factory.h"

#include "ns3/fatal-error.h"
#include "ns3/log.h"
#include "ns3/object-factory.h"

#include <map>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveFactory");

namespace
{

/// Operation name to the TypeId of the collective that implements it.
const std::map<std::string, std::string>&
CollectiveTypes()
{
    static const std::map<std::string, std::string> types = {
        {"all_gather", "ns3::RingAllGather"},
        {"all_reduce", "ns3::RingAllReduce"},
        {"barrier", "ns3::Barrier"},
        {"broadcast", "ns3::RingBroadcast"},
    };
    return types;
}

} // namespace

Ptr<Collective>
CreateCollective(const std::string& name)
{
    NS_LOG_FUNCTION(name);
    auto it = CollectiveTypes().find(name);
    if (it == CollectiveTypes().end())
    {
        std::ostringstream known;
        for (const auto& entry : CollectiveTypes())
        {
            known << " " << entry.first;
        }
        NS_FATAL_ERROR("unknown collective \"" << name << "\"; known:" << known.str());
    }
    ObjectFactory factory(it->second);
    return factory.Create<Collective>();
}

std::vector<std::string>
GetCollectiveNames()
{
    std::vector<std::string> names;
    for (const auto& entry : CollectiveTypes())
    {
        names.push_back(entry.first);
    }
    return names;
}

} // namespace ns3
