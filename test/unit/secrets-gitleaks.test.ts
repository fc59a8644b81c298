// Unit tests of the secrets gate's pure parts: the help-output probe (gitleaks 8.16 and the 8.19+ family), report
// and log parsing, argument vectors, the environment recipe, .gitleaksignore, self-test cases and the mutation operator.
import { describe, expect, it } from 'vitest';
import { injectCredential, secretsSelfTest } from '../../gates/secrets/cases.js';
import { fakeAwsAccessKey, fakeGithubToken, fakePemBlock } from '../../gates/secrets/credentials.js';
import { GIT_NEUTRALISERS, LEAK_EXIT_CODE, gitleaksEnv, isIgnored, parseIgnore, parseLog, parseProbe, parseReport, scanArgs, toRelative } from '../../gates/secrets/gitleaks.js';
import { LoopgatesError } from '../../core/errors.js';

const GLOBAL_816 = `Global Flags:
  -b, --baseline-path string       path to baseline with issues that can be ignored
  -c, --config string              config file path
      --exit-code int              exit code when leaks have been encountered (default 1)
  -l, --log-level string           log level (trace, debug, info, warn, error, fatal) (default "info")
      --max-target-megabytes int   files larger than this will be skipped
      --no-banner                  suppress banner
      --redact                     redact secrets from logs and stdout
  -f, --report-format string       output format (json, csv, sarif) (default "json")
  -r, --report-path string         report file
  -s, --source string              path to source (default: $PWD) (default ".")
  -v, --verbose                    show verbose output from scan`;

// gitleaks 8.16 (Debian trixie), as printed by .tools/gitleaks/usr/bin/gitleaks.
const ROOT_816 = `Gitleaks scans code, past or present, for secrets

Usage:
  gitleaks [command]

Available Commands:
  completion  Generate the autocompletion script for the specified shell
  detect      detect secrets in code
  help        Help about any command
  protect     protect secrets in code
  version     display gitleaks version

${GLOBAL_816.replace('Global Flags:', 'Flags:')}
  -h, --help                       help for gitleaks

Use "gitleaks [command] --help" for more information about a command.`;
const PROTECT_816 = `protect secrets in code

Usage:
  gitleaks protect [flags]

Flags:
  -h, --help              help for protect
      --log-opts string   git log options
      --staged            detect secrets in a --staged state

${GLOBAL_816}`;
const DETECT_816 = `detect secrets in code

Usage:
  gitleaks detect [flags]

Flags:
      --follow-symlinks   scan files that are symlinks to other files
  -h, --help              help for detect
      --log-opts string   git log options
      --no-git            treat git repo as a regular directory and scan those files
      --pipe              scan input from stdin

${GLOBAL_816}`;

// gitleaks 8.19+ (README "Usage" of gitleaks/gitleaks; cmd/git.go, cmd/directory.go): detect/protect hidden.
const GLOBAL_NEW = `Global Flags:
  -b, --baseline-path string          path to baseline with issues that can be ignored
  -c, --config string                 config file path
      --enable-rule strings           only enable specific rules by id
      --exit-code int                 exit code when leaks have been encountered (default 1)
  -i, --gitleaks-ignore-path string   path to .gitleaksignore file or folder containing one (default ".")
      --ignore-gitleaks-allow         ignore gitleaks:allow comments
  -l, --log-level string              log level (trace, debug, info, warn, error, fatal) (default "info")
      --max-decode-depth int          allow recursive decoding up to this depth (default "0", no decoding is done)
      --max-target-megabytes int      files larger than this will be skipped
      --no-banner                     suppress banner
      --no-color                      turn off color for verbose output
      --redact uint[=100]             redact secrets from logs and stdout. To redact only parts of the secret just apply a percent value from 0..100. For example --redact=20 (default 100%)
  -f, --report-format string          output format (json, csv, junit, sarif, template)
  -r, --report-path string            report file
      --report-template string        template file used to generate the report (implies --report-format=template)
  -v, --verbose                       show verbose output from scan`;
