//! The report's timeline as inline SVG, drawn from the bins [`super::tally`] counted over
//! every receipt on the [`super::time_axis`] axis: decisions in one lane per verdict (ALLOW,
//! released, BLOCK), claims of receipts that do not authenticate in a lane of their own,
//! approvals at their `authorized_at`, receipts with error findings and chain breaks.
//! Guarantees: the drawing has the same bounded size for ten receipts or a million; every
//! count is in a `<title>`; times are UTC and the caption says so; the axis carries round
//! UTC ticks far enough apart to read; every compressed pause is drawn as a hatched band
//! with its length, never hidden; the SVG is drawn at its own size (a narrow screen
//! scrolls its box) so its labels stay readable; colours are the page's palette (CSS
//! classes only). Only numbers, fixed labels and times enter the markup.

use super::model::Model;
use super::time_axis::{date_time, duration_text, tick_label, tick_step, ticks, BINS};
use std::fmt::Write as _;

/// Width of the lane labels.
const LEFT: usize = 168;
/// Width of one slot.
const BIN_WIDTH: usize = 3;
/// Room above the lanes for the pauses' lengths.
const TOP: usize = 16;
const LANE_HEIGHT: usize = 22;
/// Room right of the last slot for a tick label.
const RIGHT: usize = 28;
/// Tick labels at least this far apart.
const TICK_SPACING: f64 = 72.0;

/// The drawing's width in pixels (page.css gives it as the least width: `min-width`).
pub const WIDTH: usize = LEFT + BINS * BIN_WIDTH + RIGHT;

pub fn svg(page: &mut String, model: &Model) {
    page.push_str("<section id=\"timeline\"><h2>Timeline</h2>");
    let Some(timeline) = &model.timeline else {
        page.push_str("<p>no decision times to draw</p></section>\n");
        return;
    };
    let axis = &timeline.axis;
    let (start_date, start_time) = date_time(timeline.start);
    let (end_date, end_time) = date_time(timeline.end);
    let end = if end_date == start_date {
        end_time
    } else {
        format!("{end_date} {end_time}")
    };
    let gaps: Vec<_> = axis.gaps().collect();
    let _ = write!(
        page,
        "<p class=\"sub\" id=\"timeline-caption\">Times in UTC: {start_date} {start_time} to {end} ({}).",
        duration_text(timeline.end - timeline.start)
    );
    match gaps.len() {
        0 => {}
        1 => {
            let _ = write!(
                page,
                " A pause of {} with no activity is compressed (the hatched band).",
                duration_text(gaps[0].to - gaps[0].from)
            );
        }
        n => {
            let _ = write!(
                page,
                " {n} pauses with no activity are compressed (the hatched bands, each with its length)."
            );
        }
    }
    page.push_str("</p>");
    let lanes = &timeline.lanes;
    let plot_bottom = TOP + lanes.len() * LANE_HEIGHT;
    let height = plot_bottom + 26;
    let _ = write!(
        page,
        "<div class=\"scroll\"><svg id=\"timeline-svg\" role=\"img\" aria-label=\"decisions over time, UTC\" viewBox=\"0 0 {WIDTH} {height}\" width=\"{WIDTH}\" height=\"{height}\" xmlns=\"http://www.w3.org/2000/svg\">"
    );
    // The compressed pauses first, under the lanes.
    for gap in &gaps {
        let x = LEFT + gap.first * BIN_WIDTH;
        let w = gap.slots * BIN_WIDTH;
        let (_, from) = date_time(gap.from);
        let (_, to) = date_time(gap.to);
        let length = duration_text(gap.to - gap.from);
        let _ = write!(
            page,
            "<g class=\"gap\"><title>no activity for {length}, {from} to {to} UTC: compressed</title><rect x=\"{x}\" y=\"{TOP}\" width=\"{w}\" height=\"{}\"/>",
            plot_bottom - TOP
        );
        // Hatching: strokes at 45 degrees across the band, clipped to it.
        let (x, w, top, bottom) = (x as i64, w as i64, TOP as i64, plot_bottom as i64);
        let mut y0 = top - w;
        while y0 < bottom {
            let (lo, hi) = ((y0 + w - bottom).max(0), (y0 + w - top).min(w));
            if lo < hi {
                let _ = write!(
                    page,
                    "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"/>",
                    x + lo,
                    y0 + w - lo,
                    x + hi,
                    y0 + w - hi
                );
            }
            y0 += 7;
        }
        let _ = write!(
            page,
            "<text x=\"{}\" y=\"11\" text-anchor=\"middle\">{length}</text></g>",
            x + w / 2
        );
    }
    for (lane, (label, class, counts)) in lanes.iter().enumerate() {
        let y = TOP + lane * LANE_HEIGHT;
        let base = y + LANE_HEIGHT - 3;
        let max = counts.iter().copied().max().unwrap_or(0).max(1);
        let _ = write!(
            page,
            "<text x=\"4\" y=\"{}\" class=\"lane\">{label}</text><line x1=\"{LEFT}\" x2=\"{}\" y1=\"{base}\" y2=\"{base}\" class=\"axis\"/>",
            y + 15,
            LEFT + BINS * BIN_WIDTH,
        );
        for (i, &n) in counts.iter().enumerate() {
            if n == 0 {
                continue;
            }
            // Height grows with the count, at least a visible mark.
            let h = (((n as f64).ln_1p() / (max as f64).ln_1p()) * (LANE_HEIGHT - 6) as f64)
                .max(3.0)
                .round() as usize;
            let at = axis
                .stretch_of_slot(i)
                .map(|s| date_time(s.time_at(i)).1)
                .unwrap_or_default();
            let _ = write!(
                page,
                "<rect class=\"{class}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{h}\"><title>{n} {label} from {at} UTC</title></rect>",
                LEFT + i * BIN_WIDTH,
                base - h,
                BIN_WIDTH - 1
            );
        }
    }
    ticks_html(page, timeline, plot_bottom);
    page.push_str("</svg></div></section>\n");
}

