//! The timeline's time axis: where a moment is drawn. Guarantees: the axis covers every point
//! it was given, in [`BINS`] slots; a pause with no point that lasts at least a tenth of the
//! whole span (at most [`MAX_GAPS`] of them, the longest) is compressed to [`GAP_SLOTS`] slots,
//! so a ten-minute pause between two bursts does not squeeze both into a sliver, and every
//! compressed pause is reported (its exact first and last moments) so the drawing can mark
//! it; the stretches between pauses share the other slots by their duration (at least
//! [`MIN_SLOTS`] each); a later moment never lands in an earlier slot. Memory is bounded
//! (one fixed table of [`FINE`] cells), whatever the number of points: the points are read
//! three times, never copied or sorted. Also the axis's tick steps and labels (UTC).

use crate::timestamp::utc_text;

/// Slots of the drawing (bins), stretches and compressed pauses together.
pub const BINS: usize = 200;
/// Slots a compressed pause takes.
pub const GAP_SLOTS: usize = 8;
/// Pauses compressed at most (the longest).
pub const MAX_GAPS: usize = 6;
/// Slots a stretch of activity takes at least.
pub const MIN_SLOTS: usize = 6;
/// Cells the first look at the points uses to find the pauses.
const FINE: usize = 2048;
/// A pause is compressed when it lasts at least 1/GAP_FRACTION of the span.
const GAP_FRACTION: u64 = 10;

/// A stretch of time drawn at one scale: from `start` to `end` (Unix milliseconds, the first
/// and last points in it), over `slots` slots from slot `first`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stretch {
    pub start: u64,
    pub end: u64,
    pub first: usize,
    pub slots: usize,
}

impl Stretch {
    /// The slot of `t`, a moment inside the stretch (clamped to it).
    fn slot(&self, t: u64) -> usize {
        let duration = self.end - self.start;
        if duration == 0 || self.slots <= 1 {
            return self.first;
        }
        let offset = t.clamp(self.start, self.end) - self.start;
        self.first
            + ((u128::from(offset) * (self.slots as u128 - 1)) / u128::from(duration)) as usize
    }

    /// The moment drawn at the start of slot `slot` (a slot of this stretch).
    pub fn time_at(&self, slot: usize) -> u64 {
        let duration = self.end - self.start;
        if self.slots <= 1 {
            return self.start;
        }
        let offset = slot.saturating_sub(self.first).min(self.slots - 1);
        self.start + ((u128::from(duration) * offset as u128) / (self.slots as u128 - 1)) as u64
    }

    /// Where moment `t` falls, in slots from the stretch's first slot (a fraction).
    pub fn position(&self, t: u64) -> f64 {
        let duration = self.end - self.start;
        if duration == 0 {
            return self.first as f64;
        }
        let offset = (t.clamp(self.start, self.end) - self.start) as f64;
        self.first as f64 + offset * (self.slots as f64 - 1.0) / duration as f64
    }
}

/// The axis: stretches of activity in time order; between two stretches a compressed pause
/// of [`GAP_SLOTS`] slots.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Axis {
    pub stretches: Vec<Stretch>,
}

/// A compressed pause: its slots and the moments it lies between (the last point before it
/// and the first after it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Gap {
    pub first: usize,
    pub slots: usize,
    pub from: u64,
    pub to: u64,
}

