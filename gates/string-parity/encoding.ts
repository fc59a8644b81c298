// How a catalog's bytes become text: the one decoding step every string-parity format goes through (catalogs.ts
// parseBytes), so that bytes that are not text in the file's encoding are a finding, never U+FFFD judged as text.
// - A UTF-8 byte order mark is dropped. UTF-16 LE/BE with a BOM is read as UTF-16 in the Apple formats (Apple's tools
//   write UTF-16 .strings; CFPropertyList reads both) and in XML (XML 1.0 section 4.3.3); for the Apple formats also by
//   their NUL-byte pattern without a BOM, and Android XML by its first `<` without a BOM (XML 1.0 appendix F, as
//   Expat, aapt2's parser, detects it). JSON (i18next, FormatJS, ARB, .xcstrings) must be UTF-8 (RFC 8259 8.1).
// - XML that declares another encoding (`<?xml ... encoding="ISO-8859-1"?>`) and a PO file whose header declares a
//   charset other than UTF-8 are read in that encoding (WHATWG Encoding labels, as TextDecoder knows them); a PO file
//   with no charset or the template's `CHARSET` is read as UTF-8 without judging its bytes, as msgfmt accepts it.
// - Everything else is UTF-8, decoded fatally: the first byte that is no UTF-8 sequence is an `unparsable` problem at
//   its 1-based line and UTF-16 column, and the rest of the file is read with U+FFFD there (its other findings stay).
import { isUtf8 } from 'node:buffer';
import { TextDecoder } from 'node:util';
import type { CatalogFormat, ParseProblem } from './model.js';

/** The result of `decodeCatalog`. */
export interface DecodedCatalog {
  /** The encoding the file was read in (`UTF-8`, `UTF-16LE`, `UTF-16BE`, or a declared charset's WHATWG name). */
  encoding: string;
  /**
   * The text, BOM dropped; null when the bytes are valid UTF-8 (a UTF-8 BOM possibly first): then the caller decodes
   * them itself, or reads the bytes (the JSON and PO readers scan bytes, and drop that BOM).
   */
  text: string | null;
  /** The bytes are not valid in `encoding`: an `unparsable` error at the first bad byte. */
  problem?: ParseProblem;
}

const UTF16 = new Set<CatalogFormat>(['apple-strings', 'apple-stringsdict', 'android-xml']);
const XML = new Set<CatalogFormat>(['apple-stringsdict', 'android-xml']);
const JSON_FORMATS = new Set<CatalogFormat>(['arb', 'i18next-json', 'icu-json', 'xcstrings']);

/** What reads the file and what it does with a byte that is not UTF-8, per format (the problem's middle part). */
const CONSEQUENCE: Record<CatalogFormat, string> = {
  'android-xml': 'aapt2 refuses it ("not well-formed (invalid token)")',
  'apple-strings': 'Foundation cannot read the table (a .strings file is UTF-8, or UTF-16 with a byte order mark)',
  'apple-stringsdict': 'Foundation cannot read the property list',
  xcstrings: 'JSON is UTF-8 (RFC 8259 section 8.1) and Xcode cannot read the catalog',
  arb: 'JSON is UTF-8 (RFC 8259 section 8.1) and flutter gen-l10n cannot read it',
  'i18next-json': 'JSON is UTF-8 (RFC 8259 section 8.1); the app shows U+FFFD (�) or fails to load the file',
  'icu-json': 'JSON is UTF-8 (RFC 8259 section 8.1); the app shows U+FFFD (�) or fails to load the file',
  'gettext-po': 'msgfmt refuses it ("invalid multibyte sequence")',
};

/**
 * Decode the bytes of a catalog of `format` (see the file comment for the rules). Pure; never throws.
 */
