import { describe, expect, it } from 'vitest';
import { isPlaceholderReason } from '../../core/suppression.js';

describe('isPlaceholderReason', () => {
  it.each(['ok', 'x', 'none', 'TODO', 'n/a', 'fix later', 'TODO: fix', 'ok ok', 'TBD later', 'fixlater please', 'wip hack', 'FIX LATER'])('placeholder: %s', (r) => {
    expect(isPlaceholderReason(r)).toBe(true);
  });
  it.each(['brand name', 'product name, not translated', 'temporary banner for launch week', 'URL scheme', 'test fixture string', 'Not for translation', 'ブランド名です'])('a reason: %s', (r) => {
    expect(isPlaceholderReason(r)).toBe(false);
  });
});
