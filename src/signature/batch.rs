//! Many Ed25519 signatures under one key checked together, each getting exactly the result
//! [`super::verify_parts`] (seal-host's rule: S < L, then ed25519-dalek's cofactorless
//! `verify`) gives it alone — except with probability below 2⁻¹²⁰ over fresh operating-system
//! randomness the inputs cannot see or influence.
//!
//! `verify` accepts when `[S]B − [k]A` compresses to the signature's R bytes, k = H(R ‖ A ‖ M).
//! With `Dᵢ = [Sᵢ]B − [kᵢ]A − Rᵢ`, a batch tests `Σ zᵢ·Dᵢ = 0` for random zᵢ, one
//! multi-scalar multiplication for the whole chunk instead of one per signature. The curve
//! group is `Z/8 × Z/L`, and that equation says nothing reliable about the small-order
//! (`Z/8`) part of each Dᵢ: ed25519-dalek's own `verify_batch` is cofactorless but derives
//! the zᵢ from the inputs, so a key holder who signs with `R = [r]B + T` (T of order 2; seal-host
//! rejects such a signature) can search for a message whose zᵢ is even, and the batch passes.
//! So a signature joins a batch only after these checks, and any signature that fails them,
//! or sits in a chunk whose checks fail, is verified alone with [`super::verify_parts`]:
//!
//! 1. S < L (otherwise the result is `NonCanonicalScalar`, as alone) and 64 bytes.
//! 2. The key A is torsion-free (`[L]A = 0`, once per key): then `[S]B − [k]A` is too.
//! 3. R's bytes are a canonical encoding: y < p, the point decompresses, and it is not of
//!    small order (the only points with x = 0, where the sign bit could be non-canonical, are
//!    of small order). Then `compress(decompress(R)) = R` bytes, so "`[S]B − [k]A` equals the
//!    point R" is the same statement as "`verify` accepts".
//! 4. Every R of the batch is torsion-free, tested with [`TORSION_TESTS`] random subset sums
//!    `Qⱼ = Σᵢ bᵢⱼ·Rᵢ` (bᵢⱼ random bits), each checked with `[L]Qⱼ = 0`. If some Rᵢ has a
//!    small-order part tᵢ ≠ 0, then for each j, fixing every other bit, the two values of bᵢⱼ
//!    give sums differing by tᵢ, so at most one of them is torsion-free: each test misses with
//!    probability at most 1/2, all of them with at most 2⁻¹²⁸. (No deterministic test can be
//!    cheaper than `[L]Rᵢ` for each R: each evaluation of a group equation yields one element of
//!    the 8-element torsion group, and telling apart all 2ⁿ patterns of order-2 parts needs n
//!    of them; `[L]R` alone costs about three quarters of a verification.)
//! 5. `Σ zᵢ·Dᵢ = 0` for uniform 128-bit zᵢ over a part of the batch. With 2–4 every Dᵢ lies
//!    in the prime-order subgroup; if one is not 0, fixing the other coefficients, at most one
//!    value of zᵢ modulo L satisfies the equation, so a false pass of any one equation has
//!    probability at most 2⁻¹²⁸. The batch is split into one part per thread (at least
//!    [`MIN_EQUATION_PART`] signatures each, so that the multiplication is a Pippenger one);
//!    a part whose equation fails is halved and each half tested again with the same
//!    coefficients, down to parts of [`EQUATION_LEAF`] signatures, whose members are verified
//!    alone. Every part tested is a part of the halving trees, whose leaves hold at least
//!    [`EQUATION_LEAF`]/2 signatures, and a tree has fewer nodes than twice its leaves: a
//!    batch of at most [`MAX_BATCH`] signatures evaluates fewer than
//!    4·[`MAX_BATCH`]/[`EQUATION_LEAF`] = 128 equations, so a false pass anywhere in it has
//!    probability below 2⁷·2⁻¹²⁸ = 2⁻¹²¹ (a union bound: it needs no independence between
//!    the equations), and with check 4's 2⁻¹²⁸, below the 2⁻¹²⁰ of the first paragraph.
//!
//! Then every Dᵢ = 0, so `[S]B − [k]A` is the point R, whose compression is the R bytes:
//! `verify` accepts each one. Conversely, signatures `verify` accepts pass 2–5 whenever
//! they pass 1–3 (their R equals the torsion-free `[S]B − [k]A`, and every Dᵢ is 0), so a
//! batch of good signatures never falls back. A signature whose part fails down to its leaf
//! is verified one by one, so every signature keeps its own result and reason: one bad
//! signature costs its neighbours a few halved equations and the one-by-one checks of its
//! leaf. Without randomness from the operating system, or with fewer than [`MIN_BATCHED`]
//! signatures to batch, everything is verified one by one; a batch of more than
//! [`MAX_BATCH`] is checked [`MAX_BATCH`] at a time, each with its own randomness.

