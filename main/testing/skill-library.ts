/**
 * Test support (used by *.test.ts and bench/server): a real skill library in a temp folder, a
 * bundled CLI and a way to run it as a child process. Node only; no test framework imports.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (two folders above this file). */
export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** PNG signature plus bytes that are not valid UTF-8, to exercise `blob` reads. */
export const BINARY_BYTES = Uint8Array.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe, 0x00, 0x80, 0xc3, 0x28,
]);

/** Write files (path → content) under `root`, creating folders. */
export async function writeTree(
  root: string,
  files: Record<string, string | Uint8Array>,
): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    const abs = join(root, ...path.split('/'));
    await mkdir(dirname(abs), { recursive: true });
    await writeFile(abs, content);
  }
}

/** A SKILL.md with the given frontmatter lines and body. */
export function skillMd(frontmatter: string, body = 'Do the thing.\n'): string {
  return `---\n${frontmatter.trim()}\n---\n${body}`;
}

/** A temp folder that removes itself. */
export async function tempDir(
  prefix = 'skillbench-mcp-',
): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/**
 * The standard test library: served skills `alpha` (with subfolders and a binary file),
 * `team/billing/refunds` and `team/support/refunds` (same name), `personal-notes`
 * (x-personal-mcp), `quiet` (not user-invocable); excluded `broken` (name ≠ folder) and
 * `escaper` (symlink leaving the skill).
 */
export async function makeTestLibrary(root: string): Promise<void> {
  await writeTree(root, {
    'alpha/SKILL.md': skillMd(
      'name: alpha\ndescription: "First skill: with a colon, quoted."\nlicense: MIT\nmetadata:\n  owner: team-a\n  version: "2"',
      '# Alpha\n\nRead references/guide.md.\n',
    ),
    'alpha/references/guide.md': '# Guide\n\nUTF-8 text: café ✓\n',
    'alpha/references/deep/note.txt': 'deep note\n',
    'alpha/scripts/run.sh': '#!/bin/sh\necho hi\n',
    'alpha/assets/logo.png': BINARY_BYTES,
    'team/billing/refunds/SKILL.md': skillMd(
      'name: refunds\ndescription: Issue refunds for billing orders.\nargument-hint: "[order-id] [reason]"',
      'Refund order $1 because $2.\nAll: $ARGUMENTS\nFirst: $ARGUMENTS[0]\n!`git status`\nDone.\n',
    ),
    'team/support/refunds/SKILL.md': skillMd(
      'name: refunds\ndescription: Explain the refund policy to customers.',
      'Explain refunds.\n',
    ),
    'personal-notes/SKILL.md': skillMd(
      [
        'name: personal-notes',
        'description: Keep personal notes in order.',
        'x-personal-mcp:',
        '  id: personal-notes',
        '  version: 1.2.0',
        '  capabilities:',
        '    - resource://skills/personal-notes/document',
        '  tags: [notes, personal]',
        '  depends_on: [alpha]',
        '  references:',
        '    style-guide:',
        '      path: references/style.md',
        '      mime_type: text/markdown',
        '      title: Style guide',
      ].join('\n'),
      'Write notes.\n',
    ),
    'personal-notes/references/style.md': '# Style\n\nShort sentences.\n',
    'quiet/SKILL.md': skillMd(
      'name: quiet\ndescription: Only the model uses this one.\nuser-invocable: false',
    ),
    'broken/SKILL.md': skillMd(
      'name: other-name\ndescription: The name does not match the folder.',
    ),
    'escaper/SKILL.md': skillMd('name: escaper\ndescription: Has a link that leaves the skill.'),
  });
  await symlink('/etc/hosts', join(root, 'escaper', 'hosts-link'));
}

/** Served skill paths of {@link makeTestLibrary}, sorted by SKILL.md URI. */
export const TEST_LIBRARY_SERVED = [
  'alpha',
  'personal-notes',
  'quiet',
  'team/billing/refunds',
  'team/support/refunds',
];

/** Bytes of "café" in Latin-1: not valid UTF-8, so served as a blob. */
export const LATIN1_BYTES = Uint8Array.from([0x63, 0x61, 0x66, 0xe9, 0x0a]);

/**
 * A library of the files that trip serving and verification up: a SKILL.md with CRLF line
 * endings, a binary file, Latin-1 text, an empty file, CRLF and byte-order-mark text, file
 * names with Unicode, spaces, `#`, `%` and `?`, deep folders, and a skill nested in another.
 */
