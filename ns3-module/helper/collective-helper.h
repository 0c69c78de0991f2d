/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_HELPER_H
#define COLLECTIVE_HELPER_H

#include "ns3/attribute.h"
#include "ns3/collective-registry.h"
#include "ns3/application-container.h"
#include "ns3/collective.h"
#include "ns3/object-factory.h"
#include "ns3/ptr.h"
#include "ns3/type-id.h"

#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief Creates collectives by operation and algorithm name, with attributes.
 *
 * Operations are named as in torch.distributed ("all_reduce", "all_gather", "broadcast",
 * "barrier"); each has one or more algorithms, registered by the class that implements them
 * with NS_COLLECTIVE_ALGORITHM_REGISTER in its own .cc file. The module registers
 * all_reduce/ring (RingAllReduce), all_gather/ring (RingAllGather), broadcast/ring
 * (RingBroadcast) and barrier/dissemination (Barrier).
 *
 * \code
 *   CollectiveHelper helper("all_reduce", "ring");
 *   helper.SetAttribute("ChunkBytes", UintegerValue(1 << 20));
 *   Ptr<Collective> allReduce = helper.Create();
 *   allReduce->Setup(star.GetTransports(), 64 << 20);
 * \endcode
 *
 * The static functions list and check what is registered without creating anything; together
 * with CheckAttributeValue they let a program validate user input before it builds anything.
 */
class CollectiveHelper
{
  public:
    /**
     * \brief Choose the algorithm this helper creates.
     *
     * An operation or algorithm that is not registered is a fatal error naming the registered
     * ones.
     *
     * \param operation for example "all_reduce"
     * \param algorithm for example "ring"
     */
    CollectiveHelper(const std::string& operation, const std::string& algorithm);

    /**
     * \brief Set an attribute of every collective this helper creates from now on.
     *
     * An attribute the algorithm does not have, or a value that is not valid for it, is a
     * fatal error that says why (the algorithm's attributes, the attribute's type); check user
     * input first with CheckAttributeValue (GetTypeId(operation, algorithm), name, value).
     *
     * \param name an attribute of the algorithm's TypeId or of its parents
     * \param value its value
     */
    void SetAttribute(const std::string& name, const AttributeValue& value);

    /**
     * \return a new collective with the attributes set so far; the caller sets it up
     *         (Collective::Setup) and lets its participants enter
     */
    Ptr<Collective> Create() const;

    /**
     * \brief Create a collective, set it up over the transports, and install on each
     * transport's node a CollectiveApplication that enters it when the application starts.
     * \param transports the participants' transports, in group order
     * \param bytes the operation's size S
     * \return the applications, in group order (start and stop them as usual); in a
     * distributed simulation, only those of this process's nodes (Simulator::GetSystemId),
     * as the other processes run the rest
     */
    ApplicationContainer Install(std::vector<Ptr<MessageTransport>> transports, uint64_t bytes) const;

    /// \return the registered operations, in alphabetical order
    static std::vector<std::string> GetOperations();

    /**
     * \param operation an operation
     * \return its registered algorithms in alphabetical order; none for an unknown operation
     */
    static std::vector<std::string> GetAlgorithms(const std::string& operation);

    /**
     * \param operation an operation
     * \param algorithm an algorithm
     * \return whether the pair is registered
     */
    static bool IsRegistered(const std::string& operation, const std::string& algorithm);

    /**
     * \param operation a registered operation
     * \param algorithm one of its registered algorithms
     * \return the TypeId that implements it; a fatal error naming the registered operations or
     *         algorithms when the pair is unknown
     */
    static TypeId GetTypeId(const std::string& operation, const std::string& algorithm);

  private:
    std::string m_operation; //!< The operation, for error messages
    std::string m_algorithm; //!< The algorithm, for error messages
    ObjectFactory m_factory; //!< Creates the collectives
};

} // namespace ns3

#endif /* COLLECTIVE_HELPER_H */
