//! The Time Pattern DB (paper §2.2, Table 1): time patterns in the paper's notation
//! (`yyyy-mm-dd hh:ff:ss`, `mmm dd yyyy`, `yyyy 年 mm 月 dd 日` …), one data file per language
//! with the month, weekday and unit names the patterns use, compiled to regular expressions.
//! `time_patterns/README.md` describes the file format.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use chrono::FixedOffset;
use regex::{Regex, RegexSet, RegexSetBuilder};

/// Lazy-DFA cache of the pattern sets.
const DFA_CACHE_BYTES: usize = 64 << 20;

/// The files shipped in `time_patterns/`, embedded so that the binary works from anywhere.
/// `numeric` comes first: on equal matches the earlier file wins.
const BUILTIN: &[(&str, &str)] = &[
    ("numeric.txt", include_str!("../../../time_patterns/numeric.txt")),
    ("en.txt", include_str!("../../../time_patterns/en.txt")),
    ("zh-Hans.txt", include_str!("../../../time_patterns/zh-Hans.txt")),
    ("zh-Hant.txt", include_str!("../../../time_patterns/zh-Hant.txt")),
    ("ja.txt", include_str!("../../../time_patterns/ja.txt")),
    ("ko.txt", include_str!("../../../time_patterns/ko.txt")),
    ("de.txt", include_str!("../../../time_patterns/de.txt")),
    ("fr.txt", include_str!("../../../time_patterns/fr.txt")),
    ("es.txt", include_str!("../../../time_patterns/es.txt")),
    ("it.txt", include_str!("../../../time_patterns/it.txt")),
    ("pt.txt", include_str!("../../../time_patterns/pt.txt")),
    ("nl.txt", include_str!("../../../time_patterns/nl.txt")),
    ("ru.txt", include_str!("../../../time_patterns/ru.txt")),
    ("pl.txt", include_str!("../../../time_patterns/pl.txt")),
    ("ar.txt", include_str!("../../../time_patterns/ar.txt")),
    ("tr.txt", include_str!("../../../time_patterns/tr.txt")),
    ("ro.txt", include_str!("../../../time_patterns/ro.txt")),
    ("cs.txt", include_str!("../../../time_patterns/cs.txt")),
    ("sk.txt", include_str!("../../../time_patterns/sk.txt")),
    ("hu.txt", include_str!("../../../time_patterns/hu.txt")),
    ("sv.txt", include_str!("../../../time_patterns/sv.txt")),
    ("da.txt", include_str!("../../../time_patterns/da.txt")),
    ("nb.txt", include_str!("../../../time_patterns/nb.txt")),
    ("fi.txt", include_str!("../../../time_patterns/fi.txt")),
    ("el.txt", include_str!("../../../time_patterns/el.txt")),
    ("uk.txt", include_str!("../../../time_patterns/uk.txt")),
    ("bg.txt", include_str!("../../../time_patterns/bg.txt")),
    ("hr.txt", include_str!("../../../time_patterns/hr.txt")),
    ("sl.txt", include_str!("../../../time_patterns/sl.txt")),
    ("lt.txt", include_str!("../../../time_patterns/lt.txt")),
    ("lv.txt", include_str!("../../../time_patterns/lv.txt")),
    ("et.txt", include_str!("../../../time_patterns/et.txt")),
    ("ca.txt", include_str!("../../../time_patterns/ca.txt")),
    ("id.txt", include_str!("../../../time_patterns/id.txt")),
    ("vi.txt", include_str!("../../../time_patterns/vi.txt")),
    ("he.txt", include_str!("../../../time_patterns/he.txt")),
    ("hi.txt", include_str!("../../../time_patterns/hi.txt")),
    ("th.txt", include_str!("../../../time_patterns/th.txt")),
];

static BUILTIN_DB: LazyLock<TimePatternDb> = LazyLock::new(|| {
    // The embedded files are part of the program and tested; a bad line is a build defect.
    TimePatternDb::from_sources(BUILTIN.iter().copied()).unwrap_or_else(|e| panic!("embedded time patterns: {e}"))
});

/// Why a Time Pattern DB could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum TimePatternError {
    #[error("cannot read {path}: {source}")]
    Read { path: PathBuf, source: std::io::Error },
    #[error("{file}:{line}: {message}")]
    Syntax { file: String, line: usize, message: String },
    #[error("{dir}: no time pattern files (*.txt)")]
    Empty { dir: PathBuf },
}

/// A calendar unit of relative dates ("3 hours ago").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Unit {
    Second,
    Minute,
    Hour,
    Day,
    Week,
    Month,
    Year,
}

/// Which of day and month a numeric date names first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Order {
    Dmy,
    Mdy,
    Ymd,
}

/// One language file: its names, by lower-case spelling.
#[derive(Debug, Default)]
struct Language {
    file: String,
    /// `lang` directive (BCP 47 primary tag or script variant: `en`, `zh-Hans`).
    code: String,
    order: Option<Order>,
    /// Full language tags (lower-case) with another order than `order`.
    region_orders: Vec<(String, Order)>,
    months: HashMap<String, u32>,
    weekdays: HashMap<String, u32>,
    ordinals: Vec<String>,
    am: Vec<String>,
    pm: Vec<String>,
    units: HashMap<String, Unit>,
    numbers: HashMap<String, i64>,
    days: HashMap<String, i64>,
    now: Vec<String>,
    /// `era` directive: how many years the file's calendar runs ahead of the Gregorian one
    /// (Thai pages write the Buddhist Era, 543 ahead: 2569 is 2026).
    era: Option<i32>,
    /// `reign` directive: the first Gregorian year of each named era (Japanese pages write
    /// 令和6年 for 2024, 令和元年 for 2019).
    reigns: HashMap<String, i32>,
}

