// Zod schemas built on first use. A commit whose configuration comes from the config cache (core/config-cache.ts)
// validates nothing with zod, so it should not pay for building the gates' schemas at module load (nor, in the CLI
// bundle, for initialising zod at all: scripts/bundle.mjs). A cache miss builds them and validates as before.
import type { ZodTypeAny } from 'zod';

/**
 * A stand-in for the schema `build` returns, built the first time anything reads it (`parse`, `shape`, `_def`,
 * `instanceof`), then the same schema on every use: methods run with the built schema as `this`, and
 * `instanceof z.ZodObject` answers for it, so core/config.ts composes and unwraps it as it would the schema itself.
 */
export function lazySchema<T extends ZodTypeAny>(build: () => T): T {
  let built: T | undefined;
  const schema = (): T => (built ??= build());
  return new Proxy({} as T, {
    get(_target, key) {
      const s = schema();
      const v: unknown = Reflect.get(s, key, s);
      return typeof v === 'function' && key !== 'constructor' ? (v as (...a: unknown[]) => unknown).bind(s) : v;
    },
    set: (_target, key, value) => Reflect.set(schema(), key, value),
    has: (_target, key) => Reflect.has(schema(), key),
    ownKeys: () => Reflect.ownKeys(schema()),
    getOwnPropertyDescriptor(_target, key) {
      const d = Reflect.getOwnPropertyDescriptor(schema(), key);
      // A proxy may report a property only as configurable when its own target lacks it.
      return d && { ...d, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(schema()),
  });
}
