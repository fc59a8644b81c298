// The words a narrowing refusal uses for what a staged loopgates.yaml changes in one gate's settings (G1b).
import { describe, expect, it } from 'vitest';
import { settingsChange } from '../../commands/hook-narrowing.js';

describe('settingsChange', () => {
  it('names added array entries, dropped ones, nested keys and scalars with their HEAD value', () => {
    const head = { allow: ['^v\\d'], attributes: { android: ['android:text', 'android:hint'] }, honorLintIgnore: false };
    const staged = { allow: ['^v\\d', '^About'], attributes: { android: ['android:hint'] }, honorLintIgnore: true };
    expect(settingsChange(head, staged)).toBe('allow entry "^About", attributes.android without "android:text", honorLintIgnore: true (HEAD: false)');
  });

  it('says three changes at most, and a reordering as such', () => {
    expect(settingsChange({ allow: ['a', 'b'] }, { allow: ['b', 'a'] })).toBe('allow reordered');
    expect(settingsChange({ a: 1, b: 1, c: 1, d: 1 }, { a: 2, b: 2, c: 2, d: 2 })).toBe('a: 2 (HEAD: 1), b: 2 (HEAD: 1), c: 2 (HEAD: 1), …');
    expect(settingsChange({ names: [] }, { names: ['A', 'B', 'C', 'D'] })).toBe('names entries "A", "B", "C", …');
  });
});
