#include "apps/deploy/rendezvous.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>

namespace uniference {

namespace {

std::string where(const RendezvousOptions& options) {
  return options.master_addr + ":" + std::to_string(options.master_port) +
         " (MASTER_ADDR:MASTER_PORT)";
}

c10d::TCPStoreOptions store_options(const RendezvousOptions& options) {
  c10d::TCPStoreOptions store;
  if (options.master_port <= 0 || options.master_port > 65535) {
    throw RendezvousError("MASTER_PORT " + std::to_string(options.master_port) +
                          " is not a TCP port (1-65535)");
  }
  store.port = uint16_t(options.master_port);
  store.timeout = options.timeout;
  return store;
}

}  // namespace

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

c10::intrusive_ptr<c10d::Store> open_store(const RendezvousOptions& options, int rank, int world) {
  c10d::TCPStoreOptions store = store_options(options);
  store.isServer = rank == 0;
  store.numWorkers = size_t(world);
  store.waitWorkers = true;
  try {
    return c10::make_intrusive<c10d::TCPStore>(options.master_addr, store);
  } catch (const std::exception& e) {
    const std::string detail = first_line(e.what());
    if (rank == 0 && (detail.find("in use") != std::string::npos ||
                      detail.find("EADDRINUSE") != std::string::npos)) {
      throw RendezvousError("rank 0 cannot serve the rendezvous store: port " +
                            std::to_string(options.master_port) + " is in use (" + detail + ")");
    }
    if (rank == 0) {
      throw RendezvousError("rank 0 could not complete the rendezvous at " + where(options) +
                            " (waited " + std::to_string(options.timeout.count()) +
                            " ms for all " + std::to_string(world) + " ranks): " + detail);
    }
    throw RendezvousError("rank " + std::to_string(rank) + " cannot reach the rendezvous store at " +
                          where(options) + ": " + detail);
  }
}

c10::intrusive_ptr<c10d::Store> connect_store(const RendezvousOptions& options) {
  c10d::TCPStoreOptions store = store_options(options);
  store.waitWorkers = false;
  return c10::make_intrusive<c10d::TCPStore>(options.master_addr, store);
}

std::string local_address_toward(const std::string& host, int port) {
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_DGRAM;
  addrinfo* found = nullptr;
  if (getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0 || !found) {
    throw RendezvousError("MASTER_ADDR '" + host + "' does not resolve to an IPv4 address");
  }
  std::string address;
  const int fd = socket(AF_INET, SOCK_DGRAM, 0);
  // A UDP connect only picks the route; nothing leaves the host.
  if (fd >= 0 && connect(fd, found->ai_addr, found->ai_addrlen) == 0) {
    sockaddr_in local{};
    socklen_t length = sizeof local;
    char text[INET_ADDRSTRLEN] = {};
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&local), &length) == 0 &&
        inet_ntop(AF_INET, &local.sin_addr, text, sizeof text)) {
      address = text;
    }
  }
  if (fd >= 0) close(fd);
  freeaddrinfo(found);
  if (address.empty()) {
    throw RendezvousError("no route from this host to MASTER_ADDR '" + host + "': " +
                          std::strerror(errno));
  }
  return address;
}

int64_t agree_on_origin(c10d::Store& store, int world, int64_t now_ns) {
  const std::string arrived = "origin/arrived";
  const std::string origin = "origin/ns";
  if (store.add(arrived, 1) == world) {
    const std::string text = std::to_string(now_ns);
    store.set(origin, std::vector<uint8_t>(text.begin(), text.end()));
  }
  const std::vector<uint8_t> value = store.get(origin);  // waits for the last rank
  return std::stoll(std::string(value.begin(), value.end()));
}

}  // namespace uniference
