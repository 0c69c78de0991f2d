#!/usr/bin/env python3
"""Gloo's messages in a packet capture: what each rank pair sent, and when.

    gloo_streams.py CAPTURE.pcap [--rate 100mbit] [--stall-ms 2] [--messages]

CAPTURE.pcap holds whole frames (tcpdump -s 0; `CAPTURE=FILE testbed.sh run ...` records
rank 0's hub port). Every TCP connection that carries Gloo's framing is put back together, one
byte stream per direction (each byte at the time its first copy was captured, so a lost and
resent packet counts when its resend passes), and cut into Gloo's messages: a 48-byte preamble
(nbytes, opcode, slot, offset, length, roffset, as gloo/transport/tcp/pair.h lays it out)
before each, the payload after it. Notices (send-ready, recv-ready) are preambles alone.

Prints, per direction, every data message of a nonzero length: when its first byte passed and
when all of it had (the receiver could then read it whole), how long it took against the wire time at --rate (frames of 1514 bytes for 1448 of
payload, as the testbed's tbf charges them), the wait since the previous one ended, and the
longest stalls inside it (no frame for more than --stall-ms while it was under way). With
--messages, every message, notices too, in capture order. Times are ms from the first
message.
"""

import argparse
import bisect
import signal
import struct
import sys
from collections import defaultdict

PREAMBLE = struct.Struct("<6Q")
OPCODES = {0: "buffer", 1: "data", 2: "send-ready", 3: "recv-ready"}
FRAME, PAYLOAD = 1514, 1448


def frames(path):
    """(time, src, sport, dst, dport, seq, flags, payload) of each IPv4 TCP frame."""
    with open(path, "rb") as f:
        header = f.read(24)
        if len(header) < 24:
            sys.exit(f"{path}: not a pcap file (too short)")
        magic = header[:4]
        if magic in (b"\xd4\xc3\xb2\xa1", b"\x4d\x3c\xb2\xa1"):
            endian = "<"
        elif magic in (b"\xa1\xb2\xc3\xd4", b"\xa1\xb2\x3c\x4d"):
            endian = ">"
        else:
            sys.exit(f"{path}: not a pcap file (pcapng? write it with tcpdump -w)")
        fraction = 1e-9 if magic in (b"\x4d\x3c\xb2\xa1", b"\xa1\xb2\x3c\x4d") else 1e-6
        if struct.unpack(endian + "I", header[20:24])[0] != 1:
            sys.exit(f"{path}: not an Ethernet capture")
        record = struct.Struct(endian + "IIII")
        while True:
            head = f.read(16)
            if len(head) < 16:
                return
            sec, frac, caplen, wirelen = record.unpack(head)
            data = f.read(caplen)
            if caplen < wirelen:
                sys.exit(f"{path}: frames cut to {caplen} bytes: capture with tcpdump -s 0")
            if len(data) < 54 or data[12:14] != b"\x08\x00" or data[23] != 6:
                continue
            ihl = (data[14] & 15) * 4
            total = struct.unpack("!H", data[16:18])[0]
            tcp = 14 + ihl
            sport, dport, seq = struct.unpack("!HHI", data[tcp:tcp + 8])
            offset = (data[tcp + 12] >> 4) * 4
            yield (sec + frac * fraction, data[26:30], sport, data[30:34], dport, seq,
                   data[tcp + 13], data[tcp + offset:14 + total])


class Stream:
    """One direction of one connection, as the receiver's socket would read it."""

    def __init__(self):
        self.isn = None
        self.pieces = []  # (stream offset, time, payload)

    def add(self, time, seq, flags, payload):
        if flags & 0x02:  # SYN: the next byte is the stream's first
            self.isn = (seq + 1) & 0xFFFFFFFF
        elif payload and self.isn is not None:
            self.pieces.append(((seq - self.isn) & 0xFFFFFFFF, time, payload))

    def assemble(self):
        """The bytes, and a function from a byte's offset to when it was first captured."""
        size = max((o + len(p) for o, _, p in self.pieces), default=0)
        data = bytearray(size)
        first = {}
        for offset, time, payload in self.pieces:
            data[offset:offset + len(payload)] = payload
            if offset not in first or time < first[offset]:
                first[offset] = time
        starts = sorted(first)
        times = [first[o] for o in starts]

        def passed(begin, end):
            """When bytes [begin, end) had all passed: the latest first copy among the pieces
            holding them (a resent piece starts where the lost one did)."""
            lo = bisect.bisect_right(starts, begin) - 1
            hi = bisect.bisect_left(starts, end)
            return times[lo], max(times[lo:hi])

        packets = sorted(t for _, t, _ in self.pieces)
        return bytes(data), passed, packets


