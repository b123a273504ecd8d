//! The page's chart of decisions per tool: for each tool, how many receipts were ALLOW,
//! released (an approval-authorized ALLOW), BLOCK, or do not authenticate (their decision a
//! claim, never counted as a verdict), as a stacked bar and in words. Guarantees: every
//! receipt is counted once (the rows the report keeps plus the receipts it counts without
//! listing), so the bars add up to the summary's receipts; bars share one scale (the
//! busiest tool's total); at most [`MAX_TOOLS`] tools are drawn, the rest summed in one
//! bar, so the chart's size is bounded; a tool named only by receipts that do not
//! authenticate is marked as a claimed name; tool names go through [`escape`]; the bars
//! are SVG with geometry attributes only (no inline style: the page's policy forbids it),
//! coloured by the palette's classes.

use super::markup::escape;
use super::model::Model;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Tools drawn at most (the busiest); the others are summed in one bar.
pub const MAX_TOOLS: usize = 12;

/// The kinds of decision, in bar order: (row class, CSS class, words).
const KINDS: [(&str, &str, &str); 5] = [
    ("allow", "allow", "ALLOW"),
    ("released", "released", "released"),
    ("block", "block", "BLOCK"),
    ("unknown", "unknown", "other verdict"),
    ("unauthenticated", "claim", "not authenticated"),
];
const UNAUTHENTICATED: usize = 4;

/// One bar: a tool (or the tools not drawn), its receipts by kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bar {
    /// The tool's name (`None`: receipts that name none).
    pub tool: Option<String>,
    /// How many tools the bar sums (1 for a tool's own bar).
    pub tools: usize,
    pub counts: [u64; KINDS.len()],
}

impl Bar {
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }
}

/// The bars of the model, busiest tool first (ties by name), the tools beyond
/// [`MAX_TOOLS`] summed in a last bar.
pub fn bars(model: &Model) -> Vec<Bar> {
    let mut by_tool: BTreeMap<Option<&str>, [u64; KINDS.len()]> = BTreeMap::new();
    let kind = |class: &str| KINDS.iter().position(|k| k.0 == class).unwrap_or(3);
    for row in &model.rows {
        by_tool.entry(row.tool.as_deref()).or_default()[kind(row.class)] += 1;
    }
    for counted in &model.omitted {
        by_tool.entry(counted.tool.as_deref()).or_default()[kind(counted.class)] +=
            counted.receipts;
    }
    let mut bars: Vec<Bar> = by_tool
        .into_iter()
        .map(|(tool, counts)| Bar {
            tool: tool.map(str::to_owned),
            tools: 1,
            counts,
        })
        .collect();
    bars.sort_by(|a, b| b.total().cmp(&a.total()).then(a.tool.cmp(&b.tool)));
    if bars.len() > MAX_TOOLS {
        let rest = bars.split_off(MAX_TOOLS - 1);
        let mut summed = Bar {
            tool: None,
            tools: rest.len(),
            counts: [0; KINDS.len()],
        };
        for bar in &rest {
            for (sum, n) in summed.counts.iter_mut().zip(bar.counts) {
                *sum += n;
            }
        }
        bars.push(summed);
    }
    bars
}

