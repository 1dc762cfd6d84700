//! The one font SVG text is drawn with: DejaVu Sans, subset to Latin (Basic, Latin-1, Extended-A,
//! Extended-B and Additional), IPA, Greek, Cyrillic, general punctuation, currency and letterlike
//! symbols (`fonts/DejaVuSans-subset.ttf`, made by `tools/subset_font.sh`; licence in
//! `fonts/LICENSE-DejaVu.txt`). It is embedded in the SVG module only, so the request-path module
//! does not carry it.
//!
//! Every `font-family` an SVG names — a named family, `serif`, `monospace`, anything — is drawn
//! with it, at the regular weight and upright: bold and italic text is drawn regular. A character
//! the font lacks has no fallback font (there is none): it is drawn as the font's `.notdef` box.

use resvg::usvg::fontdb::{Database, Source, ID};
use resvg::usvg::FontResolver;
use std::sync::{Arc, OnceLock};

/// The embedded font file (TrueType).
pub const FONT: &[u8] = include_bytes!("../../fonts/DejaVuSans-subset.ttf");

/// The family name of [`FONT`].
pub const FAMILY: &str = "DejaVu Sans";

/// The font database holding [`FONT`] alone, built once per module instance.
pub fn database() -> Arc<Database> {
    static DATABASE: OnceLock<Arc<Database>> = OnceLock::new();
    DATABASE
        .get_or_init(|| {
            let mut db = Database::new();
            db.load_font_source(Source::Binary(Arc::new(FONT)));
            db.set_sans_serif_family(FAMILY);
            db.set_serif_family(FAMILY);
            db.set_monospace_family(FAMILY);
            db.set_cursive_family(FAMILY);
            db.set_fantasy_family(FAMILY);
            Arc::new(db)
        })
        .clone()
}

/// Whether the bundled font has a glyph for `c`.
pub fn has_char(c: char) -> bool {
    use skrifa::MetadataProvider;
    skrifa::FontRef::new(FONT).is_ok_and(|font| font.charmap().map(c).is_some())
}

fn first_face(db: &Database) -> Option<ID> {
    db.faces().next().map(|face| face.id)
}

/// A resolver that answers every font query with the bundled font, and never falls back.
pub fn resolver() -> FontResolver<'static> {
    FontResolver {
        select_font: Box::new(|_, db| first_face(db)),
        select_fallback: Box::new(|_, _, _| None),
    }
}
