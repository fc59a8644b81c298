// A bounded tail of a stream: the newest `cap` bytes, kept as the chunks that arrived (no copy per chunk), so a
// command printing 50 MB costs a retry run no more memory than the tail itself.

/** Bytes kept per stream for signature matching: 256 KiB. */
export const TAIL_BYTES = 256 * 1024;

/** The last `cap` bytes written to it. */
export class TailBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  constructor(readonly cap: number = TAIL_BYTES) {}

  /** Keep `chunk`; drop whole chunks from the front while the rest still holds `cap` bytes. */
  push(chunk: Buffer): void {
    this.chunks.push(chunk);
    this.size += chunk.length;
    while (this.chunks.length > 1 && this.size - this.chunks[0]!.length >= this.cap) this.size -= this.chunks.shift()!.length;
  }

  /** The kept bytes as UTF-8 text (at most `cap` bytes; a character cut at the front reads as U+FFFD). */
  text(): string {
    const all = Buffer.concat(this.chunks, this.size);
    return (all.length > this.cap ? all.subarray(all.length - this.cap) : all).toString('utf8');
  }
}

/**
 * The last `n` non-blank lines of `text`, passed through `redact` as one text (a PEM block spans lines) before each
 * is cut to 300 characters (a token cut in half no longer has the shape redaction knows).
 */
export function lastLines(text: string, n: number, redact: (text: string) => string = (t) => t): string[] {
  const kept = text.split(/\r?\n/).filter((l) => l.trim() !== '').slice(-n);
  return redact(kept.join('\n'))
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => (l.length > 300 ? `${l.slice(0, 300)}…` : l));
}
