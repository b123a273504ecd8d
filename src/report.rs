//! `sealkit report`: one self-contained page (or one JSON document) joining the evidence
//! around guarded calls. [`model`] joins what the library's checks established; [`html`]
//! and [`timeline`] render it. Nothing here prints; reading the inputs is the command's job.

pub mod html;
pub mod model;
pub mod timeline;
