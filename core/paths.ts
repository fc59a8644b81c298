// Paths are bytes (git stores a file name as bytes; POSIX file systems too). loopgates keeps a path as a JS string
// everywhere (Map keys, findings, reports); a name that is not valid UTF-8 (a latin-1 `caf\xe9.txt`) is decoded the
// way Python's `surrogateescape` does (PEP 383): each byte that is not part of a valid UTF-8 sequence becomes the lone
// surrogate U+DC80..U+DCFF, which valid UTF-8 never decodes to. So the string is unique and turns back into the
// exact bytes (pathBytes) for file-system calls and git's stdin. Shown in text the way git shows it with
// core.quotePath (`"caf\351.txt"`); JSON.stringify escapes a lone surrogate (`"caf\udce9.txt"`), so JSON and SARIF
// stay valid.
import { join } from 'node:path';

const ESC_LO = 0xdc80;
const ESC_HI = 0xdcff;

/**
 * Whether the code unit at `i` is one of decodePath's escaped bytes: a *lone* U+DC80..U+DCFF. The low half of a
 * surrogate pair falls in that range too (U+1F4A5 💥 is D83D DCA5), and decodePath never puts an escape after a high
 * surrogate, so a unit after one is a character's, not a byte's (an emoji was shown as `\245`, fresh6 F-NIT-1).
 */
function isEscapedByte(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  if (c < ESC_LO || c > ESC_HI) return false;
  const before = i > 0 ? s.charCodeAt(i - 1) : 0;
  return before < 0xd800 || before > 0xdbff;
}

/** A path as git lists it (bytes) -> its string form: UTF-8, each byte of an invalid sequence as U+DC80 + (byte - 0x80). */
export function decodePath(bytes: Buffer): string {
  let ascii = true;
  for (const b of bytes) if (b >= 0x80) {
    ascii = false;
    break;
  }
  if (ascii) return bytes.toString('latin1');
  let out = '';
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    const n = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    if (n === 1) {
      out += String.fromCharCode(b);
      i++;
      continue;
    }
    if (n > 0 && i + n <= bytes.length) {
      let ok = true;
      for (let k = 1; k < n; k++) if ((bytes[i + k]! & 0xc0) !== 0x80) ok = false;
      if (ok) {
        const s = bytes.subarray(i, i + n).toString('utf8');
        // Overlong forms, surrogates and > U+10FFFF decode to U+FFFD (one or more): those bytes are escaped instead.
        if (!s.includes('\ufffd')) {
          out += s;
          i += n;
          continue;
        }
      }
    }
    out += String.fromCharCode(ESC_LO + (b - 0x80));
    i++;
  }
  return out;
}

/** Whether `path` holds a byte that is not UTF-8 (decodePath's escapes). */
export function hasRawBytes(path: string): boolean {
  for (let i = 0; i < path.length; i++) if (isEscapedByte(path, i)) return true;
  return false;
}

/** The exact bytes of a path string made by decodePath (or any ordinary string: its UTF-8). */
export function pathBytes(path: string): Buffer {
  if (!hasRawBytes(path)) return Buffer.from(path, 'utf8');
  const parts: Buffer[] = [];
  let run = '';
  for (let i = 0; i < path.length; i++) {
    if (isEscapedByte(path, i)) {
      if (run) parts.push(Buffer.from(run, 'utf8'));
      run = '';
      parts.push(Buffer.from([path.charCodeAt(i) - ESC_LO + 0x80]));
    } else {
      run += path[i];
    }
  }
  if (run) parts.push(Buffer.from(run, 'utf8'));
  return Buffer.concat(parts);
}

/** `dir/path` for node:fs: a string, or the exact bytes when the path holds non-UTF-8 bytes (fs takes Buffer paths). */
export function fsPath(dir: string, path: string): string | Buffer {
  if (!hasRawBytes(path)) return join(dir, path);
  return Buffer.concat([Buffer.from(dir.endsWith('/') ? dir : `${dir}/`, 'utf8'), pathBytes(path)]);
}

/**
 * How a tool that decodes a path's bytes as UTF-8 with replacement (Go's encoding/json, Node's argv) writes it: each
 * escaped byte as U+FFFD. To map such a name back to the path (lossyIndex).
 */
export function lossyPath(path: string): string {
  return hasRawBytes(path) ? pathBytes(path).toString('utf8') : path;
}

/** lossyPath -> path for the paths holding raw bytes, when no two of them share a lossy form. */
export function lossyIndex(paths: Iterable<string>): Map<string, string> {
  const out = new Map<string, string>();
  const clash = new Set<string>();
  for (const p of paths) {
    if (!hasRawBytes(p)) continue;
    const l = lossyPath(p);
    if (out.has(l)) clash.add(l);
    out.set(l, p);
  }
  for (const l of clash) out.delete(l);
  return out;
}

/**
 * A path as text reports show it: as is when it holds only printable characters, else quoted the way git quotes it
 * with core.quotePath (git-config(1)): in double quotes, `\"`, `\\`, `\t`, `\n`, `\r` and every other control byte
 * and every byte >= 0x80 of a raw (non-UTF-8) byte as a three-digit octal escape. UTF-8 characters stay readable.
 */
export function shownPath(path: string): string {
  // The `u` flag: a lone U+DC80..U+DCFF matches, the low half of a pair (an emoji) does not.
  if (!/[\u0000-\u001f\u007f"\\\udc80-\udcff]/u.test(path)) return path;
  let out = '"';
  for (let i = 0; i < path.length; i++) {
    const c = path.charCodeAt(i);
    if (isEscapedByte(path, i)) out += `\\${(c - ESC_LO + 0x80).toString(8)}`;
    else if (c === 0x22) out += '\\"';
    else if (c === 0x5c) out += '\\\\';
    else if (c === 0x09) out += '\\t';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x0d) out += '\\r';
    else if (c < 0x20 || c === 0x7f) out += `\\${c.toString(8).padStart(3, '0')}`;
    else out += path[i];
  }
  return `${out}"`;
}
