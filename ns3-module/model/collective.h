/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_H
#define COLLECTIVE_H

#include "message-transport.h"

#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/object.h"
#include "ns3/ptr.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief A collective operation among a group of endpoints, as a schedule of point-to-point
 * messages over their MessageTransports.
 *
 * Only the timing of a collective is simulated: messages carry the byte counts the algorithm
 * moves, and a participant is complete when, in a real run, it would hold the final result.
 * Subclasses define the schedule, and register themselves under an operation and an algorithm
 * name with NS_COLLECTIVE_ALGORITHM_REGISTER in their .cc file.
 *
 * Use: create one instance per operation (CollectiveHelper creates them by name), Setup() it with
 * the participants in group order and the buffer size, then let each participant Enter() at the
 * simulated time it calls the operation. Participants may enter at different times; messages that
 * reach a participant before it entered are kept until it does. Each instance draws a channel of
 * its own from the range starting at FIRST_CHANNEL, so any number of collectives may run at once
 * over the same transports, and users of MessageTransport::Listen keep to the channels below it.
 *
 * The byte count follows nccl-tests' S: the per-rank buffer of an all-reduce, the whole output
 * of an all-gather, the buffer of a broadcast.
 */
class Collective : public Object
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    Collective();
    ~Collective() override;

    /// First of the channels collectives use on the participants' transports.
    static constexpr uint64_t FIRST_CHANNEL = uint64_t(1) << 63;

    /**
     * TracedCallback signature for participant events.
     * \param [in] index the participant's index in the group
     */
    typedef void (*ParticipantTracedCallback)(uint32_t index);

    /**
     * \brief Set the group and the size of the operation, and listen on every participant.
     * \param participants the participants' transports, in group order; one per endpoint
     * \param bytes the operation's size S, in the sense of nccl-tests
     */
    void Setup(std::vector<Ptr<MessageTransport>> participants, uint64_t bytes);

    /**
     * \brief A participant joins the operation now.
     * \param index the participant's index in the group
     */
    void Enter(uint32_t index);

    /**
     * \param cb called with a participant's index when its part of the operation is complete;
     *        this may happen inside Enter (a group of one, or a broadcast root whose socket
     *        takes all the data at once)
     */
    void SetCompletionCallback(Callback<void, uint32_t> cb);

    /// \return whether every participant is complete
    bool IsFinished() const;

    /// \return the number of participants
    uint32_t GetN() const;
    /// \return the operation's size S
    uint64_t GetBytes() const;
    /// \return the channel this instance uses on the participants' transports
    uint64_t GetChannel() const;
    /**
     * \brief Before Setup: use this channel instead of the one drawn at construction. The
     * processes of a distributed simulation each create the collectives whose participants
     * they run, each in its own order; the same call must have the same channel in all of
     * them. Channels below FIRST_CHANNEL are the caller's to keep unique.
     * \param channel the channel, below FIRST_CHANNEL
     */
    void SetChannel(uint64_t channel);
    /**
     * \param index a participant's index in the group
     * \return its transport
     */
    Ptr<MessageTransport> GetParticipant(uint32_t index) const;
    /**
     * \param index a participant's index in the group
     * \return whether it has entered
     */
    bool HasEntered(uint32_t index) const;
    /**
     * \param index a participant's index in the group
     * \return whether its part is complete
     */
    bool IsComplete(uint32_t index) const;
    /**
     * \param index a participant's index in the group, which has entered
     * \return when it entered
     */
    Time GetEnterTime(uint32_t index) const;
    /**
     * \param index a participant's index in the group, which is complete
     * \return when it completed
     */
    Time GetCompletionTime(uint32_t index) const;

    /**
     * \brief The factor nccl-tests multiplies algorithm bandwidth (S / time) by to get bus
     * bandwidth, for this operation and group size.
     * \return the factor
     */
    virtual double GetBusBandwidthFactor() const = 0;

    /**
     * \brief Split a buffer into nearly equal parts, the first total % parts one byte larger.
     * \param total the bytes to split
     * \param parts the number of parts
     * \param k a part's index
     * \return the size of part k
     */
    static uint64_t GetChunkBytes(uint64_t total, uint32_t parts, uint32_t k);

  protected:
    void DoDispose() override;

    /// Prepare the schedule; GetN() and GetBytes() are known.
    virtual void DoSetup() = 0;
    /**
     * A participant entered.
     * \param index the participant
     */
    virtual void DoEnter(uint32_t index) = 0;
    /**
     * A message of this collective arrived at a participant, entered or not.
     * \param index the receiving participant
     * \param from the sending participant
     * \param cookie the cookie the sender attached
     * \param bytes the payload size
     */
    virtual void DoReceive(uint32_t index, uint32_t from, uint64_t cookie, uint64_t bytes) = 0;

    /**
     * Send a message of this collective between two participants.
     * \param from the sending participant
     * \param to the receiving participant
     * \param cookie attached to the message
     * \param bytes the payload size
     * \param onSent called when the sender's socket has accepted the last byte
     */
    void SendTo(uint32_t from,
                uint32_t to,
                uint64_t cookie,
                uint64_t bytes,
                Callback<void> onSent = MakeNullCallback<void>());

    /**
     * Mark a participant complete, and the collective finished when it was the last one.
     * \param index the participant
     */
    void Complete(uint32_t index);

  private:
    /**
     * A message of this collective arrived at a participant's transport.
     * \param index the receiving participant
     * \param sourceEndpoint the sender's endpoint id
     * \param cookie the cookie
     * \param bytes the payload size
     */
    void HandleReceive(uint32_t index, uint32_t sourceEndpoint, uint64_t cookie, uint64_t bytes);

    static uint64_t s_nextChannel; //!< Channel of the next instance

    uint64_t m_channel;                                       //!< This instance's channel
    uint64_t m_bytes;                                         //!< The operation's size S
    bool m_setup;                                             //!< Setup has run
    bool m_listening;                                         //!< Listeners are registered
    std::vector<Ptr<MessageTransport>> m_participants;        //!< Transports in group order
    std::unordered_map<uint32_t, uint32_t> m_indexOfEndpoint; //!< Endpoint id to index
    std::vector<bool> m_entered;                              //!< Per participant
    std::vector<bool> m_complete;                             //!< Per participant
    std::vector<Time> m_enterTime;                            //!< Per participant
    std::vector<Time> m_completionTime;                       //!< Per participant
    uint32_t m_completeCount;                                 //!< Participants complete
    Callback<void, uint32_t> m_completionCallback;            //!< Told of each completion
    TracedCallback<uint32_t> m_enteredTrace;                  //!< A participant entered
    TracedCallback<uint32_t> m_completedTrace;                //!< A participant completed
};

} // namespace ns3

#endif /* COLLECTIVE_H */
