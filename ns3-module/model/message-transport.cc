/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "message-transport.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/pointer.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("MessageTransport");

NS_OBJECT_ENSURE_REGISTERED(MessageTransport);

TypeId
MessageTransport::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::MessageTransport")
            .SetParent<Application>()
            .SetGroupName("Uniference")
            .AddAttribute("EndpointId",
                          "The id other endpoints address this one by.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&MessageTransport::m_endpointId),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("HandlingDelay",
                          "Seconds the endpoint's software takes to hand an arrived message to "
                          "its listener, drawn per message that finds the endpoint idle (a "
                          "communication library's event-loop thread being woken on a busy "
                          "host); null: at once.",
                          PointerValue(),
                          MakePointerAccessor(&MessageTransport::m_handlingDelay),
                          MakePointerChecker<RandomVariableStream>())
            .AddTraceSource("MessageQueued",
                            "Send accepted a message; it waits for its connection and for the "
                            "messages ahead of it (destination, channel, cookie, payload bytes).",
                            MakeTraceSourceAccessor(&MessageTransport::m_messageQueuedTrace),
                            "ns3::MessageTransport::MessageTracedCallback")
            .AddTraceSource("MessageSent",
                            "The first byte of a message was handed to the network "
                            "(destination, channel, cookie, payload bytes).",
                            MakeTraceSourceAccessor(&MessageTransport::m_messageSentTrace),
                            "ns3::MessageTransport::MessageTracedCallback")
            .AddTraceSource("MessageDelivered",
                            "A message arrived completely and was handed to its listener "
                            "(source, channel, cookie, payload bytes).",
                            MakeTraceSourceAccessor(&MessageTransport::m_messageDeliveredTrace),
                            "ns3::MessageTransport::MessageTracedCallback");
    return tid;
}

MessageTransport::MessageTransport()
    : m_endpointId(0),
      m_handedOnUntil(Time::Min())
{
    NS_LOG_FUNCTION(this);
}

MessageTransport::~MessageTransport()
{
    NS_LOG_FUNCTION(this);
}

void
MessageTransport::SetEndpointId(uint32_t id)
{
    NS_LOG_FUNCTION(this << id);
    m_endpointId = id;
}

uint32_t
MessageTransport::GetEndpointId() const
{
    return m_endpointId;
}

void
MessageTransport::Listen(uint64_t channel, ReceiveCallback cb)
{
    NS_LOG_FUNCTION(this << channel);
    NS_ABORT_MSG_IF(channel == HELLO_CHANNEL,
                    "endpoint " << m_endpointId << ": channel " << channel << " is reserved");
    NS_ABORT_MSG_IF(cb.IsNull(),
                    "endpoint " << m_endpointId << ": null listener for channel " << channel);
    bool inserted = m_listeners.emplace(channel, cb).second;
    NS_ABORT_MSG_UNLESS(inserted,
                        "endpoint " << m_endpointId << ": channel " << channel
                                    << " already has a listener");
}

void
MessageTransport::Unlisten(uint64_t channel)
{
    NS_LOG_FUNCTION(this << channel);
    m_listeners.erase(channel);
}

void
MessageTransport::Send(uint32_t dst,
                       uint64_t channel,
                       uint64_t cookie,
                       uint64_t bytes,
                       Callback<void> onSent)
{
    NS_LOG_FUNCTION(this << dst << channel << cookie << bytes);
    NS_ABORT_MSG_IF(channel == HELLO_CHANNEL,
                    "endpoint " << m_endpointId << ": Send to endpoint " << dst << " on channel "
                                << channel << ", which is reserved");
    m_messageQueuedTrace(dst, channel, cookie, bytes);
    DoSend(dst, channel, cookie, bytes, onSent);
}

uint64_t
MessageTransport::GetPendingSends() const
{
    return 0;
}

void
MessageTransport::DoDispose()
{
    NS_LOG_FUNCTION(this);
    // A listener may hold the last reference to an unfinished collective, whose disposal
    // calls Unlisten on this transport: empty the map before the callbacks die.
    auto listeners = std::move(m_listeners);
    m_listeners.clear();
    listeners.clear();
    Application::DoDispose();
}

void
MessageTransport::NotifyMessageSent(uint32_t dst, uint64_t channel, uint64_t cookie, uint64_t bytes)
{
    NS_LOG_LOGIC("endpoint " << m_endpointId << " sends message to " << dst << " channel "
                             << channel << " cookie " << cookie << " bytes " << bytes);
    m_messageSentTrace(dst, channel, cookie, bytes);
}

void
MessageTransport::Deliver(uint32_t source, uint64_t channel, uint64_t cookie, uint64_t bytes)
{
    NS_LOG_LOGIC("endpoint " << m_endpointId << " delivers message from " << source << " channel "
                             << channel << " cookie " << cookie << " bytes " << bytes);
    if (!m_handlingDelay)
    {
        HandOn(source, channel, cookie, bytes);
        return;
    }
    const Time now = Simulator::Now();
    if (now > m_handedOnUntil)
    {
        m_handedOnUntil = now + Seconds(std::max(0.0, m_handlingDelay->GetValue()));
    }
    Simulator::Schedule(m_handedOnUntil - now,
                        &MessageTransport::HandOn,
                        this,
                        source,
                        channel,
                        cookie,
                        bytes);
}

void
MessageTransport::SetKeepUnheard(bool keep)
{
    m_keepUnheard = keep;
}

void
MessageTransport::ReleaseKept(uint64_t channel)
{
    auto kept = m_kept.find(channel);
    if (kept == m_kept.end())
    {
        return;
    }
    const std::vector<Kept> messages = std::move(kept->second);
    m_kept.erase(kept);
    for (const Kept& message : messages)
    {
        // Looked up each time: the listener may Unlisten its channel when it completes.
        auto it = m_listeners.find(channel);
        NS_ABORT_MSG_IF(it == m_listeners.end(),
                        "endpoint " << m_endpointId << ": a message kept for channel " << channel
                                    << " has no listener to take it");
        ReceiveCallback listener = it->second;
        listener(message.source, message.cookie, message.bytes);
    }
}

void
MessageTransport::HandOn(uint32_t source, uint64_t channel, uint64_t cookie, uint64_t bytes)
{
    auto it = m_listeners.find(channel);
    if (it == m_listeners.end() && m_keepUnheard)
    {
        m_messageDeliveredTrace(source, channel, cookie, bytes);
        m_kept[channel].push_back(Kept{source, cookie, bytes});
        return;
    }
    if (it == m_listeners.end())
    {
        NS_FATAL_ERROR("endpoint " << m_endpointId << " at " << Simulator::Now().As(Time::US)
                                   << ": message from endpoint " << source << " on channel "
                                   << channel << " (cookie " << cookie << ", " << bytes
                                   << " bytes), which has no listener");
    }
    // The listener may Unlisten its own channel, which destroys the stored callback.
    ReceiveCallback listener = it->second;
    m_messageDeliveredTrace(source, channel, cookie, bytes);
    listener(source, cookie, bytes);
}

} // namespace ns3
