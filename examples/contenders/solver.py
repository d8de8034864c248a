#!/usr/bin/env python3
"""A sudoku-bench contender in Python: a small solver speaking the line protocol.

Race it against the built-in strategies:

    sudoku-bench bench --contender "python=python3 examples/contenders/solver.py" --solver bitset-mrv

The protocol (docs/contenders.md): one puzzle per line on stdin ('.' for a blank,
digits 1-9 then letters for 16x16, letters A-Y for 25x25, 0-9 then A-Z for
36x36, numbers separated by spaces for 49x49 and 64x64); one answer line per
puzzle on stdout, flushed: `STATUS [SOLUTION] [key=value ...]`. The mode comes
in SUDOKU_BENCH_MODE: `first`, `unique` or `count:K`.

With `pencilmark = true` in its contenders file entry (and then
SUDOKU_BENCH_PENCILMARK=1 set), pencilmark puzzles come too: n characters a
cell (729 for 9x9), each digit's symbol where it may stand and '.' where the
puzzle excludes it.

With `batch = K` in its contenders file entry (protocol version 2, then
SUDOKU_BENCH_PROTOCOL=2 set), up to K puzzles come before their answers are
read: it answers whatever has arrived in one write (see `batches`).

The solver: candidate bitmasks per cell, naked singles, then branching on the
cell with the fewest candidates. It counts nodes (states entered) and guesses
(branch points with two or more candidates), and times itself.
"""

import math
import os
import sys
import time


def symbols_for(side):
    if side == 25:
        return "ABCDEFGHIJKLMNOPQRSTUVWXY"
    if side == 36:
        return "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    if side > 36:
        return [str(d) for d in range(1, side + 1)]  # numbers, one token a cell
    return ("123456789" + "ABCDEFGHIJKLMNOP")[:side]


class Geometry:
    def __init__(self, side):
        self.side = side
        self.box = math.isqrt(side)
        self.symbols = symbols_for(side)
        self.value = {c: i + 1 for i, c in enumerate(self.symbols)}
        for c in self.symbols:
            self.value[c.lower()] = self.value[c]
        n = side * side
        self.peers = []
        for cell in range(n):
            r, c = divmod(cell, side)
            br, bc = r - r % self.box, c - c % self.box
            ps = {r * side + k for k in range(side)}
            ps |= {k * side + c for k in range(side)}
            ps |= {(br + i) * side + bc + j for i in range(self.box) for j in range(self.box)}
            ps.discard(cell)
            self.peers.append(tuple(ps))


class Search:
    def __init__(self, geometry, limit):
        self.g = geometry
        self.limit = limit
        self.full = (1 << geometry.side) - 1
        self.solutions = []
        self.count = 0
        self.nodes = 0
        self.guesses = 0

    def start(self, marks):
        """Candidates of every cell from what each may hold (a given: one digit);
        None if they contradict."""
        cand = list(marks)
        for cell, m in enumerate(marks):
            if m == 0 or (m & (m - 1) == 0 and not self.assign(cand, cell, m)):
                return None
        return cand

    def assign(self, cand, cell, bit):
        """Places a digit and removes it from the peers, following naked singles."""
        stack = [(cell, bit)]
        while stack:
            cell, bit = stack.pop()
            if not cand[cell] & bit:
                return False
            cand[cell] = bit
            for p in self.g.peers[cell]:
                m = cand[p]
                if m & bit:
                    m &= ~bit
                    if not m:
                        return False
                    cand[p] = m
                    if m & (m - 1) == 0:
                        stack.append((p, m))
        return True

    def solve(self, cand):
        self.nodes += 1
        best, best_count = -1, 99
        for cell, m in enumerate(cand):
            if m & (m - 1):
                k = bin(m).count("1")
                if k < best_count:
                    best, best_count = cell, k
                    if k == 2:
                        break
        if best < 0:
            self.count += 1
            if not self.solutions:
                self.solutions.append([m.bit_length() for m in cand])
            return self.count >= self.limit
        self.guesses += 1
        m = cand[best]
        while m:
            bit = m & -m
            m &= m - 1
            trial = cand[:]
            if self.assign(trial, best, bit) and self.solve(trial):
                return True
        return False


def read_puzzle(line):
    """The geometry and, per cell, the digits it may hold (bit d-1 for d)."""
    tokens = line.split()
    text = tokens if len(tokens) > 1 else line.strip()  # numbers, or one symbol a cell
    n = round(len(text) ** (1 / 3))
    if len(tokens) == 1 and n in (4, 9, 16, 25) and n**3 == len(text):
        # Pencilmarks: n characters a cell, '.' where a digit is excluded.
        g = GEOMETRIES.setdefault(n, Geometry(n))
        marks = [
            sum(1 << d for d in range(n) if text[cell * n + d] != ".")
            for cell in range(n * n)
        ]
        return g, marks
    side = math.isqrt(len(text))
    g = GEOMETRIES.setdefault(side, Geometry(side))
    full = (1 << side) - 1
    marks = [1 << (d - 1) if d else full for d in (g.value.get(c, 0) for c in text)]
    return g, marks


def answer(line, mode, limit):
    g, marks = read_puzzle(line)
    side = g.side
    started = time.perf_counter_ns()
    s = Search(g, limit)
    cand = s.start(marks)
    if cand is not None:
        s.nodes = 0
        s.solve(cand)
    ns = time.perf_counter_ns() - started
    counters = f"nodes={s.nodes} guesses={s.guesses} ns={ns}"
    if s.count == 0:
        return f"none {counters}"
    sep = " " if side > 36 else ""
    grid = sep.join(g.symbols[d - 1] for d in s.solutions[0])
    if s.count >= 2:
        return f"multiple {grid} {counters}"
    status = "solved" if mode == "first" else "unique"
    return f"{status} {grid} {counters}"


GEOMETRIES = {}


def batches(mode, limit):
    """Protocol version 2 (`batch = K` in the contenders file): several puzzle
    lines arrive before any answer is read. Read what has arrived, answer every
    whole line of it, and flush once: one wake-up a batch instead of one a
    puzzle."""
    pending = b""
    while True:
        chunk = os.read(0, 1 << 16)
        if not chunk:
            return
        pending += chunk
        *lines, pending = pending.split(b"\n")
        answers = [answer(l.decode(), mode, limit) for l in lines if l.strip()]
        if answers:
            sys.stdout.buffer.write(("\n".join(answers) + "\n").encode())
            sys.stdout.buffer.flush()


def main():
    mode = os.environ.get("SUDOKU_BENCH_MODE", "unique")
    if mode == "first":
        limit = 1
    elif mode.startswith("count:"):
        limit = max(2, int(mode.split(":", 1)[1]))
    else:
        limit = 2
    if os.environ.get("SUDOKU_BENCH_PROTOCOL") == "2":
        batches(mode, limit)
        return
    out = sys.stdout
    for line in sys.stdin:
        if line.strip():
            out.write(answer(line, mode, limit) + "\n")
            out.flush()


if __name__ == "__main__":
    main()