use super::{checked_signature, verify_challenge, verify_parts, Challenge, Failure};
use curve25519_dalek::constants::ED25519_BASEPOINT_POINT;
use curve25519_dalek::edwards::{CompressedEdwardsY, EdwardsPoint};
use curve25519_dalek::scalar::Scalar;
use curve25519_dalek::traits::{Identity, IsIdentity, VartimeMultiscalarMul};
use ed25519_dalek::VerifyingKey;
use rayon::prelude::*;
use sha2::{Digest, Sha512};
use std::iter::once;
use std::ops::Range;

/// Random subset-sum tests of the R points' torsion (each misses a torsion part with
/// probability at most 1/2).
pub const TORSION_TESTS: usize = 128;
/// The fewest signatures of a part of the batch whose equation is tested first: from about
/// 190 points curve25519-dalek multiplies by Pippenger's method, which costs about 0.55 of
/// Straus's per point at 1,024 (and 0.57 at 512), where the 128-signature chunks this
/// replaced used Straus.
pub const MIN_EQUATION_PART: usize = 256;
/// A part of at most this many signatures whose equation fails is not halved again: its
/// members are verified one by one.
pub const EQUATION_LEAF: usize = 64;
/// The most signatures one batch (one draw of randomness, one set of torsion tests) holds;
/// the bound on its equations in the module docs counts on it.
pub const MAX_BATCH: usize = 2048;
/// Fewer signatures than this are verified one by one: the torsion tests cost a fixed 128
/// multiplications by L (about 100 verifications), which batching saves back only from about
/// this many signatures on.
pub const MIN_BATCHED: usize = 128;
/// Torsion tests computed together from one pass over the points (see [`group_sums`]): each
/// point is added once into the bucket of its random bit pattern for the group's tests, and
/// the group's sums come from the buckets. 8 for large batches (2¹⁶ additions of bucket
/// folding per 2,048 points, about 20 additions a point for all 128 tests, where tables of
/// 4-point subset sums needed about 36); 4 below [`WIDE_GROUPS_FROM`] points, where the 256
/// buckets would cost more than they save.
const GROUP_TESTS: usize = 8;
const NARROW_GROUP_TESTS: usize = 4;
/// Batches of at least this many R points use groups of [`GROUP_TESTS`] tests.
const WIDE_GROUPS_FROM: usize = 512;

/// The key every signature of a batch is checked under, with its torsion already known.
pub struct BatchKey<'k> {
    key: &'k VerifyingKey,
    torsion_free: bool,
}

impl<'k> BatchKey<'k> {
    /// Checks `[L]A = 0` (about one verification's work, once per key).
    pub fn new(key: &'k VerifyingKey) -> Self {
        BatchKey {
            key,
            torsion_free: key.to_edwards().is_torsion_free(),
        }
    }
}

/// One signature to check: the message in consecutive parts and the signature bytes.
pub struct Claim<'a> {
    pub message: &'a [&'a [u8]],
    pub signature: &'a [u8],
}

/// What one signature contributes to a batch.
struct Terms {
    r: EdwardsPoint,
    s: Scalar,
    k: Scalar,
}

// Nearly every signature is `Batched`; boxing its terms would add an allocation per signature.
#[allow(clippy::large_enum_variant)]
enum Prepared {
    /// The result is known without the curve equation (S ≥ L, or not 64 bytes).
    Decided(Result<(), Failure>),
    /// Checks 2–3 fail: verified alone.
    Alone,
    Batched(Terms),
}

