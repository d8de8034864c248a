#!/usr/bin/env bash
# Regenerates the embedded datasets in datasets/ and their table in datasets/README.md.
# Deterministic: the same files on any machine and at any thread count.
# Usage: bash datasets/make.sh
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --quiet
B=./target/release/sudoku-bench

gen() {
  local file=$1; shift
  { echo "# made by datasets/make.sh: sudoku-bench generate $*"
    echo "# each line: puzzle, a space, its unique answer"
    "$B" generate "$@"; } > "datasets/$file"
}

gen easy-9x9.txt    --size 9  --count 300 --minimal --band easy    --seed 101
gen medium-9x9.txt  --size 9  --count 300 --minimal --band medium  --seed 102
gen hard-9x9.txt    --size 9  --count 300 --minimal --band hard    --seed 103
gen extreme-9x9.txt --size 9  --count 200 --minimal --band extreme --seed 104
gen set-4x4.txt     --size 4  --count 100 --minimal                --seed 105
gen set-16x16.txt   --size 16 --count 100 --min-clues 110 --max-clues 140 --seed 106
gen set-25x25.txt   --size 25 --count 20  --min-clues 320 --max-clues 360 --seed 107
# Above 25x25 unique puzzles keep about three quarters of the cells: sparser
# ones are out of the generator's reach (see the README's "Generating and rating").
gen set-36x36.txt   --size 36 --count 10  --min-clues 940 --max-clues 1000 --seed 108
gen set-64x64.txt   --size 64 --count 10  --min-clues 2950 --max-clues 3100 --seed 109

# The table: clue range and mean guesses from `sudoku-bench rate`.
table() {
  local file=$1 how=$2
  "$B" rate "datasets/$file" | awk -F, -v f="$file" -v how="$how" '
    NR > 1 { n++; p = $1; k = split(p, cell, " ");
             # One symbol a cell, or (49x49 and up) numbers separated by spaces.
             if (k > 1) { cells = k; clues = 0; for (i = 1; i <= k; i++) if (cell[i] != ".") clues++ }
             else { cells = length(p); clues = gsub(/[^.]/, "", p) }
             side = int(sqrt(cells) + 0.5); g += $3;
             if (min == "" || clues < min) min = clues; if (clues > max) max = clues }
    END { printf "| `%s` | %dx%d | %d | %d-%d | %.2f | %s |\n", f, side, side, n, min, max, g / n, how }'
}

{
  cat <<'TXT'
# Embedded datasets

Made by `bash datasets/make.sh` with the workbench's own generator (seeded, so the
command reproduces them byte for byte), plus the seed puzzles in `reference/`.
Every puzzle has exactly one solution, written after it on its line. These are
the sets `sudoku-bench bench` runs by default; they are compiled into the binary.

Mean guesses: `sudoku-bench rate` (mean `guesses` of `bitset-mrv` over 8 seeded
symmetry permutations). Bands: easy = 0 (naked and hidden singles solve it),
medium at most 1.5 or solved without a guess by `bitset-mrv-locked` or `band`, hard at most 6,
extreme above 6; so every strategy needs a guess on hard and extreme puzzles.

| set | size | puzzles | clues | mean guesses | how it was made |
|---|---|---:|---|---:|---|
TXT
  table easy-9x9.txt    "minimal, band easy, seed 101"
  table medium-9x9.txt  "minimal, band medium, seed 102"
  table hard-9x9.txt    "minimal, band hard, seed 103"
  table extreme-9x9.txt "minimal, band extreme, seed 104"
  table set-4x4.txt     "minimal, seed 105"
  table set-16x16.txt   "110-140 clues, seed 106"
  table set-25x25.txt   "320-360 clues, seed 107"
  table set-36x36.txt   "940-1000 clues, seed 108"
  table set-64x64.txt   "2950-3100 clues, seed 109"
  cat <<'TXT'

## `reference/`

Puzzles from the seed articles and hand-made verdict cases, used by the tests:
`seeds-9x9.txt` (seed 000's easy and `8........` puzzles, seed 002's HDU 1426
sample, each with its answer), `hdu1426-sample*.txt` (the sample and its printed
answer in HDU format), `seed001-16x16-letters*.txt` (seed 001's letter format),
`sizes-*.txt` (4x4, 16x16, 25x25 puzzles with answers) and `verdicts-9x9.txt`
(conflicting givens, no solution, several solutions, with the expected verdict).
TXT
} > datasets/README.md
echo "datasets regenerated; see datasets/README.md"
