import { sniffImage, sniffVideo } from '../../server/backgrounds/sniff';

const b = (...parts: Array<string | number[]>) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

describe('magic bytes of uploaded files', () => {
  it('recognises pictures and refuses text and videos as pictures', () => {
    expect(sniffImage(b([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(sniffImage(b([0x89], 'PNG\r\n\x1a\n'))).toBe('png');
    expect(sniffImage(b('GIF89a'))).toBe('gif');
    expect(sniffImage(b('RIFF', [1, 2, 3, 4], 'WEBPVP8 '))).toBe('webp');
    expect(sniffImage(b([0, 0, 0, 0x1c], 'ftypavif'))).toBe('avif');
    expect(sniffImage(b('hello, I am a text file'))).toBeNull();
    expect(sniffImage(b([0, 0, 0, 0x20], 'ftypisom'))).toBeNull();
    expect(sniffImage(Buffer.alloc(0))).toBeNull();
  });

  it('recognises video containers and refuses text and pictures as videos', () => {
    expect(sniffVideo(b([0, 0, 0, 0x20], 'ftypisom'))).toBe('mp4');
    expect(sniffVideo(b([0, 0, 0, 0x14], 'ftypqt  '))).toBe('mov');
    expect(sniffVideo(b([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x84], 'webm'))).toBe('webm');
    expect(sniffVideo(b([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x88], 'matroska'))).toBe('mkv');
    expect(sniffVideo(b('RIFF', [0, 0, 0, 0], 'AVI LIST'))).toBe('avi');
    const ts = Buffer.alloc(400);
    ts[0] = ts[188] = ts[376] = 0x47;
    expect(sniffVideo(ts)).toBe('ts');
    expect(sniffVideo(b([0, 0, 0, 0x1c], 'ftypheic'))).toBeNull();
    expect(sniffVideo(b([0xff, 0xd8, 0xff, 0xe0]))).toBeNull();
    expect(sniffVideo(b('GGGG plain text that starts with G'))).toBeNull();
  });
});
