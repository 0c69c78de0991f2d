/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef TRACE_CONDITION_H
#define TRACE_CONDITION_H

#include "link-condition.h"

#include <istream>
#include <string>
#include <vector>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief A measured link replayed: the delay and rate in force at a packet's send time are
 * those of the trace's latest row at or before it.
 *
 * The trace is a CSV file with the header `time_s,delay_ms,rate_mbps` and one row per sample:
 * the time since the start (seconds, increasing), the one-way delay (milliseconds) and the
 * rate (Mbit/s, both directions; 0: the link is out until a row with a rate). Before the
 * first row the first row holds; after the last, the last. Blank lines and lines starting
 * with # are skipped.
 */
class TraceCondition : public LinkCondition
{
  public:
    /// One row of the trace.
    struct Sample
    {
        Time time;     //!< since the start
        Time delay;    //!< one way
        DataRate rate; //!< zero: out
    };

    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \brief Read a trace.
     * \param in the CSV text
     * \param name what to call it in errors, for example the file's path
     * \param samples filled with the rows
     * \return empty on success, else "name:line: what is wrong"
     */
    static std::string Parse(std::istream& in, const std::string& name,
                             std::vector<Sample>& samples);

    /**
     * \brief Read the trace from a file; a file that cannot be read or parsed is fatal.
     * \param path the CSV file
     */
    void Load(const std::string& path);

    /// \param samples the trace's rows, times increasing
    void SetSamples(std::vector<Sample> samples);

    Time GetDelay(Time t) override;
    Time GetOutageEnd(Time t) override;
    Time GetNextOutage(Time t) override;
    DataRate GetRate(Time t, DataRate rate) override;
    Time GetNextRateChange(Time t) override;

  private:
    /// \return the index of the row in force at t
    std::size_t RowAt(Time t) const;

    std::string m_path;            //!< the file, if loaded from one
    std::vector<Sample> m_samples; //!< times increasing
};

} // namespace ns3

#endif /* TRACE_CONDITION_H */
