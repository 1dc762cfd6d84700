//! Recognising an SVG document from its bytes (no parser needed; both modules use it).

/// Whether `input` is an SVG document: the first element, after an optional BOM, XML declaration,
/// comments, an `svg` doctype and white space, is `<svg`.
pub fn is_svg(input: &[u8]) -> bool {
    let mut rest = input.strip_prefix(b"\xef\xbb\xbf").unwrap_or(input);
    loop {
        let start = rest.iter().position(|b| !b.is_ascii_whitespace());
        rest = &rest[start.unwrap_or(rest.len())..];
        let skip_to = |rest: &[u8], end: &[u8]| {
            rest.windows(end.len())
                .position(|w| w == end)
                .map(|i| i + end.len())
        };
        let skipped = if rest.starts_with(b"<?") {
            skip_to(rest, b"?>")
        } else if rest.starts_with(b"<!--") {
            skip_to(rest, b"-->")
        } else if rest.len() >= 13 && rest[..13].eq_ignore_ascii_case(b"<!doctype svg") {
            // An internal subset `[ … ]` may hold `>` of its own (entity declarations).
            let bracket = rest.iter().position(|&b| b == b'[');
            let close = rest.iter().position(|&b| b == b'>');
            match (bracket, close) {
                (Some(open), Some(end)) if open < end => skip_to(rest, b"]>"),
                _ => skip_to(rest, b">"),
            }
        } else {
            return rest.starts_with(b"<svg")
                && rest
                    .get(4)
                    .is_some_and(|b| b.is_ascii_whitespace() || *b == b'>');
        };
        match skipped {
            Some(end) => rest = &rest[end..],
            None => return false,
        }
    }
}
