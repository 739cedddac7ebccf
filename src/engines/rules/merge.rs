//! Rule generating from marked examples (paper §2.1.2): a user marks a few elements of a page
//! (the titles of the first two items, one item's date, two subject titles, ...) and the
//! absolute paths of the marks merge into the general rule.
//!
//! Two marks of the same field differ where the page repeats: `/.../DIV[1]/A[0]/TEXT[0]` and
//! `/.../DIV[1]/A[1]/TEXT[0]` differ at `A`, so `A` is the item step: the item path is
//! `/.../DIV[1]/A` and the title path, relative to it, `TEXT[0]`. Marks of two subject titles
//! give the subject path the same way, and the items' paths are then taken relative to it.

use std::fmt;
use std::str::FromStr;

use super::{Field, ItemRule, Rule, SubjectRule};
use crate::dom::Document;
use crate::path::Path;

/// What a mark is: an item field, a subject title, or the page date.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MarkField {
    Item(Field),
    SubjectTitle,
    PageDate,
}

impl MarkField {
    pub const NAMES: &str = "title, link, date, description, author, content, subject-title, page-date";
}

impl FromStr for MarkField {
    type Err = String;

    fn from_str(name: &str) -> Result<MarkField, String> {
        match name.trim() {
            "subject-title" => Ok(MarkField::SubjectTitle),
            "page-date" => Ok(MarkField::PageDate),
            other => Field::from_name(other)
                .map(MarkField::Item)
                .ok_or_else(|| format!("unknown field '{other}' (expected one of: {})", MarkField::NAMES)),
        }
    }
}

impl fmt::Display for MarkField {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MarkField::Item(field) => f.write_str(field.name()),
            MarkField::SubjectTitle => f.write_str("subject-title"),
            MarkField::PageDate => f.write_str("page-date"),
        }
    }
}

/// One marked element: `title=/HTML[0]/BODY[0]/UL[0]/LI[0]/A[0]`.
#[derive(Debug, Clone, PartialEq)]
pub struct Mark {
    pub field: MarkField,
    /// Absolute, as [`Path::of`] writes it.
    pub path: Path,
}

impl FromStr for Mark {
    type Err = String;