/// A field of the notation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Field {
    Year,
    Year2,
    /// A year of a named era (`ee`): the era's name, then its year.
    ReignYear,
    Month,
    MonthName,
    Day,
    Hour,
    Minute,
    Second,
    AmPm,
    Zone,
    Weekday,
    Count,
    Unit,
    RelativeDay,
    Now,
}

impl Field {
    fn from_token(token: &str) -> Option<Field> {
        Some(match token {
            "yyyy" => Field::Year,
            "yy" => Field::Year2,
            "ee" => Field::ReignYear,
            "mm" => Field::Month,
            "mmm" | "mmmm" => Field::MonthName,
            "dd" => Field::Day,
            "hh" => Field::Hour,
            "ff" => Field::Minute,
            "ss" => Field::Second,
            "ap" => Field::AmPm,
            "zz" => Field::Zone,
            "www" => Field::Weekday,
            "nn" => Field::Count,
            "uu" => Field::Unit,
            "rr" => Field::RelativeDay,
            "nw" => Field::Now,
            _ => return None,
        })
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Field(Field),
    Literal(String),
    Space,
    Optional(Vec<Token>),
}

/// A compiled time pattern.
#[derive(Debug)]
pub struct Pattern {
    /// The pattern as written, in the paper's notation.
    pub notation: String,
    /// `file:line` where it was written.
    pub origin: String,
    /// The group key: the notation with numeric day and month made indistinguishable, so that
    /// `03/04/2020` and `13/04/2020` (read `mm/dd` and `dd/mm`) fall into one group.
    pub shape: String,
    /// Day/month order of a numeric date; `None` when the pattern has no numeric day and month.
    pub order: Option<Order>,
    language: usize,
    regex: Regex,
    /// Whether every field it requires can be written in words (`rr`, `nw`, `nn uu`).
    wordy: bool,
}

/// The Time Pattern DB.
#[derive(Debug)]
pub struct TimePatternDb {
    languages: Vec<Language>,
    patterns: Vec<Pattern>,
    /// All patterns at once: which of them occur in a text, in one pass.
    set: RegexSet,
    /// The patterns that can match without a digit ("yesterday", "三天前"), for text without
    /// digits; `wordy[i]` is the pattern of the set's `i`th member.
    wordy_set: RegexSet,
    wordy: Vec<usize>,
    zones: HashMap<String, FixedOffset>,
}

/// The raw values a pattern captured.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Fields {
    pub year: Option<i32>,
    pub year2: Option<u32>,
    pub month: Option<u32>,
    pub day: Option<u32>,
    pub hour: Option<u32>,
    pub minute: Option<u32>,
    pub second: Option<u32>,
    pub nanos: u32,
    pub pm: Option<bool>,
    pub zone: Option<FixedOffset>,
    pub count: Option<i64>,
    pub unit: Option<Unit>,
    pub day_offset: Option<i64>,
    pub now: bool,
}

/// A pattern matched in a text.
#[derive(Debug, Clone)]
pub(crate) struct RawMatch {
    pub pattern: usize,
    pub start: usize,
    pub end: usize,
    /// How many fields the text filled (optional ones included when present).
    pub captured: usize,
    pub fields: Fields,
}

