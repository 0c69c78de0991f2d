/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#include "trace-condition.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/string.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("TraceCondition");

NS_OBJECT_ENSURE_REGISTERED(TraceCondition);

TypeId
TraceCondition::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::TraceCondition")
            .SetParent<LinkCondition>()
            .SetGroupName("Uniference")
            .AddConstructor<TraceCondition>()
            .AddAttribute("File",
                          "CSV trace: header time_s,delay_ms,rate_mbps, then one row per sample.",
                          StringValue(""),
                          MakeStringAccessor(&TraceCondition::Load),
                          MakeStringChecker());
    return tid;
}

namespace
{

std::string
Trim(const std::string& s)
{
    const auto begin = s.find_first_not_of(" \t\r");
    if (begin == std::string::npos)
    {
        return "";
    }
    return s.substr(begin, s.find_last_not_of(" \t\r") - begin + 1);
}

// The cells of one CSV line, trimmed.
std::vector<std::string>
Cells(const std::string& line)
{
    std::vector<std::string> cells;
    std::stringstream in(line);
    std::string cell;
    while (std::getline(in, cell, ','))
    {
        cells.push_back(Trim(cell));
    }
    return cells;
}

// A finite number filling the whole cell, or false.
bool
Number(const std::string& cell, double& value)
{
    std::size_t used = 0;
    try
    {
        value = std::stod(cell, &used);
    }
    catch (const std::exception&)
    {
        return false;
    }
    return used == cell.size() && std::isfinite(value);
}

} // namespace

std::string
TraceCondition::Parse(std::istream& in, const std::string& name, std::vector<Sample>& samples)
{
    static const std::vector<std::string> header{"time_s", "delay_ms", "rate_mbps"};
    samples.clear();
    std::string line;
    bool headerSeen = false;
    for (int number = 1; std::getline(in, line); ++number)
    {
        const std::string where = name + ":" + std::to_string(number) + ": ";
        const std::string text = Trim(line);
        if (text.empty() || text[0] == '#')
        {
            continue;
        }
        const std::vector<std::string> cells = Cells(text);
        if (!headerSeen)
        {
            if (cells != header)
            {
                return where + "the header must be time_s,delay_ms,rate_mbps, not '" + text + "'";
            }
            headerSeen = true;
            continue;
        }
        if (cells.size() != 3)
        {
            return where + "a row has 3 cells (time_s,delay_ms,rate_mbps), this one " +
                   std::to_string(cells.size());
        }
        // Beyond these a value no longer fits ns-3's Time (int64 ns: 9.2e9 s) or DataRate
        // (uint64 bit/s), and converting it would be undefined: 31 years of trace, delays of
        // 11 days, 1 Pbit/s.
        const double most = 1e9;
        double value[3];
        for (int c = 0; c < 3; ++c)
        {
            if (!Number(cells[c], value[c]) || value[c] < 0)
            {
                return where + header[c] + " '" + cells[c] + "' is not a number >= 0";
            }
            if (value[c] > most)
            {
                return where + header[c] + " '" + cells[c] + "' is above 1e9, more than the " +
                       "simulator's times and rates hold";
            }
        }
        Sample sample{Seconds(value[0]), MilliSeconds(1) * value[1],
                      DataRate(uint64_t(value[2] * 1e6))};
        if (!samples.empty() && sample.time <= samples.back().time)
        {
            return where + "time_s " + cells[0] + " does not come after the row before's";
        }
        samples.push_back(sample);
    }
    if (samples.empty())
    {
        return name + ": " + (headerSeen ? "no rows after the header" : "empty");
    }
    return "";
}

void
TraceCondition::Load(const std::string& path)
{
    NS_LOG_FUNCTION(this << path);
    m_path = path;
    if (path.empty())
    {
        m_samples.clear();
        return;
    }
    std::ifstream in(path);
    NS_ABORT_MSG_UNLESS(in, "TraceCondition: cannot read " << path);
    std::vector<Sample> samples;
    const std::string error = Parse(in, path, samples);
    NS_ABORT_MSG_UNLESS(error.empty(), "TraceCondition: " << error);
    SetSamples(std::move(samples));
}

void
TraceCondition::SetSamples(std::vector<Sample> samples)
{
    NS_ABORT_MSG_IF(samples.empty(), "TraceCondition: a trace needs at least one row");
    m_samples = std::move(samples);
    NS_LOG_INFO(m_samples.size() << " rows, " << m_samples.front().time.As(Time::S) << " to "
                                 << m_samples.back().time.As(Time::S));
    for (const Sample& sample : m_samples)
    {
        NS_LOG_DEBUG("from " << sample.time.As(Time::S) << ": delay " << sample.delay.As(Time::MS)
                             << ", rate " << sample.rate
                             << (sample.rate.GetBitRate() == 0 ? " (out)" : ""));
    }
}

std::size_t
TraceCondition::RowAt(Time t) const
{
    NS_ABORT_MSG_IF(m_samples.empty(), "TraceCondition: no trace (set File)");
    auto later = std::upper_bound(m_samples.begin(), m_samples.end(), t,
                                  [](Time time, const Sample& s) { return time < s.time; });
    return later == m_samples.begin() ? 0 : std::size_t(later - m_samples.begin()) - 1;
}

Time
TraceCondition::GetDelay(Time t)
{
    return m_samples[RowAt(t)].delay;
}

Time
TraceCondition::GetOutageEnd(Time t)
{
    std::size_t row = RowAt(t);
    if (m_samples[row].rate.GetBitRate() > 0)
    {
        return t;
    }
    while (row < m_samples.size() && m_samples[row].rate.GetBitRate() == 0)
    {
        ++row;
    }
    const Time end = row < m_samples.size() ? m_samples[row].time : Time::Max();
    NS_LOG_LOGIC("rate 0 at " << t.As(Time::S) << ": out until " << end.As(Time::S));
    return end;
}

Time
TraceCondition::GetNextOutage(Time t)
{
    for (std::size_t row = RowAt(t) + 1; row < m_samples.size(); ++row)
    {
        if (m_samples[row].rate.GetBitRate() == 0 && m_samples[row].time > t)
        {
            return m_samples[row].time;
        }
    }
    return Time::Max();
}

DataRate
TraceCondition::GetRate(Time t, DataRate rate)
{
    const DataRate traced = m_samples[RowAt(t)].rate;
    return traced.GetBitRate() > 0 ? traced : rate;
}

Time
TraceCondition::GetNextRateChange(Time t)
{
    const std::size_t next = RowAt(t) + 1;
    return next < m_samples.size() && m_samples[next].time > t ? m_samples[next].time
                                                               : Time::Max();
}

} // namespace ns3
