// A toy collective added the way users add one: this file and its one registration line.
// One-shot direct all-reduce: every member sends its whole buffer to every other member and
// is complete once it holds the n - 1 others (it can then reduce locally).
#include <ns3/collective-registry.h>
#include <ns3/collective.h>

#include <vector>

namespace ns3 {

class ToyDirectAllReduce : public Collective {
 public:
  static TypeId GetTypeId() {
    static TypeId tid = TypeId("ns3::ToyDirectAllReduce")
                            .SetParent<Collective>()
                            .SetGroupName("Uniference")
                            .AddConstructor<ToyDirectAllReduce>();
    return tid;
  }
  double GetBusBandwidthFactor() const override { return double(GetN() - 1); }

 private:
  void DoSetup() override { m_received.assign(GetN(), 0); }
  void DoEnter(uint32_t index) override {
    for (uint32_t peer = 0; peer < GetN(); ++peer) {
      if (peer != index) SendTo(index, peer, 0, GetBytes());
    }
    CompleteIfDone(index);
  }
  void DoReceive(uint32_t index, uint32_t, uint64_t, uint64_t) override {
    ++m_received[index];
    CompleteIfDone(index);
  }
  void CompleteIfDone(uint32_t index) {
    if (HasEntered(index) && !IsComplete(index) && m_received[index] + 1 == GetN()) {
      Complete(index);
    }
  }
  std::vector<uint32_t> m_received;
};

NS_OBJECT_ENSURE_REGISTERED(ToyDirectAllReduce);
NS_COLLECTIVE_ALGORITHM_REGISTER(ToyDirectAllReduce, "all_reduce", "toy-direct");

}  // namespace ns3
