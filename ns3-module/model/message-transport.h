/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef MESSAGE_TRANSPORT_H
#define MESSAGE_TRANSPORT_H

#include "ns3/application.h"
#include "ns3/callback.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief A reliable, ordered message transport between endpoints: the interface collectives
 * and users program against, whatever carries the bytes.
 *
 * Each endpoint (a node running one transport) has an endpoint id. Send() queues a message of
 * a given number of payload bytes for another endpoint; the receiving transport hands it,
 * once its last byte has arrived, to the ReceiveCallback registered for the message's channel
 * (Listen). Payloads are virtual: a message costs the time its bytes take on the network and
 * no memory. Messages from one endpoint to another arrive in the order they were sent, exactly
 * once. A message may be sent at any time, including before the application starts and from
 * inside a receive or sent callback.
 *
 * Channels are 64-bit numbers that demultiplex messages at the receiver. HELLO_CHANNEL is
 * reserved to the transport itself; Collective draws its channels from
 * Collective::FIRST_CHANNEL (2^63) upwards; other users keep below that.
 *
 * Implementations (TcpMessageTransport, over ns-3 TCP sockets) provide DoSend, call
 * NotifyMessageSent when a message starts to leave and Deliver when one has arrived; this base
 * keeps the endpoint id, the listeners and the trace sources, so every transport reports the
 * same events the same way.
 */
