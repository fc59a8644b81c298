// Unit tests of how the secrets gate makes a staged file readable for gitleaks (scan.ts decodeForScan): UTF-16 with
// and without a byte-order mark, files with NUL bytes (the text between control bytes), and what stays unscanned.
import { describe, expect, it } from 'vitest';
import { BINARY_SCAN_MAX_BYTES, decodeForScan } from '../../gates/secrets/scan.js';

const text = '/* keys */\n"token" = "ghp_0123456789abcdefghijABCDEFGHIJ012345";\n';

describe('decodeForScan', () => {
  it('decodes UTF-16 LE and BE with a byte-order mark (unchanged behaviour)', () => {
    const le = decodeForScan(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
    expect(le).toEqual({ kind: 'utf16', bytes: Buffer.from(text), prefixLines: 0 });
    const be = decodeForScan(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(text, 'utf16le').swap16()]));
    expect(be).toEqual({ kind: 'utf16', bytes: Buffer.from(text), prefixLines: 0 });
  });

  it('decodes UTF-16 LE and BE without a byte-order mark from the NUL pattern, also with some non-Latin text', () => {
    expect(decodeForScan(Buffer.from(text, 'utf16le'))).toEqual({ kind: 'utf16', bytes: Buffer.from(text), prefixLines: 0 });
    expect(decodeForScan(Buffer.from(text, 'utf16le').swap16())).toEqual({ kind: 'utf16', bytes: Buffer.from(text), prefixLines: 0 });
    const ja = `"greeting" = "こんにちは";\n${text}`;
    expect(decodeForScan(Buffer.from(ja, 'utf16le').swap16())).toEqual({ kind: 'utf16', bytes: Buffer.from(ja), prefixLines: 0 });
  });

  it('a file with one NUL byte is not UTF-16: its control bytes become spaces behind one added line, lengths kept', () => {
    const raw = Buffer.from(`x\0y\nGITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ012345\n`);
    const d = decodeForScan(raw);
    expect(d.kind).toBe('binary');
    expect(d.prefixLines).toBe(1);
    expect(d.bytes.toString('latin1')).toBe(`\nx y\nGITHUB_TOKEN=ghp_0123456789abcdefghijABCDEFGHIJ012345\n`);
  });

  it('binary signatures (zip, PNG) do not survive, so gitleaks cannot skip the file by its type; non-ASCII bytes become spaces', () => {
    const zip = decodeForScan(Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0xc3, 0xa9, 0x0d, 0x0a, 0x41]));
    expect(zip).toEqual({ kind: 'binary', bytes: Buffer.from('\nPK      \r\nA', 'latin1'), prefixLines: 0 + 1 });
  });

  it('NULs at both parities is binary, not UTF-16; text without NUL stays as it is', () => {
    expect(decodeForScan(Buffer.from([0x41, 0, 0, 0x42])).kind).toBe('binary');
    expect(decodeForScan(Buffer.from(text))).toEqual({ kind: 'text', bytes: Buffer.from(text), prefixLines: 0 });
  });

  it('a binary file larger than BINARY_SCAN_MAX_BYTES is unscannable (counted as not scanned)', () => {
    expect(BINARY_SCAN_MAX_BYTES).toBe(32 * 1024 * 1024);
    expect(decodeForScan(Buffer.alloc(BINARY_SCAN_MAX_BYTES + 1)).kind).toBe('unscannable');
    expect(decodeForScan(Buffer.alloc(BINARY_SCAN_MAX_BYTES)).kind).toBe('binary');
  });

  it('decodes UTF-32 LE and BE with a byte-order mark (FF FE 00 00 is not the UTF-16 LE mark), also outside the BMP', () => {
    const withAstral = `${text}// \u{1F511} ok\n`;
    const le = Buffer.alloc(4 + [...withAstral].length * 4);
    le.writeUInt32LE(0xfeff, 0);
    [...withAstral].forEach((ch, i) => le.writeUInt32LE(ch.codePointAt(0)!, 4 + i * 4));
    expect(le.subarray(0, 4)).toEqual(Buffer.from([0xff, 0xfe, 0, 0]));
    expect(decodeForScan(le)).toEqual({ kind: 'utf32', bytes: Buffer.from(withAstral), prefixLines: 0 });
    const be = Buffer.alloc(le.length);
    for (let i = 0; i < le.length; i += 4) be.writeUInt32BE(le.readUInt32LE(i), i);
    expect(be.subarray(0, 4)).toEqual(Buffer.from([0, 0, 0xfe, 0xff]));
    expect(decodeForScan(be)).toEqual({ kind: 'utf32', bytes: Buffer.from(withAstral), prefixLines: 0 });
  });

  it('UTF-32: a code point past U+10FFFF, a surrogate and a trailing partial unit each become U+FFFD; lines are kept', () => {
    const units = [0x41, 0x110000, 0x0a, 0xd800, 0x42, 0x0a];
    const le = Buffer.alloc(4 + units.length * 4 + 2);
    le.writeUInt32LE(0xfeff, 0);
    units.forEach((u, i) => le.writeUInt32LE(u, 4 + i * 4));
    le[le.length - 2] = 0x43;
    expect(decodeForScan(le)).toEqual({ kind: 'utf32', bytes: Buffer.from('A\uFFFD\n\uFFFDB\n\uFFFD'), prefixLines: 0 });
  });

  it('a UTF-16 LE file whose first character is U+0000 keeps its UTF-16 reading (its next unit is no code point as UTF-32)', () => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`\0${text}`, 'utf16le')]);
    // FF FE 00 00, then 2F 00 2A 00: as UTF-32 LE that is 0x2A002F, past U+10FFFF.
    expect(le.subarray(0, 4)).toEqual(Buffer.from([0xff, 0xfe, 0, 0]));
    expect(decodeForScan(le).kind).toBe('utf16');
  });
});
