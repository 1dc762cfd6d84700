//! The theme's palette ([`crate::colour::theme`]): each distinct visible colour of a logo once,
//! with how much of the logo it covers, and its index, which the later passes read per pixel.
//!
//! A logo of 300 × 300 px has tens of thousands of visible pixels but hundreds to a few thousand
//! colours. So colours are kept in a hash map keyed by the packed colour, behind a small
//! direct-mapped cache that catches the runs of one colour along a row; [`PALETTE_CAP`] bounds the
//! map, and so every later pass's work.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::colour::theme::PALETTE_CAP;

/// Hashes a palette key, an RGB triple packed in a `u32`: one multiply, its high bits folded
/// down so the table's bucket index (the low bits) depends on every channel. Keys are colours of
/// the image being themed, not attacker-chosen table sizes: [`PALETTE_CAP`] bounds the table, so
/// SipHash's flooding resistance buys nothing here, and it cost more than a lookup's other work.
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

/// One distinct colour of the logo.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Entry {
    /// The colour.
    pub(crate) rgb: [u8; 3],
    /// How much of the logo it covers: its pixels' alphas, each pixel counted in full where it
    /// sits inside a patch of its own colour and less at edges ([`Palette::add`]).
    pub(crate) weight: f32,
}

/// Each visible colour of a logo, up to [`PALETTE_CAP`].
pub(crate) struct Palette {
    index: HashMap<u32, u32, BuildHasherDefault<ColourHasher>>,
    /// The colours, in the order first seen.
    pub(crate) entries: Vec<Entry>,
    /// A small direct-mapped cache in front of `index`, slot by key hash: neighbouring pixels
    /// mostly repeat a few colours.
    recent: Box<[(u32, u32); RECENT]>,
}

/// Slots of [`Palette`]'s recent-colour cache.
const RECENT: usize = 256;

fn recent_slot(key: u32) -> usize {
    (key.wrapping_mul(0x9E37_79B1) >> 24) as usize
}

/// A pixel's RGB packed in a `u32`, the palette's key (`u32::MAX` is no colour's).
fn colour_key(pixel: &[u8]) -> u32 {
    u32::from_le_bytes([pixel[0], pixel[1], pixel[2], 0])
}

impl Palette {
    /// An empty palette.
    pub(crate) fn new() -> Palette {
        Palette {
            index: HashMap::default(),
            entries: Vec::new(),
            recent: Box::new([(u32::MAX, 0); RECENT]),
        }
    }

    /// The index of the colour of the pixel whose RGB starts at `pixel[0]`, added with weight 0
    /// when new; `None` when it is new and the palette already holds [`PALETTE_CAP`] colours.
    pub(crate) fn find_or_add(&mut self, pixel: &[u8]) -> Option<usize> {
        let key = colour_key(pixel);
        let slot = recent_slot(key);
        if self.recent[slot].0 == key {
            return Some(self.recent[slot].1 as usize);
        }
        let at = match self.index.get(&key) {
            Some(&at) => at,
            None if self.entries.len() >= PALETTE_CAP => return None,
            None => {
                let at = self.entries.len() as u32;
                self.index.insert(key, at);
                self.entries.push(Entry {
                    rgb: [pixel[0], pixel[1], pixel[2]],
                    weight: 0.0,
                });
                at
            }
        };
        self.recent[slot] = (key, at);
        Some(at as usize)
    }

    /// Counts the pixel whose RGBA starts at `pixel[0]`, with `same` of its four neighbours
    /// (0–4) of exactly its colour and alpha: its alpha × (1 + same) / 5, so a pixel inside a
    /// flat patch counts in full and an edge or a blend between two colours much less. Returns
    /// the colour's index (below [`PALETTE_CAP`], so a `u16`); `None` past the cap.
    pub(crate) fn add(&mut self, pixel: &[u8], same: u32) -> Option<u16> {
        let at = self.find_or_add(pixel)?;
        self.entries[at].weight += f32::from(pixel[3]) / 255.0 * (1 + same) as f32 / 5.0;
        Some(at as u16)
    }
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
    fn every_lookup_finds_the_colours_own_entry() {
        let mut palette = Palette::new();
        let colours = colours();
        // Twice over, the second time in reverse: the answers come from the map and the cache.
        for rgb in colours.iter().chain(colours.iter().rev()) {
            let at = palette.find_or_add(rgb).expect("under the cap");
            assert_eq!(palette.entries[at].rgb, *rgb);
        }
    }

    #[test]
    fn a_new_colour_past_the_cap_is_refused() {
        let mut palette = Palette::new();
        for key in 0..PALETTE_CAP as u32 {
            assert!(palette.find_or_add(&key.to_le_bytes()[..3]).is_some());
        }
        assert!(
            palette.find_or_add(&[1, 0, 0]).is_some(),
            "a known colour is still found"
        );
        let new = (PALETTE_CAP as u32).to_le_bytes(); // [0, 0, 1]: not among the keys above
        assert!(palette.find_or_add(&new[..3]).is_none());
    }

    #[test]
    fn a_pixel_inside_a_patch_counts_five_times_an_isolated_one() {
        let mut palette = Palette::new();
        palette.add(&[9, 9, 9, 255], 4).unwrap();
        palette.add(&[7, 7, 7, 255], 0).unwrap();
        assert_eq!(palette.entries[0].weight, 1.0);
        assert_eq!(palette.entries[1].weight, 0.2);
    }
}
