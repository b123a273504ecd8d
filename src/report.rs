//! `sealkit report`: one self-contained page (or one JSON document) joining the evidence
//! around guarded calls, built in one pass over the audit's stream ([`stream`]): [`model`]
//! holds what the library's checks established, [`joins`] and [`chain_order`] join each
//! receipt to the tokens, captured frames and chains, [`tally`] adds it up (verdict,
//! summary, timeline bins, as [`counts`]) and [`sample`] keeps the bounded rows; [`html`],
//! [`rows`] and [`timeline`] render it, escaping with [`markup`]. Nothing here prints;
//! reading the inputs is the command's job.

pub mod chain_order;
pub mod chart;
pub mod counts;
pub mod html;
pub mod joins;
pub mod markup;
pub mod model;
pub mod rows;
pub mod sample;
pub mod sentences;
pub mod sort;
pub mod stream;
pub mod tally;
pub mod time_axis;
pub mod timeline;