/// The result of every claim under `key`, in order, each exactly what
/// `verify_parts(key, message, signature)` returns (see the module docs). Runs on the current
/// rayon pool.
pub fn verify_each(key: &BatchKey<'_>, claims: &[Claim<'_>]) -> Vec<Result<(), Failure>> {
    verify_all(
        key,
        claims,
        |claim| claim.signature,
        |claim, r_bytes| challenge_of(key, claim, r_bytes),
        |claim| verify_parts(key.key, claim.message, claim.signature),
    )
}

/// k = H(R ‖ A ‖ M) of a claim.
fn challenge_of(key: &BatchKey<'_>, claim: &Claim<'_>, r_bytes: &[u8; 32]) -> Scalar {
    let mut hash = Sha512::new();
    hash.update(r_bytes);
    hash.update(key.key.as_bytes());
    for part in claim.message {
        hash.update(part);
    }
    Scalar::from_bytes_mod_order_wide(&hash.finalize().into())
}

/// [`verify_each`] for signatures whose challenge k was computed while their message was
/// streamed ([`super::challenge_streamed`] under `key`): each result is exactly what
/// [`super::verify_challenge`] (and so `verify_streamed` over the same message) returns.
pub fn verify_challenges(key: &BatchKey<'_>, challenges: &[Challenge]) -> Vec<Result<(), Failure>> {
    verify_all(
        key,
        challenges,
        |challenge| &challenge.signature,
        |challenge, _| challenge.k,
        |challenge| verify_challenge(key.key, challenge),
    )
}

/// The batch over any kind of claim: its signature bytes, its challenge k (given R's bytes),
/// and its one-by-one verification.
fn verify_all<C: Sync>(
    key: &BatchKey<'_>,
    claims: &[C],
    signature: impl Fn(&C) -> &[u8] + Sync,
    challenge: impl Fn(&C, &[u8; 32]) -> Scalar + Sync,
    alone: impl Fn(&C) -> Result<(), Failure> + Sync,
) -> Vec<Result<(), Failure>> {
    let prepared: Vec<Prepared> = claims
        .par_iter()
        .map(|c| prepare(key, signature(c), |r_bytes| challenge(c, r_bytes)))
        .collect();
    let terms: Vec<&Terms> = prepared
        .iter()
        .filter_map(|p| match p {
            Prepared::Batched(terms) => Some(terms),
            _ => None,
        })
        .collect();
    let passed = batch_passes(key.key, &terms);
    let mut next_batched = 0;
    let plan: Vec<(usize, Option<Result<(), Failure>>)> = prepared
        .iter()
        .enumerate()
        .map(|(index, p)| match p {
            Prepared::Decided(result) => (index, Some(*result)),
            Prepared::Alone => (index, None),
            Prepared::Batched(_) => {
                let ok = passed[next_batched];
                next_batched += 1;
                (index, ok.then_some(Ok(())))
            }
        })
        .collect();
    plan.into_par_iter()
        .map(|(index, known)| known.unwrap_or_else(|| alone(&claims[index])))
        .collect()
}

fn prepare(
    key: &BatchKey<'_>,
    signature: &[u8],
    challenge: impl FnOnce(&[u8; 32]) -> Scalar,
) -> Prepared {
    let signature = match checked_signature(signature) {
        Ok(signature) => signature,
        Err(failure) => return Prepared::Decided(Err(failure)),
    };
    if !key.torsion_free {
        return Prepared::Alone;
    }
    let r_bytes = signature.r_bytes();
    if !below_field_prime(r_bytes) {
        return Prepared::Alone;
    }
    let Some(r) = CompressedEdwardsY(*r_bytes).decompress() else {
        return Prepared::Alone;
    };
    if r.is_small_order() {
        return Prepared::Alone;
    }
    let k = challenge(r_bytes);
    // `checked_signature` established S < L, so this is S itself.
    let s = Scalar::from_bytes_mod_order(*signature.s_bytes());
    Prepared::Batched(Terms { r, s, k })
}

/// True when the y coordinate of an encoded point (its low 255 bits) is below p = 2²⁵⁵ − 19,
/// i.e. the encoding is not one of the 19 non-canonical ones `decompress` reduces silently.
fn below_field_prime(encoded: &[u8; 32]) -> bool {
    let top = encoded[31] & 0x7f;
    !(top == 0x7f && encoded[1..31].iter().all(|&b| b == 0xff) && encoded[0] >= 0xed)
}