    fn from_str(text: &str) -> Result<Mark, String> {
        let (field, path) = text.split_once('=').ok_or_else(|| format!("'{text}' is not FIELD=PATH"))?;
        let field = field.parse()?;
        let path = path.parse::<Path>().map_err(|e| format!("'{}': {e}", path.trim()))?;
        Ok(Mark { field, path })
    }
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}={}", self.field, self.path)
    }
}

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MergeError {
    #[error("the mark {0} is not an absolute path (it must start with /)")]
    NotAbsolute(Mark),
    #[error("the mark {0} selects nothing on the page")]
    SelectsNothing(Mark),
    #[error("mark a title or a link of the items")]
    NoTitleOrLink,
    #[error("mark one field (e.g. the title) on two different items, so that the item path can be found")]
    NoTwoItems,
    #[error("mark the titles of two different subjects (or no subject title at all)")]
    NoTwoSubjects,
    #[error("the {field} marks {a} and {b} do not have the same shape, so they cannot be merged")]
    Incompatible { field: MarkField, a: Path, b: Path },
    #[error("the mark {mark} is not inside the {level} {path}")]
    Outside { mark: Mark, level: &'static str, path: Path },
}

/// The rule the marks describe, for the page they were made on (its URL becomes the rule's
/// `<link>`, its encoding the `<encoding>`).
pub fn derive_rule(doc: &Document, marks: &[Mark]) -> Result<Rule, MergeError> {
    for mark in marks {
        if !mark.path.absolute {
            return Err(MergeError::NotAbsolute(mark.clone()));
        }
        if mark.path.select(doc, doc.root()).is_empty() {
            return Err(MergeError::SelectsNothing(mark.clone()));
        }
    }
    let of = |wanted: MarkField| marks.iter().filter(move |m| m.field == wanted);
    let item_marks: Vec<&Mark> = marks.iter().filter(|m| matches!(m.field, MarkField::Item(_))).collect();
    if !item_marks.iter().any(|m| matches!(m.field, MarkField::Item(Field::Title | Field::Link))) {
        return Err(MergeError::NoTitleOrLink);
    }

    // The subject: where two subject titles differ.
    let subject_titles: Vec<&Path> = of(MarkField::SubjectTitle).map(|m| &m.path).collect();
    let (subject_path, subject_title) = match subject_titles.len() {
        0 => (Path { absolute: true, steps: Vec::new() }, None),
        1 => return Err(MergeError::NoTwoSubjects),
        _ => {
            let merged = merge(MarkField::SubjectTitle, &subject_titles)?;
            let at = divergence(&subject_titles).ok_or(MergeError::NoTwoSubjects)?;
            split(&merged, at)
        }
    };
    let depth = subject_path.steps.len();

    // The items' marks relative to the subject (absolute when there is no subject path).
    let mut relative: Vec<(Field, Path, &Mark)> = Vec::new();
    for mark in &item_marks {
        let MarkField::Item(field) = mark.field else { continue };
        let inside = mark.path.steps.len() > depth
            && subject_path.merge(&Path { absolute: true, steps: mark.path.steps[..depth].to_vec() }).as_ref()
                == Some(&subject_path);
        if !inside {
            return Err(MergeError::Outside { mark: (*mark).clone(), level: "subject", path: subject_path });
        }
        relative.push((field, Path { absolute: depth == 0, steps: mark.path.steps[depth..].to_vec() }, mark));
    }
    let marks_of =
        |field: Field| -> Vec<&Path> { relative.iter().filter(|(f, _, _)| *f == field).map(|(_, p, _)| p).collect() };

    // The item step: the shallowest step where two marks of one field differ; the item path
    // is what those marks have in common down to it.
    let mut item_depth = None;
    for field in Field::ALL {
        let paths = marks_of(field);
        if paths.len() < 2 {
            continue;
        }
        merge(MarkField::Item(field), &paths)?;
        if let Some(at) = divergence(&paths) {
            item_depth = Some(item_depth.map_or(at, |d: usize| d.min(at)));
        }
    }
    let item_depth = item_depth.ok_or(MergeError::NoTwoItems)?;
    let mut examples = Vec::new();
    for field in Field::ALL {
        let paths = marks_of(field);
        if paths.len() >= 2 {
            examples.extend(
                paths
                    .into_iter()
                    .map(|p| (field, Path { absolute: p.absolute, steps: p.steps[..=item_depth].to_vec() })),
            );
        }
    }
    let mut item_path = examples[0].1.clone();
    for (field, prefix) in &examples[1..] {
        item_path = item_path.merge(prefix).ok_or_else(|| MergeError::Incompatible {
            field: MarkField::Item(*field),
            a: examples[0].1.clone(),
            b: prefix.clone(),
        })?;
    }
    // Every other mark must lie in one of those items.
    for (_, path, mark) in &relative {
        let inside = path.steps.len() > item_depth
            && item_path.merge(&Path { absolute: path.absolute, steps: path.steps[..=item_depth].to_vec() }).as_ref()
                == Some(&item_path);
        if !inside {
            return Err(MergeError::Outside { mark: (*mark).clone(), level: "item", path: item_path });
        }
    }

    let mut item = ItemRule::new(item_path);
    for field in Field::ALL {
        let suffixes: Vec<Path> = marks_of(field)
            .into_iter()
            .map(|p| Path { absolute: false, steps: p.steps[item_depth + 1..].to_vec() })
            .collect();
        if !suffixes.is_empty() {
            item.set_field(field, Some(merge(MarkField::Item(field), &suffixes.iter().collect::<Vec<_>>())?));
        }
    }

    let page_dates: Vec<&Path> = of(MarkField::PageDate).map(|m| &m.path).collect();
    let page_date = if page_dates.is_empty() { None } else { Some(merge(MarkField::PageDate, &page_dates)?) };
    Ok(Rule {
        name: None,
        urls: Vec::new(),
        link: matches!(doc.url.scheme(), "http" | "https").then(|| doc.url.clone()),
        encoding: Some(doc.encoding),
        timezone: None,
        date_format: None,
        page_date,
        subjects: vec![SubjectRule { path: subject_path, title: subject_title, item }],
        article: None,
        support: Default::default(),
    })
}

/// The paper's merge of all marks of one field.
fn merge(field: MarkField, paths: &[&Path]) -> Result<Path, MergeError> {
    let mut merged = paths[0].clone();
    for path in &paths[1..] {
        merged = merged.merge(path).ok_or_else(|| MergeError::Incompatible {
            field,
            a: paths[0].clone(),
            b: (*path).clone(),
        })?;
    }
    Ok(merged)
}

/// The first step where the (same-shaped) paths have different indexes.
fn divergence(paths: &[&Path]) -> Option<usize> {
    let first = paths[0];
    (0..first.steps.len())
        .find(|&i| paths.iter().any(|p| p.steps.get(i).map(|s| s.index) != Some(first.steps[i].index)))
}

/// A merged path cut after step `at`: the part up to it (absolute) and the rest (relative).
fn split(merged: &Path, at: usize) -> (Path, Option<Path>) {
    let head = Path { absolute: true, steps: merged.steps[..=at].to_vec() };
    let tail = Path { absolute: false, steps: merged.steps[at + 1..].to_vec() };
    (head, Some(tail))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::parse_str;
    use crate::engines::rules::apply;
    use url::Url;

    fn marks(text: &[&str]) -> Vec<Mark> {
        text.iter().map(|m| m.parse().unwrap_or_else(|e| panic!("{m}: {e}"))).collect()
    }

    const PAGE: &str = r#"<html><body><div id=top>Updated 2024-05-06</div>
        <div class=subject><h2>WORLD</h2><ul>
            <li><a href="/w/1">W one</a> <span>2024-05-01</span></li>
            <li><a href="/w/2">W two</a> <span>2024-05-02</span></li>
            <li><a href="/w/3">W three</a></li></ul></div>
        <div class=subject><h2>BUSINESS</h2><ul>
            <li><a href="/b/1">B one</a> <span>2024-05-03</span></li></ul></div>"#;

    fn doc() -> Document {
        parse_str(PAGE, &Url::parse("https://example.org/news/").unwrap()).unwrap()
    }

    #[test]
    fn two_marked_titles_give_the_item_path() {
        let d = doc();
        let rule = derive_rule(
            &d,
            &marks(&[
                "title=/HTML[0]/BODY[0]/DIV[1]/UL[0]/LI[0]/A[0]/TEXT[0]",
                "title=/HTML[0]/BODY[0]/DIV[1]/UL[0]/LI[1]/A[0]/TEXT[0]",
                "date=/HTML[0]/BODY[0]/DIV[1]/UL[0]/LI[1]/SPAN[0]",
                "page-date=/HTML[0]/BODY[0]/DIV[0]",
            ]),
        )
        .unwrap();
        let subject = &rule.subjects[0];
        assert_eq!(subject.path.to_string(), "/");
        assert_eq!(subject.item.path.to_string(), "/HTML[0]/BODY[0]/DIV[1]/UL[0]/LI");
        assert_eq!(subject.item.title.as_ref().unwrap().to_string(), "A[0]/TEXT[0]");
        assert_eq!(subject.item.date.as_ref().unwrap().to_string(), "SPAN[0]");
        assert_eq!(rule.link.as_ref().unwrap().as_str(), "https://example.org/news/");
        // What the tool prints loads back.
        assert_eq!(Rule::parse(&rule.to_xml(), "merged").unwrap(), rule);
        let page = apply(&rule, &d, chrono::Utc::now()).page;
        let titles: Vec<_> = page.items().map(|i| i.title.as_str()).collect();
        assert_eq!(titles, ["W one", "W two", "W three"]);
        assert_eq!(page.items().filter(|i| i.date.is_some()).count(), 2);
        assert_eq!(page.date.unwrap().to_rfc3339(), "2024-05-06T00:00:00+00:00");
    }

    #[test]
    fn two_marked_subject_titles_give_the_subject_path() {
        let d = doc();
        let rule = derive_rule(
            &d,
            &marks(&[
                "subject-title=/HTML[0]/BODY[0]/DIV[1]/H2[0]",
                "subject-title=/HTML[0]/BODY[0]/DIV[2]/H2[0]",
                "title=/HTML[0]/BODY[0]/DIV[1]/UL[0]/LI[0]/A[0]",
                "title=/HTML[0]/BODY[0]/DIV[1]/UL[0]/LI[1]/A[0]",
            ]),
        )
        .unwrap();
        let subject = &rule.subjects[0];
        assert_eq!(subject.path.to_string(), "/HTML[0]/BODY[0]/DIV");
        assert_eq!(subject.title.as_ref().unwrap().to_string(), "H2[0]");
        assert_eq!(subject.item.path.to_string(), "UL[0]/LI");
        let page = apply(&rule, &d, chrono::Utc::now()).page;
        let subjects: Vec<_> = page.subjects.iter().map(|s| (s.title.clone().unwrap(), s.items.len())).collect();
        assert_eq!(subjects, [("WORLD".to_string(), 3), ("BUSINESS".to_string(), 1)]);
    }

    #[test]
    fn marks_that_do_not_describe_items_are_refused() {
        let d = doc();
        let derive = |m: &[&str]| derive_rule(&d, &marks(m)).unwrap_err();
        assert_eq!(derive(&["title=/HTML[0]/BODY[0]/DIV[1]/UL[0]/LI[0]/A[0]"]), MergeError::NoTwoItems);
        assert!(matches!(derive(&["title=HTML[0]/BODY[0]"]), MergeError::NotAbsolute(_)));
        assert!(matches!(derive(&["title=/HTML[0]/BODY[0]/DIV[7]"]), MergeError::SelectsNothing(_)));
        assert_eq!(derive(&["date=/HTML[0]/BODY[0]/DIV[0]"]), MergeError::NoTitleOrLink);
        assert!(matches!(
            derive(&["title=/HTML[0]/BODY[0]/DIV[1]/UL[0]/LI[0]/A[0]", "title=/HTML[0]/BODY[0]/DIV[1]/H2[0]"]),
            MergeError::Incompatible { .. }
        ));
        assert_eq!(
            derive(&["subject-title=/HTML[0]/BODY[0]/DIV[1]/H2[0]", "title=/HTML[0]/BODY[0]/DIV[1]/UL[0]/LI[0]/A[0]"]),
            MergeError::NoTwoSubjects
        );
        // A date mark above the items the titles describe.
        for date in ["/HTML[0]/BODY[0]/DIV[0]", "/HTML[0]/BODY[0]/DIV[2]/UL[0]/LI[0]/SPAN[0]"] {
            let error = derive(&[
                "title=/HTML[0]/BODY[0]/DIV[1]/UL[0]/LI[0]/A[0]",
                "title=/HTML[0]/BODY[0]/DIV[1]/UL[0]/LI[1]/A[0]",
                &format!("date={date}"),
            ]);
            assert!(matches!(error, MergeError::Outside { level: "item", .. }), "{date}: {error}");
        }
        assert!("colour=/HTML".parse::<Mark>().is_err());
        assert!("title".parse::<Mark>().is_err());
        assert!("title=/HTML[".parse::<Mark>().is_err());
    }
}
