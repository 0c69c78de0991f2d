#!/usr/bin/env python3
"""One rank of a torch.distributed (Gloo) collective sweep, nccl-tests style.

Run one process per rank (e.g. one per testbed namespace) with the usual
env:// variables: RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT (and preferably
GLOO_SOCKET_IFNAME).  Rank 0 writes the CSV

    op,ranks,bytes,algorithm,time_s,algbw_GBps,busbw_GBps

Size S ("bytes") is counted as nccl-tests does:
  all_reduce / broadcast : the buffer;  all_gather : the WHOLE output;
  all_to_all             : the send buffer;  send_recv : the sent buffer.
For every op and size: `warmup` untimed iterations, then `iters` timed ones,
each preceded by dist.barrier(); each rank times the op with
time.perf_counter(); an iteration's time is the max over ranks (all_reduce
MAX after the timed loop); time_s is the mean over the timed iterations.
algbw = S / time_s / 1e9; busbw = algbw * factor (all_reduce 2(n-1)/n,
all_gather and all_to_all (n-1)/n, broadcast and send_recv 1).
"""
import argparse
import csv
import datetime
import os
import sys
import time

import torch
import torch.distributed as dist

OPS = ["all_reduce", "all_gather", "broadcast", "all_to_all", "send_recv"]


def bus_factor(op, n):
    if op == "all_reduce":
        return 2.0 * (n - 1) / n
    if op in ("all_gather", "all_to_all"):
        return (n - 1) / n
    return 1.0


def probe_all_gather_into_tensor(rank, n):
    """True if dist.all_gather_into_tensor works (and is correct) on this group."""
    ok = 1
    err = ""
    fn = getattr(dist, "all_gather_into_tensor", None)
    if fn is None:
        ok, err = 0, "torch.distributed has no all_gather_into_tensor"
    else:
        try:
            inp = torch.full((4,), float(rank))
            out = torch.empty(4 * n)
            fn(out, inp)
            want = torch.arange(n, dtype=torch.float32).repeat_interleave(4)
            if not torch.equal(out, want):
                ok, err = 0, "wrong result"
        except Exception as e:  # gloo in torch 1.13: no _allgather_base
            ok, err = 0, f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
    flag = torch.tensor([ok], dtype=torch.int32)
    dist.all_reduce(flag, op=dist.ReduceOp.MIN)  # all ranks agree
    return bool(flag.item()), err


