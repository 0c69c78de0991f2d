#!/usr/bin/env python3
"""gloo_streams.py against a capture written here, frame by frame, whose answer is known:
rank 0 tells rank 1 it can receive (a notice), rank 1 sends 3000 bytes in three frames of
which the second is lost and sent again 50 ms later."""

import os
import struct
import subprocess
import sys
import tempfile
import unittest

TOOL = os.path.join(os.path.dirname(os.path.abspath(__file__)), "gloo_streams.py")
A, B = bytes([198, 18, 0, 1]), bytes([198, 18, 0, 2])


def frame(src, dst, sport, dport, seq, flags, payload):
    tcp = struct.pack("!HHIIBBHHH", sport, dport, seq, 0, 5 << 4, flags, 65535, 0, 0)
    ip = struct.pack("!BBHHHBBH4s4s", 0x45, 0, 20 + len(tcp) + len(payload), 0, 0, 64, 6, 0,
                     src, dst)
    return b"\x00" * 12 + b"\x08\x00" + ip + tcp + payload


def preamble(opcode, length):
    return struct.pack("<6Q", 48 + (length if opcode <= 1 else 0), opcode, 7, 0, length, 0)


class GlooStreams(unittest.TestCase):
    def run_tool(self, frames, *args):
        with tempfile.NamedTemporaryFile(suffix=".pcap", delete=False) as f:
            f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 65535, 1))
            for time, data in frames:
                f.write(struct.pack("<IIII", int(time), round(time % 1 * 1e6), len(data), len(data)))
                f.write(data)
        try:
            return subprocess.run([sys.executable, TOOL, f.name, *args], capture_output=True,
                                  text=True)
        finally:
            os.unlink(f.name)

    def test_a_resent_frame_ends_the_message_when_it_passes(self):
        payload = bytes(range(256)) * 12  # 3072 bytes
        message = preamble(1, 3000) + payload[:3000]  # 3048 bytes: frames of 1000, 1000, 1048
        a_isn, b_isn = 1000, 5000
        frames = [
            (10.000, frame(A, B, 40000, 50000, a_isn - 1, 0x02, b"")),
            (10.000, frame(B, A, 50000, 40000, b_isn - 1, 0x12, b"")),
            (10.001, frame(A, B, 40000, 50000, a_isn, 0x18, preamble(3, 3000))),
            (10.002, frame(B, A, 50000, 40000, b_isn, 0x10, message[:1000])),
            (10.004, frame(B, A, 50000, 40000, b_isn + 2000, 0x18, message[2000:])),
            (10.052, frame(B, A, 50000, 40000, b_isn + 1000, 0x10, message[1000:2000])),
        ]
        result = self.run_tool(frames, "--rate", "100mbit", "--stall-ms", "10")
        self.assertEqual(result.returncode, 0, result.stderr)
        lines = result.stdout.splitlines()
        at = lines.index("== 198.18.0.2:50000 > 198.18.0.1:40000: 1 messages, 1 of data")
        first, last, size, took, wire = lines[at + 2].split()[:5]
        stalls = lines[at + 2].split()[6:]
        # Times from the first message, the notice at 10.001 s. The data's first byte passed
        # 1 ms later; all of it only with the resent middle frame, at 51 ms.
        self.assertEqual((float(first), float(last), int(size)), (1.0, 51.0, 3000))
        self.assertAlmostEqual(float(took), 50.0, places=1)
        # 3048 bytes at 100 Mbit/s in frames of 1514 bytes for 1448 of payload.
        self.assertAlmostEqual(float(wire), 3048 / 1448 * 1514 * 8 / 1e8 * 1e3, places=1)
        # Inside it, frames at 2, 4 and 52 ms after 10 s: one gap over 10 ms, of 48 ms.
        self.assertEqual(stalls, ["48.0"])
        listing = self.run_tool(frames, "--messages").stdout.splitlines()
        self.assertEqual([l.split()[5] for l in listing], ["recv-ready", "data"])

    def test_frames_cut_short_are_refused(self):
        data = frame(A, B, 1, 2, 0, 0x18, preamble(3, 0))
        with tempfile.NamedTemporaryFile(suffix=".pcap", delete=False) as f:
            f.write(struct.pack("<IHHiIII", 0xA1B2C3D4, 2, 4, 0, 0, 96, 1))
            f.write(struct.pack("<IIII", 1, 0, 60, len(data)) + data[:60])
        try:
            result = subprocess.run([sys.executable, TOOL, f.name], capture_output=True, text=True)
        finally:
            os.unlink(f.name)
        self.assertNotEqual(result.returncode, 0)
        self.assertIn("tcpdump -s 0", result.stderr)


if __name__ == "__main__":
    unittest.main()
