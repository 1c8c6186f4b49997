#!/bin/sh
# Parse benchmark driver (a benchmark, not a test: nothing here passes or fails on
# speed).  Builds one big valid PTX module from tests/corpus (bench/make_input.py),
# parses it with parse_bench at 1x, 2x and 4x the size and prints throughput (MB/s
# on one core) and peak RSS for each, does the same for large functions (copies of
# one nvcc SGEMM kernel, sgemm8x8.ptx) and for a module of many unrolled kernels as nvcc
# writes them (copies of sgemm_many.ptx, 75 SGEMM template instances), separates body
# memory from symbol-table memory
# with two synthetic inputs, then times NVIDIA ptxas on one corpus round
# against parse_bench on the same file as context when ptxas is installed.
#
#   bench/parse.sh PARSE_BENCH WORKDIR [MEGABYTES]     (default 200 MB for 1x)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bench=$1
work=$2
mb=${3:-200}
ptxas=${PTXAS:-/usr/local/cuda/bin/ptxas}
mkdir -p "$work"
input=$work/parse-bench.ptx

echo "== parse throughput and peak memory (input: corpus rounds, renamed per round)"
for mult in 1 2 4; do
	python3 "$here/make_input.py" "$here/../tests/corpus" $((mb * mult)) "$input" >/dev/null
	repeat=1
	[ "$mult" -eq 1 ] && repeat=3
	printf '%sx (%s MB, best of %s): ' "$mult" $((mb * mult)) "$repeat"
	"$bench" "$input" "$repeat"
	rm -f "$input"
done

echo "== large functions: nvcc -O3 SGEMM, 8x8 outputs per thread (42 KB, 1.1k statements each)"
python3 "$here/make_input.py" --repeat "$here/sgemm8x8.ptx" "$mb" "$input" >/dev/null
printf 'sgemm x%s MB (best of 3): ' "$mb"
"$bench" "$input" 3
rm -f "$input"

echo "== many kernels: nvcc -O3 SGEMM template instances (sgemm_many.ptx: 75 kernels, 1.7 MB)"
python3 "$here/make_input.py" --repeat "$here/sgemm_many.ptx" "$mb" "$input" >/dev/null
printf 'sgemm_many x%s MB (best of 3): ' "$mb"
"$bench" "$input" 3
rm -f "$input"

echo "== memory isolation (synthetic): bodies must not grow RSS, symbols may"
for kind in big-functions:50 big-functions:200 tiny-functions:100000 tiny-functions:400000; do
	python3 "$here/make_input.py" "--${kind%%:*}" "${kind##*:}" "$input"
	printf '%s x %s: ' "${kind%%:*}" "${kind##*:}"
	"$bench" "$input"
	rm -f "$input"
done

echo "== context: NVIDIA ptxas (full compile) vs parse_bench on one corpus round"
python3 "$here/make_input.py" "$here/../tests/corpus" 1 "$input"
printf 'parse_bench: '
"$bench" "$input" 3
if [ -x "$ptxas" ]; then
	python3 -c '
import subprocess, sys, time
t = time.monotonic()
subprocess.run(sys.argv[1:], check=True, stderr=subprocess.DEVNULL)
print("ptxas -arch sm_90: wall_s=%.3f" % (time.monotonic() - t))
' "$ptxas" -arch sm_90 "$input" -o "$work/parse-bench.cubin"
else
	echo "ptxas not found at $ptxas: skipped"
fi
rm -f "$input" "$work/parse-bench.cubin"
