// A user's ns-3 program: two nodes on one point-to-point link, a TcpMessageTransport on each,
// and one message timed once the connection is open (a first message opens it), so that its
// time is the link's alpha-beta value: one propagation delay plus the segment's bytes at the
// link's rate.
//
//   one-message --bytes=1000 --rate=10Mbps --delay=5ms
#include <ns3/command-line.h>
#include <ns3/internet-stack-helper.h>
#include <ns3/ipv4-address-helper.h>
#include <ns3/message-transport-helper.h>
#include <ns3/message-transport.h>
#include <ns3/point-to-point-helper.h>
#include <ns3/simulator.h>
#include <ns3/string.h>

#include <cstdio>

using namespace ns3;

namespace {
constexpr uint64_t kChannel = 7;
Time g_sent;
Time g_delivered;

void Received(uint32_t, uint64_t cookie, uint64_t) {
  if (cookie == 2) g_delivered = Simulator::Now();
}
}  // namespace

int main(int argc, char** argv) {
  uint64_t bytes = 1000;
  std::string rate = "10Mbps";
  std::string delay = "5ms";
  CommandLine cmd(__FILE__);
  cmd.AddValue("bytes", "payload of the timed message", bytes);
  cmd.AddValue("rate", "link data rate", rate);
  cmd.AddValue("delay", "link one-way delay", delay);
  cmd.Parse(argc, argv);

  NodeContainer nodes;
  nodes.Create(2);
  PointToPointHelper link;
  link.SetDeviceAttribute("DataRate", StringValue(rate));
  link.SetChannelAttribute("Delay", StringValue(delay));
  NetDeviceContainer devices = link.Install(nodes);
  InternetStackHelper().Install(nodes);
  Ipv4AddressHelper addresses("10.1.1.0", "255.255.255.252");
  Ipv4InterfaceContainer interfaces = addresses.Assign(devices);
  ApplicationContainer transports = MessageTransportHelper().Install(
      nodes, {interfaces.GetAddress(0), interfaces.GetAddress(1)});
  Ptr<MessageTransport> sender = DynamicCast<MessageTransport>(transports.Get(0));
  Ptr<MessageTransport> receiver = DynamicCast<MessageTransport>(transports.Get(1));
  receiver->Listen(kChannel, MakeCallback(&Received));

  Simulator::Schedule(Seconds(0.1), [=] { sender->Send(1, kChannel, 1, 1); });
  Simulator::Schedule(Seconds(1), [=] {
    g_sent = Simulator::Now();
    sender->Send(1, kChannel, 2, bytes);
  });
  Simulator::Run();
  Simulator::Destroy();
  std::printf("one message of %llu bytes: %.9f s\n", static_cast<unsigned long long>(bytes),
              (g_delivered - g_sent).GetSeconds());
  return g_delivered.IsZero() ? 1 : 0;
}