/// The chart: a legend with the totals (verdicts of authenticated receipts; claims apart),
/// then one bar per tool.
pub fn html(page: &mut String, model: &Model) {
    let bars = bars(model);
    let s = &model.summary;
    page.push_str(
        "<div id=\"decisions\" class=\"chart\"><h3>Decisions per tool</h3><ul class=\"legend\">",
    );
    for (class, css, words) in KINDS.iter().take(UNAUTHENTICATED) {
        let n = s.verdicts.get(class).copied().unwrap_or(0);
        if n == 0 && *class == "unknown" {
            continue;
        }
        let _ = write!(
            page,
            "<li class=\"{}\"><span class=\"key {css}\"></span><span class=\"n\" data-k=\"{class}\">{n}</span> {words}</li>",
            if n == 0 { "zero" } else { css }
        );
    }
    for (claim, n) in &s.claims {
        // Claims of receipts that do not authenticate: counted apart, never as verdicts.
        let _ = write!(
            page,
            "<li class=\"claim\"><span class=\"key claim\"></span><span class=\"n\" data-k=\"claims-{}\">{n}</span> <span class=\"l\">claims {} — not authenticated</span></li>",
            escape(claim),
            escape(claim)
        );
    }
    page.push_str("</ul>");
    if bars.is_empty() {
        page.push_str("<p class=\"sub\">no receipt</p></div>");
        return;
    }
    let most = bars.iter().map(Bar::total).max().unwrap_or(1).max(1);
    page.push_str("<ul class=\"bars\">");
    for bar in &bars {
        let name = match (&bar.tool, bar.tools) {
            (Some(tool), _) => escape(tool),
            (None, 1) => "(no tool named)".to_owned(),
            (None, n) => format!("{n} other tools"),
        };
        // A name only receipts that do not authenticate give is their claim.
        let claimed =
            bar.tools == 1 && bar.tool.is_some() && bar.counts[UNAUTHENTICATED] == bar.total();
        let _ = write!(
            page,
            "<li><span class=\"tool\">{name}{}</span><svg class=\"bar\" viewBox=\"0 0 1000 10\" preserveAspectRatio=\"none\" aria-hidden=\"true\">",
            if claimed {
                " <span class=\"sub\">(name claimed by receipts that do not authenticate)</span>"
            } else {
                ""
            }
        );
        // Segments end where the running total ends on the shared scale (at least 2 of the
        // 1000 units wide, so a single receipt among many still shows).
        let mut before = 0u64;
        for (i, &n) in bar.counts.iter().enumerate() {
            if n == 0 {
                continue;
            }
            let x = before * 1000 / most;
            before += n;
            let width = (before * 1000 / most - x).max(2);
            let _ = write!(
                page,
                "<rect class=\"{}\" x=\"{x}\" y=\"0\" width=\"{width}\" height=\"10\"/>",
                KINDS[i].1
            );
        }
        page.push_str("</svg><span class=\"nums\">");
        let mut first = true;
        for (i, &n) in bar.counts.iter().enumerate() {
            if n == 0 {
                continue;
            }
            let _ = write!(
                page,
                "{}<span data-c=\"{}\">{n}</span> {}",
                if first { "" } else { ", " },
                KINDS[i].0,
                KINDS[i].2
            );
            first = false;
        }
        page.push_str("</span></li>");
    }
    page.push_str("</ul></div>");
}

#[cfg(test)]
#[allow(clippy::unwrap_used, clippy::expect_used)]
mod tests {
    use super::*;

    fn bar(tool: &str, counts: [u64; 5]) -> Bar {
        Bar {
            tool: Some(tool.to_owned()),
            tools: 1,
            counts,
        }
    }

    #[test]
    fn the_busiest_tools_are_drawn_and_the_rest_summed() {
        let mut model = crate::report::model::tests_support::empty_model();
        for i in 0..20u64 {
            model.omitted.push(crate::report::counts::Aggregate {
                tool: Some(format!("tool-{i:02}")),
                class: if i % 2 == 0 { "allow" } else { "block" },
                hour: None,
                receipts: i + 1,
                warnings: 0,
            });
        }
        let bars = bars(&model);
        assert_eq!(bars.len(), MAX_TOOLS);
        assert_eq!(bars[0], bar("tool-19", [0, 0, 20, 0, 0]));
        assert_eq!(bars[1], bar("tool-18", [19, 0, 0, 0, 0]));
        let rest = bars.last().unwrap();
        assert_eq!(rest.tools, 20 - (MAX_TOOLS - 1));
        // Every receipt counted once.
        let total: u64 = bars.iter().map(Bar::total).sum();
        assert_eq!(total, (1..=20).sum::<u64>());
    }
}
