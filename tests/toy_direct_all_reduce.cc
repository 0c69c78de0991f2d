// A toy collective added the way users add one: this file and its one registration line.
// One-shot direct all-reduce: every member sends its whole buffer to every other member, then
// sums the n contributions, in member order, from a scratch slot each.
#include <ns3/collective-registry.h>
#include <ns3/scheduled-collective.h>

#include <vector>

namespace ns3 {

class ToyDirectAllReduce : public ScheduledCollective {
 public:
  static TypeId GetTypeId() {
    static TypeId tid = TypeId("ns3::ToyDirectAllReduce")
                            .SetParent<ScheduledCollective>()
                            .SetGroupName("Uniference")
                            .AddConstructor<ToyDirectAllReduce>();
    return tid;
  }
  ToyDirectAllReduce() : ScheduledCollective("all_reduce") {}

 private:
  void BuildProgram(uint32_t index, CollectiveProgram& program) const override {
    using Region = CollectiveProgram::Region;
    const uint64_t count = GetCount();
    const Region whole{CollectiveProgram::OUTPUT, 0, count};
    auto slot = [count](uint32_t member) {
      return Region{CollectiveProgram::SCRATCH, member * count, count};
    };
    program.UseScratch(GetN() * count);
    std::vector<CollectiveProgram::Step> before{program.Local(slot(index), whole, CollectiveProgram::COPY)};
    for (uint32_t peer = 0; peer < GetN(); ++peer) {
      if (peer == index) continue;
      before.push_back(program.Send(peer, whole));
      before.push_back(program.Recv(peer, slot(peer), CollectiveProgram::COPY));
    }
    CollectiveProgram::Step last = program.Local(whole, slot(0), CollectiveProgram::COPY, before);
    for (uint32_t member = 1; member < GetN(); ++member) {
      last = program.Local(whole, slot(member), CollectiveProgram::REDUCE, {last});
    }
  }
};

NS_OBJECT_ENSURE_REGISTERED(ToyDirectAllReduce);
NS_COLLECTIVE_ALGORITHM_REGISTER(ToyDirectAllReduce, "all_reduce", "toy-direct");

}  // namespace ns3
