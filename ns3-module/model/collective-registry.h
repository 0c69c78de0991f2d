/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_REGISTRY_H
#define COLLECTIVE_REGISTRY_H

#include "collective.h"

#include "ns3/type-id.h"

#include <cstdint>
#include <map>
#include <string>
#include <type_traits>

namespace ns3
{

/**
 * \ingroup uniference
 * \brief An uncongested path as an alpha-beta model sees it.
 */
struct AlphaBeta
{
    double alpha; //!< Seconds a message takes before its first byte moves (latency)
    double beta;  //!< Seconds per byte on the path's slowest link, headers included
};

/**
 * \ingroup uniference
 * \brief An algorithm's modelled time, in seconds, for an operation of size S = bytes among
 * n participants over uncongested links.
 */
typedef double (*AlphaBetaCost)(uint64_t bytes, uint32_t n, const AlphaBeta& link);

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

    /// nccl-tests' bus bandwidth factor of an operation: busbw = algbw x factor.
    enum BusBandwidth
    {
        NO_DATA,     //!< 0: a barrier
        WHOLE,       //!< 1: broadcast, reduce, send/recv
        SHARE,       //!< (n - 1) / n: each participant moves all of S but its own block
        TWICE_SHARE, //!< 2 (n - 1) / n: all-reduce
    };

    /**
     * \brief Record that a TypeId implements an algorithm of an operation.
     *
     * Called through NS_COLLECTIVE_ALGORITHM_REGISTER, before main. An empty name, a TypeId
     * without a constructor, or a pair of names already taken is a fatal error.
     *
     * \param operation the operation, as torch.distributed names it (for example "all_reduce")
     * \param algorithm the algorithm's name (for example "ring")
     * \param tid a Collective subclass with a constructor
     * \param cost the algorithm's alpha-beta model, or nullptr where it has none
     * \return true, so that the macro can initialize a variable with the call
     */
    static bool Register(const std::string& operation,
                         const std::string& algorithm,
                         TypeId tid,
                         AlphaBetaCost cost = nullptr);

    /// \return every registered algorithm
    static const Table& GetTable();

    /**
     * \param operation an operation
     * \param algorithm one of its algorithms
     * \param bytes the operation's size S
     * \param n the group size
     * \param link the path's alpha and beta
     * \return the algorithm's modelled seconds, or a negative value where it has no model
     */
    static double GetAlphaBetaSeconds(const std::string& operation,
                                      const std::string& algorithm,
                                      uint64_t bytes,
                                      uint32_t n,
                                      const AlphaBeta& link);

    /**
     * \brief Record how an operation's bus bandwidth is counted. Called through
     * NS_COLLECTIVE_OPERATION_REGISTER, before main; the operations of torch.distributed are
     * registered by the module. Registering one name with two different factors is fatal.
     * \param operation the operation
     * \param busBandwidth its factor
     * \return true, so that the macro can initialize a variable with the call
     */
    static bool RegisterOperation(const std::string& operation, BusBandwidth busBandwidth);

    /**
     * \param operation a registered operation (fatal error otherwise, naming the known ones)
     * \param n the group size
     * \return nccl-tests' bus bandwidth factor of the operation
     */
    static double GetBusBandwidthFactor(const std::string& operation, uint32_t n);

    /**
     * \return T::AlphaBetaSeconds where the algorithm T defines one, else nullptr; lets
     * NS_COLLECTIVE_ALGORITHM_REGISTER find the cost beside the schedule
     */
    template <typename T>
    static AlphaBetaCost CostOf()
    {
        if constexpr (HasCost<T>(0))
        {
            return &T::AlphaBetaSeconds;
        }
        else
        {
            return nullptr;
        }
    }

  private:
    /// \return true where T has a static AlphaBetaSeconds of AlphaBetaCost's signature
    template <typename T>
    static constexpr bool HasCost(decltype(AlphaBetaCost(&T::AlphaBetaSeconds)))
    {
        return true;
    }

    /// \return false: T has no AlphaBetaSeconds
    template <typename T>
    static constexpr bool HasCost(...)
    {
        return false;
    }

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
        ns3::CollectiveRegistry::Register(operation,                                               \
                                          algorithm,                                               \
                                          type::GetTypeId(),                                       \
                                          ns3::CollectiveRegistry::CostOf<type>())

/**
 * \ingroup uniference
 * \brief Register an operation beyond torch.distributed's, with its bus bandwidth factor, in
 * the file of (one of) its algorithms:
 * \code
 *   NS_COLLECTIVE_OPERATION_REGISTER("gather_v", CollectiveRegistry::SHARE);
 * \endcode
 * \param operation the operation's name, as a string
 * \param busBandwidth a CollectiveRegistry::BusBandwidth
 */
#define NS_COLLECTIVE_OPERATION_REGISTER(operation, busBandwidth)                                  \
    [[maybe_unused]] static const bool NS_COLLECTIVE_REGISTRATION_VARIABLE(__LINE__) =             \
        ns3::CollectiveRegistry::RegisterOperation(operation, busBandwidth)

#endif /* COLLECTIVE_REGISTRY_H */