/// For each batched signature, whether checks 4 and 5 passed for it.
fn batch_passes(key: &VerifyingKey, terms: &[&Terms]) -> Vec<bool> {
    if terms.len() > MAX_BATCH {
        // Equal shares of at most MAX_BATCH, each a batch of its own.
        let shares = terms.len().div_ceil(MAX_BATCH);
        let share = terms.len().div_ceil(shares);
        return terms
            .chunks(share)
            .flat_map(|terms| batch_passes(key, terms))
            .collect();
    }
    let mut passed = vec![false; terms.len()];
    if terms.len() < MIN_BATCHED {
        return passed;
    }
    let Some(random) = Randomness::draw(terms.len()) else {
        return passed;
    };
    let points: Vec<EdwardsPoint> = terms.iter().map(|t| t.r).collect();
    if !all_torsion_free(&points, &random.subsets) {
        return passed;
    }
    let a = key.to_edwards();
    let holds = |range: Range<usize>| {
        equation_holds(&a, &terms[range.clone()], &random.coefficients[range])
    };
    for_each_part(
        terms.len(),
        rayon::current_num_threads(),
        &mut passed,
        |start, passed| {
            settle(start, &holds, passed);
        },
    );
    passed
}

/// Splits `count` signatures into one part per thread, each of at least
/// [`MIN_EQUATION_PART`] (fewer than two of them are one part), in equal shares, and runs
/// `each` on the parts in parallel with the part's first index and its results.
fn for_each_part(
    count: usize,
    threads: usize,
    passed: &mut [bool],
    each: impl Fn(usize, &mut [bool]) + Sync,
) {
    let parts = (count / MIN_EQUATION_PART).clamp(1, threads.max(1));
    let part = count.div_ceil(parts);
    passed
        .par_chunks_mut(part)
        .enumerate()
        .for_each(|(index, passed)| each(index * part, passed));
}

/// Check 5 over the signatures `start..start + passed.len()`: when `holds` (their equation)
/// is true every member passed; when it is false each half is settled again (with the same
/// coefficients), down to parts of [`EQUATION_LEAF`] signatures, whose members are left to be
/// verified alone.
fn settle(start: usize, holds: &(impl Fn(Range<usize>) -> bool + Sync), passed: &mut [bool]) {
    if holds(start..start + passed.len()) {
        passed.fill(true);
        return;
    }
    if passed.len() <= EQUATION_LEAF {
        return;
    }
    let half = passed.len() / 2;
    let (first, second) = passed.split_at_mut(half);
    rayon::join(
        || settle(start, holds, first),
        || settle(start + half, holds, second),
    );
}

/// Fresh randomness for one batch: 128-bit equation coefficients and the subset bits.
struct Randomness {
    coefficients: Vec<Scalar>,
    /// For each group of tests, one byte per point: bit `j` of it (of the group's width) says
    /// whether the point is in the group's `j`-th subset sum.
    subsets: Vec<u8>,
}

impl Randomness {
    fn draw(count: usize) -> Option<Self> {
        let mut bytes = vec![0u8; count * 16 + groups(count) * count];
        getrandom::fill(&mut bytes).ok()?;
        let (coefficients, subsets) = bytes.split_at(count * 16);
        let coefficients = coefficients
            .chunks_exact(16)
            .map(|chunk| {
                let mut word = [0u8; 16];
                word.copy_from_slice(chunk);
                Scalar::from(u128::from_le_bytes(word))
            })
            .collect();
        Some(Randomness {
            coefficients,
            subsets: subsets.to_vec(),
        })
    }
}

/// Tests per group for a batch of `count` R points.
fn group_width(count: usize) -> usize {
    if count >= WIDE_GROUPS_FROM {
        GROUP_TESTS
    } else {
        NARROW_GROUP_TESTS
    }
}

/// Groups of tests for a batch of `count` R points: [`TORSION_TESTS`] tests in all.
fn groups(count: usize) -> usize {
    TORSION_TESTS / group_width(count)
}

/// Check 4: every point is torsion-free, unless all [`TORSION_TESTS`] subset sums miss.
fn all_torsion_free(points: &[EdwardsPoint], subsets: &[u8]) -> bool {
    if points.is_empty() {
        return true;
    }
    let width = group_width(points.len());
    subsets.par_chunks_exact(points.len()).all(|patterns| {
        group_sums(points, patterns, width)
            .iter()
            .all(is_torsion_free)
    })
}

