#!/usr/bin/env python3
"""Bounded single-flow TCP goodput check for the testbed (no iperf needed).

  tcp_goodput.py server BIND_ADDR PORT NBYTES   receive NBYTES, print goodput, exit
  tcp_goodput.py client SERVER_ADDR PORT NBYTES send NBYTES, exit

Goodput is measured at the receiver from the first to the last byte.
Both sides give up after 60 s, so traffic always stops by itself.
"""
import socket
import sys
import time


def server(addr, port, nbytes):
    ls = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind((addr, port))
    ls.listen(1)
    ls.settimeout(60)
    c, _ = ls.accept()
    c.settimeout(60)
    got, t0 = 0, None
    buf = bytearray(1 << 20)
    while got < nbytes:
        k = c.recv_into(buf)
        if k == 0:
            break
        if t0 is None:
            t0 = time.perf_counter()
            first = k
        got += k
    t1 = time.perf_counter()
    c.close()
    ls.close()
    bits = (got - first) * 8
    print(f"tcp goodput: {bits / (t1 - t0) / 1e9:.4f} Gbit/s ({got} B in {t1 - t0:.3f} s)")


def client(addr, port, nbytes):
    deadline = time.time() + 10
    while True:
        try:
            s = socket.create_connection((addr, port), timeout=60)
            break
        except OSError:
            if time.time() > deadline:
                raise
            time.sleep(0.1)
    chunk = b"\0" * (1 << 20)
    left = nbytes
    while left > 0:
        s.sendall(chunk[:min(left, len(chunk))])
        left -= min(left, len(chunk))
    s.shutdown(socket.SHUT_WR)
    s.close()


if __name__ == "__main__":
    if len(sys.argv) != 5 or sys.argv[1] not in ("server", "client"):
        sys.exit(__doc__)
    (server if sys.argv[1] == "server" else client)(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
