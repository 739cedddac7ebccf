//! Text comparisons of the template learner: normalized titles, character bigrams and the
//! Sørensen–Dice coefficient (`blog-extraction-dice-bigram-rules.txt` §3.3), and word tokens.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use unicode_normalization::UnicodeNormalization;

/// A multiplicative hasher for the `u64` keys of bigram sets: bigrams are small integers, and
/// SipHash would spend most of the bottom-up pass hashing them.
#[derive(Default, Clone, Copy)]
pub struct IntHasher(u64);

impl Hasher for IntHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = (self.0 ^ value).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
    }
}

pub type IntSet = HashSet<u64, BuildHasherDefault<IntHasher>>;

/// Text for comparing: NFKC, lower-case, whitespace collapsed, trimmed.
pub fn normalize(text: &str) -> String {
    let nfkc: String = text.nfkc().collect();
    crate::dom::collapse_whitespace(&nfkc).to_lowercase()
}

/// Marks of a shortened text at its end: `…`, `...`, `[…]`, `»`.
pub fn strip_ellipsis(text: &str) -> &str {
    let mut text = text.trim_end();
    loop {
        let stripped =
            ["[…]", "[...]", "…", "...", "»", "›"].iter().find_map(|mark| text.strip_suffix(mark)).map(str::trim_end);
        match stripped {
            Some(rest) if rest.len() < text.len() => text = rest,
            _ => return text,
        }
    }
}

/// One bigram: two characters packed in a `u64`.
fn pack(a: char, b: char) -> u64 {
    (u64::from(u32::from(a)) << 32) | u64::from(u32::from(b))
}

/// Add the bigrams of a text to a set: adjacent pairs of lower-cased characters within runs
/// of non-space characters (a word of one character has none, so CJK runs without spaces
/// give all their pairs).
pub fn add_bigrams(text: &str, set: &mut IntSet) {
    let mut previous: Option<char> = None;
    for c in text.chars() {
        if c.is_whitespace() {
            previous = None;
            continue;
        }
        let c = lower(c);
        if let Some(p) = previous {
            set.insert(pack(p, c));
        }
        previous = Some(c);
    }
}

/// Lower-case a character without allocating (the rare characters whose lower case is several
/// characters keep their first).
fn lower(c: char) -> char {
    if c.is_ascii() { c.to_ascii_lowercase() } else { c.to_lowercase().next().unwrap_or(c) }
}

pub fn bigrams(text: &str) -> IntSet {
    let mut set = IntSet::default();
    add_bigrams(text, &mut set);
    set
}

/// The Sørensen–Dice coefficient of two bigram sets: 2|A ∩ B| / (|A| + |B|).
pub fn dice_sets(a: &IntSet, b: &IntSet) -> f32 {
    if a.is_empty() && b.is_empty() {
        return 0.0;
    }
    let (small, large) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    let common = small.iter().filter(|g| large.contains(g)).count();
    2.0 * common as f32 / (a.len() + b.len()) as f32
}

pub fn dice(a: &str, b: &str) -> f32 {
    dice_sets(&bigrams(a), &bigrams(b))
}

/// How a page's text stands for a feed title.
#[derive(Debug, Clone, Copy, PartialEq, PartialOrd)]
pub enum TitleMatch {
    /// Equal after normalization.
    Exact,
    /// One holds the other (a shortened title, a title with a prefix such as a date or
    /// category), scored by how much of the longer one the shorter covers.
    Contained(f32),
    /// Reworded: their Dice coefficient.
    Similar(f32),
}

impl TitleMatch {
    /// One number to rank matches by: exact 2, containment 1 to 1.99, similar below 1.
    pub fn score(self) -> f32 {
        match self {
            TitleMatch::Exact => 2.0,
            TitleMatch::Contained(cover) => 1.0 + cover.min(0.99),
            TitleMatch::Similar(d) => d,
        }
    }
}

/// Dice coefficient above which a reworded title still counts as the same title.
pub const SIMILAR_TITLE: f32 = 0.7;
/// A contained text must cover at least this share of the longer one (in characters), so
/// that "Rust" does not stand for "Why Rust is hard".
pub const MIN_COVER: f32 = 0.5;

/// A feed title made ready to be compared with many page texts: normalized, its ellipsis
/// stripped and its bigrams taken once.
pub struct FeedTitle {
    text: String,
    chars: usize,
    bigrams: IntSet,
}

impl FeedTitle {
    pub fn new(title: &str) -> FeedTitle {
        let text = strip_ellipsis(&normalize(title)).to_string();
        FeedTitle { chars: text.chars().count(), bigrams: bigrams(&text), text }
    }

    /// The normalized title, without an ellipsis at its end.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Its length in characters.
    pub fn chars(&self) -> usize {
        self.chars
    }

