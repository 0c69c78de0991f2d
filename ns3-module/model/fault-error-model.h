/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef FAULT_ERROR_MODEL_H
#define FAULT_ERROR_MODEL_H

#include "ns3/error-model.h"
#include "ns3/nstime.h"
#include "ns3/random-variable-stream.h"
#include "ns3/traced-callback.h"

#include <cstdint>
#include <vector>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief Faults on purpose on one direction of a cable: windows of simulated time in which
 * the receiver loses every packet (a cable pulled, a switch down) or each packet with a given
 * probability (a burst of loss), on top of whatever the link loses anyway.
 *
 * The receiving device consults it for every packet that reaches it, so a packet on the wire
 * when a window opens is lost with it, as a frame is when its cable is cut. Outside the
 * windows the decision is the Inner model's (the error model the device had before, such as
 * a GilbertElliottErrorModel), or no loss without one.
 *
 * Windows may overlap: a packet is lost when any window open at its arrival loses it, each
 * window drawing on its own.
 */
class FaultErrorModel : public ErrorModel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    FaultErrorModel();

    /**
     * \brief Adds a window in which packets are lost.
     * \param start when it opens
     * \param end when it closes (Time::Max() for never)
     * \param loss the probability each packet arriving in it is lost, in (0, 1]
     * \return the window's index, as the Drop trace source and GetDrops name it
     */
    uint32_t AddWindow(Time start, Time end, double loss);

    /**
     * \param window an index AddWindow returned
     * \return the packets the window has lost so far
     */
    uint64_t GetDrops(uint32_t window) const;

    /**
     * \brief Fix the random variable's stream, as ns-3's AssignStreams does.
     * \param stream the stream
     * \return the number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

    /// TracedCallback signature of a packet a window lost.
    typedef void (*DropCallback)(Ptr<const Packet> packet, uint32_t window);

  private:
    bool DoCorrupt(Ptr<Packet> p) override;
    void DoReset() override;

    /// One window of loss.
    struct Window
    {
        Time start;     //!< opens
        Time end;       //!< closes
        double loss;    //!< probability per packet
        uint64_t drops; //!< packets it lost
    };

    std::vector<Window> m_windows;         //!< in the order added
    Ptr<ErrorModel> m_inner;               //!< what the link loses outside faults, or null
    Ptr<UniformRandomVariable> m_uniform;  //!< draws in [0, 1)
    TracedCallback<Ptr<const Packet>, uint32_t> m_dropTrace; //!< packets lost to a window
};

} // namespace ns3

#endif /* FAULT_ERROR_MODEL_H */
