/** Latin-1 text as raw HTTP bytes: one character per byte, both ways. */

/** `bytes` as Latin-1 text: one character per byte. */
export function latin1(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return text;
}

/** Latin-1 text as the bytes it stands for. */
export function bytesOf(text: string): Uint8Array {
  return Uint8Array.from(text, (char) => char.charCodeAt(0));
}