impl Axis {
    /// The axis over the points `points()` yields (called three times, the same points each
    /// time); `None` when there is none.
    pub fn new<I: Iterator<Item = u64>>(points: impl Fn() -> I) -> Option<Axis> {
        let (min, max) = points().fold(None, |range: Option<(u64, u64)>, t| match range {
            None => Some((t, t)),
            Some((a, b)) => Some((a.min(t), b.max(t))),
        })?;
        let span = max - min;
        // The first and last point of each cell that has one.
        let mut cells: Vec<Option<(u64, u64)>> = vec![None; FINE];
        if span > 0 {
            for t in points() {
                let cell = ((u128::from(t - min) * (FINE as u128 - 1)) / u128::from(span)) as usize;
                let entry = &mut cells[cell];
                *entry = Some(match *entry {
                    None => (t, t),
                    Some((a, b)) => (a.min(t), b.max(t)),
                });
            }
        } else {
            cells[0] = Some((min, max));
        }
        // Runs of activity, split wherever the pause to the next point is long enough.
        let occupied: Vec<(u64, u64)> = cells.into_iter().flatten().collect();
        let mut pauses: Vec<(u64, usize)> = occupied
            .windows(2)
            .enumerate()
            .filter_map(|(at, pair)| {
                let pause = pair[1].0 - pair[0].1;
                (span > 0 && pause >= span.div_ceil(GAP_FRACTION)).then_some((pause, at))
            })
            .collect();
        // The longest pauses, in time order.
        pauses.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        pauses.truncate(MAX_GAPS);
        let mut cuts: Vec<usize> = pauses.into_iter().map(|(_, at)| at).collect();
        cuts.sort_unstable();
        let mut bounds: Vec<(u64, u64)> = Vec::with_capacity(cuts.len() + 1);
        let mut from = 0;
        for cut in cuts.iter().copied().chain([occupied.len() - 1]) {
            bounds.push((occupied[from].0, occupied[cut].1));
            from = cut + 1;
        }
        let slots = share(
            &bounds.iter().map(|(a, b)| b - a).collect::<Vec<_>>(),
            BINS - GAP_SLOTS * (bounds.len() - 1),
        );
        let mut first = 0;
        let stretches = bounds
            .into_iter()
            .zip(slots)
            .map(|((start, end), slots)| {
                let stretch = Stretch {
                    start,
                    end,
                    first,
                    slots,
                };
                first += slots + GAP_SLOTS;
                stretch
            })
            .collect();
        Some(Axis { stretches })
    }

    /// The first point.
    pub fn start(&self) -> u64 {
        self.stretches.first().map_or(0, |s| s.start)
    }

    /// The last point.
    pub fn end(&self) -> u64 {
        self.stretches.last().map_or(0, |s| s.end)
    }

    /// The stretch a moment is drawn in: the last one starting at or before it.
    pub fn stretch_of(&self, t: u64) -> Option<&Stretch> {
        let after = self.stretches.partition_point(|s| s.start <= t);
        self.stretches.get(after.saturating_sub(1))
    }

    /// The stretch slot `slot` belongs to (none for a slot of a compressed pause).
    pub fn stretch_of_slot(&self, slot: usize) -> Option<&Stretch> {
        (self.stretches.iter()).find(|s| (s.first..s.first + s.slots).contains(&slot))
    }

    /// The slot a moment is drawn in (a moment between stretches: the end of the earlier).
    pub fn slot(&self, t: u64) -> usize {
        self.stretch_of(t).map_or(0, |s| s.slot(t))
    }

    /// The compressed pauses, in time order.
    pub fn gaps(&self) -> impl Iterator<Item = Gap> + '_ {
        self.stretches.windows(2).map(|pair| Gap {
            first: pair[0].first + pair[0].slots,
            slots: GAP_SLOTS,
            from: pair[0].end,
            to: pair[1].start,
        })
    }
}

/// Shares `total` slots among stretches of the given durations: [`MIN_SLOTS`] each, the rest
/// by duration (largest remainders first, ties to the earlier), never more than `total`.
fn share(durations: &[u64], total: usize) -> Vec<usize> {
    let base = MIN_SLOTS.min(total / durations.len().max(1));
    let rest = total - base * durations.len();
    let sum: u128 = durations.iter().map(|&d| u128::from(d)).sum();
    if sum == 0 {
        // Only instants: the slots shared equally, the remainder to the first ones.
        let each = rest / durations.len().max(1);
        let extra = rest % durations.len().max(1);
        return (0..durations.len())
            .map(|i| base + each + usize::from(i < extra))
            .collect();
    }
    let mut shares: Vec<(usize, u128, usize)> = durations
        .iter()
        .enumerate()
        .map(|(i, &d)| {
            let exact = u128::from(d) * rest as u128;
            ((exact / sum) as usize, exact % sum, i)
        })
        .collect();
    let given: usize = shares.iter().map(|s| s.0).sum();
    let mut order: Vec<usize> = (0..shares.len()).collect();
    order.sort_by(|&a, &b| shares[b].1.cmp(&shares[a].1).then(a.cmp(&b)));
    for &i in order.iter().take(rest - given) {
        shares[i].0 += 1;
    }
    shares.into_iter().map(|(n, _, _)| base + n).collect()
}

