/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef COLLECTIVE_APPLICATION_H
#define COLLECTIVE_APPLICATION_H

#include "collective.h"

#include "ns3/application.h"
#include "ns3/nstime.h"
#include "ns3/traced-callback.h"

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief One participant of a collective as an ns-3 Application: it enters the collective when
 * the application starts, and fires Completed when its part is done. CollectiveHelper::Install
 * puts one on every participant's node.
 */
class CollectiveApplication : public Application
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    CollectiveApplication();
    ~CollectiveApplication() override;

    /**
     * TracedCallback signature for a completed participant.
     * \param [in] entered when it entered the collective
     * \param [in] completed when its part completed
     */
    typedef void (*CompletedTracedCallback)(Time entered, Time completed);

    /**
     * \param collective the collective, set up
     * \param index this application's participant in it
     */
    void SetCollective(Ptr<Collective> collective, uint32_t index);

    /// \return whether its part of the collective is complete
    bool IsComplete() const;
    /// \return this application's participant index in its collective
    uint32_t GetIndex() const;

  protected:
    void DoDispose() override;

  private:
    void StartApplication() override;
    void StopApplication() override;

    /// The collective's Completed trace fired for some participant.
    void HandleCompleted(uint32_t index);

    Ptr<Collective> m_collective;                 //!< The collective
    uint32_t m_index;                             //!< This participant
    TracedCallback<Time, Time> m_completedTrace;  //!< Fired when this participant completes
};

} // namespace ns3

#endif /* COLLECTIVE_APPLICATION_H */
