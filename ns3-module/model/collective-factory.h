/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_FACTORY_H
#define COLLECTIVE_FACTORY_H

#include "collective.h"

#include "ns3/ptr.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief Create a collective by the name its operation has in torch.distributed.
 *
 * Known names: "all_reduce" (RingAllReduce), "all_gather" (RingAllGather), "broadcast"
 * (RingBroadcast), "barrier" (Barrier). Attributes of the returned object (for example a
 * broadcast's Root) may be set before Collective::Setup.
 *
 * \param name the operation
 * \return a new collective, not yet set up; a fatal error names the known operations when
 *         \p name is not one of them
 */
Ptr<Collective> CreateCollective(const std::string& name);

/**
 * \return the names CreateCollective knows, in alphabetical order
 */
std::vector<std::string> GetCollectiveNames();

} // namespace ns3

#endif /* COLLECTIVE_FACTORY_H */
