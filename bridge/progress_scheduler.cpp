#include "bridge/progress_scheduler.h"

#include <ns3/object-factory.h>
#include <ns3/simulator.h>

#include <utility>

namespace uniference {

namespace {

std::function<void()>& hook() {
  static std::function<void()> installed;
  return installed;
}

}  // namespace

NS_OBJECT_ENSURE_REGISTERED(ProgressScheduler);

ns3::TypeId ProgressScheduler::GetTypeId() {
  static ns3::TypeId tid = ns3::TypeId("uniference::ProgressScheduler")
                               .SetParent<ns3::FabricFirstScheduler>()
                               .SetGroupName("Uniference")
                               .AddConstructor<ProgressScheduler>();
  return tid;
}

ns3::Scheduler::Event ProgressScheduler::RemoveNext() {
  if ((++taken_ & 4095) == 0 && hook()) hook()();
  return FabricFirstScheduler::RemoveNext();
}

void ProgressScheduler::Install(std::function<void()> tick) {
  hook() = std::move(tick);
  if (hook()) ns3::Simulator::SetScheduler(ns3::ObjectFactory(GetTypeId().GetName()));
}

}  // namespace uniference
