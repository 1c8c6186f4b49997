#!/bin/sh
# Builds the PTX parser fuzz target with clang-19 and libFuzzer and runs it.
#
#   tests/fuzz/build-and-run.sh OUTDIR [libFuzzer options...]
#   e.g. tests/fuzz/build-and-run.sh /tmp/fuzz -max_total_time=600
#
# meson's project compiler is gcc, which has no libFuzzer, so this script compiles
# src/util/*.c, src/parse/*.c (globbed now, skipping files that define main), the keyword
# tables gen_kwtab.py writes and
# tests/fuzz/fuzz_parse.c directly with -fsanitize=fuzzer,address,undefined.
# Seeds are the corpus split into one-function modules (split_seeds.py), the
# hand-written corpus files and the saved inputs in tests/fuzz/crashes;
# the dictionary is tests/fuzz/ptx.dict plus every spelling in src/parse/*.def.
# New crashes are written to OUTDIR/crash-*; copy them to tests/fuzz/crashes/.
# Exit status: libFuzzer's (non-zero when it found a crash, leak or timeout).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:?usage: build-and-run.sh OUTDIR [libFuzzer options...]}
shift
cc=${FUZZ_CC:-clang-19}
mkdir -p "$out/seeds" "$out/work"
out=$(cd "$out" && pwd)

srcs=""
for f in "$root"/src/util/*.c "$root"/src/parse/*.c; do
	grep -q '^int main' "$f" && continue
	srcs="$srcs $f"
done
# The keyword tables are generated at build time (src/parse/meson.build does the same).
python3 "$root/src/parse/gen_kwtab.py" "$root/src/parse/ptx_dotwords.def" \
	"$root/src/parse/ptx_ops.def" "$out/ptx_kwtab.c"
srcs="$srcs $out/ptx_kwtab.c"
# shellcheck disable=SC2086
"$cc" -g -O1 -std=c17 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=undefined -fno-omit-frame-pointer \
	-I"$root/src/util" -I"$root/src/parse" -I"$root/src/encode" \
	$srcs "$root/tests/fuzz/fuzz_parse.c" -o "$out/fuzz_parse"

# Small seeds (one function each, with the declarations it needs) keep iterations fast.
python3 "$root/tests/fuzz/split_seeds.py" "$out/seeds" 16384 "$root"/tests/corpus/nvcc/*.ptx \
	"$root"/tests/corpus/clang/*.ptx "$root"/tests/corpus/handwritten/*.ptx
cp "$root"/tests/corpus/handwritten/*.ptx "$out/seeds/"
if [ -d "$root/tests/fuzz/crashes" ]; then
	# crashes/open/ holds inputs that still fail: as seeds they would stop the run.
	find "$root/tests/fuzz/crashes" -maxdepth 1 -type f ! -name '*.md' -exec cp {} "$out/seeds/" \;
fi

cp "$root/tests/fuzz/ptx.dict" "$out/ptx.dict"
cat "$root"/src/parse/*.def | grep -oE '^(DW|OP)\([A-Z0-9_]+, "[^"]+"' |
	sed 's/.*\("[^"]*"\)$/\1/' | sort -u >>"$out/ptx.dict"

cd "$out"
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=1 \
	exec ./fuzz_parse -dict="$out/ptx.dict" -max_len=16384 -timeout=10 -rss_limit_mb=2048 \
	-artifact_prefix="$out/" -print_final_stats=1 "$@" "$out/work" "$out/seeds"