/// The `width` subset sums of one group of tests: sum `j` adds the points whose pattern has
/// bit `j` set (only the low `width` bits of each pattern count). Each point goes into the
/// bucket of its pattern (one addition); then, from the highest bit down, the buckets whose
/// index has that bit set are added into its sum and folded onto the buckets without it, so
/// bucket `p` always holds every point whose pattern agrees with `p` on the bits not yet done.
fn group_sums(points: &[EdwardsPoint], patterns: &[u8], width: usize) -> Vec<EdwardsPoint> {
    let mask = (1usize << width) - 1;
    let mut buckets = vec![EdwardsPoint::identity(); 1 << width];
    for (point, &pattern) in points.iter().zip(patterns) {
        let pattern = usize::from(pattern) & mask;
        // Pattern 0 is in no sum of this group.
        if pattern != 0 {
            buckets[pattern] += point;
        }
    }
    let mut sums = vec![EdwardsPoint::identity(); width];
    for bit in (0..width).rev() {
        let half = 1usize << bit;
        let (low, high) = buckets.split_at_mut(half);
        for (kept, folded) in low.iter_mut().zip(&high[..half]) {
            sums[bit] += folded;
            *kept += folded;
        }
    }
    sums
}

/// `[L]P = 0`, as `[L − 1]P + P` (L itself is not a canonical scalar), in variable time:
/// every point here is public.
fn is_torsion_free(point: &EdwardsPoint) -> bool {
    let l_minus_one = Scalar::ZERO - Scalar::ONE;
    (EdwardsPoint::vartime_multiscalar_mul([l_minus_one], [*point]) + point).is_identity()
}