    /// Compare with a page text, normalized here; an ellipsis at its end is ignored. `None`:
    /// not the same title.
    pub fn matches(&self, page_text: &str) -> Option<TitleMatch> {
        let normalized = normalize(page_text);
        let (feed, page) = (self.text.as_str(), strip_ellipsis(&normalized));
        if feed.is_empty() || page.is_empty() {
            return None;
        }
        if feed == page {
            return Some(TitleMatch::Exact);
        }
        let page_chars = page.chars().count();
        let (short, long, cover) = if feed.len() <= page.len() {
            (feed, page, self.chars as f32 / page_chars as f32)
        } else {
            (page, feed, page_chars as f32 / self.chars as f32)
        };
        if cover >= MIN_COVER && long.contains(short) {
            return Some(TitleMatch::Contained(cover));
        }
        let d = dice_sets(&self.bigrams, &bigrams(page));
        (d >= SIMILAR_TITLE).then_some(TitleMatch::Similar(d))
    }
}

/// For every node, how many visible non-space characters its text has (script and style
/// skipped, as `Document::text` skips them): a lower bound of its text's length, to skip
/// elements too large for a title or a name without building their text.
pub fn visible_chars(doc: &crate::dom::Document) -> Vec<u32> {
    let mut counts = vec![0u32; doc.len()];
    for id in (0..doc.len() as u32).rev() {
        let node = crate::dom::NodeId(id);
        counts[id as usize] = match doc.text_node(node) {
            Some(text) => text.chars().filter(|c| !c.is_whitespace()).count() as u32,
            None if matches!(doc.tag(node), Some("script" | "style" | "template" | "head")) => 0,
            None => doc.children(node).iter().map(|c| counts[c.index()]).sum(),
        };
    }
    counts
}

/// Whether a character is written without spaces between words (Han, kana, Hangul…): such
/// characters are words of their own for n-grams.
pub fn is_cjk(c: char) -> bool {
    matches!(u32::from(c),
        0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0xAC00..=0xD7AF | 0x20000..=0x2FFFF)
}

/// Lower-case word tokens: runs of letters and digits, each CJK character a token of its own.
pub fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    for c in text.chars() {
        if is_cjk(c) {
            if !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            out.push(c.to_string());
        } else if c.is_alphanumeric() {
            word.extend(c.to_lowercase());
        } else if !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// Word-level F1 of a text against a reference (multisets of [`words`]): how well an
/// extracted text reproduces a feed's full text. Empty either side scores 0.
pub fn word_f1(output: &str, reference: &str) -> f32 {
    let (out, gold) = (words(output), words(reference));
    if out.is_empty() || gold.is_empty() {
        return 0.0;
    }
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for w in &gold {
        *counts.entry(w).or_default() += 1;
    }
    let mut common = 0usize;
    for w in &out {
        if let Some(c) = counts.get_mut(w.as_str())
            && *c > 0
        {
            *c -= 1;
            common += 1;
        }
    }
    2.0 * common as f32 / (out.len() + gold.len()) as f32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn title_match(feed_title: &str, page_text: &str) -> Option<TitleMatch> {
        FeedTitle::new(feed_title).matches(page_text)
    }

    #[test]
    fn dice_has_low_sensitivity_to_word_order() {
        // The paper's Table: reordered words keep a high coefficient.
        assert!(dice("Hello World", "World Hello") > 0.99);
        assert_eq!(dice("night", "nacht"), 0.25);
        assert_eq!(dice("", "abc"), 0.0);
        assert!(dice("日本語の記事", "日本語の記事です") > 0.8);
    }

    #[test]
    fn titles_match_exactly_contained_or_similar() {
        assert_eq!(title_match("Hello,  World", "hello, world"), Some(TitleMatch::Exact));
        assert_eq!(title_match("ＡＢＣ news", "abc NEWS"), Some(TitleMatch::Exact));
        // Shortened on the page.
        let m = title_match("Learning Notes Of Segment Anything Model", "Learning Notes Of Segment Anyt…");
        assert!(matches!(m, Some(TitleMatch::Contained(c)) if c > 0.7), "{m:?}");
        // A date or category around it on the page.
        assert!(matches!(
            title_match("Announcing Rust 1.0", "2015-05-15 Announcing Rust 1.0"),
            Some(TitleMatch::Contained(_))
        ));
        // Too little of it.
        assert_eq!(title_match("Why Rust is hard to learn for beginners", "Rust"), None);
        // Reworded.
        assert!(matches!(
            title_match("The Embedded Working Group Newsletter 28", "Embedded Working Group Newsletter #28"),
            Some(TitleMatch::Similar(_)) | Some(TitleMatch::Contained(_))
        ));
        assert_eq!(title_match("About", "Archives"), None);
    }

    #[test]
    fn words_split_cjk_characters() {
        assert_eq!(words("Hello, Wörld 42!"), ["hello", "wörld", "42"]);
        assert_eq!(words("日本語 text"), ["日", "本", "語", "text"]);
    }

    #[test]
    fn word_f1_counts_repeated_words() {
        assert_eq!(word_f1("a b c", "a b c"), 1.0);
        assert_eq!(word_f1("a a", "a b"), 0.5);
        assert_eq!(word_f1("", "a"), 0.0);
        assert!((word_f1("日本 語", "日本語です") - 2.0 * 3.0 / 8.0).abs() < 1e-6);
    }

    #[test]
    fn ellipses_are_stripped() {
        assert_eq!(strip_ellipsis("abc …"), "abc");
        assert_eq!(strip_ellipsis("abc[...]"), "abc");
        assert_eq!(strip_ellipsis("abc"), "abc");
    }
}
