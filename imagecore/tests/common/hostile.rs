//! Hostile inputs, made here rather than committed: decompression bombs and headers that
//! declare far more pixels than their files hold.
#![allow(dead_code)]

use super::crc32;

/// A PNG chunk: length, type, data, CRC.
pub fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut body = kind.to_vec();
    body.extend_from_slice(data);
    let mut out = (data.len() as u32).to_be_bytes().to_vec();
    out.extend_from_slice(&body);
    out.extend_from_slice(&crc32(&body).to_be_bytes());
    out
}

/// A zlib stream of about `zero_bytes` bytes that inflates to the returned number of zero bytes
/// (1032:1, deflate's best ratio), and that number.
///
/// One dynamic-Huffman block whose literal/length code gives "length 258" the 1-bit code `0` and
/// whose only distance code ("distance 1") is the 1-bit code `0`: after a literal 0, every zero
/// byte of the body is four 258-byte copies.
pub fn deflate_bomb(zero_bytes: usize) -> (Vec<u8>, u64) {
    let mut bits = BitWriter::default();
    bits.put(1, 1); // BFINAL
    bits.put(2, 2); // BTYPE = dynamic Huffman
    bits.put(286 - 257, 5); // HLIT: literal/length codes 0..=285
    bits.put(0, 5); // HDIST: one distance code
    bits.put(19 - 4, 4); // HCLEN: all 19 code-length code lengths, in the standard order
                         // Code-length code: 18 (run of zeros) → 1 bit, 1 → 2 bits, 2 → 2 bits.
    for symbol in [
        16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
    ] {
        let length = match symbol {
            18 => 1,
            1 | 2 => 2,
            _ => 0,
        };
        bits.put(length, 3);
    }
    // Canonical codes (sent most significant bit first): 18 → 0, 1 → 10, 2 → 11.
    let zeros = |b: &mut BitWriter, n: u32| {
        b.put_code(0, 1);
        b.put(n - 11, 7);
    };
    bits.put_code(0b11, 2); // literal 0: length 2
    zeros(&mut bits, 138);
    zeros(&mut bits, 117); // literals 1..=255: unused
    bits.put_code(0b11, 2); // 256, end of block: length 2
    zeros(&mut bits, 28); // lengths 257..=284: unused
    bits.put_code(0b10, 2); // 285, length 258: length 1
    bits.put_code(0b10, 2); // distance code 0, distance 1: length 1
                            // Literal/length codes: 285 → 0, literal 0 → 10, end of block → 11; distance 0 → 0.
    bits.put_code(0b10, 2); // literal 0
    let padding = (8 - bits.bits % 8) % 8;
    assert_eq!(
        padding % 2,
        0,
        "the header must leave whole copies in its last byte"
    );
    let copies = u64::from(padding / 2) + 4 * zero_bytes as u64;
    let mut stream = vec![0x78, 0x01];
    stream.extend_from_slice(&bits.bytes);
    stream.resize(stream.len() + zero_bytes, 0); // each zero bit pair: copy 258 at distance 1
    stream.push(0b11); // end of block
                       // Adler-32 of the output: all zeros, so a = 1 and b = the length, modulo 65521.
    let len = 1 + 258 * copies;
    let adler = ((len % 65521) << 16) | 1;
    stream.extend_from_slice(&(adler as u32).to_be_bytes());
    (stream, len)
}

#[derive(Default)]
struct BitWriter {
    bytes: Vec<u8>,
    bits: u32,
}

impl BitWriter {
    /// Writes `count` bits of `value`, least significant first (deflate's order for numbers).
    fn put(&mut self, value: u32, count: u32) {
        for i in 0..count {
            if self.bits.is_multiple_of(8) {
                self.bytes.push(0);
            }
            if (value >> i) & 1 == 1 {
                *self.bytes.last_mut().expect("a byte was pushed") |= 1 << (self.bits % 8);
            }
            self.bits += 1;
        }
    }

    /// Writes a Huffman code, most significant bit first.
    fn put_code(&mut self, code: u32, count: u32) {
        for i in (0..count).rev() {
            self.put((code >> i) & 1, 1);
        }
    }
}

/// A 16×16 RGBA PNG carrying an `iCCP` profile, a `zTXt` and an `iTXt` chunk whose zlib streams
/// are bombs of `zero_bytes` each; also how many bytes each bomb inflates to.
pub fn png_with_bombs(zero_bytes: usize) -> (Vec<u8>, u64) {
    let image = super::png(&super::disc(16, 16, [200, 30, 30, 255], [0, 0, 0, 0]));
    let (signature_and_ihdr, rest) = image.split_at(8 + 25);
    let (bomb, inflated) = deflate_bomb(zero_bytes);
    let mut iccp = b"icc\0\0".to_vec();
    iccp.extend_from_slice(&bomb);
    let mut ztxt = b"Comment\0\0".to_vec();
    ztxt.extend_from_slice(&bomb);
    let mut itxt = b"XML:com.adobe.xmp\0\x01\0\0\0".to_vec();
    itxt.extend_from_slice(&bomb);
    let mut out = signature_and_ihdr.to_vec();
    out.extend_from_slice(&chunk(b"iCCP", &iccp));
    out.extend_from_slice(&chunk(b"zTXt", &ztxt));
    out.extend_from_slice(&chunk(b"iTXt", &itxt));
    out.extend_from_slice(rest);
    (out, inflated)
}

