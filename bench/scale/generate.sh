#!/bin/sh
# Regenerates the committed PTX of the scaling run (bench/scale.py; nvcc is never needed
# there):
#
#   ptx/spill_attn[.xN].nvcc.ptx    nvcc -arch sm_80 -O3 --ptx -DSPILL_SCALE=N src/spill_attn.cu
#   ptx/many_kernels[.xN].nvcc.ptx  nvcc -arch sm_80 -O3 --ptx -DMANY_SCALE=N src/many_kernels.cu
#
# for N = 1 (no suffix), 2, 4, 8; every file is checked with NVIDIA ptxas.
# Usage: bench/scale/generate.sh [NVCC [PTXAS]]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
nvcc=${1:-/usr/local/cuda/bin/nvcc}
ptxas=${2:-/usr/local/cuda/bin/ptxas}
mkdir -p "$here/ptx"
for n in 1 2 4 8; do
	suffix=$([ "$n" = 1 ] && echo "" || echo ".x$n")
	for pair in spill_attn:SPILL_SCALE many_kernels:MANY_SCALE; do
		name=${pair%%:*}
		out=$here/ptx/$name$suffix.nvcc.ptx
		"$nvcc" -arch sm_80 -O3 --ptx -D"${pair#*:}"=$n "$here/src/$name.cu" -o "$out"
		"$ptxas" -O3 -arch=sm_80 "$out" -o /dev/null
	done
done
echo "generated $(ls "$here"/ptx/*.ptx | wc -l) PTX files"
