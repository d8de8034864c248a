//! Seeded random streams: stream `index` of seed `seed` is the same on every
//! machine and at every thread count, so whatever is drawn for puzzle `index`
//! of a seeded run (a generated puzzle, a symmetry, a sample) never depends on
//! which worker drew it or when.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// The random stream of puzzle `index` of a run seeded with `seed`.
pub fn stream(seed: u64, index: u64) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(index);
    rng
}