export function decodeCatalog(bytes: Buffer, format: CatalogFormat): DecodedCatalog {
  const bom = bomOf(bytes);
  if (bom === 'UTF-16LE' || bom === 'UTF-16BE') {
    const text = utf16(bytes.subarray(2), bom);
    if (!UTF16.has(format)) {
      const fix = JSON_FORMATS.has(format) ? 'JSON is UTF-8 (RFC 8259 section 8.1)' : CONSEQUENCE[format];
      return { encoding: bom, text, problem: problem(1, 1, `not UTF-8 but ${bom} (it starts with a ${bom} byte order mark): ${fix}; save the file as UTF-8`) };
    }
    return { encoding: bom, text, ...utf16Problem(text, bom, format) };
  }
  if (!bom && format === 'android-xml' && bytes.length >= 2 && (bytes[0] === 0x3c) !== (bytes[1] === 0x3c) && (bytes[0] === 0 || bytes[1] === 0)) {
    // UTF-16 without a BOM, by its first character `<` (XML 1.0 appendix F; Expat, which aapt2 uses, detects it so).
    const enc = bytes[0] === 0x3c ? 'UTF-16LE' : 'UTF-16BE';
    const text = utf16(bytes, enc);
    return { encoding: enc, text, ...utf16Problem(text, enc, format) };
  }
  if (!bom && (format === 'apple-strings' || format === 'apple-stringsdict') && bytes.length >= 4) {
    // UTF-16 without a BOM, by its NUL bytes (ASCII text in UTF-16): what the .strings reader has always accepted.
    const le = bytes[1] === 0 && bytes[3] === 0 && bytes[0] !== 0;
    if (le || (bytes[0] === 0 && bytes[2] === 0 && bytes[1] !== 0)) {
      const enc = le ? 'UTF-16LE' : 'UTF-16BE';
      const text = utf16(bytes, enc);
      return { encoding: enc, text, ...utf16Problem(text, enc, format) };
    }
  }
  const declared = XML.has(format) ? xmlEncoding(bytes) : format === 'gettext-po' ? poCharset(bytes) : undefined;
  // A PO file without a header or a charset, or with the template's CHARSET: msgfmt takes the bytes as they are.
  if (format === 'gettext-po' && (declared === undefined || declared === 'CHARSET')) return { encoding: 'UTF-8', text: isUtf8(bytes) ? null : utf8(bytes) };
  if (declared !== undefined && !/^utf-?8$/i.test(declared)) {
    const decoder = decoderFor(declared);
    if (decoder) {
      try {
        return { encoding: decoder.encoding, text: decoder.decode(bytes.subarray(bom ? 3 : 0)) };
      } catch {
        const text = new TextDecoder(decoder.encoding).decode(bytes.subarray(bom ? 3 : 0));
        return { encoding: decoder.encoding, text, problem: problem(1, 1, `not valid ${declared}, the encoding it declares: ${CONSEQUENCE[format]}; save the file in the encoding it declares, or as UTF-8`) };
      }
    }
    // An encoding TextDecoder does not know: read as UTF-8 as before, without judging its bytes.
    return { encoding: 'UTF-8', text: isUtf8(bytes) ? null : utf8(bytes) };
  }
  if (isUtf8(bytes)) return { encoding: 'UTF-8', text: null };
  const text = utf8(bytes);
  const at = firstInvalidUtf8(bytes);
  const start = bom ? 3 : 0;
  const lineStart = bytes.lastIndexOf(0x0a, at - 1) + 1;
  const line = countLf(bytes, start, at) + 1;
  const column = bytes.toString('utf8', Math.max(start, lineStart), at).length + 1;
  const hex = bytes[at]!.toString(16).toUpperCase().padStart(2, '0');
  const why = declared !== undefined ? ` while the file declares ${format === 'gettext-po' ? `charset=${declared}` : `encoding="${declared}"`}` : XML.has(format) ? ' while the file declares no encoding (so UTF-8)' : '';
  return { encoding: 'UTF-8', text, problem: problem(line, column, `not valid UTF-8: the byte 0x${hex} at line ${line}, column ${column} is no UTF-8 sequence${why} (saved as Latin-1 or Windows-1252?); ${CONSEQUENCE[format]}; save the file as UTF-8`) };
}

function problem(line: number, column: number, message: string): ParseProblem {
  return { rule: 'unparsable', message, line, column, severity: 'error' };
}

function bomOf(b: Buffer): 'UTF-8' | 'UTF-16LE' | 'UTF-16BE' | undefined {
  if (b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) return 'UTF-8';
  if (b.length >= 2 && b[0] === 0xff && b[1] === 0xfe) return 'UTF-16LE';
  if (b.length >= 2 && b[0] === 0xfe && b[1] === 0xff) return 'UTF-16BE';
  return undefined;
}

function utf8(bytes: Buffer): string {
  const t = bytes.toString('utf8');
  return t.charCodeAt(0) === 0xfeff ? t.slice(1) : t;
}

/** UTF-16 text (an odd last byte dropped, unpaired surrogates kept as they are: utf16Problem finds both). */
function utf16(b: Buffer, enc: 'UTF-16LE' | 'UTF-16BE'): string {
  if (enc === 'UTF-16LE') return b.toString('utf16le');
  const c = Buffer.from(b.subarray(0, b.length - (b.length % 2)));
  c.swap16();
  return c.toString('utf16le');
}

