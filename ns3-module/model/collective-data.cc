/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "collective-data.h"

#include "ns3/abort.h"
#include "ns3/log.h"

#include <algorithm>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("CollectiveData");

CollectivePayload::~CollectivePayload() = default;

CollectiveData::~CollectiveData() = default;

void
CollectiveData::SendAcross(uint32_t from,
                           uint32_t to,
                           uint64_t /* channel */,
                           uint32_t /* sequence */,
                           std::unique_ptr<CollectivePayload> /* payload */)
{
    NS_FATAL_ERROR("CollectiveData: participant " << from << " sends values to participant " << to
                                                  << ", whom another process runs; this data "
                                                     "cannot cross processes");
}

std::unique_ptr<CollectivePayload>
CollectiveData::ReceiveAcross(uint32_t from,
                              uint32_t to,
                              uint64_t /* channel */,
                              uint32_t /* sequence */)
{
    NS_FATAL_ERROR("CollectiveData: participant " << to << " receives values from participant "
                                                  << from << ", whom another process runs; this "
                                                             "data cannot cross processes");
}

namespace
{
/// A message's contents for VectorCollectiveData.
class VectorPayload : public CollectivePayload
{
  public:
    std::vector<double> values; //!< The region's values when it was sent
};
} // namespace

VectorCollectiveData::VectorCollectiveData(uint32_t participants)
    : m_buffers(participants)
{
    NS_LOG_FUNCTION(this << participants);
}

VectorCollectiveData::Buffers&
VectorCollectiveData::Get(uint32_t participant)
{
    return m_buffers.at(participant);
}

void
VectorCollectiveData::Prepare(uint32_t participant, uint64_t scratchCount)
{
    NS_LOG_FUNCTION(this << participant << scratchCount);
    m_buffers.at(participant).scratch.assign(scratchCount, 0.0);
}

double*
VectorCollectiveData::Locate(uint32_t participant, const CollectiveProgram::Region& region)
{
    Buffers& buffers = m_buffers.at(participant);
    std::vector<double>& buffer = region.buffer == CollectiveProgram::INPUT ? buffers.input
                                  : region.buffer == CollectiveProgram::OUTPUT ? buffers.output
                                                                               : buffers.scratch;
    NS_ABORT_MSG_UNLESS(region.offset + region.count <= buffer.size(),
                        "participant " << participant << ": region [" << region.offset << ", "
                                       << region.offset + region.count
                                       << ") is outside its buffer of " << buffer.size()
                                       << " elements");
    return buffer.data() + region.offset;
}

void
VectorCollectiveData::Write(double* into,
                            const double* from,
                            uint64_t count,
                            CollectiveProgram::Action action)
{
    if (action == CollectiveProgram::COPY)
    {
        std::copy(from, from + count, into);
        return;
    }
    for (uint64_t k = 0; k < count; ++k)
    {
        into[k] += from[k];
    }
}

std::unique_ptr<CollectivePayload>
VectorCollectiveData::Capture(uint32_t participant, const CollectiveProgram::Region& region)
{
    NS_LOG_FUNCTION(this << participant << region.offset << region.count);
    auto payload = std::make_unique<VectorPayload>();
    const double* begin = Locate(participant, region);
    payload->values.assign(begin, begin + region.count);
    return payload;
}

void
VectorCollectiveData::Deliver(uint32_t participant,
                              const CollectiveProgram::Region& into,
                              const CollectivePayload& payload,
                              CollectiveProgram::Action action)
{
    NS_LOG_FUNCTION(this << participant << into.offset << into.count << action);
    const auto& values = static_cast<const VectorPayload&>(payload).values;
    NS_ABORT_MSG_UNLESS(values.size() == into.count,
                        "participant " << participant << ": a message of " << values.size()
                                       << " elements for a region of " << into.count);
    Write(Locate(participant, into), values.data(), into.count, action);
}

void
VectorCollectiveData::Local(uint32_t participant,
                            const CollectiveProgram::Region& into,
                            const CollectiveProgram::Region& from,
                            CollectiveProgram::Action action)
{
    NS_LOG_FUNCTION(this << participant << into.offset << from.offset << into.count << action);
    // Through a copy: the regions may overlap.
    std::vector<double> values(Locate(participant, from), Locate(participant, from) + from.count);
    Write(Locate(participant, into), values.data(), into.count, action);
}

} // namespace ns3