/// Check 5 for one chunk: `[Σ zᵢSᵢ]B − [Σ zᵢkᵢ]A − Σ zᵢRᵢ = 0`, written as
/// `[−Σ zᵢSᵢ]B + [Σ zᵢkᵢ]A + Σ zᵢRᵢ = 0`.
fn equation_holds(a: &EdwardsPoint, terms: &[&Terms], coefficients: &[Scalar]) -> bool {
    let mut b_coefficient = Scalar::ZERO;
    let mut a_coefficient = Scalar::ZERO;
    for (terms, z) in terms.iter().zip(coefficients) {
        b_coefficient -= z * terms.s;
        a_coefficient += z * terms.k;
    }
    EdwardsPoint::vartime_multiscalar_mul(
        once(b_coefficient)
            .chain(once(a_coefficient))
            .chain(coefficients.iter().copied()),
        once(ED25519_BASEPOINT_POINT)
            .chain(once(*a))
            .chain(terms.iter().map(|t| t.r)),
    )
    .is_identity()
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;
    use curve25519_dalek::constants::EIGHT_TORSION;
    use ed25519_dalek::{Signer, SigningKey};

    #[test]
    fn field_prime_bound_is_exact() {
        let mut p = [0xffu8; 32];
        p[0] = 0xed;
        p[31] = 0x7f;
        assert!(!below_field_prime(&p));
        let mut below = p;
        below[0] = 0xec;
        assert!(below_field_prime(&below));
        // The sign bit does not count.
        let mut signed = below;
        signed[31] |= 0x80;
        assert!(below_field_prime(&signed));
        let mut p_signed = p;
        p_signed[31] = 0xff;
        assert!(!below_field_prime(&p_signed));
        let mut other = p;
        other[15] = 0xfe;
        assert!(below_field_prime(&other));
    }

    #[test]
    fn torsion_test_of_one_point_is_exact() {
        let base = ED25519_BASEPOINT_POINT * Scalar::from(12345u64);
        assert!(is_torsion_free(&base));
        assert!(is_torsion_free(&EdwardsPoint::identity()));
        for torsion in &EIGHT_TORSION[1..] {
            assert!(!is_torsion_free(&(base + torsion)));
            assert!(!is_torsion_free(torsion));
        }
    }

    fn points(count: u64) -> Vec<EdwardsPoint> {
        (1..=count)
            .map(|i| ED25519_BASEPOINT_POINT * Scalar::from(i * 7919))
            .collect()
    }

    #[test]
    fn group_sums_hold_the_sum_of_each_tests_subset() {
        let points = points(23);
        let patterns: Vec<u8> = (0..23u32).map(|i| (i * 37 + 11) as u8).collect();
        for width in [NARROW_GROUP_TESTS, GROUP_TESTS] {
            let sums = group_sums(&points, &patterns, width);
            assert_eq!(sums.len(), width);
            for (bit, sum) in sums.iter().enumerate() {
                let expected = points
                    .iter()
                    .zip(&patterns)
                    .filter(|(_, &pattern)| pattern & (1 << bit) != 0)
                    .fold(EdwardsPoint::identity(), |sum, (point, _)| sum + point);
                assert_eq!(sum.compress(), expected.compress(), "{width} {bit}");
            }
        }
    }

    #[test]
    fn every_batch_gets_all_torsion_tests_in_groups_sized_for_it() {
        for count in [1, MIN_BATCHED, WIDE_GROUPS_FROM - 1, WIDE_GROUPS_FROM, 2048] {
            assert_eq!(groups(count) * group_width(count), TORSION_TESTS, "{count}");
            let random = Randomness::draw(count).unwrap();
            assert_eq!(random.coefficients.len(), count);
            assert_eq!(random.subsets.len(), groups(count) * count);
        }
        // Wide groups only where their 256 buckets pay off (the speed, not the verdicts).
        assert_eq!(group_width(WIDE_GROUPS_FROM - 1), NARROW_GROUP_TESTS);
        assert_eq!(group_width(WIDE_GROUPS_FROM), GROUP_TESTS);
    }

    #[test]
    fn every_test_of_every_group_counts() {
        // A torsion part that only one test's subset holds is still found, for every test:
        // no group or bit of the random bytes is skipped or read twice.
        for count in [37usize, WIDE_GROUPS_FROM] {
            let mut points = points(count as u64);
            let torsioned = count / 2;
            points[torsioned] += EIGHT_TORSION[4];
            let width = group_width(count);
            let mut subsets = vec![0u8; TORSION_TESTS / width * count];
            for group in 0..TORSION_TESTS / width {
                for bit in 0..width {
                    subsets[group * count + torsioned] = 1 << bit;
                    assert!(
                        !all_torsion_free(&points, &subsets),
                        "{count} {group} {bit}"
                    );
                    subsets[group * count + torsioned] = 0;
                }
            }
            assert!(
                all_torsion_free(&points, &subsets),
                "{count}: no test holds it"
            );
            // Bits above the group's width are not tests.
            if width < 8 {
                subsets[torsioned] = 1 << width;
                assert!(all_torsion_free(&points, &subsets));
            }
        }
        assert!(all_torsion_free(&[], &[]));
    }

    #[test]
    fn subset_tests_find_a_torsion_part_anywhere_among_many_points() {
        let mut points: Vec<EdwardsPoint> = (1..=37u64)
            .map(|i| ED25519_BASEPOINT_POINT * Scalar::from(i * 7919))
            .collect();
        let random = Randomness::draw(points.len()).unwrap();
        assert!(all_torsion_free(&points, &random.subsets));
        for index in [0, 3, 4, 36] {
            let honest = points[index];
            // Order 2 (the hardest case for random combinations), then order 8.
            for torsion in [EIGHT_TORSION[4], EIGHT_TORSION[1]] {
                points[index] = honest + torsion;
                let random = Randomness::draw(points.len()).unwrap();
                assert!(!all_torsion_free(&points, &random.subsets), "{index}");
            }
            points[index] = honest;
        }
    }

    #[test]
    fn a_batch_agrees_with_verifying_alone_and_a_bad_signature_costs_only_its_chunk() {
        let signer = SigningKey::from_bytes(&[0x31; 32]);
        let key = signer.verifying_key();
        let messages: Vec<Vec<u8>> = (0..300u32).map(|i| i.to_le_bytes().repeat(9)).collect();
        let mut signatures: Vec<[u8; 64]> =
            messages.iter().map(|m| signer.sign(m).to_bytes()).collect();
        signatures[140][40] ^= 1;
        signatures[290][33] ^= 4;
        let parts: Vec<[&[u8]; 1]> = messages.iter().map(|m| [m.as_slice()]).collect();
        let claims: Vec<Claim> = parts
            .iter()
            .zip(&signatures)
            .map(|(message, signature)| Claim { message, signature })
            .collect();
        let batch_key = BatchKey::new(&key);
        assert!(batch_key.torsion_free);
        let results = verify_each(&batch_key, &claims);
        assert_eq!(results.len(), claims.len());
        for (index, result) in results.iter().enumerate() {
            let alone = verify_parts(&key, &[&messages[index]], &signatures[index]);
            assert_eq!(*result, alone, "{index}");
            assert_eq!(result.is_ok(), index != 140 && index != 290, "{index}");
        }
        let terms: Vec<Terms> = claims
            .iter()
            .map(|claim| {
                let k = |r_bytes: &[u8; 32]| challenge_of(&batch_key, claim, r_bytes);
                prepare(&batch_key, claim.signature, k)
            })
            .map(|prepared| match prepared {
                Prepared::Batched(terms) => terms,
                _ => panic!("every signature here is batched"),
            })
            .collect();
        let terms: Vec<&Terms> = terms.iter().collect();
        let passed = batch_passes(&key, &terms);
        // One part of 300 (fewer than two of 256), halved wherever its equation fails: 150,
        // then 75, then 37 and 38, which are leaves. Only the two leaves holding signatures
        // 140 and 290 fall back; every other part passed (its result must not be taken for
        // the others').
        let fell_back: Vec<usize> = (0..300).filter(|&index| !passed[index]).collect();
        let expected: Vec<usize> = (112..150).chain(262..300).collect();
        assert_eq!(fell_back, expected);
    }

    /// The equations one batch may evaluate, whatever fails: every part its halving tests.
    fn equations_tested(
        count: usize,
        threads: usize,
        fails: impl Fn(usize) -> bool + Sync,
    ) -> Vec<Range<usize>> {
        let tested = std::sync::Mutex::new(Vec::new());
        let holds = |range: Range<usize>| {
            tested.lock().unwrap().push(range.clone());
            !range.into_iter().any(&fails)
        };
        let mut passed = vec![false; count];
        for_each_part(count, threads, &mut passed, |start, passed| {
            settle(start, &holds, passed);
        });
        // A failing signature never passes.
        for (index, passed) in passed.iter().enumerate() {
            assert!(!(*passed && fails(index)), "{count} {threads} {index}");
        }
        tested.into_inner().unwrap()
    }

    #[test]
    fn a_batch_tests_fewer_than_128_equations_whatever_fails() {
        // The bound the module docs' 2⁻¹²¹ counts on, for every size of batch and number of
        // threads, when every signature fails (the most halving there can be).
        for count in [
            MIN_BATCHED,
            255,
            256,
            511,
            512,
            513,
            1000,
            1760,
            2047,
            MAX_BATCH,
        ] {
            for threads in [1, 2, 3, 4, 8, 64] {
                let tested = equations_tested(count, threads, |_| true);
                assert!(tested.len() < 128, "{count} {threads}: {}", tested.len());
                // Every part is tested once, and the smallest parts hold at least half a leaf.
                assert!(tested.iter().all(|part| part.len() >= EQUATION_LEAF / 2));
                // Parts per thread, each of at least MIN_EQUATION_PART unless the batch is
                // smaller than two of them.
                let roots: Vec<&Range<usize>> = tested
                    .iter()
                    .filter(|part| {
                        !tested.iter().any(|other| {
                            other != *part && other.start <= part.start && part.end <= other.end
                        })
                    })
                    .collect();
                assert!(roots.len() <= threads.max(1), "{count} {threads}");
                if count >= 2 * MIN_EQUATION_PART {
                    assert!(roots.iter().all(|part| part.len() >= MIN_EQUATION_PART));
                }
            }
        }
        // One failing signature costs halved equations down to its leaf, nothing else.
        let tested = equations_tested(MAX_BATCH, 2, |index| index == 700);
        let fell_back: Vec<&Range<usize>> =
            tested.iter().filter(|part| part.contains(&700)).collect();
        assert_eq!(
            fell_back,
            [
                &(0..1024),
                &(512..1024),
                &(512..768),
                &(640..768),
                &(640..704)
            ]
        );
        assert_eq!(tested.len(), 2 + 2 * 4);
    }
}