/** The problem of UTF-16 `text` that holds an unpaired surrogate (no character: TextDecoder's fatal mode refuses it). */
function utf16Problem(text: string, enc: string, format: CatalogFormat): { problem?: ParseProblem } {
  let at = 0;
  for (; at < text.length; at++) {
    const c = text.charCodeAt(at);
    if (c < 0xd800 || c > 0xdfff) continue;
    if (c <= 0xdbff && (text.charCodeAt(at + 1) & 0xfc00) === 0xdc00) at++;
    else break;
  }
  if (at >= text.length) return {};
  const lineStart = text.lastIndexOf('\n', at - 1) + 1;
  const line = countChar(text, '\n', at) + 1;
  const column = at - lineStart + 1;
  const unit = text.charCodeAt(at).toString(16).toUpperCase();
  return { problem: problem(line, column, `not valid ${enc}: an unpaired surrogate (0x${unit}) at line ${line}, column ${column} is no character; ${CONSEQUENCE[format]}; save the file as UTF-8 or ${enc}`) };
}

/** Offset of the first byte of `b` that starts no well-formed UTF-8 sequence (WHATWG Encoding, UTF-8 decoder); -1 if none. */
export function firstInvalidUtf8(b: Buffer): number {
  const n = b.length;
  for (let i = 0; i < n; ) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (c >= 0xc2 && c <= 0xdf) need = 1;
    else if (c >= 0xe0 && c <= 0xef) {
      need = 2;
      if (c === 0xe0) lo = 0xa0;
      if (c === 0xed) hi = 0x9f;
    } else if (c >= 0xf0 && c <= 0xf4) {
      need = 3;
      if (c === 0xf0) lo = 0x90;
      if (c === 0xf4) hi = 0x8f;
    } else return i;
    for (let k = 1; k <= need; k++) {
      const d = b[i + k];
      if (d === undefined || d < lo || d > hi) return i;
      lo = 0x80;
      hi = 0xbf;
    }
    i += need + 1;
  }
  return -1;
}

function countLf(b: Buffer, from: number, to: number): number {
  let n = 0;
  for (let i = b.indexOf(0x0a, from); i !== -1 && i < to; i = b.indexOf(0x0a, i + 1)) n++;
  return n;
}

function countChar(t: string, ch: string, to: number): number {
  let n = 0;
  for (let i = t.indexOf(ch); i !== -1 && i < to; i = t.indexOf(ch, i + 1)) n++;
  return n;
}

/** The `encoding` of an XML declaration at the start of `b` (a UTF-8 BOM allowed), or undefined. */
function xmlEncoding(b: Buffer): string | undefined {
  return /^(?:\u00ef\u00bb\u00bf)?<\?xml[^>]*\bencoding\s*=\s*["']([^"']+)["']/u.exec(b.toString('latin1', 0, Math.min(b.length, 200)))?.[1];
}

/**
 * The charset of a PO file's header entry (`"Content-Type: text/plain; charset=UTF-8\n"`), or undefined when the file
 * has no header entry before its first message or the header names no charset. Read from the first 8 KB as Latin-1.
 */
function poCharset(b: Buffer): string | undefined {
  const head = b.toString('latin1', 0, Math.min(b.length, 8192));
  // The header is the entry whose msgid is "" (gettext: the first entry); a msgid with text before it ends the search.
  const header = /^msgid\s+""\s*\n\s*msgstr\s+""/m.exec(head);
  if (!header || /^msgid\s+"[^"]/m.test(head.slice(0, header.index))) return undefined;
  const rest = head.slice(header.index);
  const end = rest.search(/\n\s*\n|\n\s*(?:#|msgid)/);
  return /charset=([^\\"\s;]+)/i.exec(end === -1 ? rest : rest.slice(0, end))?.[1];
}

function decoderFor(label: string): TextDecoder | undefined {
  try {
    return new TextDecoder(label, { fatal: true });
  } catch {
    return undefined;
  }
}

/**
 * The text of catalog bytes of `format` as `decodeCatalog` reads them (its problem left out: catalogs.ts reports it).
 * For callers that parse one file's bytes directly (the parsers' own tests, removed-key checks). Never throws.
 */
export function catalogText(bytes: Buffer, format: CatalogFormat): string {
  return decodeCatalog(bytes, format).text ?? utf8(bytes);
}
