// The names of the CLI's verbs, in --help order. cli.ts keys its lazy loaders by them (the compiler holds the two to
// the same set) and core/cli-word.ts rewrites `loopgates <verb>` only for them. A list of words, so that reading it
// loads no command module (cli-word is on every commit's path).
export const VERB_NAMES = ['install', 'uninstall', 'doctor', 'run', 'hook', 'explain', 'selftest', 'mutate', 'retry', 'tap', 'device', 'dump-audit'] as const;

export type VerbName = (typeof VERB_NAMES)[number];
