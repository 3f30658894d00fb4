//! Escaping for the HTML, SVG and JSON the CLI writes by hand.
//!
//! The outputs are written as text rather than through a DOM library so the
//! CLI needs no extra dependencies; these helpers keep that safe.

/// Escapes text for XML/HTML content and attribute values.
pub fn xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A JSON string literal (quotes included).
pub fn json_str(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(xml("a<b & \"c\""), "a&lt;b &amp; &quot;c&quot;");
        assert_eq!(json_str("x\"y\n"), "\"x\\\"y\\n\"");
    }
}
