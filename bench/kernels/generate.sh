#!/bin/sh
# Regenerates what only NVIDIA's tools can make for the benchmark (bench/run reads these
# committed files and never needs nvcc):
#
#   ptx/NAME.nvcc.ptx        nvcc -arch sm_80 -O3 --ptx src/NAME.cu
#   ptx/NAME.clang.ptx       clang-19 -x cuda --cuda-device-only -nocudainc -nocudalib
#                            --cuda-gpu-arch=sm_80 -O3 -S src/NAME.cu (for comparison)
#   ptx/big_unrolled.xN.nvcc.ptx   the large kernel at -DBIG_SCALE=N (N = 2, 4, 8; x1 is
#                            big_unrolled.nvcc.ptx), for the scaling run
#   ptxas-regs.txt           "FILE REGISTERS" from NVIDIA ptxas -O3 -arch=sm_80 -v on each
#                            nvcc PTX file (the reference register counts of the report)
#
# Every PTX file is checked with NVIDIA ptxas (the oracle for valid PTX).
# Usage: bench/kernels/generate.sh [NVCC [CLANG [PTXAS]]]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
nvcc=${1:-/usr/local/cuda/bin/nvcc}
clang=${2:-clang-19}
ptxas=${3:-/usr/local/cuda/bin/ptxas}

mkdir -p "$here/ptx"
rm -f "$here"/ptx/*.ptx
regs=$here/ptxas-regs.txt
echo "# NVIDIA ptxas -O3 -arch=sm_80 -v: registers per thread (written by generate.sh)" >"$regs"

check() { # file: must be valid PTX; records its register count
	log=$("$ptxas" -O3 -arch=sm_80 -v "$1" -o /dev/null 2>&1) || {
		echo "$log" >&2
		echo "generate.sh: ptxas rejects $1" >&2
		exit 1
	}
	n=$(echo "$log" | sed -n 's/.*Used \([0-9]*\) registers.*/\1/p' | head -n 1)
	echo "$(basename "$1") $n" >>"$regs"
}

for src in "$here"/src/*.cu; do
	name=$(basename "$src" .cu)
	out=$here/ptx/$name.nvcc.ptx
	"$nvcc" -arch sm_80 -O3 --ptx -I"$here/src" "$src" -o "$out"
	check "$out"
	out=$here/ptx/$name.clang.ptx
	"$clang" -x cuda --cuda-device-only -nocudainc -nocudalib -Wno-unknown-cuda-version \
		--cuda-gpu-arch=sm_80 -O3 -I"$here/src" -S "$src" -o "$out"
	check "$out"
done
for scale in 2 4 8; do
	out=$here/ptx/big_unrolled.x$scale.nvcc.ptx
	"$nvcc" -arch sm_80 -O3 --ptx -DBIG_SCALE=$scale -I"$here/src" "$here/src/big_unrolled.cu" \
		-o "$out"
	check "$out"
done
echo "generated $(ls "$here"/ptx/*.ptx | wc -l) PTX files"
