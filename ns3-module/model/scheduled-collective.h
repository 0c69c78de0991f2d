/*
 * SPDX-License-Identifier: GPL-2.0-only
 */

#ifndef SCHEDULED_COLLECTIVE_H
#define SCHEDULED_COLLECTIVE_H

#include "collective-data.h"
#include "collective-program.h"
#include "collective-registry.h"
#include "collective.h"

#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace ns3
{

/**
 * \ingroup uniference
 *
 * \brief A collective whose algorithm is one CollectiveProgram per participant, run here step
 * by step over the participants' transports.
 *
 * A participant's program is built when it enters (from the group size, the operation's size in
 * elements, the root, and for an all-to-all-v its own split sizes), so a rank's schedule depends
 * only on what that rank knows, as in a real library. Each step starts once the steps it waits
 * for are complete; a participant is complete when all of its steps are. Messages that arrive
 * before their receive may run are held. With CollectiveData set, messages carry data and the
 * result is what the schedule computed; without it only timing is simulated.
 *
 * Two Attributes model the wire protocol of the library being simulated: MessageOverhead bytes
 * ride with every message, and with ReadyBytes set every message is a rendezvous (the receiver,
 * once its receive may run, tells the sender in a message of ReadyBytes, and the data leaves
 * only after that has arrived), as Gloo's TCP transport does.
 *
 * Algorithms subclass it, implement BuildProgram, and register with
 * NS_COLLECTIVE_ALGORITHM_REGISTER.
 */
class ScheduledCollective : public Collective
{
  public:
    /**
     * \brief Get the type ID.
     * \return the object TypeId
     */
    static TypeId GetTypeId();

    /**
     * \param operation the operation the algorithm implements, as torch.distributed names it
     *        ("all_reduce"); it decides the buffers and the bus bandwidth factor
     */
    explicit ScheduledCollective(std::string operation);
    ~ScheduledCollective() override;

    /**
     * \brief Carry data: set before Setup.
     * \param data the participants' buffers
     */
    void SetData(Ptr<CollectiveData> data);

    /**
     * \brief The split sizes of an all-to-all-v participant, before it enters.
     * \param index the participant
     * \param sendCounts elements it sends to each participant (its INPUT blocks, in order)
     * \param recvCounts elements it receives from each participant (its OUTPUT blocks)
     */
    void SetSplits(uint32_t index, std::vector<uint64_t> sendCounts, std::vector<uint64_t> recvCounts);

    /**
     * \brief Whether the schedule can carry blocks of different sizes (SetSplits with
     * unequal counts); an algorithm that cannot says so here, and callers refuse them.
     * \return true unless the algorithm needs equal blocks
     */
    virtual bool TakesUnevenSplits() const;

    /**
     * \brief Build a participant's program without running it (to inspect or check a schedule).
     * \param index the participant; Setup must have run
     * \return its program
     */
    CollectiveProgram GetProgram(uint32_t index) const;

    /// \return the operation's name
    const std::string& GetOperation() const;
    /// \return the operation's size in elements (GetBytes() / ElementBytes)
    uint64_t GetCount() const;
    /// \return the bytes of one element
    uint32_t GetElementBytes() const;
    /// \return the root of a rooted operation
    uint32_t GetRoot() const;

    double GetBusBandwidthFactor() const override;

    /**
     * \param operation an operation's name
     * \param n the group size
     * \return nccl-tests' bus bandwidth factor of the operation
     */
    static double GetBusBandwidthFactor(const std::string& operation, uint32_t n);

  protected:
    void DoDispose() override;

    /**
     * \brief Write the program of one participant.
     * \param index the participant
     * \param program an empty program to add its steps to
     */
    virtual void BuildProgram(uint32_t index, CollectiveProgram& program) const = 0;

    /**
     * \param region a region
     * \param chunkBytes the largest piece in bytes (whole elements, at least one); 0 keeps the
     *        region whole
     * \return the region cut into pieces, as CollectiveProgram::Slice
     */
    std::vector<CollectiveProgram::Region> Pieces(const CollectiveProgram::Region& region,
                                                  uint64_t chunkBytes) const;

    /**
     * \param buffer a buffer
     * \param counts the sizes of consecutive blocks, in elements
     * \return the blocks, from the buffer's start
     */
    static std::vector<CollectiveProgram::Region> Blocks(CollectiveProgram::Buffer buffer,
                                                         const std::vector<uint64_t>& counts);

    /**
     * \param index a participant
     * \return the elements it sends to each participant: its all-to-all-v splits, else equal
     *         blocks of GetCount() / GetN()
     */
    std::vector<uint64_t> GetSendCounts(uint32_t index) const;
    /**
     * \param index a participant
     * \return the elements it receives from each participant, likewise
     */
    std::vector<uint64_t> GetRecvCounts(uint32_t index) const;

  private:
    void DoSetup() override;
    void DoEnter(uint32_t index) override;
    void DoReceive(uint32_t index, uint32_t from, uint64_t cookie, uint64_t bytes) override;

    /// Step flags.
    enum Flag : uint8_t
    {
        ARRIVED = 1, //!< RECV: its message is here
        READY = 2,   //!< Every dependency has completed
        DONE = 4     //!< Complete
    };

    /// Cookie bit of a rendezvous' ready notification (data cookies are sequence numbers).
    static constexpr uint64_t READY_COOKIE = uint64_t(1) << 62;

    /// A participant's program as it runs.
    struct Runner
    {
        CollectiveProgram program;                   //!< Its steps
        std::vector<uint32_t> waitingFor;            //!< Per step: dependencies not complete
        std::vector<uint8_t> flags;                  //!< Per step: Flag bits
        std::vector<uint32_t> firstDependent;        //!< Per step: into dependents (n + 1)
        std::vector<CollectiveProgram::Step> dependents; //!< Steps each step unblocks
        std::vector<std::vector<CollectiveProgram::Step>> receives; //!< Per source, by sequence
        std::vector<std::vector<CollectiveProgram::Step>> sends;    //!< Per destination, by sequence
        uint32_t completed{0};                       //!< Steps complete
    };

    /**
     * \param index a participant
     * \return its program, ready to run: dependents and sends and receives by peer
     */
    std::unique_ptr<Runner> MakeRunner(uint32_t index) const;
    /**
     * \param from a sender
     * \param sequence its message's rank among its messages to the same receiver
     * \return a key for the receiver's tables
     */
    static uint64_t Key(uint32_t from, uint32_t sequence);
    /**
     * The receive step a message is for, after checking that there is one and that the
     * message's size is its size (fatal errors otherwise).
     * \param index the receiver, which has entered
     * \param from the sender
     * \param sequence the message's sequence number
     * \param bytes the message's size
     * \return the step
     */
    CollectiveProgram::Step ReceiveStep(uint32_t index,
                                        uint32_t from,
                                        uint32_t sequence,
                                        uint64_t bytes) const;
    /// Start every queued step, and those their completions unblock.
    void Drain();
    /**
     * Run a step whose dependencies are complete.
     * \param index the participant
     * \param step the step
     */
    void Start(uint32_t index, CollectiveProgram::Step step);
    /**
     * A step completed.
     * \param index the participant
     * \param step the step
     */
    void Finish(uint32_t index, CollectiveProgram::Step step);
    /**
     * The transport took a send's last byte.
     * \param self the collective
     * \param index the sender
     * \param step the send step
     */
    static void Sent(ScheduledCollective* self, uint32_t index, CollectiveProgram::Step step);
    /**
     * Put a send's data on the wire.
     * \param index the sender
     * \param step the send step
     */
    void Transmit(uint32_t index, CollectiveProgram::Step step);
    /**
     * \param participant a participant
     * \return whether this process runs it (in a distributed simulation, another may: its
     * messages' values then cross by the data's SendAcross and ReceiveAcross)
     */
    bool RunsHere(uint32_t participant) const;
    /**
     * A receiver's ready notification arrived at the sender.
     * \param index the sender
     * \param to the receiver
     * \param sequence the message's sequence number
     */
    void HandleReady(uint32_t index, uint32_t to, uint32_t sequence);
    /**
     * \param op a step
     * \return its bytes on the wire
     */
    uint64_t WireBytes(const CollectiveProgram::Op& op) const;

    std::string m_operation;       //!< The operation
    uint32_t m_root;               //!< Root attribute
    uint32_t m_elementBytes;       //!< ElementBytes attribute
    uint64_t m_messageOverhead;    //!< MessageOverhead attribute
    double m_dataWireFactor;       //!< DataWireFactor attribute
    uint64_t m_readyBytes;         //!< ReadyBytes attribute
    Ptr<CollectiveData> m_data;    //!< Null for a data-free run
    std::vector<std::unique_ptr<Runner>> m_runners; //!< Per participant, from its entry to its completion
    /// Per participant: splits set with SetSplits (send, receive).
    std::vector<std::pair<std::vector<uint64_t>, std::vector<uint64_t>>> m_splits;
    /// Per receiver: messages that arrived before it entered, by Key, with their size.
    std::vector<std::unordered_map<uint64_t, uint64_t>> m_early;
    /// Per sender: ready notifications that arrived before the send could leave, by Key.
    std::vector<std::unordered_map<uint64_t, bool>> m_cleared;
    /// Per receiver: contents of messages sent to it and not yet written, by Key.
    std::vector<std::unordered_map<uint64_t, std::unique_ptr<CollectivePayload>>> m_inFlight;
    /// Steps whose dependencies are complete, not yet started.
    std::deque<std::pair<uint32_t, CollectiveProgram::Step>> m_ready;
    bool m_draining; //!< Drain is running (steps may complete inside it)
};

} // namespace ns3

#endif /* SCHEDULED_COLLECTIVE_H */
