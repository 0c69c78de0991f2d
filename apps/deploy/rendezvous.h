// How deployed ranks find each other, as torchrun's static rendezvous does: rank 0 serves a
// c10d TCPStore at MASTER_ADDR:MASTER_PORT, every rank connects to it, and the backends
// exchange their addresses through it.
#pragma once

#include <torch/csrc/distributed/c10d/TCPStore.hpp>

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace uniference {

struct RendezvousOptions {
  std::string master_addr = "127.0.0.1";
  int master_port = 29500;
  // How long rank 0 waits for every rank to connect, and any rank for a key another writes.
  std::chrono::milliseconds timeout{60000};
};

// The store cannot be served or reached (a runtime error: exit 1).
class RendezvousError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Rank 0 serves the store (and waits for all `world` ranks to connect); the others connect.
c10::intrusive_ptr<c10d::Store> open_store(const RendezvousOptions& options, int rank, int world);

// One more connection to the same store, for a thread of its own (a client is not shared
// between threads).
c10::intrusive_ptr<c10d::Store> connect_store(const RendezvousOptions& options);

// The address of this host that its route to MASTER_ADDR leaves from: the one its peers can
// reach it on (loopback for a loopback master). No packet is sent.
std::string local_address_toward(const std::string& host, int port);

// Blocks until every rank of the world has called it; returns the host real-time clock
// (ns since the epoch) at which the last one did: the run's time 0 on every rank.
int64_t agree_on_origin(c10d::Store& store, int world, int64_t now_ns);

// c10 errors carry a backtrace after their first line.
std::string first_line(const std::string& text);

}  // namespace uniference
