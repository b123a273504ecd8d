//! `sealkit report`: one self-contained page (or one JSON document) joining the evidence
//! around guarded calls. [`model`] joins what the library's checks established, [`tally`]
//! adds it up (verdict, summary, timeline bins, bounded rows); [`html`] and [`timeline`]
//! render it. Nothing here prints; reading the inputs is the command's job.

pub mod html;
pub mod model;
pub mod rows;
pub mod tally;
pub mod timeline;