class Op:
    """Buffers and one call of one collective at one size; check() verifies a result."""

    def __init__(self, op, nbytes, rank, n, ag_into_tensor):
        self.op, self.rank, self.n = op, rank, n
        self.ag_into_tensor = ag_into_tensor
        elems = nbytes // 4
        if op in ("all_gather", "all_to_all"):
            assert elems % n == 0, f"{op}: {nbytes} B not divisible into {n} float32 chunks"
        self.elems = elems
        if op == "all_reduce":
            self.buf = torch.empty(elems)
        elif op == "broadcast":
            self.buf = torch.empty(elems)
        elif op == "all_gather":
            self.inp = torch.empty(elems // n)
            self.out = torch.empty(elems)
            self.out_list = list(self.out.chunk(n))  # views into self.out
        elif op == "all_to_all":
            self.inp = torch.empty(elems)
            self.out = torch.empty(elems)
        elif op == "send_recv":
            self.inp = torch.empty(elems)
            self.out = torch.empty(elems)
        else:
            raise ValueError(op)

    def fill(self):
        r = float(self.rank)
        if self.op == "all_reduce":
            self.buf.fill_(r + 1.0)
        elif self.op == "broadcast":
            self.buf.fill_(r + 1.0)
        elif self.op == "all_gather":
            self.inp.fill_(r)
            self.out.fill_(-1.0)
        elif self.op == "all_to_all":
            # chunk j (sent to rank j) holds rank*n + j
            self.inp.view(self.n, -1).copy_(
                (r * self.n + torch.arange(self.n, dtype=torch.float32)).unsqueeze(1))
            self.out.fill_(-1.0)
        elif self.op == "send_recv":
            self.inp.fill_(r)
            self.out.fill_(-1.0)

    def check(self):
        n, r = self.n, self.rank
        if self.op == "all_reduce":
            return bool((self.buf == n * (n + 1) / 2).all())
        if self.op == "broadcast":
            return bool((self.buf == 1.0).all())
        if self.op == "all_gather":
            want = torch.arange(n, dtype=torch.float32).unsqueeze(1)
            return bool((self.out.view(n, -1) == want).all())
        if self.op == "all_to_all":
            want = (torch.arange(n, dtype=torch.float32) * n + r).unsqueeze(1)
            return bool((self.out.view(n, -1) == want).all())
        if self.op == "send_recv":
            return bool((self.out == float((r - 1) % n)).all())
        return False

    def run(self):
        op = self.op
        if op == "all_reduce":
            dist.all_reduce(self.buf, op=dist.ReduceOp.SUM)
        elif op == "broadcast":
            dist.broadcast(self.buf, src=0)
        elif op == "all_gather":
            if self.ag_into_tensor:
                dist.all_gather_into_tensor(self.out, self.inp)
            else:
                dist.all_gather(self.out_list, self.inp)
        elif op == "all_to_all":
            dist.all_to_all_single(self.out, self.inp)
        elif op == "send_recv":
            n, r = self.n, self.rank
            s = dist.isend(self.inp, (r + 1) % n)
            q = dist.irecv(self.out, (r - 1) % n)
            s.wait()
            q.wait()


def sizes(lo, hi):
    s = lo
    while s <= hi:
        yield s
        s *= 2


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True, help="CSV written by rank 0")
    ap.add_argument("--raw-out", default=None, help="optional per-iteration CSV (rank 0)")
    ap.add_argument("--ops", default=",".join(OPS))
    ap.add_argument("--min-bytes", type=int, default=4 * 1024)
    ap.add_argument("--max-bytes", type=int, default=16 * 1024 * 1024)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--iters", type=int, default=5)
    ap.add_argument("--timeout-s", type=int, default=600)
    args = ap.parse_args()

    torch.set_num_threads(1)
    rank = int(os.environ["RANK"])
    n = int(os.environ["WORLD_SIZE"])
    dist.init_process_group(backend="gloo", init_method="env://", rank=rank, world_size=n,
                            timeout=datetime.timedelta(seconds=args.timeout_s))
    ops = [o for o in args.ops.split(",") if o]
    for o in ops:
        if o not in OPS:
            sys.exit(f"unknown op {o}")

    ag_into, ag_err = probe_all_gather_into_tensor(rank, n)
    if rank == 0:
        print(f"# torch {torch.__version__}, gloo, {n} ranks", flush=True)
        print(f"# all_gather_into_tensor on gloo: {'works, used' if ag_into else 'NOT available (' + ag_err + '); using list-form dist.all_gather'}", flush=True)

    rows, raw = [], []
    for op in ops:
        for nbytes in sizes(args.min_bytes, args.max_bytes):
            o = Op(op, nbytes, rank, n, ag_into)
            for w in range(args.warmup):
                o.fill()
                dist.barrier()
                o.run()
                if w == 0 and not o.check():
                    raise SystemExit(f"rank {rank}: wrong result for {op} {nbytes} B")
            t = torch.zeros(args.iters, dtype=torch.float64)
            for i in range(args.iters):
                dist.barrier()
                t0 = time.perf_counter()
                o.run()
                t[i] = time.perf_counter() - t0
            dist.all_reduce(t, op=dist.ReduceOp.MAX)
            del o
            if rank == 0:
                mean = float(t.mean())
                algbw = nbytes / mean / 1e9
                busbw = algbw * bus_factor(op, n)
                rows.append([op, n, nbytes, "gloo", f"{mean:.9g}", f"{algbw:.6g}", f"{busbw:.6g}"])
                raw.extend([op, n, nbytes, i, f"{float(x):.9g}"] for i, x in enumerate(t))
                print(f"{op:>10} {n} {nbytes:>9} B  {mean * 1e3:10.3f} ms  algbw {algbw:8.4f} GB/s"
                      f"  busbw {busbw:8.4f} GB/s  (min {float(t.min()) * 1e3:.3f} max {float(t.max()) * 1e3:.3f} ms)",
                      flush=True)
    dist.barrier()
    if rank == 0:
        os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
        with open(args.out, "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["op", "ranks", "bytes", "algorithm", "time_s", "algbw_GBps", "busbw_GBps"])
            w.writerows(rows)
        if args.raw_out:
            with open(args.raw_out, "w", newline="") as f:
                w = csv.writer(f, lineterminator="\n")
                w.writerow(["op", "ranks", "bytes", "iter", "time_s"])
                w.writerows(raw)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
