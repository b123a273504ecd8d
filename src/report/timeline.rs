//! The report's timeline as inline SVG: decisions over time in one lane per verdict (ALLOW,
//! released, BLOCK), approvals at their `authorized_at`, receipts with error findings and
//! chain breaks marked. Times are binned into a fixed number of columns, so the drawing has
//! the same bounded size for ten receipts or a million; every count is in a `<title>`.
//! Only numbers and fixed labels enter the markup.

use super::model::Model;
use crate::finding::Severity;
use std::fmt::Write as _;

const BINS: usize = 200;
const LEFT: usize = 110;
const BIN_WIDTH: usize = 4;
const LANE_HEIGHT: usize = 26;

/// Lanes, top to bottom: label, CSS class.
const LANES: [(&str, &str); 6] = [
    ("ALLOW", "allow"),
    ("released", "released"),
    ("BLOCK", "block"),
    ("approvals", "approval"),
    ("error findings", "error"),
    ("chain breaks", "chainbreak"),
];

pub fn svg(page: &mut String, model: &Model) {
    let times: Vec<u64> = model
        .rows
        .iter()
        .filter_map(|r| r.time)
        .chain(
            model
                .rows
                .iter()
                .filter_map(|r| r.approval.as_ref().map(|a| a.authorized_at)),
        )
        .collect();
    page.push_str("<section id=\"timeline\"><h2>Timeline</h2>");
    let (Some(&start), Some(&end)) = (times.iter().min(), times.iter().max()) else {
        page.push_str("<p>no decision times to draw</p></section>\n");
        return;
    };
    let span = (end - start).max(1);
    let bin = |t: u64| (((t - start) as u128 * (BINS as u128 - 1)) / span as u128) as usize;
    let mut counts = vec![[0u64; BINS]; LANES.len()];
    for row in &model.rows {
        if let Some(t) = row.time {
            let lane = match row.class {
                "allow" => Some(0),
                "released" => Some(1),
                "block" => Some(2),
                _ => None,
            };
            if let Some(lane) = lane {
                counts[lane][bin(t)] += 1;
            }
            if row.findings.iter().any(|f| f.severity == Severity::Error) {
                counts[4][bin(t)] += 1;
            }
            if row.chain.as_ref().is_some_and(|c| !c.head_ok) {
                counts[5][bin(t)] += 1;
            }
        }
        if let Some(approval) = &row.approval {
            counts[3][bin(approval.authorized_at)] += 1;
        }
    }
    let width = LEFT + BINS * BIN_WIDTH + 10;
    let height = LANES.len() * LANE_HEIGHT + 30;
    let _ = write!(
        page,
        "<svg id=\"timeline-svg\" role=\"img\" aria-label=\"decisions over time\" viewBox=\"0 0 {width} {height}\" width=\"{width}\" height=\"{height}\" xmlns=\"http://www.w3.org/2000/svg\">"
    );
    for (lane, (label, class)) in LANES.iter().enumerate() {
        let y = lane * LANE_HEIGHT + 4;
        let max = counts[lane].iter().copied().max().unwrap_or(0).max(1);
        let _ = write!(
            page,
            "<text x=\"4\" y=\"{}\" class=\"lane\">{label}</text><line x1=\"{LEFT}\" x2=\"{}\" y1=\"{}\" y2=\"{}\" class=\"axis\"/>",
            y + 16,
            LEFT + BINS * BIN_WIDTH,
            y + LANE_HEIGHT - 4,
            y + LANE_HEIGHT - 4
        );
        for (i, &n) in counts[lane].iter().enumerate() {
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
    let y = LANES.len() * LANE_HEIGHT + 20;
    let _ = writeln!(
        page,
        "<text x=\"{LEFT}\" y=\"{y}\" class=\"tick\">{}</text><text x=\"{}\" y=\"{y}\" class=\"tick\" text-anchor=\"end\">{}</text></svg></section>",
        super::html::iso_ms(start),
        LEFT + BINS * BIN_WIDTH,
        super::html::iso_ms(end)
    );
}