/// Round UTC ticks under the lanes, per stretch, labels at least [`TICK_SPACING`] apart;
/// a stretch too short for a round tick is labelled at its start.
fn ticks_html(page: &mut String, timeline: &super::counts::Timeline, plot_bottom: usize) {
    let mut last_label: Option<f64> = None;
    let mut last_date: Option<String> = None;
    let mut label = |page: &mut String,
                     x: f64,
                     t: u64,
                     step: u64,
                     last_date: &mut Option<String>| {
        if last_label.is_some_and(|l| x - l < TICK_SPACING) {
            return false;
        }
        let text = tick_label(t, step, last_date.as_deref());
        let _ = write!(
            page,
            "<line class=\"tick\" x1=\"{x:.1}\" x2=\"{x:.1}\" y1=\"{plot_bottom}\" y2=\"{}\"/><text class=\"tick\" x=\"{x:.1}\" y=\"{}\" text-anchor=\"middle\">{text}</text>",
            plot_bottom + 4,
            plot_bottom + 16
        );
        last_label = Some(x);
        *last_date = Some(date_time(t).0);
        true
    };
    for stretch in &timeline.axis.stretches {
        let pixels = (stretch.slots * BIN_WIDTH) as f64;
        let step = tick_step(stretch.end - stretch.start, pixels, TICK_SPACING);
        let x_of = |t: u64| (LEFT as f64) + (stretch.position(t) + 0.5) * BIN_WIDTH as f64;
        let mut any = false;
        for t in ticks(stretch, step) {
            any |= label(page, x_of(t), t, step, &mut last_date);
        }
        if !any {
            // Seconds: the stretch's start is not a round moment.
            label(
                page,
                x_of(stretch.start),
                stretch.start,
                1_000,
                &mut last_date,
            );
        }
    }
}
