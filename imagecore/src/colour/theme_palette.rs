//! The theme's palette ([`crate::colour::theme`]): each distinct visible colour of a logo
//! judged once — whether it reads on the page, its inverted colour, and (only for a logo the
//! outline says to invert) whether inverting turns its hue.
//!
//! A logo of 300 × 300 px has tens of thousands of visible pixels but hundreds to a few thousand
//! colours; verdicts cost OKLab conversions and a gamut bisection, lookups a hash. So verdicts are
//! kept in a hash map keyed by the packed colour, behind a small direct-mapped cache that catches
//! the runs of one colour along a row.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::colour::lightness::{hue_distance, Colour};
use crate::colour::theme::{reads_on, CHROMATIC, HUE_TOLERANCE, PALETTE_CAP};

/// What one palette colour does under the theme.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Verdict {
    /// The colour with its lightness inverted.
    pub(crate) inverted: [u8; 3],
    /// Whether it reads on the page ([`reads_on`]).
    pub(crate) reads: bool,
    /// Whether its inverted colour reads on the page.
    pub(crate) reads_inverted: bool,
    /// Whether inverting turns its hue (rule 4): judged only when the ink is weighed.
    turns: Option<bool>,
}

fn verdict(rgb: [u8; 3], page: f32) -> Verdict {
    let before = Colour::of(rgb);
    let inverted = before.inverted();
    Verdict {
        inverted,
        reads: reads_on(&before, page),
        reads_inverted: reads_on(&Colour::of(inverted), page),
        turns: None,
    }
}

/// Whether inverting `rgb` to `inverted` turns its hue (rule 4). Asked only of a logo the
/// outline says to invert, so most themed logos never pay for its two `atan2`s.
fn turns(rgb: [u8; 3], inverted: [u8; 3]) -> bool {
    let (before, after) = (Colour::of(rgb), Colour::of(inverted));
    before.chroma() >= CHROMATIC
        && (after.chroma() < before.chroma() / 2.0
            || hue_distance(before.hue(), after.hue()) > HUE_TOLERANCE)
}

/// Hashes a palette key, an RGB triple packed in a `u32`: one multiply, its high bits folded
/// down so the table's bucket index (the low bits) depends on every channel. Keys are colours of
/// the image being themed, not attacker-chosen table sizes: [`PALETTE_CAP`] bounds the table, so
/// SipHash's flooding resistance buys nothing here, and it cost more than a verdict lookup's
/// other work.
#[derive(Default)]
struct ColourHasher(u64);

impl Hasher for ColourHasher {
    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 32)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.write_u32(u32::from(byte));
        }
    }

    fn write_u32(&mut self, key: u32) {
        self.0 = (self.0.rotate_left(5) ^ u64::from(key)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// Each visible colour's verdict, judged once per call (rule 5 caps how many).
pub(crate) struct Palette {
    page: f32,
    verdicts: HashMap<u32, Verdict, BuildHasherDefault<ColourHasher>>,
    /// A small direct-mapped cache in front of `verdicts`, slot by key hash: neighbouring
    /// pixels mostly repeat a few colours.
    recent: Box<[(u32, Verdict); RECENT]>,
}

impl Palette {
    /// An empty palette for a page of WCAG luminance `page`.
    pub(crate) fn new(page: f32) -> Palette {
        Palette {
            page,
            verdicts: HashMap::default(),
            recent: Box::new([(u32::MAX, NO_VERDICT); RECENT]),
        }
    }

    /// The verdict on the pixel whose RGB starts at `pixel[0]`; `None` when its colour is new
    /// and the palette already holds [`PALETTE_CAP`] colours (rule 5).
    pub(crate) fn verdict(&mut self, pixel: &[u8]) -> Option<Verdict> {
        let key = colour_key(pixel);
        let slot = recent_slot(key);
        if self.recent[slot].0 == key {
            return Some(self.recent[slot].1);
        }
        let v = match self.verdicts.get(&key) {
            Some(v) => *v,
            None if self.verdicts.len() >= PALETTE_CAP => return None,
            None => {
                let v = verdict([pixel[0], pixel[1], pixel[2]], self.page);
                self.verdicts.insert(key, v);
                v
            }
        };
        self.recent[slot] = (key, v);
        Some(v)
    }

    /// Whether the pixel's colour turns when inverted, judged once per colour; `None` as for
    /// [`Palette::verdict`].
    pub(crate) fn turns(&mut self, pixel: &[u8]) -> Option<bool> {
        let v = self.verdict(pixel)?;
        if let Some(turns) = v.turns {
            return Some(turns);
        }
        let rgb = [pixel[0], pixel[1], pixel[2]];
        let judged = Verdict {
            turns: Some(turns(rgb, v.inverted)),
            ..v
        };
        let key = colour_key(pixel);
        self.verdicts.insert(key, judged);
        self.recent[recent_slot(key)] = (key, judged);
        judged.turns
    }
}

/// Slots of [`Palette`]'s recent-colour cache.
const RECENT: usize = 256;
/// What an empty slot of the recent-colour cache holds (its key, `u32::MAX`, is no colour's).
const NO_VERDICT: Verdict = Verdict {
    inverted: [0; 3],
    reads: false,
    reads_inverted: false,
    turns: None,
};

fn recent_slot(key: u32) -> usize {
    (key.wrapping_mul(0x9E37_79B1) >> 24) as usize
}

/// A pixel's RGB packed in a `u32`, the palette's key.
fn colour_key(pixel: &[u8]) -> u32 {
    u32::from_le_bytes([pixel[0], pixel[1], pixel[2], 0])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 6,000 pseudo-random colours, many sharing a slot of the recent-colour cache.
    fn colours() -> Vec<[u8; 3]> {
        let mut seed = 0x2545_f491_u32;
        (0..6_000)
            .map(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 17;
                seed ^= seed << 5;
                [seed as u8, (seed >> 8) as u8, (seed >> 16) as u8]
            })
            .collect()
    }

    #[test]
    fn every_lookup_gives_the_colours_own_verdict() {
        for page in [1.0, 0.0] {
            let mut palette = Palette::new(page);
            let colours = colours();
            // Twice over, the second time in reverse: the answers come from the map and the cache.
            for rgb in colours.iter().chain(colours.iter().rev()) {
                let expected = verdict(*rgb, page);
                let got = palette.verdict(rgb).expect("under the cap");
                assert_eq!(got.inverted, expected.inverted, "{rgb:?}");
                assert_eq!(got.reads, expected.reads, "{rgb:?}");
                assert_eq!(got.reads_inverted, expected.reads_inverted, "{rgb:?}");
                assert_eq!(
                    palette.turns(rgb),
                    Some(turns(*rgb, expected.inverted)),
                    "{rgb:?}"
                );
            }
        }
    }

    #[test]
    fn a_new_colour_past_the_cap_has_no_verdict() {
        let mut palette = Palette::new(1.0);
        for key in 0..PALETTE_CAP as u32 {
            assert!(palette.verdict(&key.to_le_bytes()[..3]).is_some());
        }
        assert!(
            palette.verdict(&[1, 0, 0]).is_some(),
            "a known colour still has one"
        );
        let new = (PALETTE_CAP as u32).to_le_bytes(); // [0, 0, 1]: not among the keys above
        assert!(palette.verdict(&new[..3]).is_none());
        assert!(palette.turns(&new[..3]).is_none());
    }
}
