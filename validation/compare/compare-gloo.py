#!/usr/bin/env python3
"""Simulated against measured Gloo collectives, case by case.

For every (op, ranks, rate) of the testbed's CSVs, runs `uniference colltest` with the
`gloo` preset on a star whose links match the testbed's (rate, one-way delay from its ping),
then prints and writes a markdown table of per-size error and the MAPE over sizes >= 1 MiB.

  validation/compare/compare-gloo.py --uniference build/apps/uniference \
      --measured validation/results/run1-lowload --out validation/results/gloo-comparison.md
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile

OPS = ["all_reduce", "all_gather", "broadcast", "all_to_all", "send_recv"]
RATES = {"100mbit": "100Mbps", "1gbit": "1Gbps"}
MIN_BYTES = 1 << 20


def read_csv(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def simulate(uniference, scenario, op, ranks, rate, delay, sizes):
    with tempfile.NamedTemporaryFile(suffix=".csv") as out:
        command = [uniference, "colltest", scenario, "--op", op, "--ranks", str(ranks),
                   "--min-bytes", str(min(sizes)), "--max-bytes", str(max(sizes)),
                   "--preset", "gloo", "--warmup", "1", "--iters", "2", "--csv", out.name,
                   "--set", "/network/link/rate=" + rate, "--set", "/network/link/delay=" + delay]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return {int(row["bytes"]): row for row in read_csv(out.name)}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--uniference", required=True, help="the uniference binary")
    parser.add_argument("--measured", required=True, help="folder of gloo-<N>ranks-<RATE>.csv")
    parser.add_argument("--scenario", default=os.path.join(os.path.dirname(__file__), "..", "..",
                                                           "scenarios", "quickstart.json"))
    parser.add_argument("--delay", default="14us",
                        help="one-way delay of each link (the testbed's ping RTT over four link crossings)")
    parser.add_argument("--out", help="markdown file to write")
    args = parser.parse_args()

    lines = ["| op | ranks | rate | bytes | measured (s) | simulated (s) | error |",
             "| --- | --- | --- | --- | --- | --- | --- |"]
    errors_by_case = []
    all_errors = []
    for rate_name, rate in RATES.items():
        for ranks in (2, 4):
            path = os.path.join(args.measured, "gloo-%dranks-%s.csv" % (ranks, rate_name))
            if not os.path.exists(path):
                continue
            measured = read_csv(path)
            for op in OPS:
                rows = [r for r in measured if r["op"] == op and int(r["bytes"]) >= MIN_BYTES]
                if not rows:
                    continue
                sizes = [int(r["bytes"]) for r in rows]
                simulated = simulate(args.uniference, args.scenario, op, ranks, rate, args.delay, sizes)
                case_errors = []
                for r in rows:
                    b = int(r["bytes"])
                    m = float(r["time_s"])
                    s = float(simulated[b]["time_s"])
                    e = (s - m) / m
                    case_errors.append(abs(e))
                    all_errors.append(abs(e))
                    lines.append("| %s | %d | %s | %d | %.4f | %.4f | %+.1f%% |" % (op, ranks, rate_name, b, m, s, 100 * e))
                errors_by_case.append((op, ranks, rate_name, sum(case_errors) / len(case_errors)))
                print("%-11s %d ranks %-7s MAPE %.1f%%" % (op, ranks, rate_name, 100 * errors_by_case[-1][3]),
                      flush=True)
    summary = ["| op | ranks | rate | MAPE (sizes >= 1 MiB) |", "| --- | --- | --- | --- |"]
    for op, ranks, rate_name, mape in errors_by_case:
        summary.append("| %s | %d | %s | %.1f%% |" % (op, ranks, rate_name, 100 * mape))
    overall = 100 * sum(all_errors) / max(1, len(all_errors))
    text = "\n".join(["# Simulated (gloo preset) against measured PyTorch Gloo", "",
                      "Measured: `%s`. Links: testbed rates, %s one way. Overall MAPE: %.1f%%." %
                      (os.path.relpath(args.measured, os.path.join(os.path.dirname(__file__), "..")),
                       args.delay, overall), ""] + summary + ["", "## Every size", ""] + lines) + "\n"
    print("overall MAPE %.1f%%" % overall)
    if args.out:
        with open(args.out, "w") as f:
            f.write(text)


if __name__ == "__main__":
    sys.exit(main())
