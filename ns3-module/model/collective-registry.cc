/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-registry.h"

#include "ns3/fatal-error.h"
#include "ns3/log.h"

namespace ns3
{

// Register runs during static initialization, possibly before this file's log component
// exists, so it does not log.
NS_LOG_COMPONENT_DEFINE("CollectiveRegistry");

CollectiveRegistry::Table&
CollectiveRegistry::GetMutableTable()
{
    static Table table;
    return table;
}

const CollectiveRegistry::Table&
CollectiveRegistry::GetTable()
{
    return GetMutableTable();
}

bool
CollectiveRegistry::Register(const std::string& operation, const std::string& algorithm, TypeId tid)
{
    if (operation.empty() || algorithm.empty())
    {
        NS_FATAL_ERROR("collective algorithm " << tid.GetName()
                                               << " registered with an empty operation or "
                                                  "algorithm name");
    }
    if (!tid.HasConstructor())
    {
        NS_FATAL_ERROR("collective algorithm " << operation << "/" << algorithm << ": "
                                               << tid.GetName()
                                               << " has no constructor (AddConstructor)");
    }
    auto inserted = GetMutableTable()[operation].emplace(algorithm, tid);
    if (!inserted.second && inserted.first->second != tid)
    {
        NS_FATAL_ERROR("collective algorithm "
                       << operation << "/" << algorithm << " registered twice: by "
                       << inserted.first->second.GetName() << " and by " << tid.GetName());
    }
    return true;
}

} // namespace ns3
