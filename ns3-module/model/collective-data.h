/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_DATA_H
#define COLLECTIVE_DATA_H

#include "collective-program.h"

#include "ns3/simple-ref-count.h"

#include <memory>
#include <vector>

namespace ns3
{

/**
 * \ingroup uniference
 * \brief The contents of a message a participant sent, taken when the send ran.
 */
class CollectivePayload
{
  public:
    virtual ~CollectivePayload();
};

/**
 * \ingroup uniference
 *
 * \brief The data of a ScheduledCollective's participants, moved and reduced as its programs
 * say.
 *
 * Without one a collective simulates timing only (a data-free run); with one, every message
 * carries the contents of its region at the time its send ran, and every receive writes them,
 * so a wrong schedule gives a wrong result. Implementations hold the participants' buffers
 * (CollectiveProgram names them) and the operation's reduction.
 */
class CollectiveData : public SimpleRefCount<CollectiveData>
{
  public:
    virtual ~CollectiveData();

    /**
     * \brief A participant entered; its buffers must be ready.
     * \param participant the participant
     * \param scratchCount the elements of SCRATCH its program asked for
     */
    virtual void Prepare(uint32_t participant, uint64_t scratchCount) = 0;
    /**
     * \param participant the sender
     * \param region what it sends
     * \return a copy of the region's current contents
     */
    virtual std::unique_ptr<CollectivePayload> Capture(uint32_t participant,
                                                       const CollectiveProgram::Region& region) = 0;
    /**
     * \brief Write a received message into a region.
     * \param participant the receiver
     * \param into the region
     * \param payload what Capture took at the sender
     * \param action copy or reduce
     */
    virtual void Deliver(uint32_t participant,
                         const CollectiveProgram::Region& into,
                         const CollectivePayload& payload,
                         CollectiveProgram::Action action) = 0;
    /**
     * \brief Copy or reduce between two regions of one participant.
     * \param participant the participant
     * \param into the destination
     * \param from the source
     * \param action copy or reduce
     */
    virtual void Local(uint32_t participant,
                       const CollectiveProgram::Region& into,
                       const CollectiveProgram::Region& from,
                       CollectiveProgram::Action action) = 0;

    /**
     * \brief Take a payload to a participant that another process of a distributed
     * simulation runs (its message's packets carry no values). The default refuses: data that
     * lives in one process's memory cannot cross.
     * \param from the sending participant
     * \param to the receiving participant
     * \param channel the collective's channel
     * \param sequence the message's sequence number from `from` to `to`
     * \param payload what Capture gave
     */
    virtual void SendAcross(uint32_t from,
                            uint32_t to,
                            uint64_t channel,
                            uint32_t sequence,
                            std::unique_ptr<CollectivePayload> payload);
    /**
     * \brief The payload that `from`, in another process, sent across to `to` (run here).
     * \return it, once its message has been delivered
     */
    virtual std::unique_ptr<CollectivePayload> ReceiveAcross(uint32_t from,
                                                             uint32_t to,
                                                             uint64_t channel,
                                                             uint32_t sequence);
};

/**
 * \ingroup uniference
 *
 * \brief CollectiveData over plain vectors of doubles, reduced by summing: for plain ns-3
 * programs and tests that check what a schedule computes.
 */
class VectorCollectiveData : public CollectiveData
{
  public:
    /// One participant's buffers.
    struct Buffers
    {
        std::vector<double> input;   //!< INPUT
        std::vector<double> output;  //!< OUTPUT
        std::vector<double> scratch; //!< SCRATCH, sized by Prepare
    };

    /**
     * \param participants the group size
     */
    explicit VectorCollectiveData(uint32_t participants);

    /**
     * \param participant a participant
     * \return its buffers, to fill before it enters and to read after it completes
     */
    Buffers& Get(uint32_t participant);

    void Prepare(uint32_t participant, uint64_t scratchCount) override;
    std::unique_ptr<CollectivePayload> Capture(uint32_t participant,
                                               const CollectiveProgram::Region& region) override;
    void Deliver(uint32_t participant,
                 const CollectiveProgram::Region& into,
                 const CollectivePayload& payload,
                 CollectiveProgram::Action action) override;
    void Local(uint32_t participant,
               const CollectiveProgram::Region& into,
               const CollectiveProgram::Region& from,
               CollectiveProgram::Action action) override;

  private:
    /**
     * \param participant a participant
     * \param region a region of its buffers
     * \return the region's first element, after checking it lies inside its buffer
     */
    double* Locate(uint32_t participant, const CollectiveProgram::Region& region);
    /**
     * Copy or sum values into a region.
     * \param into the destination's first element
     * \param from the values
     * \param count how many
     * \param action copy or reduce
     */
    static void Write(double* into, const double* from, uint64_t count, CollectiveProgram::Action action);

    std::vector<Buffers> m_buffers; //!< Per participant
};

} // namespace ns3

#endif /* COLLECTIVE_DATA_H */
