/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "scheduled-collective.h"

#include "collective-registry.h"

#include "ns3/abort.h"
#include "ns3/double.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cmath>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("ScheduledCollective");

NS_OBJECT_ENSURE_REGISTERED(ScheduledCollective);

TypeId
ScheduledCollective::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::ScheduledCollective")
            .SetParent<Collective>()
            .SetGroupName("Uniference")
            .AddAttribute("Root",
                          "Index of the root participant, for the operations that have one "
                          "(broadcast, reduce, gather, scatter).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&ScheduledCollective::m_root),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("ElementBytes",
                          "Bytes of one element; the operation's size must be a multiple of it, "
                          "and no message splits an element.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&ScheduledCollective::m_elementBytes),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("MessageOverhead",
                          "Bytes every message carries beyond its data: the library's headers "
                          "(Gloo: a 48-byte preamble and its 48-byte send-ready notice).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&ScheduledCollective::m_messageOverhead),
                          MakeUintegerChecker<uint64_t>())
            .AddAttribute("DataWireFactor",
                          "Bytes on the wire per byte of data, rounded up per message: a "
                          "protocol that sends flags with its data (NCCL's LL: one 8-byte flag "
                          "with every 8 bytes, 2; LL128: 8 in every 128, 128/120).",
                          DoubleValue(1.0),
                          MakeDoubleAccessor(&ScheduledCollective::m_dataWireFactor),
                          MakeDoubleChecker<double>(1.0))
            .AddAttribute("ReadyBytes",
                          "0, or make every message a rendezvous: the receiver, once its receive "
                          "may run, sends the sender a notice of this many bytes, and the data "
                          "leaves only after it has arrived (Gloo's TCP pairs: 48).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&ScheduledCollective::m_readyBytes),
                          MakeUintegerChecker<uint64_t>());
    return tid;
}

ScheduledCollective::ScheduledCollective(std::string operation)
    : m_operation(std::move(operation)),
      m_root(0),
      m_elementBytes(1),
      m_messageOverhead(0),
      m_dataWireFactor(1.0),
      m_readyBytes(0),
      m_draining(false)
{
    NS_LOG_FUNCTION(this << m_operation);
}

ScheduledCollective::~ScheduledCollective()
{
    NS_LOG_FUNCTION(this);
}

void
ScheduledCollective::DoDispose()
{
    m_runners.clear();
    m_inFlight.clear();
    m_early.clear();
    m_cleared.clear();
    m_data = nullptr;
    Collective::DoDispose();
}

void
ScheduledCollective::SetData(Ptr<CollectiveData> data)
{
    m_data = data;
}

bool
ScheduledCollective::TakesUnevenSplits() const
{
    return true;
}

void
ScheduledCollective::SetSplits(uint32_t index,
                               std::vector<uint64_t> sendCounts,
                               std::vector<uint64_t> recvCounts)
{
    if (m_splits.size() <= index)
    {
        m_splits.resize(index + 1);
    }
    m_splits[index] = {std::move(sendCounts), std::move(recvCounts)};
}

const std::string&
ScheduledCollective::GetOperation() const
{
    return m_operation;
}

uint64_t
ScheduledCollective::GetCount() const
{
    return GetBytes() / m_elementBytes;
}

uint32_t
ScheduledCollective::GetElementBytes() const
{
    return m_elementBytes;
}

uint32_t
ScheduledCollective::GetRoot() const
{
    return m_root;
}

double
ScheduledCollective::GetBusBandwidthFactor(const std::string& operation, uint32_t n)
{
    return CollectiveRegistry::GetBusBandwidthFactor(operation, n);
}

double
ScheduledCollective::GetBusBandwidthFactor() const
{
    return GetBusBandwidthFactor(m_operation, GetN());
}

std::vector<CollectiveProgram::Region>
ScheduledCollective::Pieces(const CollectiveProgram::Region& region, uint64_t chunkBytes) const
{
    return CollectiveProgram::Slice(
        region,
        chunkBytes == 0 ? 0 : std::max<uint64_t>(1, chunkBytes / m_elementBytes));
}

std::vector<CollectiveProgram::Region>
ScheduledCollective::Blocks(CollectiveProgram::Buffer buffer, const std::vector<uint64_t>& counts)
{
    std::vector<CollectiveProgram::Region> blocks;
    uint64_t offset = 0;
    for (uint64_t count : counts)
    {
        blocks.push_back(CollectiveProgram::Region{buffer, offset, count});
        offset += count;
    }
    return blocks;
}

