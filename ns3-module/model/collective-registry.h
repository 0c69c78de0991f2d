/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_REGISTRY_H
#define COLLECTIVE_REGISTRY_H

#include "collective.h"

#include "ns3/type-id.h"

#include <map>
#include <string>
#include <type_traits>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief The table of collective algorithms, by operation and algorithm name, that
 * NS_COLLECTIVE_ALGORITHM_REGISTER fills while the program starts.
 *
 * Users look algorithms up and create them with CollectiveHelper. The table lives here, next
 * to Collective rather than with the helper, so that an algorithm's own file in model/ can
 * register it without depending on helper/.
 */
class CollectiveRegistry
{
  public:
    /// Operation name to (algorithm name to the TypeId that implements it).
    typedef std::map<std::string, std::map<std::string, TypeId>> Table;

    /**
     * \brief Record that a TypeId implements an algorithm of an operation.
     *
     * Called through NS_COLLECTIVE_ALGORITHM_REGISTER, before main. An empty name, a TypeId
     * without a constructor, or a pair of names already taken is a fatal error.
     *
     * \param operation the operation, as torch.distributed names it (for example "all_reduce")
     * \param algorithm the algorithm's name (for example "ring")
     * \param tid a Collective subclass with a constructor
     * \return true, so that the macro can initialize a variable with the call
     */
    static bool Register(const std::string& operation, const std::string& algorithm, TypeId tid);

    /// \return every registered algorithm
    static const Table& GetTable();

  private:
    /// \return the table, created on first use (registrations run before main, in any order)
    static Table& GetMutableTable();
};

} // namespace ns3

/**
 * \ingroup uniference
 * Pastes a line number into a variable name; see NS_COLLECTIVE_ALGORITHM_REGISTER.
 * \param line the line
 */
#define NS_COLLECTIVE_REGISTRATION_VARIABLE(line) NS_COLLECTIVE_REGISTRATION_VARIABLE_(line)
/**
 * \ingroup uniference
 * \copydoc NS_COLLECTIVE_REGISTRATION_VARIABLE
 */
#define NS_COLLECTIVE_REGISTRATION_VARIABLE_(line) g_collectiveAlgorithmRegistration##line

/**
 * \ingroup uniference
 * \brief Register a Collective subclass as an algorithm of an operation, so that
 * CollectiveHelper creates it by name.
 *
 * Written once, in the algorithm's .cc file, at namespace scope, next to
 * NS_OBJECT_ENSURE_REGISTERED:
 * \code
 *   NS_COLLECTIVE_ALGORITHM_REGISTER(RingAllReduce, "all_reduce", "ring");
 * \endcode
 *
 * \param type the class, a subclass of ns3::Collective with a GetTypeId and a constructor
 * \param operation the operation's name, as a string
 * \param algorithm the algorithm's name, as a string
 */
#define NS_COLLECTIVE_ALGORITHM_REGISTER(type, operation, algorithm)                               \
    static_assert(std::is_base_of<ns3::Collective, type>::value,                                   \
                  #type " is not a subclass of ns3::Collective");                                  \
    [[maybe_unused]] static const bool NS_COLLECTIVE_REGISTRATION_VARIABLE(__LINE__) =             \
        ns3::CollectiveRegistry::Register(operation, algorithm, type::GetTypeId())

#endif /* COLLECTIVE_REGISTRY_H */
