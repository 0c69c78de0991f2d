/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef GILBERT_ELLIOTT_ERROR_MODEL_H
#define GILBERT_ELLIOTT_ERROR_MODEL_H

#include "ns3/error-model.h"
#include "ns3/random-variable-stream.h"

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief Bursty loss from a two-state Markov chain (Gilbert-Elliott), with the parameters
 * and per-packet steps of Linux netem's `loss gemodel p r 1-h 1-k`, so a simulated link and
 * an emulated one can be given the same numbers (netem takes them in percent, these as
 * fractions).
 *
 * For every packet, in the state the chain is in: a good state moves to bad with probability
 * P and a bad one to good with probability R; then the packet is lost with the probability of
 * the state it arrived in, LossInBad (1-h) or LossInGood (1-k).
 *
 * In the long run the chain is bad P/(P+R) of the time, and loses
 * (R (1-k) + P (1-h)) / (P + R) of the packets.
 */
class GilbertElliottErrorModel : public ErrorModel
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    GilbertElliottErrorModel();

    /// \return whether the chain is in its bad state
    bool IsBad() const;

    /**
     * \brief Fix the random variable's stream, as ns-3's AssignStreams does.
     * \param stream the stream
     * \return the number of streams used (1)
     */
    int64_t AssignStreams(int64_t stream);

  private:
    bool DoCorrupt(Ptr<Packet> p) override;
    void DoReset() override;

    double m_p;          //!< good -> bad, per packet
    double m_r;          //!< bad -> good, per packet
    double m_lossInBad;  //!< 1-h
    double m_lossInGood; //!< 1-k
    bool m_bad;          //!< the chain's state
    Ptr<UniformRandomVariable> m_uniform; //!< draws in [0, 1)
};

} // namespace ns3

#endif /* GILBERT_ELLIOTT_ERROR_MODEL_H */
