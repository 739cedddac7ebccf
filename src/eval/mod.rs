//! Scoring the engines on a corpus laid out like `../shared/corpus/` (its README §6 says what
//! to compute): the loaders, the link and text normalizations, and the metrics.

pub mod articles;
pub mod corpus;
pub mod dates;
pub mod links;
pub mod lists;
pub mod site_articles;
pub mod template;
pub mod text;