impl TimePatternDb {
    /// The DB shipped with the program (`time_patterns/` at build time).
    pub fn builtin() -> &'static TimePatternDb {
        &BUILTIN_DB
    }

    /// Every `*.txt` file of a directory (sorted by name, `numeric.txt` first).
    pub fn load_dir(dir: &Path) -> Result<TimePatternDb, TimePatternError> {
        let read_err = |source| TimePatternError::Read { path: dir.to_path_buf(), source };
        let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
            .map_err(read_err)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|e| e == "txt"))
            .collect();
        files.sort_by_key(|p| (p.file_stem().is_none_or(|s| s != "numeric"), p.clone()));
        if files.is_empty() {
            return Err(TimePatternError::Empty { dir: dir.to_path_buf() });
        }
        let mut sources = Vec::new();
        for path in files {
            let text = std::fs::read_to_string(&path)
                .map_err(|source| TimePatternError::Read { path: path.clone(), source })?;
            sources.push((path.display().to_string(), text));
        }
        TimePatternDb::from_sources(sources.iter().map(|(n, t)| (n.as_str(), t.as_str())))
    }

    /// Compile files given as (name, text); names appear in error messages.
    pub fn from_sources<'a>(sources: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<Self, TimePatternError> {
        let mut languages = Vec::new();
        let mut pending = Vec::new();
        let mut zones = HashMap::new();
        for (file, text) in sources {
            let index = languages.len();
            let (language, patterns) = read_file(file, text, &mut zones)?;
            languages.push(language);
            pending.extend(patterns.into_iter().map(|(line, notation, tokens)| (index, line, notation, tokens)));
        }
        let mut patterns: Vec<Pattern> = Vec::new();
        for (index, line, notation, tokens) in pending {
            let language = &languages[index];
            let error = |message: String| TimePatternError::Syntax { file: language.file.clone(), line, message };
            check_fields(&tokens).map_err(error)?;
            let source = compile(&tokens, language, &zones).map_err(error)?;
            // The same regex from another file adds nothing (zh-Hans and ja share `yyyy 年 mm 月 dd 日`).
            if patterns.iter().any(|p| p.regex.as_str() == source) {
                continue;
            }
            let regex = Regex::new(&source).map_err(|e| error(format!("pattern does not compile: {e}")))?;
            let order = numeric_order(&tokens);
            patterns.push(Pattern {
                shape: shape(&notation),
                notation,
                origin: format!("{}:{line}", language.file),
                order,
                language: index,
                regex,
                wordy: required_fields(&tokens).iter().all(|f| {
                    !matches!(
                        f,
                        Field::Year
                            | Field::Year2
                            | Field::Month
                            | Field::Day
                            | Field::Hour
                            | Field::Minute
                            | Field::Second
                    )
                }),
            });
        }
        let set_of = |members: &[usize]| {
            // A set of a few hundred patterns with names in many scripts has a large lazy DFA;
            // with the default cache it would be rebuilt over and over.
            RegexSetBuilder::new(members.iter().map(|&i| patterns[i].regex.as_str()))
                .dfa_size_limit(DFA_CACHE_BYTES)
                .build()
                .map_err(|e| TimePatternError::Syntax {
                    file: "(all files)".into(),
                    line: 0,
                    message: format!("patterns do not compile together: {e}"),
                })
        };
        let all: Vec<usize> = (0..patterns.len()).collect();
        let wordy: Vec<usize> = all.iter().copied().filter(|&i| patterns[i].wordy).collect();
        let set = set_of(&all)?;
        let wordy_set = set_of(&wordy)?;
        Ok(TimePatternDb { languages, patterns, set, wordy_set, wordy, zones })
    }

    pub fn patterns(&self) -> &[Pattern] {
        &self.patterns
    }

    /// The language file a pattern comes from (`en`, `zh-Hans`, `numeric` …).
    pub fn language_of(&self, pattern: &Pattern) -> &str {
        &self.languages[pattern.language].code
    }

    /// The day/month order of numeric dates on a page in `lang` (a BCP 47 tag such as `en-GB`,
    /// `de`, `zh-CN`); `None` when no language file claims the tag.
    pub fn order_for(&self, lang: &str) -> Option<Order> {
        let lang = lang.trim().to_ascii_lowercase().replace('_', "-");
        let primary = lang.split('-').next().unwrap_or_default();
        for language in &self.languages {
            if let Some((_, order)) = language.region_orders.iter().find(|(tag, _)| lang.starts_with(tag.as_str())) {
                return Some(*order);
            }
        }
        self.languages
            .iter()
            .find(|l| l.code.to_ascii_lowercase().split('-').next() == Some(primary))
            .and_then(|l| l.order)
    }

    /// Every match of every pattern in `text`, with word boundaries respected. Digits of other
    /// scripts (Arabic-Indic `٢٥/١١/٢٠٢٦`, Persian, full-width `２０２６`) are read as ASCII
    /// digits; the matches' offsets stay those of `text`.
    pub(crate) fn raw_matches(&self, text: &str) -> Vec<RawMatch> {
        let Some((ascii, offsets)) = with_ascii_digits(text) else { return self.raw_matches_ascii(text) };
        let mut out = self.raw_matches_ascii(&ascii);
        for m in &mut out {
            m.start = offsets[m.start];
            m.end = offsets[m.end];
        }
        out
    }

    fn raw_matches_ascii(&self, text: &str) -> Vec<RawMatch> {
        let mut out = Vec::new();
        // Most text has no digits, and only the patterns made of words can match it.
        let candidates: Vec<usize> = if text.bytes().any(|b| b.is_ascii_digit()) {
            self.set.matches(text).into_iter().collect()
        } else {
            self.wordy_set.matches(text).into_iter().map(|i| self.wordy[i]).collect()
        };
        for index in candidates {
            let pattern = &self.patterns[index];
            let language = &self.languages[pattern.language];
            let mut start = 0;
            while start <= text.len() {
                let Some(caps) = pattern.regex.captures_at(text, start) else { break };
                let whole = caps.get(0).expect("group 0 always matches");
                if whole.is_empty() {
                    break;
                }
                // Optional parts may leave whitespace at either end of the match.
                let matched = whole.as_str();
                let start_at = whole.start() + (matched.len() - matched.trim_start().len());
                let end_at = whole.end() - (matched.len() - matched.trim_end().len());
                if start_at < end_at && bounded(text, start_at, end_at) {
                    if let Some(fields) = read_fields(&caps, language, &self.zones) {
                        let captured = caps.iter().skip(1).flatten().count();
                        out.push(RawMatch { pattern: index, start: start_at, end: end_at, captured, fields });
                    }
                    start = whole.end();
                } else {
                    start = next_char(text, whole.start());
                }
            }
        }
        out
    }

    /// The longest match in `text` and every other reading of the same span (`03/04/2020` is
    /// both `mm/dd/yyyy` and `dd/mm/yyyy`). Ties on length go to the pattern with more fields,
    /// then to the earlier pattern.
    pub(crate) fn longest(&self, text: &str) -> Vec<RawMatch> {
        let mut matches = self.raw_matches(text);
        let Some(best) = matches.iter().max_by(|a, b| self.rank(a).cmp(&self.rank(b))).cloned() else {
            return Vec::new();
        };
        matches.retain(|m| m.start == best.start && m.end == best.end);
        matches.sort_by_key(|m| std::cmp::Reverse(self.rank(m)));
        matches
    }

    /// Non-overlapping matches, longest first, returned in text order.
    pub(crate) fn all_longest(&self, text: &str) -> Vec<RawMatch> {
        let mut matches = self.raw_matches(text);
        matches.sort_by_key(|m| std::cmp::Reverse(self.rank(m)));
        let mut chosen: Vec<RawMatch> = Vec::new();
        for m in matches {
            if chosen.iter().all(|c| m.end <= c.start || m.start >= c.end) {
                chosen.push(m);
            }
        }
        chosen.sort_by_key(|m| m.start);
        chosen
    }

    fn rank(&self, m: &RawMatch) -> (usize, usize, std::cmp::Reverse<usize>, std::cmp::Reverse<usize>) {
        let chars = m.end - m.start;
        (chars, m.captured, std::cmp::Reverse(m.start), std::cmp::Reverse(m.pattern))
    }
}

/// The tokens of the patterns of a file, before compiling (which needs every file's zones).
type PendingPattern = (usize, String, Vec<Token>);