export async function makeTrickyLibrary(root: string): Promise<void> {
  await writeTree(root, {
    'tricky/SKILL.md':
      '---\r\nname: tricky\r\ndescription: Files that trip readers up.\r\nmetadata:\r\n  owner: "team-b"\r\n---\r\n# Tricky\r\n',
    'tricky/assets/logo.png': BINARY_BYTES,
    'tricky/latin1.txt': LATIN1_BYTES,
    'tricky/empty.txt': new Uint8Array(0),
    'tricky/crlf.md': 'one\r\ntwo\r\n',
    'tricky/bom.md': '\uFEFF# Starts with a byte-order mark\n',
    'tricky/names/café ✓ 日本.md': 'Unicode and spaces\n',
    'tricky/names/a#b.md': 'hash\n',
    'tricky/names/100%.md': 'percent\n',
    'tricky/names/what?.md': 'question mark\n',
    'tricky/names/with space.txt': 'space\n',
    'tricky/deep/a/b/c/d.md': 'four folders down\n',
    'outer/SKILL.md': skillMd('name: outer\ndescription: Holds another skill.'),
    'outer/inner/SKILL.md': skillMd('name: inner\ndescription: Lives inside outer.'),
    'outer/inner/notes.md': 'inner notes\n',
  });
}

/** Served skill paths of {@link makeTrickyLibrary}, sorted by SKILL.md URI, and how many files each serves. */
export const TRICKY_LIBRARY_SERVED: [string, number][] = [
  ['outer', 3],
  ['outer/inner', 2],
  ['tricky', 12],
];

/** Bundle the CLI (main/cli/main.ts) with esbuild into `outDir/cli.mjs`; returns its path. */
export async function bundleCli(outDir: string): Promise<string> {
  return bundleEntry(join(REPO_ROOT, 'main', 'cli', 'main.ts'), join(outDir, 'cli.mjs'));
}

/** Bundle `entry` (a TypeScript module of this repository) with esbuild into `outfile`, an ES module for Node; returns `outfile`. */
export async function bundleEntry(entry: string, outfile: string): Promise<string> {
  const { build } = await import('esbuild');
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    logLevel: 'error',
    absWorkingDir: REPO_ROOT,
    banner: {
      js: "import { createRequire as __sbCreateRequire } from 'node:module'; const require = __sbCreateRequire(import.meta.url);",
    },
  });
  return outfile;
}

/** A finished child process: exit code (or the signal that ended it) and its output as text. */
export interface FinishedProcess {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Run `node cli ...args` as a child process and collect its output. Why not spawnSync: the
 * command may talk to a server running in this process, which must keep answering.
 */
export function runCliProcess(
  cli: string,
  args: string[],
  options: { cwd?: string; env?: Record<string, string | undefined> } = {},
): Promise<FinishedProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: options.cwd,
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({
        code,
        signal,
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
      }),
    );
  });
}

/** A `skillbench serve --http` child process, ready to take requests. */
export interface ServeProcess {
  child: ChildProcess;
  url: string;
  /** Everything the process wrote on stderr so far. */
  stderr(): string;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string>;
  /** SIGTERM, then wait for the exit. */
  stop(): Promise<number | string>;
}

/**
 * Start `node [nodeArgs] cli serve --http --port 0 [args]` and wait for the line that names its
 * address (an event, not a delay). Rejects with the stderr text if the process ends first.
 */
export function startServeProcess(
  cli: string,
  args: string[],
  options: { nodeArgs?: string[]; env?: Record<string, string | undefined> } = {},
): Promise<ServeProcess> {
  const child = spawn(
    process.execPath,
    [...(options.nodeArgs ?? []), cli, 'serve', '--http', '--port', '0', ...args],
    { stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, ...options.env } },
  );
  let err = '';
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')),
  );
  return new Promise((resolve, reject) => {
    child.stderr?.on('data', (c: Buffer) => {
      err += c.toString('utf8');
      const m = /listening on (\S+)/.exec(err);
      if (m?.[1])
        resolve({
          child,
          url: m[1],
          stderr: () => err,
          exited,
          stop: () => {
            child.kill('SIGTERM');
            return exited;
          },
        });
    });
    void exited.then((code) =>
      reject(new Error(`serve exited (${code}) before listening:\n${err}`)),
    );
  });
}
