//! The report's timeline as inline SVG, drawn from the bins [`super::tally::timeline`]
//! counted over every receipt: decisions in one lane per verdict (ALLOW, released, BLOCK),
//! claims of receipts that do not authenticate in a lane of their own, approvals at their
//! `authorized_at`, receipts with error findings and chain breaks. The drawing has the same
//! bounded size for ten receipts or a million; every count is in a `<title>`. Only numbers
//! and fixed labels enter the markup.

use super::counts::BINS;
use super::model::Model;
use crate::timestamp::iso_ms;
use std::fmt::Write as _;

const LEFT: usize = 170;
const BIN_WIDTH: usize = 4;
const LANE_HEIGHT: usize = 26;

pub fn svg(page: &mut String, model: &Model) {
    page.push_str("<section id=\"timeline\"><h2>Timeline</h2>");
    let Some(timeline) = &model.timeline else {
        page.push_str("<p>no decision times to draw</p></section>\n");
        return;
    };
    let lanes = &timeline.lanes;
    let width = LEFT + BINS * BIN_WIDTH + 10;
    let height = lanes.len() * LANE_HEIGHT + 30;
    let _ = write!(
        page,
        "<svg id=\"timeline-svg\" role=\"img\" aria-label=\"decisions over time\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\" xmlns=\"http://www.w3.org/2000/svg\">"
    );
    for (lane, (label, class, counts)) in lanes.iter().enumerate() {
        let y = lane * LANE_HEIGHT + 4;
        let max = counts.iter().copied().max().unwrap_or(0).max(1);
        let _ = write!(
            page,
            "<text x=\"4\" y=\"{}\" class=\"lane\">{label}</text><line x1=\"{LEFT}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" class=\"axis\"/>",
            y + 16,
            LEFT + BINS * BIN_WIDTH,
            y + LANE_HEIGHT - 4,
            y + LANE_HEIGHT - 4
        );
        for (i, &n) in counts.iter().enumerate() {
            if n == 0 {
                continue;
            }
            // Height grows with the count, at least a visible mark.
            let h = (((n as f64).ln_1p() / (max as f64).ln_1p()) * (LANE_HEIGHT - 6) as f64)
                .max(3.0)
                .round() as usize;
            let _ = write!(
                page,
                "<rect class=\"{class}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{h}\"><title>{n} {label}</title></rect>",
                LEFT + i * BIN_WIDTH,
                y + LANE_HEIGHT - 4 - h,
                BIN_WIDTH - 1
            );
        }
    }
    let y = lanes.len() * LANE_HEIGHT + 20;
    let _ = writeln!(
        page,
        "<text x=\"{LEFT}\" y=\"{y}\" class=\"tick\">{}</text><text x=\"{}\" y=\"{y}\" class=\"tick\" text-anchor=\"end\">{}</text></svg></section>",
        iso_ms(timeline.start),
        LEFT + BINS * BIN_WIDTH,
        iso_ms(timeline.end)
    );
}