fn read_file(
    file: &str,
    text: &str,
    zones: &mut HashMap<String, FixedOffset>,
) -> Result<(Language, Vec<PendingPattern>), TimePatternError> {
    let stem = Path::new(file).file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let mut language = Language { file: file.to_string(), code: stem, ..Language::default() };
    let mut patterns = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let error = |message: String| TimePatternError::Syntax { file: file.to_string(), line, message };
        let content = raw.trim();
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        let (directive, rest) = content.split_once(char::is_whitespace).unwrap_or((content, ""));
        let rest = rest.trim();
        match directive {
            "pattern" => {
                if rest.is_empty() {
                    return Err(error("`pattern` needs a notation".into()));
                }
                let tokens = tokenize(rest).map_err(error)?;
                patterns.push((line, rest.to_string(), tokens));
            }
            "lang" => {
                if rest.is_empty() || rest.contains(char::is_whitespace) {
                    return Err(error(format!("`lang` needs one language tag, not '{rest}'")));
                }
                language.code = rest.to_string();
            }
            "era" => {
                let years = rest.parse::<i32>().ok().filter(|y| (1..=ERA_MAX_YEARS).contains(y));
                language.era = Some(years.ok_or_else(|| {
                    error(format!("`era` needs the years the calendar runs ahead, 1 to {ERA_MAX_YEARS}, not '{rest}'"))
                })?);
            }
            "order" => match rest.split_once('=') {
                None => language.order = Some(parse_order(rest).map_err(error)?),
                Some((order, tags)) => {
                    let order = parse_order(order.trim()).map_err(error)?;
                    for tag in names(tags).map_err(error)? {
                        language.region_orders.push((tag.to_ascii_lowercase(), order));
                    }
                }
            },
            "zone" => {
                let (name, offset) = key_value(rest).map_err(error)?;
                let offset = parse_offset(offset.trim())
                    .ok_or_else(|| error(format!("zone offset '{}' is not ±hh:mm", offset.trim())))?;
                if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphabetic()) {
                    return Err(error(format!("zone name '{name}' must be letters")));
                }
                zones.insert(name.to_string(), offset);
            }
            "ordinal" | "am" | "pm" | "now" => {
                let (key, value) = key_value(content).map_err(error)?;
                if key != directive {
                    return Err(error(format!("`{directive}` takes no argument before '='")));
                }
                let list = names(value).map_err(error)?;
                match directive {
                    "ordinal" => language.ordinals.extend(list),
                    "am" => language.am.extend(list),
                    "pm" => language.pm.extend(list),
                    _ => language.now.extend(list),
                }
            }
            "month" | "weekday" | "number" | "day" | "unit" | "reign" => {
                let (key, value) = key_value(rest).map_err(error)?;
                let list = names(value).map_err(error)?;
                let number =
                    || key.parse::<i64>().map_err(|_| error(format!("`{directive}` needs a number, not '{key}'")));
                match directive {
                    "month" => {
                        let month = number()?;
                        if !(1..=12).contains(&month) {
                            return Err(error(format!("month {month} is not 1 to 12")));
                        }
                        language.months.extend(list.into_iter().map(|n| (n.to_lowercase(), month as u32)));
                    }
                    "weekday" => {
                        let day = number()?;
                        if !(1..=7).contains(&day) {
                            return Err(error(format!("weekday {day} is not 1 (Monday) to 7 (Sunday)")));
                        }
                        language.weekdays.extend(list.into_iter().map(|n| (n.to_lowercase(), day as u32)));
                    }
                    "reign" => {
                        let first = number()?;
                        if !(1800..=2199).contains(&first) {
                            return Err(error(format!("reign's first year {first} is not 1800 to 2199")));
                        }
                        language.reigns.extend(list.into_iter().map(|n| (n.to_lowercase(), first as i32)));
                    }
                    "number" => {
                        let n = number()?;
                        language.numbers.extend(list.into_iter().map(|w| (w.to_lowercase(), n)));
                    }
                    "day" => {
                        let offset = number()?;
                        language.days.extend(list.into_iter().map(|w| (w.to_lowercase(), offset)));
                    }
                    _ => {
                        let unit = match key {
                            "second" => Unit::Second,
                            "minute" => Unit::Minute,
                            "hour" => Unit::Hour,
                            "day" => Unit::Day,
                            "week" => Unit::Week,
                            "month" => Unit::Month,
                            "year" => Unit::Year,
                            other => {
                                return Err(error(format!(
                                    "unknown unit '{other}' (second, minute, hour, day, week, month, year)"
                                )));
                            }
                        };
                        language.units.extend(list.into_iter().map(|w| (w.to_lowercase(), unit)));
                    }
                }
            }
            other => return Err(error(format!("unknown directive '{other}'"))),
        }
    }
    Ok((language, patterns))
}

fn key_value(text: &str) -> Result<(&str, &str), String> {
    let (key, value) = text.split_once('=').ok_or_else(|| format!("expected 'KEY = names' in '{text}'"))?;
    Ok((key.trim(), value))
}

/// `a | b | c d` → ["a", "b", "c d"].
fn names(text: &str) -> Result<Vec<String>, String> {
    let list: Vec<String> = text.split('|').map(|n| n.split_whitespace().collect::<Vec<_>>().join(" ")).collect();
    if list.iter().any(String::is_empty) {
        return Err(format!("empty name in '{}'", text.trim()));
    }
    Ok(list)
}

fn parse_order(text: &str) -> Result<Order, String> {
    match text {
        "dmy" => Ok(Order::Dmy),
        "mdy" => Ok(Order::Mdy),
        "ymd" => Ok(Order::Ymd),
        other => Err(format!("order '{other}' is not dmy, mdy or ymd")),
    }
}