/// A GIF of one 16×16 frame on a screen that declares `width`×`height`: under 1 KB that a
/// decoder composes onto a canvas of the screen's size (the 826-byte file declared
/// 6000×6000).
pub fn gif_declaring(width: u16, height: u16) -> Vec<u8> {
    let mut gif = super::gif1(&super::disc(
        16,
        16,
        [0, 90, 200, 255],
        [255, 255, 255, 255],
    ));
    gif[6..8].copy_from_slice(&width.to_le_bytes());
    gif[8..10].copy_from_slice(&height.to_le_bytes());
    gif
}

/// An 8-bit RLE BMP of `width`×`height` whose first `rows` rows are runs of one colour and whose
/// data then ends (end of bitmap): a few hundred bytes can declare tens of megapixels.
pub fn rle8_bmp(width: i32, height: i32, rows: u32) -> Vec<u8> {
    let mut data = Vec::new();
    for row in 0..rows {
        let mut left = width;
        while left > 0 {
            let run = left.min(255);
            data.extend_from_slice(&[run as u8, (row % 256) as u8]);
            left -= run;
        }
        data.extend_from_slice(&[0, 0]); // end of line
    }
    data.extend_from_slice(&[0, 1]); // end of bitmap
    let offset = 14 + 40 + 256 * 4;
    let mut out = b"BM".to_vec();
    out.extend_from_slice(&((offset + data.len()) as u32).to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    out.extend_from_slice(&(offset as u32).to_le_bytes());
    out.extend_from_slice(&40u32.to_le_bytes());
    out.extend_from_slice(&width.to_le_bytes());
    out.extend_from_slice(&height.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // planes
    out.extend_from_slice(&8u16.to_le_bytes()); // bits per pixel
    out.extend_from_slice(&1u32.to_le_bytes()); // BI_RLE8
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out.extend_from_slice(&[0; 8]);
    out.extend_from_slice(&256u32.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    for i in 0..=255u8 {
        out.extend_from_slice(&[i, 255 - i, i / 2, 0]);
    }
    out.extend_from_slice(&data);
    out
}

/// A 16×16 baseline JPEG whose frame header (SOF0) declares `width`×`height`.
pub fn jpeg_declaring(width: u16, height: u16) -> Vec<u8> {
    let mut jpeg = super::jpeg(&super::busy(16, 16));
    let sof = jpeg
        .windows(2)
        .position(|pair| pair == [0xff, 0xc0])
        .expect("a baseline JPEG has SOF0");
    jpeg[sof + 5..sof + 7].copy_from_slice(&height.to_be_bytes());
    jpeg[sof + 7..sof + 9].copy_from_slice(&width.to_be_bytes());
    jpeg
}

/// A 4×4 24-bit BMP whose info header declares `width`×`height` (negative: top-down).
pub fn bmp_declaring(width: i32, height: i32) -> Vec<u8> {
    let mut bmp = super::bmp(&super::busy(4, 4));
    assert!(
        bmp[14] >= 40,
        "an info header (V4 from this encoder), not a core one"
    );
    bmp[18..22].copy_from_slice(&width.to_le_bytes());
    bmp[22..26].copy_from_slice(&height.to_le_bytes());
    bmp
}

/// A WebP whose VP8X chunk declares a `width`×`height` canvas, holding a 16×16 lossless frame.
pub fn webp_vp8x_declaring(width: u32, height: u32) -> Vec<u8> {
    let lossless = super::webp(&super::busy(16, 16));
    let mut body = b"WEBPVP8X".to_vec();
    body.extend_from_slice(&10u32.to_le_bytes());
    body.extend_from_slice(&[0; 4]); // flags, reserved
    body.extend_from_slice(&(width - 1).to_le_bytes()[..3]);
    body.extend_from_slice(&(height - 1).to_le_bytes()[..3]);
    body.extend_from_slice(&lossless[12..]); // its VP8L chunk
    let mut out = b"RIFF".to_vec();
    out.extend_from_slice(&(body.len() as u32).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// A lossless WebP (VP8L) whose header declares `width`×`height` (14 bits each: 1 to 16384).
pub fn webp_vp8l_declaring(width: u32, height: u32) -> Vec<u8> {
    let mut webp = super::webp(&super::busy(16, 16));
    assert_eq!((&webp[12..16], webp[20]), (&b"VP8L"[..], 0x2f));
    let bits = u32::from_le_bytes([webp[21], webp[22], webp[23], webp[24]]);
    let bits = (bits & !0x0fff_ffff) | ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14);
    webp[21..25].copy_from_slice(&bits.to_le_bytes());
    webp
}

/// An ICO of one 16×16 BMP entry whose DIB declares `width`×`height` (stored doubled, as ICO
/// entries store their height).
pub fn ico_dib_declaring(width: i32, height: i32) -> Vec<u8> {
    let mut dib = super::ico_dib(&super::busy(16, 16));
    dib[4..8].copy_from_slice(&width.to_le_bytes());
    dib[8..12].copy_from_slice(&(height * 2).to_le_bytes());
    super::ico(&[(32, dib, 16)])
}

/// A GIF of one 16×16 screen whose first frame's descriptor declares `width`×`height`.
pub fn gif_frame_declaring(width: u16, height: u16) -> Vec<u8> {
    let mut gif = gif_declaring(16, 16);
    let table = if gif[10] & 0x80 != 0 {
        3 << ((gif[10] & 7) + 1)
    } else {
        0
    };
    let mut at = 13 + table;
    while gif[at] == 0x21 {
        at += 2;
        while gif[at] != 0 {
            at += usize::from(gif[at]) + 1;
        }
        at += 1;
    }
    assert_eq!(gif[at], 0x2c, "an image descriptor");
    gif[at + 5..at + 7].copy_from_slice(&width.to_le_bytes());
    gif[at + 7..at + 9].copy_from_slice(&height.to_le_bytes());
    gif
}
