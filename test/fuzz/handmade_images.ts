/**
 * Hand-built GIF, BMP and ICO files for the fuzzer's seed corpus: small, valid and exercising the
 * less common parts of each format (GIF transparency, interlace and a second frame; BMP RLE8,
 * RLE4, palettes, bit fields and top-down rows; ICO entries that are BMPs with an AND mask).
 * @module
 */

/** Raw RGBA pixels with a `width`. */
export interface Pixels {
  /** 4 bytes a pixel, row-major. */
  data: Uint8Array;
  /** Width in px. */
  width: number;
  /** Height in px. */
  height: number;
}

function le16(n: number): number[] {
  return [n & 0xff, (n >> 8) & 0xff];
}

function le32(n: number): number[] {
  return [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff];
}

/** Pixel (x, y) quantised to one of `colours` palette entries by its green channel. */
function index(image: Pixels, x: number, y: number, colours: number): number {
  return Math.floor(image.data[(y * image.width + x) * 4 + 1] * colours / 256);
}

/** A greyscale ramp palette of `n` entries, as RGB (GIF) or BGRX (BMP). */
function ramp(n: number, bgrx: boolean): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const v = Math.round(i * 255 / Math.max(1, n - 1));
    out.push(v, 255 - v, (v * 7) & 0xff);
    if (bgrx) out.push(0);
  }
  return out;
}

/**
 * LZW data as GIF stores it, without compression: 8-bit codes (minimum code size 7) with a clear
 * code often enough that the code size never grows.
 */
function lzwUncompressed(indices: number[]): number[] {
  const clear = 128, end = 129;
  const codes = [clear];
  indices.forEach((v, i) => {
    if (i > 0 && i % 100 === 0) codes.push(clear);
    codes.push(v);
  });
  codes.push(end);
  const bytes = codes; // 8-bit codes pack one a byte
  const out = [7];
  for (let i = 0; i < bytes.length; i += 255) {
    const block = bytes.slice(i, i + 255);
    out.push(block.length, ...block);
  }
  out.push(0);
  return out;
}

/** A GIF89a: 128-colour global palette, a transparent index, optional interlace, 1–2 frames. */
export function gif(
  image: Pixels,
  options: { interlace?: boolean; frames?: number } = {},
): Uint8Array {
  const { width, height } = image;
  const out: number[] = [...new TextEncoder().encode("GIF89a"), ...le16(width), ...le16(height)];
  out.push(0xf6, 0, 0, ...ramp(128, false));
  out.push(0x21, 0xff, 11, ...new TextEncoder().encode("NETSCAPE2.0"), 3, 1, 0, 0, 0);
  for (let frame = 0; frame < (options.frames ?? 1); frame++) {
    out.push(0x21, 0xf9, 4, 0x05, ...le16(10), 0, 0); // graphic control: index 0 transparent
    out.push(0x2c, ...le16(0), ...le16(0), ...le16(width), ...le16(height));
    out.push(options.interlace ? 0x40 : 0);
    const indices: number[] = [];
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) indices.push((index(image, x, y, 128) + frame * 17) % 128);
    }
    out.push(...lzwUncompressed(indices));
  }
  out.push(0x3b);
  return new Uint8Array(out);
}

/** Run-length encodes rows of palette indices as BMP RLE8 (`nibbles` false) or RLE4. */
function rle(rows: number[][], nibbles: boolean): number[] {
  const out: number[] = [];
  for (const row of rows) {
    for (let x = 0; x < row.length;) {
      let run = 1;
      while (x + run < row.length && row[x + run] === row[x] && run < 255) run++;
      out.push(run, nibbles ? (row[x] << 4) | row[x] : row[x]);
      x += run;
    }
    out.push(0, 0); // end of line
  }
  out.push(0, 1); // end of bitmap
  return out;
}

/** The 40-byte BITMAPINFOHEADER. */
function infoHeader(
  width: number,
  height: number,
  bpp: number,
  compression: number,
  imageSize: number,
  colours: number,
): number[] {
  return [
    ...le32(40),
    ...le32(width),
    ...le32(height),
    ...le16(1),
    ...le16(bpp),
    ...le32(compression),
    ...le32(imageSize),
    ...le32(2835),
    ...le32(2835),
    ...le32(colours),
    ...le32(0),
  ];
}

/** A BMP file from a DIB header, a palette and pixel data. */
function bmpFile(dib: number[], palette: number[], data: number[]): Uint8Array {
  const offset = 14 + dib.length + palette.length;
  const size = offset + data.length;
  return new Uint8Array([
    0x42,
    0x4d,
    ...le32(size),
    0,
    0,
    0,
    0,
    ...le32(offset),
    ...dib,
    ...palette,
    ...data,
  ]);
}

