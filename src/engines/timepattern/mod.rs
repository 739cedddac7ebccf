//! The paper's ATP (§2.2): items found by the dates on a page, fully automatic.
//!
//! - [`db`]: the Time Pattern DB (`time_patterns/*.txt`), compiled to regexes;
//! - [`dates`]: the public date API ([`parse_date`], [`find_dates`]) other engines call;
//! - [`discover`]: time nodes (text nodes, `<time datetime>`, date attributes) and groups;
//! - [`blocks`]: block-dividing by node address (Figure 5);
//! - [`extract`]: items between time nodes (Figure 6), the choice of the page's lists, and
//!   the page date of a list page (its newest item date).

pub mod blocks;
pub mod dates;
pub mod db;
pub mod discover;
pub mod extract;

pub use dates::{DateContext, ParsedDate, Precision, find_dates, parse_date};
pub use db::{Order, Pattern, TimePatternDb, TimePatternError, Unit};
pub use discover::{DateRole, TimeNode, TimeSource};
pub use extract::{Analysis, analyze, extract};