std::vector<uint64_t>
ScheduledCollective::GetSendCounts(uint32_t index) const
{
    if (index < m_splits.size() && !m_splits[index].first.empty())
    {
        return m_splits[index].first;
    }
    return std::vector<uint64_t>(GetN(), GetCount() / GetN());
}

std::vector<uint64_t>
ScheduledCollective::GetRecvCounts(uint32_t index) const
{
    if (index < m_splits.size() && !m_splits[index].second.empty())
    {
        return m_splits[index].second;
    }
    return std::vector<uint64_t>(GetN(), GetCount() / GetN());
}

CollectiveProgram
ScheduledCollective::GetProgram(uint32_t index) const
{
    NS_ABORT_MSG_UNLESS(index < GetN(),
                        m_operation << ": no participant " << index << " in a group of " << GetN());
    CollectiveProgram program(index);
    BuildProgram(index, program);
    return program;
}

void
ScheduledCollective::DoSetup()
{
    NS_ABORT_MSG_UNLESS(GetBytes() % m_elementBytes == 0,
                        GetInstanceTypeId().GetName()
                            << ": " << GetBytes() << " bytes are not a whole number of "
                            << m_elementBytes << "-byte elements");
    NS_ABORT_MSG_UNLESS(m_root < GetN(),
                        GetInstanceTypeId().GetName()
                            << ": Root " << m_root << " in a group of " << GetN());
    uint32_t n = GetN();
    m_runners.resize(n);
    m_early.assign(n, {});
    m_cleared.assign(n, {});
    m_inFlight.resize(n);
    m_splits.resize(n);
}

uint64_t
ScheduledCollective::Key(uint32_t from, uint32_t sequence)
{
    return (uint64_t(from) << 32) | sequence;
}

uint64_t
ScheduledCollective::WireBytes(const CollectiveProgram::Op& op) const
{
    const uint64_t data = op.region.count * m_elementBytes;
    const uint64_t wireData =
        m_dataWireFactor == 1.0 ? data : uint64_t(std::ceil(double(data) * m_dataWireFactor));
    return wireData + op.extraBytes + m_messageOverhead;
}

CollectiveProgram::Step
ScheduledCollective::ReceiveStep(uint32_t index, uint32_t from, uint32_t sequence, uint64_t bytes) const
{
    const Runner& r = *m_runners[index];
    NS_ABORT_MSG_UNLESS(from < r.receives.size() && sequence < r.receives[from].size(),
                        GetInstanceTypeId().GetName()
                            << " on channel " << GetChannel() << ": participant " << index
                            << " got message #" << sequence << " from " << from
                            << ", which its program does not receive");
    CollectiveProgram::Step step = r.receives[from][sequence];
    uint64_t expected = WireBytes(r.program.GetOps()[step]);
    NS_ABORT_MSG_UNLESS(bytes == expected,
                        GetInstanceTypeId().GetName()
                            << " on channel " << GetChannel() << ": a message of " << bytes
                            << " bytes for " << r.program.Describe(step) << ", which expects "
                            << expected);
    return step;
}

std::unique_ptr<ScheduledCollective::Runner>
ScheduledCollective::MakeRunner(uint32_t index) const
{
    auto runner = std::make_unique<Runner>();
    runner->program = GetProgram(index);
    const auto& ops = runner->program.GetOps();
    const auto& dependencies = runner->program.GetDependencies();
    uint32_t steps = ops.size();
    runner->waitingFor.resize(steps);
    runner->flags.assign(steps, 0);
    // Dependents in compressed rows: count, prefix-sum, fill.
    runner->firstDependent.assign(steps + 1, 0);
    for (uint32_t s = 0; s < steps; ++s)
    {
        runner->waitingFor[s] = ops[s].dependencyCount;
        for (uint32_t d = 0; d < ops[s].dependencyCount; ++d)
        {
            ++runner->firstDependent[dependencies[ops[s].firstDependency + d] + 1];
        }
    }
    for (uint32_t s = 0; s < steps; ++s)
    {
        runner->firstDependent[s + 1] += runner->firstDependent[s];
    }
    runner->dependents.resize(dependencies.size());
    std::vector<uint32_t> fill(runner->firstDependent.begin(), runner->firstDependent.end() - 1);
    for (uint32_t s = 0; s < steps; ++s)
    {
        for (uint32_t d = 0; d < ops[s].dependencyCount; ++d)
        {
            runner->dependents[fill[dependencies[ops[s].firstDependency + d]]++] = s;
        }
    }
    // Sends and receives by peer, in sequence order, to match messages and ready notices.
    for (uint32_t s = 0; s < steps; ++s)
    {
        const CollectiveProgram::Op& op = ops[s];
        if (op.kind == CollectiveProgram::LOCAL)
        {
            continue;
        }
        NS_ABORT_MSG_UNLESS(op.peer < GetN(),
                            GetInstanceTypeId().GetName() << ": " << runner->program.Describe(s)
                                                          << " names no participant");
        auto& byPeer = op.kind == CollectiveProgram::RECV ? runner->receives : runner->sends;
        if (byPeer.size() <= op.peer)
        {
            byPeer.resize(op.peer + 1);
        }
        byPeer[op.peer].push_back(s);
    }
    return runner;
}

