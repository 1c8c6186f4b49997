#!/bin/sh
# Start-up benchmark (a benchmark, not a test: nothing here passes or fails on speed).
# Wall time per run (median and fastest of RUNS runs) and peak RSS of
#   ptxas-amd --version
#   ptxas-amd --parse-only examples/vadd.ptx
# and, for comparison when it is installed, NVIDIA ptxas --version and
# ptxas -arch=sm_80 on the same file (a full compile).  The goal for ptxas-amd is under
# 5 ms and 5 MB for both; see bench/README.md.  Each run is one posix_spawn + wait4,
# timed with a monotonic clock (wall) and by the child's rusage (CPU, which a loaded
# machine disturbs less); peak RSS comes from one more run under /usr/bin/time -f %M
# (a vfork'd child's own rusage would report the Python parent's RSS).
#
#   bench/startup.sh PTXAS_AMD [RUNS]        (default 50 runs; PTXAS=... for NVIDIA's)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
exe=$1
runs=${2:-50}
ptxas=${PTXAS:-/usr/local/cuda/bin/ptxas}
ptx=$here/../examples/vadd.ptx

echo "== start-up: $runs runs each, load average $(cut -d' ' -f1 /proc/loadavg)"
python3 - "$runs" "$exe" "$ptx" "$ptxas" <<'PY'
import os, statistics, subprocess, sys, time

runs, exe, ptx, ptxas = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
cases = [("ptxas-amd --version", [exe, "--version"]),
         ("ptxas-amd --parse-only vadd.ptx", [exe, "--parse-only", ptx])]
if os.access(ptxas, os.X_OK):
    cases += [("NVIDIA ptxas --version", [ptxas, "--version"]),
              ("NVIDIA ptxas -arch=sm_80 vadd.ptx",
               [ptxas, "-arch=sm_80", ptx, "-o", os.devnull])]
null = os.open(os.devnull, os.O_WRONLY)
actions = [(os.POSIX_SPAWN_DUP2, null, 1), (os.POSIX_SPAWN_DUP2, null, 2)]
for label, argv in cases:
    walls, cpus = [], []
    for _ in range(runs):
        t0 = time.perf_counter_ns()
        pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=actions)
        _, status, usage = os.wait4(pid, 0)
        walls.append(time.perf_counter_ns() - t0)
        cpus.append((usage.ru_utime + usage.ru_stime) * 1e3)
        if status:
            sys.exit("%s: exit status %d" % (label, status))
    timed = subprocess.run(["/usr/bin/time", "-f", "%M"] + argv, capture_output=True,
                           text=True)
    rss = int(timed.stderr.split()[-1])
    print("%-34s wall %7.2f ms median %7.2f ms best, CPU %6.2f ms median, %5.1f MB peak RSS" %
          (label, statistics.median(walls) / 1e6, min(walls) / 1e6, statistics.median(cpus),
           rss / 1024))
PY
echo "== shared libraries ptxas-amd loads at start (ldd)"
ldd "$exe" | awk '{ print "   ", $1 }'
