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

namespace
{
/// (operation, algorithm) to its alpha-beta model.
std::map<std::pair<std::string, std::string>, AlphaBetaCost>&
Costs()
{
    static std::map<std::pair<std::string, std::string>, AlphaBetaCost> costs;
    return costs;
}

/// Operation to its bus bandwidth factor: torch.distributed's, and those registered.
std::map<std::string, CollectiveRegistry::BusBandwidth>&
Operations()
{
    static std::map<std::string, CollectiveRegistry::BusBandwidth> operations = {
        {"all_reduce", CollectiveRegistry::TWICE_SHARE},
        {"all_gather", CollectiveRegistry::SHARE},
        {"reduce_scatter", CollectiveRegistry::SHARE},
        {"all_to_all", CollectiveRegistry::SHARE},
        {"gather", CollectiveRegistry::SHARE},
        {"scatter", CollectiveRegistry::SHARE},
        {"broadcast", CollectiveRegistry::WHOLE},
        {"reduce", CollectiveRegistry::WHOLE},
        {"send_recv", CollectiveRegistry::WHOLE},
        {"barrier", CollectiveRegistry::NO_DATA},
    };
    return operations;
}
} // namespace

bool
CollectiveRegistry::Register(const std::string& operation,
                             const std::string& algorithm,
                             TypeId tid,
                             AlphaBetaCost cost)
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
    if (cost != nullptr)
    {
        Costs()[{operation, algorithm}] = cost;
    }
    return true;
}

double
CollectiveRegistry::GetAlphaBetaSeconds(const std::string& operation,
                                        const std::string& algorithm,
                                        uint64_t bytes,
                                        uint32_t n,
                                        const AlphaBeta& link)
{
    auto it = Costs().find({operation, algorithm});
    return it == Costs().end() ? -1 : it->second(bytes, n, link);
}

bool
CollectiveRegistry::RegisterOperation(const std::string& operation, BusBandwidth busBandwidth)
{
    auto inserted = Operations().emplace(operation, busBandwidth);
    if (!inserted.second && inserted.first->second != busBandwidth)
    {
        NS_FATAL_ERROR("collective operation " << operation
                                               << " registered with two bus bandwidth factors");
    }
    return true;
}

double
CollectiveRegistry::GetBusBandwidthFactor(const std::string& operation, uint32_t n)
{
    auto it = Operations().find(operation);
    if (it == Operations().end())
    {
        std::string known;
        for (const auto& [name, factor] : Operations())
        {
            known += (known.empty() ? "" : ", ") + name;
        }
        NS_FATAL_ERROR("unknown collective operation \"" << operation << "\"; known: " << known);
    }
    switch (it->second)
    {
    case NO_DATA:
        return 0.0;
    case WHOLE:
        return 1.0;
    case SHARE:
        return double(n - 1) / n;
    case TWICE_SHARE:
        return 2.0 * (n - 1) / n;
    }
    return 0.0;
}

} // namespace ns3
