/**
 * Magic-byte checks of uploaded files: a fast first gate before ffprobe, so a text file named .png or .mp4
 * is refused without decoding anything. Returns a short format name, or null when the bytes are not one.
 */
const startsWith = (b: Buffer, sig: number[], at = 0) =>
  b.length >= at + sig.length && sig.every((x, i) => b[at + i] === x);
const ascii = (b: Buffer, at: number, len: number) => (b.length >= at + len ? b.toString('latin1', at, at + len) : '');

/** ISO-BMFF brands that are still pictures (AVIF, HEIF/HEIC), not videos. */
const IMAGE_BRANDS = new Set(['avif', 'avis', 'heic', 'heix', 'heim', 'heis', 'mif1', 'msf1']);

export function sniffImage(b: Buffer): string | null {
  if (startsWith(b, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(b, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (ascii(b, 0, 6) === 'GIF87a' || ascii(b, 0, 6) === 'GIF89a') return 'gif';
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'WEBP') return 'webp';
  if (ascii(b, 0, 2) === 'BM' && b.length >= 26) return 'bmp';
  if (startsWith(b, [0x49, 0x49, 0x2a, 0x00]) || startsWith(b, [0x4d, 0x4d, 0x00, 0x2a])) return 'tiff';
  if (ascii(b, 4, 4) === 'ftyp' && IMAGE_BRANDS.has(ascii(b, 8, 4))) return ascii(b, 8, 4) === 'avif' ? 'avif' : 'heic';
  return null;
}

export function sniffVideo(b: Buffer): string | null {
  const box = ascii(b, 4, 4);
  if (box === 'ftyp') return IMAGE_BRANDS.has(ascii(b, 8, 4)) ? null : ascii(b, 8, 4).trim() === 'qt' ? 'mov' : 'mp4';
  if (['moov', 'mdat', 'wide', 'free', 'skip'].includes(box)) return 'mov';
  if (startsWith(b, [0x1a, 0x45, 0xdf, 0xa3])) return b.subarray(0, 64).includes('webm') ? 'webm' : 'mkv'; // EBML
  if (ascii(b, 0, 4) === 'RIFF' && ascii(b, 8, 4) === 'AVI ') return 'avi';
  if (b[0] === 0x47 && b.length > 188 && b[188] === 0x47 && (b.length <= 376 || b[376] === 0x47)) return 'ts';
  if (startsWith(b, [0x00, 0x00, 0x01, 0xba])) return 'mpg';
  if (ascii(b, 0, 3) === 'FLV') return 'flv';
  if (startsWith(b, [0x30, 0x26, 0xb2, 0x75, 0x8e, 0x66, 0xcf, 0x11])) return 'wmv';
  if (ascii(b, 0, 4) === 'OggS') return 'ogv';
  return null;
}

/** File extension to store an accepted file under (from its real format, not its name). */
export const EXT_OF: Record<string, string> = {
  jpeg: 'jpg',
  png: 'png',
  gif: 'gif',
  webp: 'webp',
  bmp: 'bmp',
  tiff: 'tiff',
  avif: 'avif',
  heic: 'heic',
  mp4: 'mp4',
  mov: 'mov',
  mkv: 'mkv',
  webm: 'webm',
  avi: 'avi',
  ts: 'ts',
  mpg: 'mpg',
  flv: 'flv',
  wmv: 'wmv',
  ogv: 'ogv',
};