/// Tick steps, in milliseconds: the first one at least as long as the span a label needs.
const STEPS: [u64; 22] = [
    1_000,
    2_000,
    5_000,
    10_000,
    15_000,
    30_000,
    60_000,
    120_000,
    300_000,
    600_000,
    900_000,
    1_800_000,
    3_600_000,
    7_200_000,
    10_800_000,
    21_600_000,
    43_200_000,
    86_400_000,
    172_800_000,
    604_800_000,
    2_592_000_000,
    31_536_000_000,
];

/// The tick step for a stretch of `duration` drawn over `pixels`, so labels are at least
/// `spacing` pixels apart.
pub fn tick_step(duration: u64, pixels: f64, spacing: f64) -> u64 {
    let least = (duration as f64 * spacing / pixels.max(1.0)).ceil() as u64;
    STEPS
        .iter()
        .copied()
        .find(|&s| s >= least)
        .unwrap_or(STEPS[STEPS.len() - 1])
}

/// The ticks of a stretch with step `step`: the multiples of the step (UTC) inside it.
pub fn ticks(stretch: &Stretch, step: u64) -> impl Iterator<Item = u64> + '_ {
    let first = stretch.start.div_ceil(step).saturating_mul(step);
    (0..)
        .map(move |k: u64| first.saturating_add(k.saturating_mul(step)))
        .take_while(move |&t| t <= stretch.end)
        .take(64)
}

/// The UTC date (`YYYY-MM-DD`) and time (`HH:MM:SS`) of a moment.
pub fn date_time(ms: u64) -> (String, String) {
    let text = utc_text(ms);
    let mut parts = text.split(' ');
    let date = parts.next().unwrap_or_default().to_owned();
    let time = parts.next().unwrap_or_default().to_owned();
    (date, time)
}

/// A tick's label for ticks `step` apart: seconds only when the step needs them, the date
/// only for day steps or when it differs from `previous_date`.
pub fn tick_label(ms: u64, step: u64, previous_date: Option<&str>) -> String {
    let (date, time) = date_time(ms);
    let clock = if step < 60_000 { &time[..] } else { &time[..5] };
    let month_day = date.get(5..).unwrap_or(&date);
    if step >= 86_400_000 {
        month_day.to_owned()
    } else if previous_date.is_some_and(|d| d != date) {
        format!("{month_day} {clock}")
    } else {
        clock.to_owned()
    }
}

