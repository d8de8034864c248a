/*
 * sudoku_bench.h: the sudoku-bench solver ABI, version 1.
 *
 * A shared library enters `sudoku-bench bench` as a library contender:
 *
 *     [[contender]]
 *     name = "mine"
 *     library = "path/to/libmine.so"
 *     symbol = "mine_solver"        # a function returning the table below
 *     abi = "sudoku-bench"
 *
 * The workbench loads the library in a helper process of its own for each
 * worker thread (so a library that keeps its search in globals is never
 * entered by two threads at once, and a crash or a hang costs rows, never the
 * run), calls `create` once there, then `solve` for each puzzle, timing each
 * call with its own monotonic clock, and checks every answer. Use this ABI
 * for what tdoku's and JSolve's function shapes cannot say: sizes other than
 * 9x9, pencilmark input, the three modes, and the solver's own counters.
 *
 * Everything here is plain C99; nothing is allocated by the workbench that the
 * library must free, nor the other way round.
 */
#ifndef SUDOKU_BENCH_H
#define SUDOKU_BENCH_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The version of this header; a library returns it in `abi_version`. */
#define SUDOKU_BENCH_ABI_VERSION 1

/* What a solve looks for. */
#define SB_MODE_FIRST 0  /* any one solution */
#define SB_MODE_UNIQUE 1 /* stop at the second solution (as tdoku does) */
#define SB_MODE_COUNT 2  /* count solutions up to `count_limit` */

/* `solve`'s return values. */
#define SB_OK 0      /* `answer` is filled */
#define SB_BUDGET 1  /* the solver gave up (its own limit): no verdict */
#define SB_ERROR -1  /* the solver failed: the row is an error */

/* A counter the solver does not keep. */
#define SB_UNKNOWN UINT64_MAX

/* One puzzle. */
typedef struct sb_puzzle {
    uint32_t side;           /* 4, 9, 16, 25, 36, 49 or 64 */
    uint32_t mode;           /* SB_MODE_FIRST, SB_MODE_UNIQUE or SB_MODE_COUNT */
    uint64_t count_limit;    /* SB_MODE_COUNT: stop counting here */
    const uint8_t *cells;    /* side*side cells, row by row: 0 blank, 1..side a given */
    const uint64_t *allowed; /* NULL, or (a pencilmark puzzle) per cell the digits the
                                puzzle still allows: bit d-1 for digit d */
} sb_puzzle;

/* What the solver found; the workbench zeroes it (counters SB_UNKNOWN) before each call. */
typedef struct sb_answer {
    uint64_t solutions; /* solutions found: 0, 1, 2 (mode unique stops there), or up to the limit */
    uint8_t *solution;  /* side*side cells: write the first solution here when solutions >= 1 */
    uint64_t nodes;     /* search nodes visited, or SB_UNKNOWN */
    uint64_t guesses;   /* branch points with two or more alternatives, or SB_UNKNOWN */
} sb_answer;

/* The solver: what the named symbol returns. */
typedef struct sb_solver {
    uint32_t abi_version; /* SUDOKU_BENCH_ABI_VERSION */
    uint32_t pencilmarks; /* 1 when `solve` honours `allowed` */
    uint8_t sides[8];     /* the sides it handles, ended by 0 unless all 8 are used: {9, 16, 0} */
    /* Per-worker state, made once in each helper process; NULL when it needs none. */
    void *(*create)(void);
    /* Solves one puzzle: SB_OK, SB_BUDGET or SB_ERROR. */
    int32_t (*solve)(void *state, const sb_puzzle *puzzle, sb_answer *answer);
    /* Frees what `create` made (called once, at the end; may be NULL). */
    void (*destroy)(void *state);
} sb_solver;

/* The symbol a contenders file names has this shape, for example:
 *     const sb_solver *mine_solver(void);
 */
typedef const sb_solver *(*sb_solver_fn)(void);

#ifdef __cplusplus
}
#endif

#endif /* SUDOKU_BENCH_H */
