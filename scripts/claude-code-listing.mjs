// What the real Claude Code lists of a folder of skills, beside what Skillbench says of them
// (docs/claude-code-listing.md). Usage:
//
//   node scripts/claude-code-listing.mjs LIB [--claude PATH] [--json]
//   node scripts/claude-code-listing.mjs --probes [--claude PATH] [--json]
//
// --probes runs the probe groups of scripts/claude-code-probes.json (each SKILL.md written to test
// one rule) and the frontmatter corpus, each group as its own skills folder, and prints only the
// skills listed otherwise, then the count.
// Every skill folder directly in LIB (a folder holding SKILL.md) is copied into a temp project's
// .claude/skills/; Claude Code runs there once with `-p`, in a temp home, against a loopback
// server that stands in for the Anthropic API and keeps each request. The skills section of the
// system prompt Claude Code sent is the listing: every skill it loaded, with the text it shows
// the model. Claude Code's own skills (those it lists with no folder copied) are left out.
// Beside each entry: the line Skillbench says Claude Code shows (`skillbench catalog --format
// json`, its `claudeCode` list), and whether the two are the same; then whether both put the
// lines in the same order. Exit code 0 when every skill is
// listed alike by both, 1 when one differs, 2 on a usage or run problem.
//
// Claude Code is the one given by --claude (its executable), else the pinned npm release, fetched
// with npx (about 190 MB once). No request leaves 127.0.0.1: the API address points at the
// loopback server, and nonessential traffic is switched off.
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const CLAUDE_CODE = '@anthropic-ai/claude-code@2.1.332';
const HEADING = 'The following skills are available for use with the Skill tool:';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { claude: { type: 'string' }, json: { type: 'boolean' }, probes: { type: 'boolean' } },
});
if (positionals.length !== (values.probes ? 0 : 1)) {
  process.stderr.write(
    'Usage: node scripts/claude-code-listing.mjs (LIB | --probes) [--claude PATH] [--json]\n',
  );
  process.exit(2);
}
const lib = values.probes ? '' : resolve(positionals[0]);

/** Run a program to its end; its output, or a failure saying how it ended. */
function run(command, args, options = {}) {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('error', fail);
    child.on('close', (code) =>
      code === 0 ? done(out) : fail(new Error(`${command} exited with ${code}: ${err.trim()}`)),
    );
  });
}

