//! 64-bit SimHash near-duplicate fingerprints.

/// Fingerprints within this Hamming distance are the same story.
pub const NEAR_DUP_DISTANCE: u32 = 3;

/// The SimHash of an article's title and summary.
pub fn simhash(title: &str, summary: &str) -> u64 {
    let _ = (title, summary);
    todo!()
}

/// The number of differing bits.
pub fn hamming(a: u64, b: u64) -> u32 {
    (a ^ b).count_ones()
}

/// The four 16-bit bands, most significant first.
pub fn bands(h: u64) -> [u16; 4] {
    let _ = h;
    todo!()
}
