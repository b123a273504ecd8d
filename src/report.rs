//! `sealkit report`: one self-contained page (or one JSON document) joining the evidence
//! around guarded calls. [`model`] joins what the library's checks established, [`tally`]
//! adds it up (verdict, summary, timeline bins, bounded rows, as [`counts`]); [`html`],
//! [`rows`] and [`timeline`] render it, escaping with [`markup`]. Nothing here prints;
//! reading the inputs is the command's job.

pub mod counts;
pub mod html;
pub mod markup;
pub mod model;
pub mod rows;
pub mod tally;
pub mod timeline;

/// The report's model from the evidence: joined, added up (warnings are problems with
/// `deny_warnings`; every row is kept with `every_row`, else the bounded set), and the
/// frames of the rows kept analysed.
pub fn build(evidence: model::Evidence, deny_warnings: bool, every_row: bool) -> model::Model {
    let mut model = model::join(evidence);
    tally::conclude(&mut model, deny_warnings, every_row);
    model::analyse_frames(&mut model);
    model
}
