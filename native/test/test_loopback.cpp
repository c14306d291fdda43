// The filtered loopback listener (rs_loopback_listen / rs_loopback_admit): a connection attempt
// from a port not admitted is dropped (its connect times out, nothing reaches the accept queue);
// one from an admitted port connects and carries bytes both ways.
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstdint>

#include "robostream/robostream.h"
#include "test_support.hpp"

namespace {

sockaddr_in loopback(int port) {
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(0x7f000001);
  a.sin_port = htons(static_cast<uint16_t>(port));
  return a;
}

// A socket bound to 127.0.0.1 at a port the system picks; its port in *port.
int bound_socket(int* port) {
  int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in a = loopback(0);
  RS_CHECK_EQ(bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  socklen_t length = sizeof a;
  RS_CHECK_EQ(getsockname(s, reinterpret_cast<sockaddr*>(&a), &length), 0);
  *port = ntohs(a.sin_port);
  return s;
}

// True when s connects to 127.0.0.1:port within 500 ms.
bool connects(int s, int port) {
  fcntl(s, F_SETFL, O_NONBLOCK);
  sockaddr_in a = loopback(port);
  connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a);
  pollfd p{s, POLLOUT, 0};
  int error = 0;
  socklen_t length = sizeof error;
  bool ready = poll(&p, 1, 500) == 1;
  getsockopt(s, SOL_SOCKET, SO_ERROR, &error, &length);
  return ready && error == 0;
}

// True when listener has a connection waiting.
bool pending(int listener) {
  pollfd p{listener, POLLIN, 0};
  return poll(&p, 1, 0) == 1;
}

}  // namespace

RS_TEST(loopback_listener_admits_only_the_ports_it_is_given) {
  int32_t fd = -1;
  int32_t port = 0;
  RS_CHECK_EQ(rs_loopback_listen(&fd, &port), RS_OK);
  RS_CHECK(fd >= 0 && port > 0);

  int other_port = 0;
  int other = bound_socket(&other_port);
  RS_CHECK(!connects(other, port));  // nothing admitted yet
  close(other);
  RS_CHECK(!pending(fd));

  int ours_port = 0;
  int ours = bound_socket(&ours_port);
  int stranger_port = 0;
  int stranger = bound_socket(&stranger_port);
  const uint16_t admitted[] = {static_cast<uint16_t>(ours_port)};
  RS_CHECK_EQ(rs_loopback_admit(fd, admitted, 1), RS_OK);
  RS_CHECK(!connects(stranger, port));
  RS_CHECK(connects(ours, port));
  int accepted = accept(fd, nullptr, nullptr);
  RS_CHECK(accepted >= 0);
  RS_CHECK(!pending(fd));  // the stranger never got in

  // Bytes both ways on the admitted connection (it keeps the filter it was accepted with).
  fcntl(ours, F_SETFL, 0);
  RS_CHECK_EQ(write(ours, "ping", 4), 4);
  char buffer[8] = {};
  RS_CHECK_EQ(read(accepted, buffer, sizeof buffer), 4);
  RS_CHECK_EQ(write(accepted, "pong", 4), 4);
  RS_CHECK_EQ(read(ours, buffer, sizeof buffer), 4);
  RS_CHECK(buffer[0] == 'p' && buffer[1] == 'o');

  // Admitting nobody again: the next attempt from the same (re-bound) port is dropped too.
  RS_CHECK_EQ(rs_loopback_admit(fd, nullptr, 0), RS_OK);
  close(stranger);
  close(ours);
  close(accepted);
  close(fd);
}

RS_TEST(loopback_admit_bounds_its_list) {
  int32_t fd = -1;
  int32_t port = 0;
  RS_CHECK_EQ(rs_loopback_listen(&fd, &port), RS_OK);
  static uint16_t many[RS_LOOPBACK_MAX_PORTS + 1] = {};
  RS_CHECK_EQ(rs_loopback_admit(fd, many, RS_LOOPBACK_MAX_PORTS), RS_OK);
  RS_CHECK_EQ(rs_loopback_admit(fd, many, RS_LOOPBACK_MAX_PORTS + 1), RS_ERR_INVALID_ARGUMENT);
  RS_CHECK_EQ(rs_loopback_admit(fd, many, -1), RS_ERR_INVALID_ARGUMENT);
  RS_CHECK_EQ(rs_loopback_admit(fd, nullptr, 3), RS_ERR_INVALID_ARGUMENT);
  RS_CHECK_EQ(rs_loopback_admit(-1, many, 1), RS_ERR_UNSUPPORTED);
  RS_CHECK_EQ(rs_loopback_listen(nullptr, &port), RS_ERR_INVALID_ARGUMENT);
  close(fd);
}
