#!/bin/sh
# Regenerates the PTX corpus from the CUDA sources in src/.
#
#   nvcc  (CUDA 13, /usr/local/cuda/bin/nvcc): nvcc/<name>.<sm>.O3.ptx (-O3),
#         nvcc/<name>.<sm>.O0.ptx (-O0 -Xcicc -O0: unoptimised NVVM output) and
#         nvcc/<name>.sm_80.Og.ptx (-G: debug build with .loc/.file and DWARF sections)
#   clang (clang-19 -x cuda --cuda-device-only -nocudainc -nocudalib, with the
#         device API from src/pa_cuda.h): clang/<name>.<sm>.O<n>.ptx at -O0 and -O3
#
# Every generated file, and every file in handwritten/, is checked with NVIDIA's
# ptxas (the independent oracle for "valid PTX").  Sources whose first line
# contains "corpus: nvcc-only" are skipped for clang; "nvcc-flags: FLAGS" on that line
# adds FLAGS to every nvcc command of the source (--use_fast_math).  Tests never run this
# script; they only read the committed .ptx files.
#
# Usage: tests/corpus/generate.sh [NVCC [CLANG [PTXAS]]]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
nvcc=${1:-/usr/local/cuda/bin/nvcc}
clang=${2:-clang-19}
ptxas=${3:-/usr/local/cuda/bin/ptxas}
sms="sm_75 sm_80 sm_90"

mkdir -p "$here/nvcc" "$here/clang"
rm -f "$here"/nvcc/*.ptx "$here"/clang/*.ptx

check() { # file sm
	"$ptxas" -arch "$2" "$1" -o /dev/null 2>"$1.log" || {
		cat "$1.log" >&2
		echo "generate.sh: ptxas rejects $1" >&2
		exit 1
	}
	rm -f "$1.log"
}

for src in "$here"/src/*.cu; do
	name=$(basename "$src" .cu)
	flags=$(head -n 1 "$src" | sed -n 's/.*nvcc-flags: *//p')
	for sm in $sms; do
		out=$here/nvcc/$name.$sm.O3.ptx
		"$nvcc" -ptx -arch "$sm" -O3 $flags -I"$here/src" "$src" -o "$out"
		check "$out" "$sm"
		out=$here/nvcc/$name.$sm.O0.ptx
		"$nvcc" -ptx -arch "$sm" -O0 -Xcicc -O0 $flags -I"$here/src" "$src" -o "$out"
		check "$out" "$sm"
	done
	out=$here/nvcc/$name.sm_80.Og.ptx
	"$nvcc" -ptx -arch sm_80 -G $flags -I"$here/src" "$src" -o "$out"
	check "$out" sm_80

	head -n 1 "$src" | grep -q 'corpus: nvcc-only' && continue
	for sm in $sms; do
		for opt in O0 O3; do
			out=$here/clang/$name.$sm.$opt.ptx
			"$clang" -x cuda --cuda-device-only -nocudainc -nocudalib \
				-Wno-unknown-cuda-version --cuda-gpu-arch="$sm" -"$opt" \
				-I"$here/src" -S "$src" -o "$out"
			check "$out" "$sm"
		done
	done
done
# Hand-written files are not generated, but they must stay valid PTX too.
for f in "$here"/handwritten/*.ptx; do
	check "$f" sm_80
done
# Strip the build-machine paths nvcc -G writes into .file directives so the
# corpus does not depend on where it was generated.
sed -i "s|$here/||g" "$here"/nvcc/*.Og.ptx
echo "generated $(find "$here/nvcc" "$here/clang" -name "*.ptx" | wc -l) PTX files"