/// A duration as people say it, to the two largest units: `9 min 35 s`, `2 h 5 min`, `3 d 4 h`.
pub fn duration_text(ms: u64) -> String {
    const UNITS: [(u64, &str); 4] = [(86_400, "d"), (3600, "h"), (60, "min"), (1, "s")];
    let seconds = ms / 1000;
    let Some(big) = UNITS.iter().position(|&(size, _)| seconds >= size) else {
        return format!("{ms} ms");
    };
    let (size, name) = UNITS[big];
    let rest = seconds % size;
    match UNITS.get(big + 1) {
        Some(&(small, small_name)) if rest / small > 0 => {
            format!("{} {name} {} {small_name}", seconds / size, rest / small)
        }
        _ => format!("{} {name}", seconds / size),
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn axis(points: &[u64]) -> Axis {
        Axis::new(|| points.iter().copied()).unwrap()
    }

    fn width(axis: &Axis) -> usize {
        let last = axis.stretches.last().unwrap();
        last.first + last.slots
    }

    #[test]
    fn a_ten_minute_pause_is_compressed_and_both_bursts_keep_their_width() {
        // The fixture's shape: 25 s of calls, a 9 min 35 s pause, 55 s of calls.
        let base = 1_787_218_201_500;
        let points: Vec<u64> = [0, 4_000, 17_000, 21_000, 25_000]
            .into_iter()
            .chain([
                600_000, 604_000, 617_000, 625_000, 638_000, 642_000, 655_000,
            ])
            .map(|d| base + d)
            .collect();
        let axis = axis(&points);
        assert_eq!(axis.stretches.len(), 2);
        assert_eq!(width(&axis), BINS);
        let gaps: Vec<Gap> = axis.gaps().collect();
        assert_eq!(
            gaps,
            vec![Gap {
                first: axis.stretches[0].slots,
                slots: GAP_SLOTS,
                from: base + 25_000,
                to: base + 600_000
            }]
        );
        // Without compression the first burst would get 25/655 of 200 slots (7); now it
        // gets its share of the slots left after the pause, by duration (25 : 55).
        let (a, b) = (axis.stretches[0].slots, axis.stretches[1].slots);
        assert_eq!(a + b, BINS - GAP_SLOTS);
        assert!(a >= 55 && b >= 120, "{a} {b}");
        // Every point lands in its stretch, in order.
        let slots: Vec<usize> = points.iter().map(|&t| axis.slot(t)).collect();
        assert!(slots.windows(2).all(|w| w[0] <= w[1]), "{slots:?}");
        assert_eq!(slots[0], 0);
        assert_eq!(slots[4], a - 1);
        assert_eq!(slots[5], a + GAP_SLOTS);
        assert_eq!(*slots.last().unwrap(), BINS - 1);
        assert_eq!(duration_text(gaps[0].to - gaps[0].from), "9 min 35 s");
    }

    #[test]
    fn steady_activity_is_one_stretch_over_every_slot() {
        let points: Vec<u64> = (0..1000).map(|i| 1_000_000 + i * 997).collect();
        let axis = axis(&points);
        assert_eq!(axis.stretches.len(), 1);
        assert_eq!(axis.gaps().count(), 0);
        assert_eq!(axis.stretches[0].slots, BINS);
        assert_eq!(axis.slot(points[0]), 0);
        assert_eq!(axis.slot(*points.last().unwrap()), BINS - 1);
        // A pause shorter than a tenth of the span is drawn to scale.
        let mut paused = points.clone();
        paused.push(points.last().unwrap() + 90_000);
        assert_eq!(self::axis(&paused).stretches.len(), 1);
    }

    #[test]
    fn at_most_the_longest_pauses_are_compressed_and_slots_never_overflow() {
        // Eight instants, the seven pauses between them each over a tenth of the span and
        // growing: the six longest are cut.
        let mut points = Vec::new();
        let mut t = 0u64;
        for i in 0..8u64 {
            points.push(t);
            t += 1_000_000 * (10 + i);
        }
        let axis = axis(&points);
        assert_eq!(axis.gaps().count(), MAX_GAPS);
        assert_eq!(width(&axis), BINS);
        // The shortest pause (after the first point) is drawn to scale, inside a stretch.
        assert_eq!(axis.stretches[0].start, 0);
        assert_eq!(axis.stretches[0].end, 10_000_000);
        let slots: Vec<usize> = points.iter().map(|&p| axis.slot(p)).collect();
        assert!(slots.windows(2).all(|w| w[0] < w[1]), "{slots:?}");
        assert!(slots.iter().all(|&s| s < BINS));
    }

    #[test]
    fn one_instant_and_nothing() {
        let axis = axis(&[42, 42]);
        assert_eq!(
            axis.stretches,
            vec![Stretch {
                start: 42,
                end: 42,
                first: 0,
                slots: BINS
            }]
        );
        assert_eq!(axis.slot(42), 0);
        assert!(Axis::new(std::iter::empty::<u64>).is_none());
    }

    #[test]
    fn ticks_are_round_utc_moments_labelled_as_needed() {
        let stretch = Stretch {
            start: 1_787_218_201_500,
            end: 1_787_218_226_500,
            first: 0,
            slots: 60,
        };
        let step = tick_step(stretch.end - stretch.start, 180.0, 60.0);
        assert_eq!(step, 10_000);
        let ticks: Vec<String> = ticks(&stretch, step)
            .map(|t| tick_label(t, step, None))
            .collect();
        assert_eq!(ticks, ["09:30:10", "09:30:20"]);
        assert_eq!(tick_label(1_787_218_200_000, 600_000, None), "09:30");
        assert_eq!(
            tick_label(1_787_218_200_000, 600_000, Some("2026-08-19")),
            "08-20 09:30"
        );
        assert_eq!(tick_label(1_787_218_200_000, 86_400_000, None), "08-20");
        assert_eq!(duration_text(7_500_000), "2 h 5 min");
        assert_eq!(duration_text(3 * 86_400_000 + 4 * 3_600_000 + 5), "3 d 4 h");
        assert_eq!(duration_text(3_600_000), "1 h");
        assert_eq!(duration_text(500), "500 ms");
    }
}