const ROOT_NEW = `Gitleaks scans code, past or present, for secrets

Usage:
  gitleaks [command]

Available Commands:
  dir         scan directories or files for secrets
  git         scan git repositories for secrets
  help        Help about any command
  stdin       detect secrets from stdin
  version     display gitleaks version

${GLOBAL_NEW.replace('Global Flags:', 'Flags:')}
  -h, --help                          help for gitleaks
      --version                       version for gitleaks

Use "gitleaks [command] --help" for more information about a command.`;
const GIT_NEW = `scan git repositories for secrets

Usage:
  gitleaks git [flags] [repo]

Flags:
  -h, --help              help for git
      --log-opts string   git log options
      --pre-commit        scan using git diff
      --staged            scan staged commits (good for pre-commit)

${GLOBAL_NEW}`;
const DIR_NEW = `scan directories or files for secrets

Usage:
  gitleaks dir [flags] [path]

Aliases:
  dir, files, directory

Flags:
      --follow-symlinks   scan files that are symlinks to other files
  -h, --help              help for dir

${GLOBAL_NEW}`;
const PROTECT_NEW = PROTECT_816.replace(GLOBAL_816, GLOBAL_NEW);

describe('parseProbe (help output, never `gitleaks version`)', () => {
  it('gitleaks 8.16: protect --staged and detect --no-git, no ignore-path flag', () => {
    expect(parseProbe({ root: ROOT_816, protect: PROTECT_816, detect: DETECT_816 })).toEqual({ staged: 'protect', dir: 'detect', ignorePathFlag: false, ignoreAllowFlag: false });
  });
  it('8.19+ with the hidden protect still answering: protect wins over git --pre-commit --staged', () => {
    expect(parseProbe({ root: ROOT_NEW, protect: PROTECT_NEW, git: GIT_NEW, dir: DIR_NEW })).toEqual({ staged: 'protect', dir: 'dir', ignorePathFlag: true, ignoreAllowFlag: true });
  });
  it('a release without protect: git --pre-commit --staged and dir', () => {
    expect(parseProbe({ root: ROOT_NEW, protect: undefined, detect: undefined, git: GIT_NEW, dir: DIR_NEW })).toEqual({ staged: 'git', dir: 'dir', ignorePathFlag: true, ignoreAllowFlag: true });
  });
  it('a subcommand answering with the root help (unknown command) does not count as offered', () => {
    expect(parseProbe({ root: ROOT_NEW, protect: ROOT_NEW, detect: ROOT_NEW, git: GIT_NEW, dir: DIR_NEW }).staged).toBe('git');
  });
  it('refuses a binary that offers no staged scan, lacks a required flag, or is not gitleaks', () => {
    expect(() => parseProbe({ root: ROOT_NEW, git: GIT_NEW.replace(/--pre-commit/g, '--pre-x'), dir: DIR_NEW })).toThrow(/neither `protect --staged` nor `git --pre-commit --staged`/);
    expect(() => parseProbe({ root: ROOT_816.replace(/--redact/g, '--x'), protect: PROTECT_816.replace(/--redact/g, '--x'), detect: DETECT_816.replace(/--redact/g, '--x') })).toThrow(/--redact/);
    expect(() => parseProbe({ root: 'usage: something else' })).toThrow(LoopgatesError);
  });
});

describe('scanArgs', () => {
  it('always redacts, hides the banner, uses a distinct exit code and a JSON report', () => {
    const a = scanArgs({ staged: 'protect', dir: 'detect', ignorePathFlag: false, ignoreAllowFlag: false }, { kind: 'staged', configPath: '/c.toml', ignorePath: '/i' }, '/r.json');
    expect(a.slice(0, 2)).toEqual(['protect', '--staged']);
    expect(a).toEqual(expect.arrayContaining(['--redact', '--no-banner', '--exit-code', String(LEAK_EXIT_CODE), '--report-format', 'json', '--report-path', '/r.json', '--config', '/c.toml']));
    expect(a).not.toContain('--gitleaks-ignore-path');
    expect(LEAK_EXIT_CODE).not.toBe(1);
    const b = scanArgs({ staged: 'git', dir: 'dir', ignorePathFlag: true, ignoreAllowFlag: true }, { kind: 'staged', ignorePath: '/i' }, '/r.json');
    expect(b.slice(0, 3)).toEqual(['git', '--pre-commit', '--staged']);
    expect(b).toEqual(expect.arrayContaining(['--gitleaks-ignore-path', '/i', '--ignore-gitleaks-allow']));
    expect(a).not.toContain('--ignore-gitleaks-allow');
    expect(scanArgs({ staged: 'git', dir: 'dir', ignorePathFlag: true, ignoreAllowFlag: true }, { kind: 'dir' }, '/r')[0]).toBe('dir');
    expect(scanArgs({ staged: 'protect', dir: 'detect', ignorePathFlag: false, ignoreAllowFlag: false }, { kind: 'dir' }, '/r').slice(0, 2)).toEqual(['detect', '--no-git']);
  });
});

