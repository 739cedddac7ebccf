//! Scoring the engines on a corpus laid out like `../shared/corpus/` (its README §6 says what
//! to compute): the loaders, the link and text normalizations, and the metrics.

pub mod corpus;
pub mod links;
pub mod template;
pub mod text;
