// Self-test cases and the mutation operator of the secrets gate (DESIGN.md "self-test", "mutation"). Credentials
// are generated at run time (credentials.ts); none is stored in this repository.
import type { MutationOperator, SelfTestCase } from '../../core/types.js';
import { fakeAwsAccessKey, fakeGithubToken, fakePemBlock, fakeSingleLineCredential } from './credentials.js';
import type { FakeCredential, Random } from './credentials.js';

/**
 * The shipped cases: one green (a clean Kotlin source file) and four red, each a generated credential in a file
 * type apps have: an AWS access key in a Kotlin file, a GitHub token in a Swift file, a PEM private key block in an
 * Android strings.xml, an AWS key in a .env file. Red cases expect the finding at the credential's 1-based line.
 */
export function secretsSelfTest(): SelfTestCase[] {
  const aws = fakeAwsAccessKey();
  const gh = fakeGithubToken();
  const pem = fakePemBlock();
  const envKey = fakeAwsAccessKey();
  const kt = ['package com.example.app', '', 'object Config {', `    const val AWS_ACCESS_KEY_ID = "${aws.value}"`, '}', ''].join('\n');
  const swift = ['import Foundation', '', 'enum Secrets {', `    static let githubToken = "${gh.value}"`, '}', ''].join('\n');
  const xml = ['<?xml version="1.0" encoding="utf-8"?>', '<resources>', '    <string name="app_name">Notes</string>', `    <string name="signing_key">${pem.value}</string>`, '</resources>', ''].join('\n');
  const env = ['# local settings', 'API_BASE_URL=https://api.example.com', `AWS_ACCESS_KEY_ID=${envKey.value}`, ''].join('\n');
  return [
    {
      name: 'clean Kotlin source passes',
      kind: 'green',
      files: {
        'app/src/main/java/com/example/app/Greeting.kt': ['package com.example.app', '', 'fun greeting(name: String): String = "Hello, $name"', ''].join('\n'),
      },
    },
    { name: 'AWS access key in a Kotlin file', kind: 'red', files: { 'app/src/main/java/com/example/app/Config.kt': kt }, expect: { file: 'app/src/main/java/com/example/app/Config.kt', line: 4, rule: aws.rule } },
    { name: 'GitHub token in a Swift file', kind: 'red', files: { 'ios/App/Secrets.swift': swift }, expect: { file: 'ios/App/Secrets.swift', line: 4, rule: gh.rule } },
    { name: 'PEM private key in strings.xml', kind: 'red', files: { 'app/src/main/res/values/strings.xml': xml }, expect: { file: 'app/src/main/res/values/strings.xml', line: 4, rule: pem.rule } },
    { name: 'AWS access key in a .env file', kind: 'red', files: { '.env': env }, expect: { file: '.env', line: 3, rule: envKey.rule } },
  ];
}

type Style = (key: string, value: string) => string;

/** How a credential line is written in each file type, so the mutant stays a valid file of its kind. */
const styles: ReadonlyArray<{ test: RegExp; line: Style; where: 'statement' | 'end' | 'before-close' | 'after-open' }> = [
  // Kotlin / Swift / Dart / TS / JS / Go / Java / Gradle: a line comment is valid between any two statements.
  { test: /\.(kt|kts|swift|dart|ts|tsx|js|jsx|mjs|cjs|java|go|gradle|m|mm|c|cc|cpp|h|hpp|rs|scala|groovy)$/i, line: (k, v) => `// ${k} = "${v}"`, where: 'statement' },
  { test: /(^|\/)\.env(\.[^/]*)?$|\.(env|properties|ini|cfg|conf)$/i, line: (k, v) => `${k.toUpperCase()}=${v}`, where: 'statement' },
  { test: /\.(ya?ml|toml|py|rb|sh|bash|zsh)$|(^|\/)(Podfile|Gemfile|Fastfile|Dockerfile)$/i, line: (k, v) => `# ${k}: ${v}`, where: 'statement' },
  // Android resources: another <string> before </resources>; other XML and plists: a comment before the last close tag.
  { test: /(^|\/)res\/values[^/]*\/[^/]+\.xml$/i, line: (k, v) => `    <string name="${k}">${v}</string>`, where: 'before-close' },
  { test: /\.(xml|plist|xib|storyboard|html|svg)$/i, line: (k, v) => `<!-- ${k} ${v} -->`, where: 'before-close' },
  { test: /\.json$/i, line: (k, v) => `  "${k}": "${v}",`, where: 'after-open' },
];

function styleFor(path: string) {
  return styles.find((s) => s.test.test(path));
}

/**
 * Injects one generated credential line (AWS access key or GitHub token, chosen by `random`) into a real source or
 * config file, written in that file type's syntax (a line comment in code, `KEY=value` in .env/.properties, a
 * `<string>` in Android resources, a comment in other XML, a member after `{` in JSON). The expected finding is at
 * the injected line with the credential's gitleaks rule.
 */
export const injectCredential: MutationOperator = {
  id: 'secrets/inject-credential',
  description: 'inject a generated AWS access key or GitHub token line into a source or config file',
  appliesTo: (path) => styleFor(path) !== undefined,
  mutate(path, content, random) {
    const style = styleFor(path);
    if (!style) return null;
    const cred: FakeCredential = fakeSingleLineCredential(random);
    const key = cred.rule === 'aws-access-token' ? 'aws_access_key_id' : 'github_token';
    const text = style.line(key, cred.value);
    const nl = content.includes('\r\n') ? '\r\n' : '\n';
    const lines = content.split(/\r?\n/);
    let at: number;
    if (style.where === 'before-close') {
      at = lastIndex(lines, (l) => /^\s*<\/[\w:.-]+>\s*$/.test(l));
      if (at < 0) return null;
    } else if (style.where === 'after-open') {
      const open = lines.findIndex((l) => /^\s*\{\s*$/.test(l));
      if (open < 0) return null;
      at = open + 1;
    } else {
      at = statementBoundary(lines, random);
    }
    lines.splice(at, 0, text);
    return { content: lines.join(nl), line: at + 1, rule: cred.rule, description: `injected a generated ${cred.rule} credential at line ${at + 1}` };
  },
};

/** Index to insert at: after a line that ends a statement or block, or is blank; else the end of the file. */
function statementBoundary(lines: readonly string[], random: Random): number {
  const spots: number[] = [];
  let inBlockComment = false;
  let inMultilineString = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (/\/\*/.test(l) && !/\*\//.test(l)) inBlockComment = true;
    else if (inBlockComment && /\*\//.test(l)) inBlockComment = false;
    if ((l.match(/"""/g) ?? []).length % 2 === 1) inMultilineString = !inMultilineString;
    if (inBlockComment || inMultilineString) continue;
    if (/^\s*$/.test(l) || /[;{}]\s*$/.test(l) || /^[A-Za-z_][\w.-]*\s*=/.test(l)) spots.push(i + 1);
  }
  const end = lines.length > 0 && lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
  if (!spots.length) return end;
  return Math.min(spots[Math.floor(random() * spots.length)]!, end);
}

function lastIndex<T>(xs: readonly T[], p: (x: T) => boolean): number {
  for (let i = xs.length - 1; i >= 0; i--) if (p(xs[i]!)) return i;
  return -1;
}