describe('parseReport / parseLog', () => {
  it('reads rule, file, line and byte column; rejects what is not a gitleaks report', () => {
    const text = JSON.stringify([{ Description: 'AWS', StartLine: 2, EndLine: 2, StartColumn: 13, EndColumn: 32, Match: 'REDACTED', Secret: 'REDACTED', File: 'x y.kt', RuleID: 'aws-access-token', Fingerprint: 'x y.kt:aws-access-token:2' }]);
    expect(parseReport(text)).toEqual([{ rule: 'aws-access-token', description: 'AWS', file: 'x y.kt', line: 2, byteColumn: 13, endLine: 2 }]);
    expect(parseReport('[]')).toEqual([]);
    expect(() => parseReport('')).toThrow(/not valid JSON/);
    expect(() => parseReport('{"findings": []}')).toThrow(/unexpected shape/);
    expect(() => parseReport('[{"File": "a"}]')).toThrow(/unexpected shape/);
  });
  it('finds ERR/FTL lines through ANSI colours and reads the commits count', () => {
    const ok = '\x1b[90m2:55PM\x1b[0m \x1b[32mINF\x1b[0m 1 commits scanned.\n\x1b[90m2:55PM\x1b[0m \x1b[31mWRN\x1b[0m leaks found: 1\n';
    expect(parseLog(ok)).toEqual({ errors: [], commitsScanned: 1 });
    const bad = "\x1b[90m2:57PM\x1b[0m \x1b[1m\x1b[31mERR\x1b[0m\x1b[0m [git] error: unknown option `staged'\n\x1b[90m2:57PM\x1b[0m \x1b[32mINF\x1b[0m 0 commits scanned.\n";
    const log = parseLog(bad);
    expect(log.commitsScanned).toBe(0);
    expect(log.errors).toHaveLength(1);
    expect(parseLog('3:00PM FTL unable to load gitleaks config').errors).toHaveLength(1);
  });
});

describe('gitleaksEnv', () => {
  it('keeps the hook GIT_INDEX_FILE, drops stray GIT_* and GITLEAKS_CONFIG, appends the neutralisers after existing entries', () => {
    const env = gitleaksEnv(
      { PATH: '/bin', GIT_DIR: '/elsewhere', GIT_EXTERNAL_DIFF: 'difft', GITLEAKS_CONFIG: '/x.toml', GIT_CONFIG_COUNT: '1', GIT_CONFIG_KEY_0: 'user.name', GIT_CONFIG_VALUE_0: 'x', GIT_CONFIG_PARAMETERS: "'color.ui'='always'" },
      { GIT_INDEX_FILE: '/repo/.git/next-index-1.lock' },
    );
    expect(env.GIT_INDEX_FILE).toBe('/repo/.git/next-index-1.lock');
    expect(env.GIT_DIR).toBeUndefined();
    expect(env.GIT_EXTERNAL_DIFF).toBeUndefined();
    expect(env.GITLEAKS_CONFIG).toBeUndefined();
    expect(env.GIT_CONFIG_KEY_0).toBe('user.name');
    expect(env.GIT_CONFIG_COUNT).toBe(String(1 + GIT_NEUTRALISERS.length));
    expect(env.GIT_CONFIG_KEY_1).toBe('color.ui');
    expect(env.GIT_CONFIG_VALUE_1).toBe('never');
    expect(env.GIT_CONFIG_PARAMETERS).toMatch(/'color\.ui'='always'.* 'color\.ui'='never'/);
  });
});

