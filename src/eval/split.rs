//! The corpus's `SPLIT.tsv` (its README §0): every site, set or page is in the `tune` half,
//! where the engines are developed, or the `check` half, which is only measured. Scores are
//! reported for both halves side by side: a wide gap between them means a change fitted pages
//! instead of the web.

use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::corpus::CorpusError;

/// Which half of the corpus a page belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Half {
    Tune,
    Check,
}

impl Half {
    pub const BOTH: [Half; 2] = [Half::Tune, Half::Check];

    pub fn name(self) -> &'static str {
        match self {
            Half::Tune => "tune",
            Half::Check => "check",
        }
    }
}

impl fmt::Display for Half {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `SPLIT.tsv`: corpus-relative paths (a page, a site directory or a whole set) and their half.
#[derive(Debug, Clone)]
pub struct Split {
    file: PathBuf,
    halves: BTreeMap<String, Half>,
}

impl Split {
    pub fn load(corpus: &Path) -> Result<Split, CorpusError> {
        let file = corpus.join("SPLIT.tsv");
        let text = fs::read_to_string(&file).map_err(|source| CorpusError::Read { path: file.clone(), source })?;
        let mut halves = BTreeMap::new();
        for (number, line) in text.lines().enumerate().skip(1) {
            if line.trim().is_empty() {
                continue;
            }
            let invalid = |message: String| CorpusError::Invalid {
                path: file.clone(),
                message: format!("line {}: {message}", number + 1),
            };
            let (path, half) = line.split_once('\t').ok_or_else(|| invalid("expected `path<TAB>split`".into()))?;
            let half = match half.trim() {
                "tune" => Half::Tune,
                "check" => Half::Check,
                other => return Err(invalid(format!("split `{other}` is neither tune nor check"))),
            };
            halves.insert(path.trim().trim_end_matches('/').to_string(), half);
        }
        Ok(Split { file, halves })
    }

    /// The half of a corpus-relative path: its own entry, else its nearest listed directory's.
    pub fn half(&self, path: &str) -> Result<Half, CorpusError> {
        let mut key = path.trim_end_matches('/');
        loop {
            if let Some(half) = self.halves.get(key) {
                return Ok(*half);
            }
            match key.rfind('/') {
                Some(slash) => key = &key[..slash],
                None => {
                    return Err(CorpusError::Invalid {
                        path: self.file.clone(),
                        message: format!("{path} is in neither half"),
                    });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_takes_its_own_entry_else_its_directory_s() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(
            dir.path().join("SPLIT.tsv"),
            "path\tsplit\nlists/sitepairs/a__b\tcheck\narticles/zyte\ttune\narticles/x/pages/1.html.gz\tcheck\n",
        )
        .unwrap();
        let split = Split::load(dir.path()).unwrap();
        assert_eq!(split.half("lists/sitepairs/a__b/index.html").unwrap(), Half::Check);
        assert_eq!(split.half("articles/zyte/html/0a.html.gz").unwrap(), Half::Tune);
        assert_eq!(split.half("articles/x/pages/1.html.gz").unwrap(), Half::Check);
        let error = split.half("articles/x/pages/2.html.gz").unwrap_err().to_string();
        assert!(error.contains("articles/x/pages/2.html.gz is in neither half"), "{error}");
    }

    #[test]
    fn a_bad_line_is_named() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join("SPLIT.tsv"), "path\tsplit\nlists/feedless\tmaybe\n").unwrap();
        let error = Split::load(dir.path()).unwrap_err().to_string();
        assert!(error.contains("SPLIT.tsv: line 2: split `maybe`"), "{error}");
    }
}
