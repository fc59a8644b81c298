// Generated inputs for tests that need big files.

/** A generated Kotlin object of about `bytes` bytes (many small declarations: tree-sitter's parse time grows linearly). */
export function bigKotlin(bytes: number): string {
  const parts = ['package org.example.generated\n\nobject Generated {\n'];
  let size = parts[0]!.length;
  for (let i = 0; size < bytes; i++) {
    const s = `    val value${i}: Map<String, Int> = mapOf("key${i}" to ${i}, "other${i}" to ${i * 2})\n    fun f${i}(x: Int): Int = if (x > ${i}) x * ${i} else x + ${i}\n`;
    parts.push(s);
    size += s.length;
  }
  parts.push('}\n');
  return parts.join('');
}