void
ScheduledCollective::DoEnter(uint32_t index)
{
    NS_LOG_FUNCTION(this << index);
    m_runners[index] = MakeRunner(index);
    Runner& r = *m_runners[index];
    NS_LOG_LOGIC(GetInstanceTypeId().GetName()
                 << " participant " << index << " enters: " << r.program.GetOps().size()
                 << " steps, " << m_early[index].size() << " messages arrived before it");
    for (const auto& [key, bytes] : m_early[index])
    {
        CollectiveProgram::Step step = ReceiveStep(index, key >> 32, key & 0xffffffffu, bytes);
        r.flags[step] |= ARRIVED;
    }
    m_early[index].clear();
    if (m_data)
    {
        m_data->Prepare(index, r.program.GetScratchCount());
    }
    uint32_t steps = r.program.GetOps().size();
    if (steps == 0)
    {
        Complete(index);
        return;
    }
    for (uint32_t s = 0; s < steps; ++s)
    {
        if (r.waitingFor[s] == 0)
        {
            m_ready.emplace_back(index, s);
        }
    }
    Drain();
}

void
ScheduledCollective::DoReceive(uint32_t index, uint32_t from, uint64_t cookie, uint64_t bytes)
{
    if (cookie & READY_COOKIE)
    {
        HandleReady(index, from, uint32_t(cookie & ~READY_COOKIE));
        return;
    }
    uint64_t key = Key(from, uint32_t(cookie));
    if (!m_runners[index])
    {
        NS_LOG_LOGIC("participant " << index << " has not entered: holds message #"
                                    << uint32_t(cookie) << " from " << from << " (" << bytes
                                    << " bytes)");
        m_early[index].emplace(key, bytes);
        return;
    }
    Runner& r = *m_runners[index];
    CollectiveProgram::Step step = ReceiveStep(index, from, uint32_t(cookie), bytes);
    r.flags[step] |= ARRIVED;
    if (r.flags[step] & READY)
    {
        Ptr<ScheduledCollective> alive = this; // as in Sent: Finish may release the last owner
        Finish(index, step);
        Drain();
    }
}

void
ScheduledCollective::Drain()
{
    if (m_draining)
    {
        return;
    }
    m_draining = true;
    Ptr<ScheduledCollective> self = this; // completions may drop the last outside reference
    while (!m_ready.empty())
    {
        // In the order they became ready, so that a program's sends queue in its own order.
        auto [index, step] = m_ready.front();
        m_ready.pop_front();
        Start(index, step);
    }
    m_draining = false;
}

void
ScheduledCollective::Start(uint32_t index, CollectiveProgram::Step step)
{
    Runner& r = *m_runners[index];
    const CollectiveProgram::Op& op = r.program.GetOps()[step];
    r.flags[step] |= READY;
    NS_LOG_LOGIC("starts " << r.program.Describe(step) << ", "
                           << (op.kind == CollectiveProgram::LOCAL ? 0 : WireBytes(op))
                           << " bytes on the wire");
    switch (op.kind)
    {
    case CollectiveProgram::SEND:
        if (m_readyBytes == 0 || m_cleared[index].erase(Key(op.peer, op.sequence)) > 0)
        {
            Transmit(index, step);
        }
        else
        {
            NS_LOG_LOGIC("participant " << index << " waits for " << op.peer << "'s ready notice");
        }
        break;
    case CollectiveProgram::RECV:
        if (m_readyBytes > 0)
        {
            NS_LOG_LOGIC("participant " << index << " tells " << op.peer << " it is ready");
            SendTo(index, op.peer, READY_COOKIE | op.sequence, m_readyBytes);
        }
        if (r.flags[step] & ARRIVED)
        {
            Finish(index, step);
        }
        break;
    case CollectiveProgram::LOCAL:
        if (m_data)
        {
            m_data->Local(index, op.region, op.source, op.action);
        }
        Finish(index, step);
        break;
    }
}

