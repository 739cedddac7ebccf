//! The paper's ATP (§2.2): items found by the dates on a page.

mod dates;
mod db;

pub use dates::{DateContext, ParsedDate, Precision, find_dates, parse_date};
pub use db::{Order, Pattern, TimePatternDb, TimePatternError, Unit};