/// `+09:00`, `-0500`, `+08`.
pub(crate) fn parse_offset(text: &str) -> Option<FixedOffset> {
    let (sign, rest) = match text.as_bytes().first()? {
        b'+' => (1, &text[1..]),
        b'-' => (-1, &text[1..]),
        _ => return None,
    };
    let digits: String = rest.chars().filter(|c| *c != ':').collect();
    if !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let (hours, minutes) = match digits.len() {
        1 | 2 => (digits.parse::<i32>().ok()?, 0),
        3 | 4 => {
            let split = digits.len() - 2;
            (digits[..split].parse::<i32>().ok()?, digits[split..].parse::<i32>().ok()?)
        }
        _ => return None,
    };
    if hours > 23 || minutes > 59 {
        return None;
    }
    FixedOffset::east_opt(sign * (hours * 3600 + minutes * 60))
}

/// Notation → tokens. Runs of lower-case ASCII letters that are field names are fields;
/// `[...]` is optional; `'...'` is literal; whitespace is optional whitespace.
fn tokenize(notation: &str) -> Result<Vec<Token>, String> {
    let chars: Vec<char> = notation.chars().collect();
    let mut pos = 0;
    let tokens = tokenize_until(&chars, &mut pos, false)?;
    if tokens.is_empty() {
        return Err("empty pattern".into());
    }
    Ok(tokens)
}

fn tokenize_until(chars: &[char], pos: &mut usize, in_optional: bool) -> Result<Vec<Token>, String> {
    let mut tokens = Vec::new();
    while *pos < chars.len() {
        let c = chars[*pos];
        match c {
            '[' => {
                *pos += 1;
                let inner = tokenize_until(chars, pos, true)?;
                if inner.is_empty() {
                    return Err("empty optional part '[]'".into());
                }
                tokens.push(Token::Optional(inner));
            }
            ']' => {
                if !in_optional {
                    return Err(format!("']' at character {} closes nothing", *pos + 1));
                }
                *pos += 1;
                return Ok(tokens);
            }
            '\'' => {
                let start = *pos + 1;
                let end = chars[start..]
                    .iter()
                    .position(|&c| c == '\'')
                    .map(|i| start + i)
                    .ok_or_else(|| format!("quote at character {} is not closed", *pos + 1))?;
                tokens.push(Token::Literal(chars[start..end].iter().collect()));
                *pos = end + 1;
            }
            c if c.is_whitespace() => {
                while *pos < chars.len() && chars[*pos].is_whitespace() {
                    *pos += 1;
                }
                if tokens.last() != Some(&Token::Space) {
                    tokens.push(Token::Space);
                }
            }
            c if c.is_ascii_lowercase() => {
                let start = *pos;
                while *pos < chars.len() && chars[*pos].is_ascii_lowercase() {
                    *pos += 1;
                }
                let run: String = chars[start..*pos].iter().collect();
                tokens.push(match Field::from_token(&run) {
                    Some(field) => Token::Field(field),
                    None => Token::Literal(run),
                });
            }
            c => {
                tokens.push(Token::Literal(c.to_string()));
                *pos += 1;
            }
        }
    }
    if in_optional {
        return Err("'[' is not closed".into());
    }
    Ok(tokens)
}

/// The fields outside optional parts.
fn required_fields(tokens: &[Token]) -> Vec<Field> {
    tokens.iter().filter_map(|t| if let Token::Field(f) = t { Some(*f) } else { None }).collect()
}

fn collect_fields(tokens: &[Token], out: &mut Vec<Field>) {
    for token in tokens {
        match token {
            Token::Field(f) => out.push(*f),
            Token::Optional(inner) => collect_fields(inner, out),
            _ => {}
        }
    }
}

/// A pattern must name a date, a time or a relative date, each field once (but for a second
/// month name, see the regex), with what it needs.
fn check_fields(tokens: &[Token]) -> Result<(), String> {
    let mut fields = Vec::new();
    collect_fields(tokens, &mut fields);
    for (i, f) in fields.iter().enumerate() {
        if fields[..i].contains(f) && *f != Field::MonthName {
            return Err(format!("field {f:?} appears twice"));
        }
    }
    let has = |f: Field| fields.contains(&f);
    let month = has(Field::Month) || has(Field::MonthName);
    let years = [Field::Year, Field::Year2, Field::ReignYear].iter().filter(|&&f| has(f)).count();
    let year = years > 0;
    let checks = [
        (has(Field::Month) && has(Field::MonthName), "a pattern has either mm or mmm, not both"),
        (years > 1, "a pattern has one of yyyy, yy and ee"),
        (has(Field::Count) != has(Field::Unit), "nn (a count) and uu (a unit) go together"),
        (has(Field::Second) && !has(Field::Minute), "ss needs ff"),
        (has(Field::Minute) && !has(Field::Hour), "ff needs hh"),
        (has(Field::AmPm) && !has(Field::Hour), "ap needs hh"),
        (has(Field::Day) && !month && !has(Field::Hour), "dd needs a month (mm or mmm) or a time"),
        (year && !month, "a year needs a month"),
        (month && !has(Field::Day) && !year, "a month needs a day or a year"),
        (has(Field::Hour) && !has(Field::Minute) && !has(Field::AmPm), "hh alone is a bare number: add ff or ap"),
    ];
    if let Some((_, message)) = checks.iter().find(|(bad, _)| *bad) {
        return Err((*message).to_string());
    }
    let dated = month || has(Field::Hour) || has(Field::Count) || has(Field::RelativeDay) || has(Field::Now);
    if !dated {
        return Err("a pattern must name a date, a time or a relative date".into());
    }
    Ok(())
}

/// Day/month order of a numeric date (`dd` and `mm` both present).
fn numeric_order(tokens: &[Token]) -> Option<Order> {
    let mut fields = Vec::new();
    collect_fields(tokens, &mut fields);
    let day = fields.iter().position(|f| *f == Field::Day)?;
    let month = fields.iter().position(|f| *f == Field::Month)?;
    let year = fields.iter().position(|f| matches!(f, Field::Year | Field::Year2 | Field::ReignYear));
    Some(match year {
        Some(y) if y < month && y < day => Order::Ymd,
        _ if month < day => Order::Mdy,
        _ => Order::Dmy,
    })
}