class MessageTransport : public Application
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    MessageTransport();
    ~MessageTransport() override;

    /**
     * Channel reserved to the transport's own frames (TcpMessageTransport opens every
     * connection with a hello on it); no listener may use it and no message may be sent on it.
     */
    static constexpr uint64_t HELLO_CHANNEL = UINT64_MAX;

    /**
     * Receives the messages of one channel.
     * Arguments: source endpoint id, the sender's cookie, payload bytes.
     */
    typedef Callback<void, uint32_t, uint64_t, uint64_t> ReceiveCallback;

    /**
     * TracedCallback signature for message events.
     *
     * \param [in] peer the destination endpoint (MessageQueued, MessageSent) or the source
     *             (MessageDelivered)
     * \param [in] channel the message's channel
     * \param [in] cookie the sender's cookie
     * \param [in] bytes the payload size
     */
    typedef void (*MessageTracedCallback)(uint32_t peer,
                                          uint64_t channel,
                                          uint64_t cookie,
                                          uint64_t bytes);

    /// \param id the id other endpoints address this one by
    void SetEndpointId(uint32_t id);
    /// \return the id other endpoints address this one by
    uint32_t GetEndpointId() const;

    /**
     * \brief Deliver the messages that arrive on a channel to a callback.
     *
     * A message that arrives on a channel without a listener is a fatal error, unless the
     * transport keeps such messages (SetKeepUnheard).
     *
     * \param channel the channel; at most one listener per channel
     * \param cb called once per complete message
     */
    void Listen(uint64_t channel, ReceiveCallback cb);

    /// \param channel a channel whose listener to remove
    void Unlisten(uint64_t channel);

    /**
     * \brief Keep messages that arrive on a channel without a listener, instead of failing.
     *
     * In a distributed simulation each process sets a collective up when the first of its own
     * participants enters, so a message from a participant in another process may arrive
     * first. It is delivered (MessageDelivered fires) when it arrives and handed to the
     * listener by ReleaseKept.
     * \param keep whether to keep them
     */
    void SetKeepUnheard(bool keep);
    /**
     * \brief Hand the messages kept for a channel, in arrival order, to its listener, now.
     * \param channel a channel with a listener
     */
    void ReleaseKept(uint64_t channel);

    /**
     * \brief Queue a message for another endpoint.
     *
     * \param dst the destination endpoint id
     * \param channel the channel the destination delivers the message on
     * \param cookie handed to the destination's listener unchanged
     * \param bytes payload size, may be 0
     * \param onSent called when the transport has handed the message's last byte to the
     *        network (for TCP: the local socket has accepted it); this may happen before Send
     *        returns
     */
    void Send(uint32_t dst,
              uint64_t channel,
              uint64_t cookie,
              uint64_t bytes,
              Callback<void> onSent = MakeNullCallback<void>());

    /**
     * \brief Messages this endpoint sent whose sent callback has not run yet, beyond those
     * still on their way to the destination.
     *
     * A transport whose sends complete when the bytes leave (TCP: in the socket) has none;
     * one whose sends complete only when the destination acknowledges them (RDMA) counts
     * those waiting for it, so that a caller waiting on such a send is known to wait on the
     * network rather than on another participant.
     *
     * \return the number of such messages
     */
    virtual uint64_t GetPendingSends() const;

  protected:
    void DoDispose() override;

    /**
     * \brief Carry a message that Send accepted (after the MessageQueued trace).
     *
     * \param dst the destination endpoint id
     * \param channel the destination channel, never HELLO_CHANNEL
     * \param cookie the sender's cookie
     * \param bytes payload size
     * \param onSent to call once the last byte is handed to the network; may be null
     */
    virtual void DoSend(uint32_t dst,
                        uint64_t channel,
                        uint64_t cookie,
                        uint64_t bytes,
                        Callback<void> onSent) = 0;

    /**
     * \brief Report that a message's first byte is being handed to the network.
     *
     * \param dst the destination endpoint id
     * \param channel the destination channel
     * \param cookie the sender's cookie
     * \param bytes payload size
     */
    void NotifyMessageSent(uint32_t dst, uint64_t channel, uint64_t cookie, uint64_t bytes);

    /**
     * \brief Hand a message whose last byte has arrived to its channel's listener.
     *
     * With a HandlingDelay, the listener gets it that much later (a delay drawn when the
     * message arrives while the endpoint is idle; one that arrives while the endpoint is still
     * due to hand on an earlier message goes with it), and messages keep their order.
     * A channel without a listener is a fatal error that names the endpoint and the channel.
     *
     * \param source the sender's endpoint id
     * \param channel the channel
     * \param cookie the sender's cookie
     * \param bytes payload size
     */
    void Deliver(uint32_t source, uint64_t channel, uint64_t cookie, uint64_t bytes);

  private:
    /**
     * Run the listener of a delivered message's channel.
     * \param source the sender's endpoint id
     * \param channel the channel
     * \param cookie the sender's cookie
     * \param bytes payload size
     */
    void HandOn(uint32_t source, uint64_t channel, uint64_t cookie, uint64_t bytes);

    uint32_t m_endpointId;                                     //!< This endpoint's id
    std::unordered_map<uint64_t, ReceiveCallback> m_listeners; //!< Channel to listener
    /// A message kept for a channel without a listener: source, cookie, bytes.
    struct Kept
    {
        uint32_t source; //!< Its sender
        uint64_t cookie; //!< Its cookie
        uint64_t bytes;  //!< Its size
    };
    bool m_keepUnheard{false};                             //!< SetKeepUnheard
    std::unordered_map<uint64_t, std::vector<Kept>> m_kept; //!< Channel to its kept messages
    Ptr<RandomVariableStream> m_handlingDelay; //!< HandlingDelay attribute, in seconds; may be null
    Time m_handedOnUntil; //!< When the last delayed message is handed on

    /// Send accepted a message.
    TracedCallback<uint32_t, uint64_t, uint64_t, uint64_t> m_messageQueuedTrace;
    /// A message's first byte was handed to the network.
    TracedCallback<uint32_t, uint64_t, uint64_t, uint64_t> m_messageSentTrace;
    /// A message's last byte arrived and the message was handed to its listener.
    TracedCallback<uint32_t, uint64_t, uint64_t, uint64_t> m_messageDeliveredTrace;
};

} // namespace ns3

#endif /* MESSAGE_TRANSPORT_H */