/** The API's stand-in: keeps each request body, answers "ok" (as a stream when asked). */
async function captureServer() {
  const bodies = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      bodies.push({ url: req.url ?? '', body });
      let stream = false;
      try {
        stream = JSON.parse(body).stream === true;
      } catch {
        // Why ignored: Claude Code's other calls (a greeting check) carry no JSON body.
      }
      const message = {
        id: 'msg_local',
        type: 'message',
        role: 'assistant',
        model: 'local',
        content: [{ type: 'text', text: 'ok' }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 1, output_tokens: 1 },
      };
      if (!stream) {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(message));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const event = (type, data) =>
        res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
      event('message_start', { message: { ...message, content: [], stop_reason: null } });
      event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
      event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'ok' } });
      event('content_block_stop', { index: 0 });
      event('message_delta', {
        delta: { stop_reason: 'end_turn', stop_sequence: null },
        usage: { output_tokens: 1 },
      });
      event('message_stop', {});
      res.end();
    });
  });
  await new Promise((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}`, bodies, close: () => server.close() };
}

/** The skills section of the system prompt in the requests: its lines, `- LABEL: TEXT`, as sent. */
function listingIn(bodies) {
  for (const { url, body } of bodies) {
    if (!url.startsWith('/v1/messages')) continue;
    let request;
    try {
      request = JSON.parse(body);
    } catch {
      continue;
    }
    const system = Array.isArray(request.system)
      ? request.system.map((b) => b.text ?? '').join('\n')
      : String(request.system ?? '');
    const texts = [
      system,
      ...(request.messages ?? []).flatMap((m) =>
        typeof m.content === 'string' ? [m.content] : (m.content ?? []).map((c) => c.text ?? ''),
      ),
    ];
    const text = texts.find((t) => t.includes(HEADING));
    if (text === undefined) continue;
    const section = text.slice(text.indexOf(HEADING) + HEADING.length).replace(/^\n+/, '');
    const end = section.search(/\n\n(?!- )/);
    const lines = [];
    for (const line of (end === -1 ? section : section.slice(0, end)).split('\n')) {
      if (line.startsWith('- ') || lines.length === 0) lines.push(line);
      else lines[lines.length - 1] += `\n${line}`;
    }
    return lines;
  }
  return [];
}

/** Run Claude Code once in `project` (its .claude/skills as laid out) and read its listing. */
async function claudeListing(project, home) {
  const api = await captureServer();
  try {
    const [command, args] = values.claude
      ? [values.claude, []]
      : ['npx', ['-y', '-p', CLAUDE_CODE, 'claude']];
    await run(command, [...args, '-p', 'hello'], {
      cwd: project,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        ANTHROPIC_API_KEY: 'sk-ant-local-only',
        ANTHROPIC_BASE_URL: api.url,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
      },
    });
    return listingIn(api.bodies);
  } finally {
    api.close();
  }
}

/** One library folder: each skill folder's line from Claude Code and from Skillbench. */
async function compare(lib, work) {
  const home = join(work, 'home');
  const project = join(work, 'project');
  const skills = join(project, '.claude', 'skills');
  await mkdir(home, { recursive: true });
  await mkdir(skills, { recursive: true });
  const own = await claudeListing(project, home);
  const copied = [];
  for (const entry of await readdir(lib, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const dir = join(lib, entry.name);
    if (!(await stat(join(dir, 'SKILL.md')).catch(() => null))) continue;
    await cp(dir, join(skills, entry.name), { recursive: true });
    copied.push(entry.name);
  }
  const listed = await claudeListing(project, home);
  const ours = JSON.parse(
    await run(process.execPath, [
      join(import.meta.dirname, '..', 'main', 'cli', 'skillbench.mjs'),
      'catalog',
      lib,
      '--format',
      'json',
    ]).catch((error) => JSON.stringify({ skills: [], problems: [String(error.message)] })),
  );
  const theirs = listed.filter((line) => !own.includes(line));
  const folderOf = (line) =>
    copied.find((f) => line.startsWith(`- ${f}: `) || line.startsWith(`- ${f} (`));
  const rows = copied.map((folder) => {
    const claudeCode = theirs.find((l) => folderOf(l) === folder) ?? null;
    const skillbench =
      (ours.claudeCode ?? []).find((s) => basename(dirname(s.location)) === folder)?.line ?? null;
    return { folder, claudeCode, skillbench, same: claudeCode === skillbench };
  });
  // The order of the lines too: the folders in the order each lists them.
  const theirOrder = theirs.map(folderOf).filter((f) => f !== undefined);
  const ourOrder = (ours.claudeCode ?? [])
    .map((s) => basename(dirname(s.location)))
    .filter((f) => copied.includes(f));
  return { rows, sameOrder: theirOrder.join('\n') === ourOrder.join('\n'), theirOrder, ourOrder };
}

/**
 * The probe groups (scripts/claude-code-probes.json, one rule each) and the frontmatter corpus
 * (shared/validation/fixtures/frontmatter-cases.json) as groups of { folder, text }.
 */
async function probeGroups() {
  const probes = JSON.parse(
    await readFile(join(import.meta.dirname, 'claude-code-probes.json'), 'utf8'),
  );
  const corpus = JSON.parse(
    await readFile(
      join(import.meta.dirname, '..', 'shared', 'validation', 'fixtures', 'frontmatter-cases.json'),
      'utf8',
    ),
  );
  const used = new Set();
  const cases = corpus.cases.map((c) => {
    const folder = used.has(c.folder) ? `${c.folder}-${c.id}` : c.folder;
    used.add(folder);
    return { folder, text: c.content };
  });
  return [...probes.groups, { about: 'the frontmatter corpus', skills: cases }];
}

const work = await mkdtemp(join(tmpdir(), 'skillbench-claude-code-'));
try {
  let rows = [];
  const orders = [];
  if (values.probes) {
    const groups = await probeGroups();
    for (const [k, group] of groups.entries()) {
      const dir = join(work, `lib-${k}`);
      for (const skill of group.skills) {
        await mkdir(join(dir, skill.folder), { recursive: true });
        await writeFile(join(dir, skill.folder, 'SKILL.md'), skill.text);
      }
      const compared = await compare(dir, join(work, `run-${k}`));
      for (const row of compared.rows) rows.push({ group: group.about, ...row });
      orders.push({ group: group.about, ...compared });
    }
  } else {
    const compared = await compare(lib, join(work, 'run'));
    rows = compared.rows;
    orders.push(compared);
  }
  const misordered = orders.filter((o) => !o.sameOrder);
  if (values.json)
    process.stdout.write(
      `${JSON.stringify({ skills: rows, order: orders.map(({ rows: _rows, ...o }) => o) }, null, 2)}\n`,
    );
  else {
    for (const r of rows)
      if (!values.probes || !r.same)
        process.stdout.write(
          `${r.same ? '=' : '≠'} ${r.folder}${r.group ? ` (${r.group})` : ''}\n    Claude Code: ${r.claudeCode ?? '(not listed)'}\n    Skillbench:  ${r.skillbench ?? '(not listed)'}\n`,
        );
    for (const o of misordered)
      process.stdout.write(
        `≠ the order${o.group ? ` (${o.group})` : ''}\n    Claude Code: ${o.theirOrder.join(', ')}\n    Skillbench:  ${o.ourOrder.join(', ')}\n`,
      );
    const same = rows.filter((r) => r.same).length;
    process.stdout.write(
      `${rows.length} skills: ${same} listed alike, ${rows.length - same} not; the order alike in ${orders.length - misordered.length} of ${orders.length} ${orders.length === 1 ? 'folder' : 'folders'}.\n`,
    );
  }
  process.exitCode = rows.every((r) => r.same) && misordered.length === 0 ? 0 : 1;
} catch (error) {
  process.stderr.write(`claude-code-listing: ${error.message}\n`);
  process.exitCode = 2;
} finally {
  await rm(work, { recursive: true, force: true });
}