/// The group key: numeric `dd` and `mm` both become `##`.
fn shape(notation: &str) -> String {
    let mut out = String::new();
    let mut run = String::new();
    let flush = |run: &mut String, out: &mut String| {
        out.push_str(if run == "dd" || run == "mm" { "##" } else { run });
        run.clear();
    };
    for c in notation.chars() {
        if c.is_ascii_lowercase() {
            run.push(c);
        } else {
            flush(&mut run, &mut out);
            out.push(c);
        }
    }
    flush(&mut run, &mut out);
    out
}

fn alternation(names: impl IntoIterator<Item = impl AsRef<str>>) -> String {
    let mut list: Vec<String> = names.into_iter().map(|n| n.as_ref().to_string()).collect();
    // Longest first: the regex takes the first alternative that matches.
    list.sort_by(|a, b| b.chars().count().cmp(&a.chars().count()).then(a.cmp(b)));
    list.dedup();
    let parts: Vec<String> =
        list.iter().map(|n| n.split_whitespace().map(regex::escape).collect::<Vec<_>>().join(r"\s+")).collect();
    parts.join("|")
}

fn compile(tokens: &[Token], language: &Language, zones: &HashMap<String, FixedOffset>) -> Result<String, String> {
    let mut out = String::from("(?i)");
    compile_into(tokens, language, zones, &mut out)?;
    Ok(out)
}

fn compile_into(
    tokens: &[Token],
    language: &Language,
    zones: &HashMap<String, FixedOffset>,
    out: &mut String,
) -> Result<(), String> {
    let need = |ok: bool, what: &str| if ok { Ok(()) } else { Err(format!("the file defines no {what}")) };
    for token in tokens {
        match token {
            Token::Space => out.push_str(r"\s*"),
            Token::Optional(inner) => {
                out.push_str("(?:");
                compile_into(inner, language, zones, out)?;
                out.push_str(")?");
            }
            Token::Literal(text) => {
                for c in text.chars() {
                    // ASCII punctuation also matches its full-width form (CJK pages use both).
                    match c {
                        '(' => out.push_str("[(（]"),
                        ')' => out.push_str("[)）]"),
                        ':' => out.push_str("[:：]"),
                        ',' => out.push_str("[,，]"),
                        '/' => out.push_str("[/／]"),
                        c => out.push_str(&regex::escape(&c.to_string())),
                    }
                }
            }
            Token::Field(field) => match field {
                // Years of an era run past the Gregorian range (2400 to 2799: the Buddhist Era of
                // the years 1857 to 2256); a Gregorian year is read as well.
                Field::Year if language.era.is_some() => {
                    out.push_str("(?P<y>1[89][0-9]{2}|2[01][0-9]{2}|2[4-7][0-9]{2})")
                }
                Field::Year => out.push_str("(?P<y>1[89][0-9]{2}|2[01][0-9]{2})"),
                Field::Year2 => out.push_str("(?P<yy>[0-9]{2})"),
                Field::ReignYear => {
                    need(!language.reigns.is_empty(), "named eras (reign YEAR = ...)")?;
                    // 元 ("first") is how an era's first year is written.
                    let _ = write!(out, r"(?P<rn>{})\s*(?P<ry>元|[0-9]{{1,2}})", alternation(language.reigns.keys()));
                }
                Field::Month => out.push_str("(?P<m>1[0-2]|0?[1-9])"),
                Field::Day => {
                    out.push_str("(?P<d>3[01]|[12][0-9]|0?[1-9])");
                    if !language.ordinals.is_empty() {
                        let _ = write!(out, "(?:{})?", alternation(&language.ordinals));
                    }
                }
                Field::Hour => out.push_str("(?P<h>2[0-3]|[01]?[0-9])"),
                Field::Minute => out.push_str("(?P<f>[0-5][0-9])"),
                Field::Second => out.push_str(r"(?P<s>[0-5][0-9]|60)(?:\.(?P<frac>[0-9]{1,9}))?"),
                Field::MonthName => {
                    need(!language.months.is_empty(), "month names (month N = ...)")?;
                    // A second month name is the same month in another calendar's names
                    // (Levantine pages write `24 نيسان / أبريل 2020`): matched, not read.
                    let group = if out.contains("(?P<mn>") { "(?:" } else { "(?P<mn>" };
                    let _ = write!(out, r"{group}{})\.?", alternation(language.months.keys()));
                }
                Field::Weekday => {
                    need(!language.weekdays.is_empty(), "weekday names (weekday N = ...)")?;
                    let _ = write!(out, r"(?:{})\.?", alternation(language.weekdays.keys()));
                }
                Field::AmPm => {
                    need(!language.am.is_empty() && !language.pm.is_empty(), "am/pm names (am = ..., pm = ...)")?;
                    let _ = write!(out, "(?P<ap>{})", alternation(language.am.iter().chain(&language.pm)));
                }
                Field::Zone => {
                    let names = alternation(zones.keys());
                    let numeric = "[+-](?:[01][0-9]|2[0-3])(?::?[0-5][0-9])?";
                    let _ = write!(out, "(?-i:(?P<z>(?:UTC|GMT){numeric}|{numeric}|{names}))");
                }
                Field::Count => {
                    out.push_str("(?P<n>[0-9]{1,3}");
                    if !language.numbers.is_empty() {
                        let _ = write!(out, "|{}", alternation(language.numbers.keys()));
                    }
                    out.push(')');
                }
                Field::Unit => {
                    need(!language.units.is_empty(), "units (unit KIND = ...)")?;
                    let _ = write!(out, "(?P<u>{})", alternation(language.units.keys()));
                }
                Field::RelativeDay => {
                    need(!language.days.is_empty(), "relative days (day N = ...)")?;
                    let _ = write!(out, "(?P<r>{})", alternation(language.days.keys()));
                }
                Field::Now => {
                    need(!language.now.is_empty(), "words for now (now = ...)")?;
                    let _ = write!(out, "(?P<nw>{})", alternation(&language.now));
                }
            },
        }
    }
    Ok(())
}