/** Rows of palette indices, bottom-up unless `topDown`. */
function indexRows(image: Pixels, colours: number, topDown = false): number[][] {
  const rows: number[][] = [];
  for (let r = 0; r < image.height; r++) {
    const y = topDown ? r : image.height - 1 - r;
    rows.push(Array.from({ length: image.width }, (_, x) => index(image, x, y, colours)));
  }
  return rows;
}

/** A palette BMP: 8-bit RLE8, 4-bit RLE4, or uncompressed 8/4/1-bit (optionally top-down). */
export function bmpPalette(
  image: Pixels,
  kind: "rle8" | "rle4" | "8bit" | "4bit" | "1bit",
  topDown = false,
): Uint8Array {
  const bpp = kind === "rle8" || kind === "8bit" ? 8 : kind === "1bit" ? 1 : 4;
  const colours = 1 << bpp;
  const rows = indexRows(image, colours, topDown);
  let data: number[];
  if (kind === "rle8" || kind === "rle4") {
    data = rle(rows, kind === "rle4");
  } else {
    data = [];
    const rowBytes = Math.ceil(image.width * bpp / 32) * 4;
    for (const row of rows) {
      const packed = new Array(rowBytes).fill(0);
      row.forEach((v, x) => {
        const bit = x * bpp;
        packed[bit >> 3] |= v << (8 - bpp - (bit & 7));
      });
      data.push(...packed);
    }
  }
  const compression = kind === "rle8" ? 1 : kind === "rle4" ? 2 : 0;
  const height = topDown ? -image.height : image.height;
  const dib = infoHeader(image.width, height, bpp, compression, data.length, colours);
  return bmpFile(dib, ramp(colours, true), data);
}

/** A 32-bit BMP with a BITMAPV4HEADER and BI_BITFIELDS masks (alpha kept). */
export function bmpBitfields(image: Pixels): Uint8Array {
  const dib = infoHeader(image.width, image.height, 32, 3, image.width * image.height * 4, 0);
  dib.splice(0, 4, ...le32(108));
  dib.push(...le32(0x00ff0000), ...le32(0x0000ff00), ...le32(0x000000ff), ...le32(0xff000000));
  dib.push(...le32(0x73524742), ...new Array(36 + 12).fill(0)); // sRGB, endpoints, gamma
  const data: number[] = [];
  for (let y = image.height - 1; y >= 0; y--) {
    for (let x = 0; x < image.width; x++) {
      const i = (y * image.width + x) * 4;
      data.push(image.data[i + 2], image.data[i + 1], image.data[i], image.data[i + 3]);
    }
  }
  return bmpFile(dib, [], data);
}

/** An ICO entry's DIB: 32-bit BGRA (or 8-bit palette) rows then the 1-bit AND mask. */
export function icoBmpEntry(image: Pixels, bpp: 32 | 8): Uint8Array {
  const { width, height } = image;
  const palette = bpp === 8 ? ramp(256, true) : [];
  const xor: number[] = [];
  const rowBytes = Math.ceil(width * bpp / 32) * 4;
  const maskBytes = Math.ceil(width / 32) * 4;
  const mask: number[] = [];
  for (let y = height - 1; y >= 0; y--) {
    const row = new Array(rowBytes).fill(0);
    const maskRow = new Array(maskBytes).fill(0);
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      if (bpp === 32) {
        row.splice(
          x * 4,
          4,
          image.data[i + 2],
          image.data[i + 1],
          image.data[i],
          image.data[i + 3],
        );
      } else row[x] = index(image, x, y, 256);
      if (image.data[i + 3] < 128) maskRow[x >> 3] |= 0x80 >> (x & 7);
    }
    xor.push(...row);
    mask.push(...maskRow);
  }
  const dib = infoHeader(width, height * 2, bpp, 0, xor.length + mask.length, bpp === 8 ? 256 : 0);
  return new Uint8Array([...dib, ...palette, ...xor, ...mask]);
}

/** An ICO of arbitrary entries (BMP DIBs or PNGs); `side` goes to the directory (0 = 256). */
export function ico(entries: { data: Uint8Array; side: number; bpp: number }[]): Uint8Array {
  const header = 6 + 16 * entries.length;
  const out: number[] = [0, 0, 1, 0, ...le16(entries.length)];
  let offset = header;
  for (const { data, side, bpp } of entries) {
    const s = side >= 256 ? 0 : side;
    out.push(s, s, 0, 0, ...le16(1), ...le16(bpp), ...le32(data.length), ...le32(offset));
    offset += data.length;
  }
  for (const { data } of entries) out.push(...data);
  return new Uint8Array(out);
}
