//! A linear pre-scan that estimates how deeply a page nests its elements, so a hostile page
//! (100,000 nested `<div>`) is refused before html5ever's tree builder, which is quadratic in
//! depth, spends minutes on it.

/// Elements that never hold children.
const VOID: &[&[u8]] = &[
    b"area", b"base", b"br", b"col", b"embed", b"hr", b"img", b"input", b"link", b"meta", b"param", b"source",
    b"track", b"wbr",
];

/// Elements whose end tag may be left out: pages that never close them are normal, and the
/// parser closes them implicitly, so they do not count.
const OPTIONAL_END: &[&[u8]] = &[
    b"p",
    b"li",
    b"dt",
    b"dd",
    b"option",
    b"optgroup",
    b"tr",
    b"td",
    b"th",
    b"thead",
    b"tbody",
    b"tfoot",
    b"colgroup",
    b"caption",
    b"rb",
    b"rt",
    b"rp",
    b"rtc",
    b"html",
    b"head",
    b"body",
];

/// Elements whose content is raw text: tags inside them are not tags.
const RAW_TEXT: &[&[u8]] = &[b"script", b"style", b"textarea", b"title", b"xmp", b"plaintext"];

/// The maximum number of open elements seen, counting start tags minus end tags.
pub fn estimate_depth(bytes: &[u8]) -> usize {
    let mut depth = 0usize;
    let mut max = 0usize;
    let mut i = 0;
    while let Some(offset) = bytes[i..].iter().position(|&b| b == b'<') {
        i += offset + 1;
        let rest = &bytes[i..];
        if rest.starts_with(b"!--") {
            i = find(bytes, i + 3, b"-->").map_or(bytes.len(), |e| e + 3);
            continue;
        }
        let closing = rest.first() == Some(&b'/');
        let name_start = i + usize::from(closing);
        let name_len = bytes[name_start..].iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'-').count();
        if name_len == 0 || !bytes[name_start].is_ascii_alphabetic() {
            continue;
        }
        let name = bytes[name_start..name_start + name_len].to_ascii_lowercase();
        let tag_end = bytes[name_start..].iter().position(|&b| b == b'>').map_or(bytes.len(), |e| name_start + e);
        i = tag_end.min(bytes.len());
        let counts = !VOID.contains(&name.as_slice()) && !OPTIONAL_END.contains(&name.as_slice());
        if closing {
            if counts {
                depth = depth.saturating_sub(1);
            }
            continue;
        }
        let self_closing = tag_end > 0 && tag_end <= bytes.len() && bytes.get(tag_end - 1) == Some(&b'/');
        if RAW_TEXT.contains(&name.as_slice()) {
            let mut close = b"</".to_vec();
            close.extend_from_slice(&name);
            i = find_ignore_case(bytes, i, &close).unwrap_or(bytes.len());
            continue;
        }
        if counts && !self_closing {
            depth += 1;
            max = max.max(depth);
        }
    }
    max
}

fn find(haystack: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    haystack.get(from..)?.windows(needle.len()).position(|w| w == needle).map(|p| p + from)
}

fn find_ignore_case(haystack: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    haystack.get(from..)?.windows(needle.len()).position(|w| w.eq_ignore_ascii_case(needle)).map(|p| p + from)
}

#[cfg(test)]
mod tests {
    use super::estimate_depth;

    #[test]
    fn counts_nesting_not_siblings() {
        assert_eq!(estimate_depth(b"<div><div><span>x</span></div></div><div></div>"), 3);
        assert_eq!(estimate_depth(b"<ul><li>a<li>b<li>c</ul><p>x<p>y<br><img src=x>"), 1);
        assert_eq!(estimate_depth(b"<div/><div/><div/>"), 0);
    }

    #[test]
    fn ignores_tags_in_comments_and_scripts() {
        assert_eq!(estimate_depth(b"<!-- <div><div> --><script>'<div><div><div>'</script><b>x</b>"), 1);
    }

    #[test]
    fn sees_hostile_nesting() {
        assert_eq!(estimate_depth("<div>".repeat(5000).as_bytes()), 5000);
    }
}