/// Letters and digits of alphabetic scripts need a boundary around a date; CJK scripts
/// write words without spaces, so a date may touch them.
/// The ASCII digit a digit of another script stands for.
fn ascii_digit(c: char) -> Option<char> {
    let zero = match c {
        '\u{0660}'..='\u{0669}' => 0x0660,
        '\u{06F0}'..='\u{06F9}' => 0x06F0,
        '\u{FF10}'..='\u{FF19}' => 0xFF10,
        _ => return None,
    };
    char::from_digit(c as u32 - zero, 10)
}

/// `text` with other scripts' digits made ASCII, and for each byte offset of the result (and
/// its end) the offset in `text`; `None` when `text` has no such digit.
fn with_ascii_digits(text: &str) -> Option<(String, Vec<usize>)> {
    if text.is_ascii() || !text.chars().any(|c| ascii_digit(c).is_some()) {
        return None;
    }
    let mut ascii = String::with_capacity(text.len());
    let mut offsets = Vec::with_capacity(text.len() + 1);
    for (at, c) in text.char_indices() {
        let c = ascii_digit(c).unwrap_or(c);
        offsets.extend(std::iter::repeat_n(at, c.len_utf8()));
        ascii.push(c);
    }
    offsets.push(text.len());
    Some((ascii, offsets))
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() && !is_cjk(c)
}

pub(crate) fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF        // Hiragana, Katakana
        | 0x3400..=0x4DBF      // CJK extension A
        | 0x4E00..=0x9FFF      // CJK unified ideographs
        | 0xAC00..=0xD7AF      // Hangul syllables
        | 0x1100..=0x11FF      // Hangul jamo
        | 0x3130..=0x318F      // Hangul compatibility jamo
        | 0xF900..=0xFAFF      // CJK compatibility ideographs
        | 0xFF00..=0xFFEF) // full-width forms
}

fn bounded(text: &str, start: usize, end: usize) -> bool {
    let before = text[..start].chars().next_back();
    let first = text[start..end].chars().next();
    let last = text[start..end].chars().next_back();
    let after = text[end..].chars().next();
    let touches = |a: Option<char>, b: Option<char>| match (a, b) {
        (Some(a), Some(b)) => is_word_char(a) && is_word_char(b),
        _ => false,
    };
    // `12024-05-06` holds no `05-06`: a digit joined by a date separator to the match makes
    // one longer number (an id, a version, a longer date), not a date.
    let mut preceding = text[..start].chars().rev();
    let joined_before = matches!((preceding.next(), preceding.next()), (Some('-' | '/' | '.' | ':'), Some(d)) if d.is_ascii_digit())
        && first.is_some_and(|c| c.is_ascii_digit());
    let mut following = text[end..].chars();
    let joined_after = matches!((following.next(), following.next()), (Some('-' | '/' | ':'), Some(d)) if d.is_ascii_digit())
        && last.is_some_and(|c| c.is_ascii_digit());
    // A day and month that end in their separator (`3.4.`, German style) go on into a version
    // number when a digit follows at once (`3.4.0`, `v2.10.1`).
    let version = matches!(last, Some('.' | '-' | '/')) && after.is_some_and(|c| c.is_ascii_digit());
    !touches(before, first) && !touches(last, after) && !joined_before && !joined_after && !version
}

fn next_char(text: &str, at: usize) -> usize {
    text[at..].chars().next().map_or(text.len() + 1, |c| at + c.len_utf8())
}

/// Longest lead an `era` may have over the Gregorian calendar.
const ERA_MAX_YEARS: i32 = 1000;
/// Years from this one on are written in the file's era (the Gregorian years the patterns read
/// end at 2199).
const ERA_YEARS_FROM: i32 = 2400;

