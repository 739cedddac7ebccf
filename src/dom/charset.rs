//! Choosing the encoding of a page: BOM, HTTP header, `<meta>`, then a detector.

use encoding_rs::{Encoding, UTF_8};
use serde::Serialize;

/// How the encoding was chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EncodingSource {
    Bom,
    Header,
    Meta,
    /// The declared encoding was not UTF-8 but the bytes are valid UTF-8 with non-ASCII text:
    /// the declaration is wrong (common on Chinese sites that moved to UTF-8 and kept
    /// `charset=gbk`), and a browser's mojibake helps nobody.
    ValidUtf8,
    Detector,
    /// Given as text, already decoded.
    Text,
}

#[derive(Debug)]
pub struct Decoded {
    pub text: String,
    pub encoding: &'static Encoding,
    pub source: EncodingSource,
}

/// Decode page bytes. `header` is the HTTP charset parameter, `meta` the `<meta>` declaration.
pub fn decode(bytes: &[u8], header: Option<&str>, meta: Option<&str>) -> Decoded {
    if let Some((encoding, bom_len)) = Encoding::for_bom(bytes) {
        let (text, _) = encoding.decode_without_bom_handling(&bytes[bom_len..]);
        return Decoded { text: text.into_owned(), encoding, source: EncodingSource::Bom };
    }
    let declared = header
        .and_then(label)
        .map(|e| (e, EncodingSource::Header))
        .or_else(|| meta.and_then(label).map(|e| (e, EncodingSource::Meta)));
    let (encoding, source) = match declared {
        Some((e, _)) if e != UTF_8 && is_non_ascii_utf8(bytes) => (UTF_8, EncodingSource::ValidUtf8),
        Some(found) => found,
        // The detector allowed to guess UTF-8 guesses it for every valid UTF-8 input (ASCII
        // included), so such bytes need not be sniffed: most of today's pages, read once more.
        None if std::str::from_utf8(bytes).is_ok() => (UTF_8, EncodingSource::Detector),
        None => {
            let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
            detector.feed(bytes, true);
            (detector.guess(None, chardetng::Utf8Detection::Allow), EncodingSource::Detector)
        }
    };
    let (text, _) = encoding.decode_without_bom_handling(bytes);
    Decoded { text: text.into_owned(), encoding, source }
}

/// An encoding label as browsers read it; a `<meta>` that says UTF-16 means UTF-8 (the bytes
/// would not have been readable as ASCII otherwise).
fn label(label: &str) -> Option<&'static Encoding> {
    let encoding = Encoding::for_label(label.trim().as_bytes())?;
    Some(if encoding == encoding_rs::UTF_16LE || encoding == encoding_rs::UTF_16BE {
        UTF_8
    } else {
        encoding.output_encoding()
    })
}

fn is_non_ascii_utf8(bytes: &[u8]) -> bool {
    !bytes.is_ascii() && std::str::from_utf8(bytes).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bom_wins() {
        let d = decode(b"\xEF\xBB\xBFh\xC3\xA9", Some("iso-8859-1"), None);
        assert_eq!((d.text.as_str(), d.source), ("hé", EncodingSource::Bom));
    }

    #[test]
    fn header_then_meta() {
        let latin1 = b"caf\xE9";
        assert_eq!(decode(latin1, Some("iso-8859-1"), Some("utf-8")).text, "café");
        assert_eq!(decode(latin1, None, Some("windows-1252")).source, EncodingSource::Meta);
    }

    #[test]
    fn valid_utf8_beats_a_wrong_declaration() {
        let d = decode("新闻".as_bytes(), None, Some("gbk"));
        assert_eq!((d.text.as_str(), d.source), ("新闻", EncodingSource::ValidUtf8));
    }

    #[test]
    fn detector_reads_undeclared_gbk() {
        let (bytes, _, _) = encoding_rs::GBK.encode("这是一个新闻页面，今天的新闻很多，我们都在看新闻。");
        let d = decode(&bytes, None, None);
        assert_eq!(d.source, EncodingSource::Detector);
        assert_eq!(d.text, "这是一个新闻页面，今天的新闻很多，我们都在看新闻。");
    }
}
