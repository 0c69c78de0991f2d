#!/usr/bin/env python3
"""Is a Gloo pair full duplex?  (2 ranks, env:// like gloo_sweep.py)

For each size: 'uni' = rank 0 sends S to rank 1 (dist.send/recv);
'bi' = both ranks isend S to the other and irecv S from it at once.
Every rank prints when its send and its recv completed (seconds after a
barrier).  On a full-duplex link 'bi' should take about as long as 'uni';
if the two directions are serialized it takes about twice as long.
"""
import datetime
import os
import sys
import time

import torch
import torch.distributed as dist


def main():
    torch.set_num_threads(1)
    r, n = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    if n != 2:
        sys.exit("gloo_duplex.py needs exactly 2 ranks")
    dist.init_process_group("gloo", init_method="env://", rank=r, world_size=n,
                            timeout=datetime.timedelta(seconds=600))
    reps = int(os.environ.get("REPS", "3"))
    sizes = [int(s) for s in os.environ.get("SIZES", f"{1 << 20},{16 << 20}").split(",")]
    peer = 1 - r
    lines = []
    for size in sizes:
        a = torch.ones(size // 4)
        b = torch.empty(size // 4)
        for mode in ["uni", "bi"] * reps:
            dist.barrier()
            t0 = time.perf_counter()
            ts = tr = float("nan")
            if mode == "bi":
                s = dist.isend(a, peer)
                q = dist.irecv(b, peer)
                s.wait()
                ts = time.perf_counter() - t0
                q.wait()
                tr = time.perf_counter() - t0
            elif r == 0:
                dist.send(a, 1)
                ts = time.perf_counter() - t0
            else:
                dist.recv(b, 0)
                tr = time.perf_counter() - t0
            t = torch.tensor([ts, tr], dtype=torch.float64)
            allt = [torch.empty(2, dtype=torch.float64) for _ in range(n)]
            dist.all_gather(allt, t)
            if r == 0:
                lines.append(f"{size:>9} B {mode:>3}: " + "  ".join(
                    f"rank{k} send done {x[0] * 1e3:8.1f} ms recv done {x[1] * 1e3:8.1f} ms"
                    for k, x in enumerate(allt)))
    if r == 0:
        print("\n".join(lines), flush=True)
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