fn read_fields(caps: &regex::Captures, language: &Language, zones: &HashMap<String, FixedOffset>) -> Option<Fields> {
    let get = |name: &str| caps.name(name).map(|m| m.as_str());
    let number = |name: &str| get(name).and_then(|s| s.parse::<u32>().ok());
    let lower = |name: &str| get(name).map(|s| s.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase());
    let mut fields = Fields {
        year: get("y").and_then(|s| s.parse::<i32>().ok()).map(|y| match language.era {
            Some(era) if y >= ERA_YEARS_FROM => y - era,
            _ => y,
        }),
        year2: number("yy"),
        month: number("m"),
        day: number("d"),
        hour: number("h"),
        minute: number("f"),
        second: number("s"),
        ..Fields::default()
    };
    if let (Some(reign), Some(year)) = (lower("rn"), get("ry")) {
        let year: i32 = if year == "元" { 1 } else { year.parse().ok()? };
        fields.year = Some(language.reigns.get(&reign)? + year - 1);
    }
    if let Some(frac) = get("frac") {
        let digits: String = frac.chars().chain(std::iter::repeat('0')).take(9).collect();
        fields.nanos = digits.parse().unwrap_or(0);
    }
    if let Some(name) = lower("mn") {
        fields.month = Some(*language.months.get(&name)?);
    }
    if let Some(marker) = lower("ap") {
        fields.pm = Some(language.pm.iter().any(|p| p.to_lowercase() == marker));
    }
    if let Some(zone) = get("z") {
        let offset = zone.strip_prefix("UTC").or_else(|| zone.strip_prefix("GMT")).unwrap_or(zone);
        fields.zone = Some(match parse_offset(offset) {
            Some(offset) => offset,
            None => *zones.get(zone)?,
        });
    }
    if let Some(count) = lower("n") {
        fields.count = Some(match count.parse::<i64>() {
            Ok(n) => n,
            Err(_) => *language.numbers.get(&count)?,
        });
    }
    if let Some(unit) = lower("u") {
        fields.unit = Some(*language.units.get(&unit)?);
    }
    if let Some(word) = lower("r") {
        fields.day_offset = Some(*language.days.get(&word)?);
    }
    fields.now = get("nw").is_some();
    Some(fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn db(text: &str) -> Result<TimePatternDb, TimePatternError> {
        TimePatternDb::from_sources([("test.txt", text)])
    }

    fn error_of(text: &str) -> String {
        db(text).unwrap_err().to_string()
    }

    #[test]
    fn builtin_db_compiles_with_patterns_of_every_file() {
        let db = TimePatternDb::builtin();
        for (file, _) in BUILTIN {
            let stem = file.trim_end_matches(".txt");
            assert!(
                db.patterns.iter().any(|p| db.languages[p.language].file == *file),
                "{stem} contributes no pattern"
            );
        }
    }

    #[test]
    fn bad_lines_are_reported_with_file_and_line() {
        assert_eq!(error_of("# x\npattern yyyy-mm-dd\nfrobnicate 3\n"), "test.txt:3: unknown directive 'frobnicate'");
        assert!(error_of("pattern mmm dd yyyy").starts_with("test.txt:1: the file defines no month names"));
        assert!(error_of("\n\npattern yyyy-[mm-dd").starts_with("test.txt:3: '[' is not closed"));
        assert!(error_of("pattern dd-dd").contains("appears twice"));
        assert!(error_of("pattern yyyy").contains("a year needs a month"));
        assert!(error_of("month 13 = Foo").starts_with("test.txt:1: month 13"));
        assert!(error_of("unit fortnight = fortnights").contains("unknown unit"));
        assert!(error_of("zone XYZ = +25:00").contains("not ±hh:mm"));
        assert!(error_of("era soon").starts_with("test.txt:1: `era` needs the years"));
        assert!(error_of("reign 645 = 大化").starts_with("test.txt:1: reign's first year 645"));
        assert!(error_of("pattern ee 年 mm 月").contains("named eras"));
        assert!(error_of("pattern hh").contains("bare number"));
    }

    #[test]
    fn notation_compiles_to_digit_classes_not_backslash_d() {
        let db = db("pattern yyyy-mm-dd hh:ff:ss\n").unwrap();
        let source = db.patterns[0].regex.as_str();
        assert!(source.contains("[0-9]") && !source.contains(r"\d"), "{source}");
        // Devanagari digits are digits to `\d`, not dates to us; Arabic-Indic digits are read as
        // the ASCII digits they stand for, at their own offsets in the text.
        assert!(db.raw_matches("२०२०-०१-०२ १२:००:००").is_empty());
        let text = "تاريخ ٢٠٢٠-٠١-٠٢ ١٢:٠٠:٠٠";
        let found = db.raw_matches(text);
        assert_eq!(found.len(), 1);
        assert_eq!(&text[found[0].start..found[0].end], "٢٠٢٠-٠١-٠٢ ١٢:٠٠:٠٠");
        assert_eq!((found[0].fields.year, found[0].fields.month, found[0].fields.day), (Some(2020), Some(1), Some(2)));
    }

    #[test]
    fn longest_pattern_wins() {
        let db = TimePatternDb::builtin();
        let best = db.longest("on 2005-04-06 we");
        assert_eq!(db.patterns[best[0].pattern].notation, "yyyy-mm-dd");
        let best = db.longest("2004-07-09 21:08:03");
        assert_eq!(db.patterns[best[0].pattern].notation, "yyyy-mm-dd hh:ff:ss[ ][zz]");
    }

    #[test]
    fn ambiguous_numeric_dates_keep_both_readings() {
        let db = TimePatternDb::builtin();
        let readings: Vec<_> = db.longest("03/04/2020").iter().map(|m| db.patterns[m.pattern].order).collect();
        assert!(readings.contains(&Some(Order::Mdy)) && readings.contains(&Some(Order::Dmy)), "{readings:?}");
        let readings: Vec<_> = db.longest("13/04/2020").iter().map(|m| db.patterns[m.pattern].order).collect();
        assert_eq!(readings, [Some(Order::Dmy)]);
        assert_eq!(db.patterns[db.longest("13/04/2020")[0].pattern].shape, "##/##/yyyy");
    }

    #[test]
    fn numbers_inside_longer_numbers_are_not_dates() {
        let db = TimePatternDb::builtin();
        assert!(db.raw_matches("call 0-8062-136585").is_empty());
        assert!(db.raw_matches("43:57").is_empty());
        assert!(db.raw_matches("version 1.5k").is_empty());
    }

    #[test]
    fn orders_by_language_tag() {
        let db = TimePatternDb::builtin();
        assert_eq!(db.order_for("en-US"), Some(Order::Mdy));
        assert_eq!(db.order_for("en-GB"), Some(Order::Dmy));
        assert_eq!(db.order_for("de"), Some(Order::Dmy));
        assert_eq!(db.order_for("zh-CN"), Some(Order::Ymd));
        assert_eq!(db.order_for("xx"), None);
    }

    #[test]
    fn loads_a_directory() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("numeric.txt"), "pattern yyyy-mm-dd\n").unwrap();
        std::fs::write(dir.path().join("xx.txt"), "month 1 = Foo\npattern mmm yyyy\n").unwrap();
        let db = TimePatternDb::load_dir(dir.path()).unwrap();
        assert_eq!(db.patterns().len(), 2);
        assert_eq!(db.language_of(&db.patterns()[0]), "numeric");
        std::fs::write(dir.path().join("yy.txt"), "pattern mmm yyyy\n").unwrap();
        let err = TimePatternDb::load_dir(dir.path()).unwrap_err().to_string();
        assert!(err.contains("yy.txt:1:") && err.contains("month names"), "{err}");
        assert!(matches!(TimePatternDb::load_dir(&dir.path().join("missing")), Err(TimePatternError::Read { .. })));
    }
}