bool
ScheduledCollective::RunsHere(uint32_t participant) const
{
    return GetParticipant(participant)->GetNode()->GetSystemId() == Simulator::GetSystemId();
}

void
ScheduledCollective::Transmit(uint32_t index, CollectiveProgram::Step step)
{
    const CollectiveProgram::Op& op = m_runners[index]->program.GetOps()[step];
    NS_LOG_LOGIC("participant " << index << " sends #" << op.sequence << " to " << op.peer << ": "
                                << WireBytes(op) << " bytes");
    if (m_data && RunsHere(op.peer))
    {
        m_inFlight[op.peer][Key(index, op.sequence)] = m_data->Capture(index, op.region);
    }
    else if (m_data)
    {
        m_data->SendAcross(index, op.peer, GetChannel(), op.sequence, m_data->Capture(index, op.region));
    }
    SendTo(index,
           op.peer,
           op.sequence,
           WireBytes(op),
           MakeBoundCallback(&ScheduledCollective::Sent, this, index, step));
}

void
ScheduledCollective::HandleReady(uint32_t index, uint32_t to, uint32_t sequence)
{
    Runner* r = m_runners[index].get();
    if (r && to < r->sends.size() && sequence < r->sends[to].size())
    {
        CollectiveProgram::Step step = r->sends[to][sequence];
        if (r->flags[step] & READY)
        {
            Ptr<ScheduledCollective> alive = this;
            Transmit(index, step);
            Drain();
            return;
        }
    }
    // The sender has not reached that send yet: it leaves as soon as it does.
    NS_LOG_LOGIC("participant " << index << " has " << to << "'s ready notice for #" << sequence
                                << " before its send");
    m_cleared[index][Key(to, sequence)] = true;
}

void
ScheduledCollective::Sent(ScheduledCollective* self, uint32_t index, CollectiveProgram::Step step)
{
    // Finish may complete the last participant, whose owner then lets the collective go:
    // it must outlive the Drain below.
    Ptr<ScheduledCollective> alive = self;
    self->Finish(index, step);
    self->Drain();
}

void
ScheduledCollective::Finish(uint32_t index, CollectiveProgram::Step step)
{
    Runner& r = *m_runners[index];
    const CollectiveProgram::Op& op = r.program.GetOps()[step];
    NS_ASSERT(!(r.flags[step] & DONE));
    if (op.kind == CollectiveProgram::RECV && m_data && !RunsHere(op.peer))
    {
        const auto payload = m_data->ReceiveAcross(op.peer, index, GetChannel(), op.sequence);
        m_data->Deliver(index, op.region, *payload, op.action);
    }
    else if (op.kind == CollectiveProgram::RECV && m_data)
    {
        auto it = m_inFlight[index].find(Key(op.peer, op.sequence));
        NS_ASSERT(it != m_inFlight[index].end());
        m_data->Deliver(index, op.region, *it->second, op.action);
        m_inFlight[index].erase(it);
    }
    r.flags[step] |= DONE;
    NS_LOG_LOGIC("completes " << r.program.Describe(step) << ", "
                              << (op.kind == CollectiveProgram::LOCAL ? 0 : WireBytes(op))
                              << " bytes on the wire");
    for (uint32_t d = r.firstDependent[step]; d < r.firstDependent[step + 1]; ++d)
    {
        if (--r.waitingFor[r.dependents[d]] == 0)
        {
            m_ready.emplace_back(index, r.dependents[d]);
        }
    }
    if (++r.completed == r.program.GetOps().size())
    {
        NS_LOG_LOGIC(GetInstanceTypeId().GetName() << " participant " << index << " complete at "
                                                   << Simulator::Now().As(Time::US));
        m_runners[index].reset(); // its steps are no longer needed; large runs free them early
        Complete(index);
    }
}

} // namespace ns3
