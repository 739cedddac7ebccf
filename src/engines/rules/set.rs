//! A set of rules, and which one serves a URL.

use url::Url;

use super::{Rule, RuleError, RuleErrorKind};

/// The rules of `rules/`, built into the binary so that `serve` and `extract` find them from
/// any working directory. (A test checks that every file of `rules/` is listed here.)
pub const SHIPPED: &[(&str, &str)] = &[
    ("rules/craigslist-search.xml", include_str!("../../../rules/craigslist-search.xml")),
    ("rules/fool-author.xml", include_str!("../../../rules/fool-author.xml")),
    ("rules/keens-blog.xml", include_str!("../../../rules/keens-blog.xml")),
    ("rules/ouuan-blog.xml", include_str!("../../../rules/ouuan-blog.xml")),
    ("rules/paulgraham-articles.xml", include_str!("../../../rules/paulgraham-articles.xml")),
    ("rules/raahii-blog.xml", include_str!("../../../rules/raahii-blog.xml")),
    ("rules/swiftgg-home.xml", include_str!("../../../rules/swiftgg-home.xml")),
];

#[derive(Debug, Clone, Default)]
pub struct RuleSet {
    rules: Vec<Rule>,
}

impl RuleSet {
    pub fn new() -> RuleSet {
        RuleSet::default()
    }

    /// The rules shipped in the binary.
    pub fn shipped() -> Result<RuleSet, RuleError> {
        let mut set = RuleSet::new();
        for (origin, xml) in SHIPPED {
            set.add(Rule::parse(xml, origin)?);
        }
        Ok(set)
    }

    /// Every `*.xml` file of a directory, in name order; the first bad file is the error.
    pub fn load_dir(dir: &std::path::Path) -> Result<RuleSet, RuleError> {
        let unreadable = |e: std::io::Error| RuleError {
            origin: dir.display().to_string(),
            line: 0,
            column: 0,
            kind: RuleErrorKind::Read(e.to_string()),
        };
        let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
            .map_err(unreadable)?
            .map(|entry| entry.map(|e| e.path()))
            .collect::<Result<_, _>>()
            .map_err(unreadable)?;
        files.retain(|f| f.extension().is_some_and(|e| e == "xml") && f.is_file());
        files.sort();
        let mut set = RuleSet::new();
        for file in files {
            set.add(Rule::load(&file)?);
        }
        Ok(set)
    }

    pub fn add(&mut self, rule: Rule) {
        self.rules.push(rule);
    }

    /// Add another set's rules; on equally specific matches they win over the ones already
    /// here (so user rules loaded after the shipped ones override them).
    pub fn extend(&mut self, other: RuleSet) {
        self.rules.extend(other.rules);
    }

    pub fn rules(&self) -> &[Rule] {
        &self.rules
    }

    pub fn len(&self) -> usize {
        self.rules.len()
    }

    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// The rule that serves a URL: the one whose matching pattern is most specific (most
    /// characters other than `*`); among equals, the one added last.
    pub fn find(&self, url: &Url) -> Option<&Rule> {
        self.rules
            .iter()
            .enumerate()
            .filter_map(|(i, rule)| rule.specificity(url).map(|s| (s, i, rule)))
            .max_by_key(|&(specificity, i, _)| (specificity, i))
            .map(|(_, _, rule)| rule)
    }
}