describe('.gitleaksignore and paths', () => {
  it('matches file:rule:line fingerprints, skips comments', () => {
    const ig = parseIgnore('# reviewed\nconfig/a.kt:aws-access-token:4\r\n\nabc123:old.kt:github-pat:1\n');
    expect(isIgnored(ig, { file: 'config/a.kt', rule: 'aws-access-token', line: 4 })).toBe(true);
    expect(isIgnored(ig, { file: 'config/a.kt', rule: 'aws-access-token', line: 5 })).toBe(false);
    expect(isIgnored(ig, { file: 'old.kt', rule: 'github-pat', line: 1 })).toBe(false);
  });
  it('maps gitleaks paths back to repository-relative form', () => {
    expect(toRelative('./a/b.kt', '/tmp/s')).toBe('a/b.kt');
    expect(toRelative('/tmp/s/a/-x y.kt', '/tmp/s')).toBe('a/-x y.kt');
  });
});

describe('generated credentials', () => {
  it('have the shapes of the default rules and differ every call', () => {
    expect(fakeAwsAccessKey().value).toMatch(/^AKIA[A-Z2-7]{16}$/);
    expect(fakeGithubToken().value).toMatch(/^ghp_[0-9A-Za-z]{36}$/);
    expect(fakePemBlock().value).toMatch(/^-----BEGIN RSA PRIVATE KEY-----\n([A-Za-z0-9+/]{64}\n){5}-----END RSA PRIVATE KEY-----$/);
    expect(fakeAwsAccessKey().value).not.toBe(fakeAwsAccessKey().value);
  });
});

describe('self-test cases', () => {
  it('ship one green and red cases in .kt, .swift, strings.xml and .env, each red with file:line:rule', () => {
    const cases = secretsSelfTest();
    expect(cases.filter((c) => c.kind === 'green')).toHaveLength(1);
    const red = cases.filter((c) => c.kind === 'red');
    expect(red.map((c) => c.expect?.file.replace(/.*\//, ''))).toEqual(['Config.kt', 'Secrets.swift', 'strings.xml', '.env']);
    for (const c of red) {
      const content = c.files[c.expect!.file]!;
      const line = content.split('\n')[c.expect!.line - 1]!;
      expect(line).toMatch(c.expect!.rule === 'private-key' ? /-----BEGIN/ : c.expect!.rule === 'github-pat' ? /ghp_/ : /AKIA/);
    }
  });
});

describe('inject-credential mutation operator', () => {
  const seeded = (seed: number) => () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
  it('writes the credential in the syntax of the file and points at its line', () => {
    const kt = 'package a\n\nclass A {\n    fun f() = 1\n}\n';
    const m = injectCredential.mutate('app/A.kt', kt, seeded(1))!;
    const line = m.content.split('\n')[m.line - 1]!;
    expect(line).toMatch(/^\/\/ (aws_access_key_id|github_token) = "(AKIA|ghp_)/);
    expect(m.rule === 'aws-access-token' || m.rule === 'github-pat').toBe(true);
    const xml = '<?xml version="1.0" encoding="utf-8"?>\n<resources>\n    <string name="a">A</string>\n</resources>\n';
    const x = injectCredential.mutate('app/src/main/res/values/strings.xml', xml, seeded(2))!;
    expect(x.content.split('\n')[x.line - 1]).toMatch(/^    <string name="(aws_access_key_id|github_token)">(AKIA|ghp_)[^<]+<\/string>$/);
    expect(x.content.split('\n')[x.line]).toBe('</resources>');
    const env = injectCredential.mutate('.env', 'A=1\nB=2\n', seeded(3))!;
    expect(env.content.split('\n')[env.line - 1]).toMatch(/^(AWS_ACCESS_KEY_ID|GITHUB_TOKEN)=(AKIA|ghp_)/);
    const json = injectCredential.mutate('config/app.json', '{\n  "a": 1\n}\n', seeded(4))!;
    expect(() => JSON.parse(json.content)).not.toThrow();
    expect(injectCredential.appliesTo('logo.png')).toBe(false);
    expect(injectCredential.mutate('a.kt', kt, seeded(5))!.content).not.toBe(m.content);
  });
});