def messages(stream):
    """Gloo's messages in a stream, or None if it does not carry Gloo's framing."""
    data, passed, packets = stream.assemble()
    found, at = [], 0
    while at + PREAMBLE.size <= len(data):
        nbytes, opcode, slot, _, length, _ = PREAMBLE.unpack_from(data, at)
        if opcode not in OPCODES or nbytes != PREAMBLE.size + (length if opcode <= 1 else 0):
            return found or None
        first, last = passed(at, min(len(data), at + nbytes))
        found.append((first, last, OPCODES[opcode], slot, length, packets))
        at += nbytes
    return found or None


def parse_rate(text):
    units = {"kbit": 1e3, "mbit": 1e6, "gbit": 1e9, "bit": 1}
    for unit, factor in units.items():
        if text.lower().endswith(unit):
            return float(text[:-len(unit)]) * factor
    return float(text)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("capture")
    parser.add_argument("--rate", default="100mbit", help="the link's rate (default 100mbit)")
    parser.add_argument("--stall-ms", type=float, default=2.0)
    parser.add_argument("--messages", action="store_true")
    args = parser.parse_args()
    rate = parse_rate(args.rate)

    streams = defaultdict(Stream)
    for time, src, sport, dst, dport, seq, flags, payload in frames(args.capture):
        streams[(src, sport, dst, dport)].add(time, seq, flags, payload)
    named = {}
    for (src, sport, dst, dport), stream in streams.items():
        found = messages(stream)
        if found:
            named[f"{'.'.join(map(str, src))}:{sport} > {'.'.join(map(str, dst))}:{dport}"] = found
    if not named:
        sys.exit(f"{args.capture}: no Gloo connection in it")
    t0 = min(m[0] for found in named.values() for m in found)
    ms = lambda t: (t - t0) * 1e3

    if args.messages:
        rows = [(m[0], d, m) for d, found in named.items() for m in found]
        for _, direction, (first, last, kind, slot, length, _) in sorted(rows):
            print(f"{ms(first):10.1f} {ms(last):10.1f}  {direction}  {kind:10s} slot {slot:x} "
                  f"{length} B")
        return
    for direction, found in sorted(named.items()):
        data = [m for m in found if m[2] == "data" and m[4] > 0]
        print(f"== {direction}: {len(found)} messages, {len(data)} of data")
        print(f"{'first':>10} {'last':>10} {'bytes':>9} {'took':>8} {'wire':>8} {'waited':>8}  stalls")
        previous = None
        total = {"took": 0.0, "wire": 0.0, "waited": 0.0, "stalled": 0.0, "stalls": 0}
        for first, last, _, _, length, packets in data:
            wire = (length + PREAMBLE.size) / PAYLOAD * FRAME * 8 / rate
            inside = packets[bisect.bisect_left(packets, first):bisect.bisect_right(packets, last)]
            stalls = sorted((b - a for a, b in zip(inside, inside[1:])
                             if b - a > args.stall_ms / 1e3), reverse=True)
            if previous is None:
                waited = f"{'-':>8}"
            else:
                waited = f"{(first - previous) * 1e3:8.1f}"
                total["waited"] += first - previous
            print(f"{ms(first):10.1f} {ms(last):10.1f} {length:9d} {(last - first) * 1e3:8.1f} "
                  f"{wire * 1e3:8.1f} {waited}  "
                  + " ".join(f"{s * 1e3:.1f}" for s in stalls[:5]))
            previous = last
            total["took"] += last - first
            total["wire"] += wire
            total["stalled"] += sum(stalls)
            total["stalls"] += len(stalls)
        if data:
            print(f"   in all: took {total['took'] * 1e3:.1f} ms against {total['wire'] * 1e3:.1f} "
                  f"ms of wire time ({(total['took'] / total['wire'] - 1) * 100:+.1f}%), "
                  f"{total['stalls']} stalls of {total['stalled'] * 1e3:.1f} ms inside, "
                  f"{total['waited'] * 1e3:.1f} ms waited between")


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends it quietly
    main()
