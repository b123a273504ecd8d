//! The generator's randomness: SplitMix64 from one seed, with the few distributions the
//! inputs need. Hand-written rather than `rand`'s `StdRng` because the inputs must be the same
//! bytes on every machine and after every dependency update, which `StdRng` does not promise;
//! SplitMix64 (Steele, Lea and Flood, 2014) is twelve lines and passes BigCrush.

/// A seeded stream of pseudo-random numbers.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// An independent stream for item `index` of a kind `stream`: the same item gets the same
    /// numbers whichever thread builds it, and in whatever order.
    pub fn stream(seed: u64, stream: u64, index: u64) -> Self {
        let mut mixer = Rng(seed ^ stream.wrapping_mul(0xA076_1D64_78BD_642F));
        let base = mixer.next_u64();
        Rng(base ^ index.wrapping_mul(0xE703_7ED1_A0B4_28DB))
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next_u64()) * u128::from(n)) >> 64) as u64
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.below(hi - lo + 1)
    }

    /// Uniform in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }

    /// An index drawn with the given weights.
    pub fn weighted(&mut self, weights: &[u32]) -> usize {
        let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
        let mut roll = self.below(total);
        for (index, &weight) in weights.iter().enumerate() {
            if roll < u64::from(weight) {
                return index;
            }
            roll -= u64::from(weight);
        }
        weights.len() - 1
    }

    /// A size between `min` and `max` with a long tail: a Pareto draw of shape `alpha`
    /// (smaller: heavier tail) from `min`, drawn again while above `max`.
    pub fn long_tail(&mut self, min: usize, max: usize, alpha: f64) -> usize {
        loop {
            let u = 1.0 - self.unit();
            let size = min as f64 / u.powf(1.0 / alpha);
            if size <= max as f64 {
                return size as usize;
            }
        }
    }

    /// Log-uniform between `min` and `max`.
    pub fn log_uniform(&mut self, min: usize, max: usize) -> usize {
        let (lo, hi) = ((min as f64).ln(), (max as f64).ln());
        ((lo + (hi - lo) * self.unit()).exp() as usize).clamp(min, max)
    }

    /// `bytes` random bytes as lowercase hex.
    pub fn hex(&mut self, bytes: usize) -> String {
        let mut out = String::with_capacity(bytes * 2);
        for _ in 0..bytes {
            out.push_str(&format!("{:02x}", self.below(256)));
        }
        out
    }

    pub fn bytes32(&mut self) -> [u8; 32] {
        let mut out = [0u8; 32];
        for chunk in out.chunks_exact_mut(8) {
            chunk.copy_from_slice(&self.next_u64().to_le_bytes());
        }
        out
    }
}
