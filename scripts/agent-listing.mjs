// What a real agent lists of a folder of skills, beside what Skillbench says it lists
// (docs/claude-code-listing.md, docs/codex-listing.md, docs/gemini-cli-listing.md). Usage:
//
//   node scripts/agent-listing.mjs LIB [--agent claude-code|codex|gemini-cli|opencode] [--bin PATH] [--json]
//   node scripts/agent-listing.mjs --probes [--agent claude-code|codex|gemini-cli|opencode] [--bin PATH] [--json] [--record]
//
// --agent is the agent to run (claude-code when not given). --probes runs the probe groups of
// scripts/probes/AGENT.json (each SKILL.md written to test one rule) and the frontmatter corpus,
// each group as its own skills folder, and prints only the skills read otherwise, then the count.
// --probes --record also writes what the agent listed of each probe to
// scripts/probes/AGENT.observed.json (Gemini CLI's: its tests read it).
//
// Every skill folder directly in LIB (a folder holding SKILL.md) is copied into a temp project's
// skills folder (.claude/skills, or .agents/skills for Codex and Gemini CLI); the agent runs there once,
// non-interactively, in a temp home, against a loopback server that stands in for its model's API
// and keeps each request. The skills section of the prompt the agent sent is its listing: every
// skill it loaded, with the text it shows the model. Codex also says which SKILL.md files it
// skipped, and why, in its log. The agent's own skills (those it lists with no folder copied) are
// left out. Beside each skill: what Skillbench says the agent shows (`skillbench catalog --format
// json`: its `claudeCode`, `codex` or `gemini` list), and whether the two are the same; then
// whether both put the lines in the same order (not for Gemini CLI, which lists a folder's skills
// in the order its file search finds them). Exit code 0 when every skill is read alike by both, 1
// when one differs, 2 on a usage or run problem.
//
// The agent is the executable given by --bin, else its pinned npm release, fetched with npx
// (Claude Code about 190 MB, Codex about 430 MB, Gemini CLI about 100 MB, once). No request
// leaves 127.0.0.1: the API address points at the loopback server, and update checks, usage
// statistics and nonessential traffic are off.
import { spawn } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    agent: { type: 'string', default: 'claude-code' },
    bin: { type: 'string' },
    json: { type: 'boolean' },
    probes: { type: 'boolean' },
    record: { type: 'boolean' },
  },
});

/** Run a program to its end; its output (stdout, stderr), or a failure saying how it ended. */
function run(command, args, options = {}) {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('error', fail);
    child.on('close', (code) =>
      code === 0
        ? done({ out, err })
        : fail(new Error(`${command} exited with ${code}: ${err.trim().slice(-2000)}`)),
    );
  });
}

/** A stand-in for a model API on 127.0.0.1: keeps each request body, answers with `answer`. */
async function captureServer(answer) {
  const bodies = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      bodies.push({ url: req.url ?? '', body });
      answer(body, res, req.url ?? '');
    });
  });
  await new Promise((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address();
  return { url: `http://127.0.0.1:${port}`, bodies, close: () => server.close() };
}

/** A server-sent event. */
const sse = (res, type, data) =>
  res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);

/** The Anthropic Messages API's answer "ok" (as a stream when asked). */
function anthropicAnswer(body, res) {
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
  sse(res, 'message_start', { message: { ...message, content: [], stop_reason: null } });
  sse(res, 'content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
  sse(res, 'content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'ok' } });
  sse(res, 'content_block_stop', { index: 0 });
  sse(res, 'message_delta', {
    delta: { stop_reason: 'end_turn', stop_sequence: null },
    usage: { output_tokens: 1 },
  });
  sse(res, 'message_stop', {});
  res.end();
}

/** The OpenAI Responses API's answer "ok", streamed. */
function responsesAnswer(_body, res) {
  const item = {
    type: 'message',
    id: 'msg_local',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text: 'ok', annotations: [] }],
  };
  const response = { id: 'resp_local', object: 'response' };
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  sse(res, 'response.created', { response: { ...response, status: 'in_progress', output: [] } });
  sse(res, 'response.output_item.done', { output_index: 0, item });
  sse(res, 'response.completed', {
    response: {
      ...response,
      status: 'completed',
      output: [item],
      usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
    },
  });
  res.end();
}

/** The Gemini API's answer "ok": streamed (`alt=sse`) when asked, else one JSON answer. */
function geminiAnswer(_body, res, url) {
  const answer = {
    candidates: [
      { content: { role: 'model', parts: [{ text: 'ok' }] }, finishReason: 'STOP', index: 0 },
    ],
    usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
  };
  if (url.includes('alt=sse')) {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(`data: ${JSON.stringify(answer)}\r\n\r\n`);
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(url.includes(':countTokens') ? { totalTokens: 1 } : answer));
}

/** The JSON request bodies sent to `path`. */
function requestsTo(bodies, path) {
  return bodies.flatMap(({ url, body }) => {
    if (!url.startsWith(path)) return [];
    try {
      return [JSON.parse(body)];
    } catch {
      return [];
    }
  });
}

const CLAUDE_HEADING = 'The following skills are available for use with the Skill tool:';

/**
 * Each agent: its pinned release, where a project's skills go, how to run it against the API's
 * stand-in, and how to read its listing from what it sent. A listing is { lines, skipped }:
 * lines { key, line, folder } in the agent's order (`key` tells the agent's own skills apart),
 * skipped { folder, message } for the SKILL.md files it said it skipped.
 */
const AGENTS = {
  'claude-code': {
    name: 'Claude Code',
    npm: ['@anthropic-ai/claude-code@2.1.332', 'claude'],
    skillsDir: join('.claude', 'skills'),
    answer: anthropicAnswer,
    args: () => ['-p', 'hello'],
    env: (api, home) => ({
      HOME: home,
      ANTHROPIC_API_KEY: 'sk-ant-local-only',
      ANTHROPIC_BASE_URL: api.url,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      DISABLE_AUTOUPDATER: '1',
    }),
    /** The skills section of the system prompt: its lines, `- LABEL: TEXT`, as sent. */
    listing(bodies, _err, folders) {
      for (const request of requestsTo(bodies, '/v1/messages')) {
        const system = Array.isArray(request.system)
          ? request.system.map((b) => b.text ?? '').join('\n')
          : String(request.system ?? '');
        const texts = [
          system,
          ...(request.messages ?? []).flatMap((m) =>
            typeof m.content === 'string'
              ? [m.content]
              : (m.content ?? []).map((c) => c.text ?? ''),
          ),
        ];
        const text = texts.find((t) => t.includes(CLAUDE_HEADING));
        if (text === undefined) continue;
        const section = text
          .slice(text.indexOf(CLAUDE_HEADING) + CLAUDE_HEADING.length)
          .replace(/^\n+/, '');
        const end = section.search(/\n\n(?!- )/);
        const lines = [];
        for (const line of (end === -1 ? section : section.slice(0, end)).split('\n')) {
          if (line.startsWith('- ') || lines.length === 0) lines.push(line);
          else lines[lines.length - 1] += `\n${line}`;
        }
        const folderOf = (line) =>
          folders.find((f) => line.startsWith(`- ${f}: `) || line.startsWith(`- ${f} (`));
        return {
          lines: lines.map((line) => ({ key: line, line, folder: folderOf(line) })),
          skipped: [],
        };
      }
      return { lines: [], skipped: [] };
    },
    /** Skillbench's side: the `claudeCode` list of the catalog. */
    ours: (catalog) => ({
      lines: (catalog.claudeCode ?? []).map((s) => ({
        line: s.line,
        folder: basename(dirname(s.location)),
      })),
      skipped: [],
    }),
  },
  codex: {
    name: 'Codex',
    npm: ['@openai/codex@0.171.0', 'codex'],
    skillsDir: join('.agents', 'skills'),
    answer: responsesAnswer,
    args: (api) => [
      'exec',
      '--skip-git-repo-check',
      '-c',
      'check_for_update_on_startup=false',
      '-c',
      'analytics.enabled=false',
      '-c',
      'model_provider="local"',
      '-c',
      `model_providers.local={name="local",base_url="${api.url}/v1",wire_api="responses",env_key="OPENAI_API_KEY"}`,
      '-m',
      'gpt-5',
      'hello',
    ],
    env: (_api, home) => ({
      HOME: home,
      CODEX_HOME: join(home, '.codex'),
      OPENAI_API_KEY: 'sk-local-only',
    }),
    /**
     * The skills section Codex puts in a developer message: `- NAME: TEXT (file: rN/PATH)`, the
     * roots table saying which folder rN is; and the files its log says it skipped.
     */
    listing(bodies, err, _folders, skillsDir) {
      const skipped = [];
      for (const m of err.matchAll(/failed to load skill (.*?)\/SKILL\.md: (.*)$/gm)) {
        const [, path = '', message = ''] = m;
        if (dirname(path) === skillsDir) skipped.push({ folder: basename(path), message });
      }
      for (const request of requestsTo(bodies, '/v1/responses')) {
        const texts = (request.input ?? []).flatMap((i) =>
          (Array.isArray(i.content) ? i.content : []).map((c) => c.text ?? ''),
        );
        const text = texts.find((t) => t.includes('<skills_instructions>'));
        if (text === undefined) continue;
        const roots = new Map(
          [...text.matchAll(/^- `(r\d+)` = `(.*)`$/gm)].map((m) => [m[1], m[2]]),
        );
        const start = text.indexOf('### Available skills\n') + '### Available skills\n'.length;
        const lines = [];
        for (const raw of text
          .slice(start, text.lastIndexOf('</skills_instructions>'))
          .split('\n')) {
          const m = /^(- .*) \(file: (r\d+)\/(.*)\/SKILL\.md\)$/.exec(raw);
          if (!m) continue;
          const [, line = '', root = '', path = ''] = m;
          const mine = roots.get(root) === skillsDir;
          lines.push({ key: mine ? raw : `own ${raw}`, line, folder: mine ? path : undefined });
        }
        return { lines, skipped };
      }
      return { lines: [], skipped };
    },
    /** Skillbench's side: the `codex` list of the catalog. */
    ours: (catalog) => {
      const folder = (s) => basename(dirname(s.location));
      const list = catalog.codex ?? [];
      return {
        lines: list.flatMap((s) => (s.line ? [{ line: s.line, folder: folder(s) }] : [])),
        skipped: list.flatMap((s) =>
          s.skipped ? [{ folder: folder(s), message: s.skipped }] : [],
        ),
      };
    },
  },
  'gemini-cli': {
    name: 'Gemini CLI',
    npm: ['@google/gemini-cli@0.61.0', 'gemini'],
    skillsDir: join('.agents', 'skills'),
    answer: geminiAnswer,
    /** Its settings: an API key as the way in, no update check, no usage statistics. */
    async prepare(home) {
      await mkdir(join(home, '.gemini'), { recursive: true });
      await writeFile(
        join(home, '.gemini', 'settings.json'),
        JSON.stringify({
          security: { auth: { selectedType: 'gemini-api-key' } },
          general: { disableAutoUpdate: true, disableUpdateNag: true },
          privacy: { usageStatisticsEnabled: false },
          telemetry: { enabled: false },
        }),
      );
    },
    // Why a model named: without one Gemini CLI first asks a smaller model to choose, and
    // retries that for a minute and a half when the answer is not what it expects.
    args: () => ['-m', 'gemini-2.5-flash', '-p', 'hello'],
    env: (api, home) => ({
      HOME: home,
      GEMINI_API_KEY: 'local-only',
      GOOGLE_GEMINI_BASE_URL: api.url,
      GEMINI_CLI_TRUST_WORKSPACE: 'true',
    }),
    /** The `<available_skills>` section of the system instruction: each skill's entry. */
    listing(bodies, _err, _folders, skillsDir) {
      for (const request of requestsTo(bodies, '/v1beta/models/')) {
        const text = (request.systemInstruction?.parts ?? []).map((p) => p.text ?? '').join('\n');
        const start = text.indexOf('<available_skills>\n');
        if (start === -1) continue;
        const section = text.slice(start, text.indexOf('\n</available_skills>', start));
        const lines = [];
        for (const m of section.matchAll(
          /^ {2}<skill>\n {4}<name>([\s\S]*?)<\/name>\n {4}<description>([\s\S]*?)<\/description>\n {4}<location>(.*)<\/location>\n {2}<\/skill>$/gm,
        )) {
          const [, name = '', description = '', location = ''] = m;
          const line = `<name>${name}</name> <description>${description}</description>`;
          const mine = dirname(dirname(location)) === skillsDir;
          lines.push({
            key: mine ? `${line} ${location}` : `own ${line}`,
            line,
            folder: mine ? basename(dirname(location)) : undefined,
          });
        }
        return { lines, skipped: [] };
      }
      return { lines: [], skipped: [] };
    },
    /**
     * Skillbench's side: the `gemini` list of the catalog. A skill that shares its name with
     * others (`oneOf`) is `maybe`: Gemini CLI lists one of them, and which depends on its file
     * search's order.
     */
    ours: (catalog) => ({
      lines: (catalog.gemini ?? []).flatMap((s) =>
        s.name !== undefined
          ? [
              {
                line: `<name>${s.name}</name> <description>${s.description}</description>`,
                folder: basename(dirname(s.location)),
                ...(s.oneOf !== undefined ? { maybe: s.name } : {}),
              },
            ]
          : [],
      ),
      skipped: [],
    }),
    ordered: false,
    orderWhy: 'it lists a folder in the order its file search finds them',
  },
  opencode: {
    name: 'OpenCode',
    npm: ['opencode-ai@1.18.33', 'opencode'],
    skillsDir: join('.agents', 'skills'),
    answer: (_body, res) => res.end(),
    // Why no model: `opencode debug skill` prints every skill OpenCode loads, as JSON.
    args: () => ['debug', 'skill'],
    env: (_api, home) => ({
      HOME: home,
      XDG_CONFIG_HOME: join(home, '.config'),
      XDG_DATA_HOME: join(home, '.local', 'share'),
      XDG_CACHE_HOME: join(home, '.cache'),
      XDG_STATE_HOME: join(home, '.local', 'state'),
      OPENCODE_DISABLE_AUTOUPDATE: '1',
      OPENCODE_PURE: '1',
    }),
    /**
     * The skills `opencode debug skill` printed: name and description (`(none)` without one: it
     * loads the skill but does not show it to the model), by SKILL.md.
     */
    listing(_bodies, _err, _folders, skillsDir, out) {
      let skills;
      try {
        skills = JSON.parse(out.slice(out.indexOf('\n[') + 1));
      } catch {
        throw new Error(`OpenCode's skill list was not JSON: ${out.slice(0, 500)}`);
      }
      return {
        lines: skills.map((s) => {
          const line = `<name>${s.name}</name> <description>${s.description ?? '(none)'}</description>`;
          const mine = dirname(dirname(s.location)) === skillsDir;
          return {
            key: mine ? `${line} ${s.location}` : `own ${line}`,
            line,
            folder: mine ? basename(dirname(s.location)) : undefined,
          };
        }),
        skipped: [],
      };
    },
    /** Skillbench's side: the `opencode` list of the catalog. */
    ours: (catalog) => ({
      lines: (catalog.opencode ?? []).flatMap((s) =>
        s.name !== undefined
          ? [
              {
                line: `<name>${s.name}</name> <description>${s.description ?? '(none)'}</description>`,
                folder: basename(dirname(s.location)),
                ...(s.oneOf !== undefined ? { maybe: s.name } : {}),
              },
            ]
          : [],
      ),
      skipped: [],
    }),
    // Why not compared: `opencode debug skill` prints the skills in the order their reads
    // finished; the model's list is by name.
    ordered: false,
    orderWhy: 'its debug list is in the order its reads finished; the model’s list is by name',
  },
};

const agent = AGENTS[values.agent];
if (!agent || positionals.length !== (values.probes ? 0 : 1)) {
  process.stderr.write(
    `Usage: node scripts/agent-listing.mjs (LIB | --probes) [--agent ${Object.keys(AGENTS).join('|')}] [--bin PATH] [--json] [--record]\n`,
  );
  process.exit(2);
}
const lib = values.probes ? '' : resolve(positionals[0]);

/** Run the agent once in `project` (its skills folder as laid out) and read its listing. */
async function agentListing(project, home, folders) {
  const api = await captureServer(agent.answer);
  try {
    const [command, args] = values.bin
      ? [values.bin, []]
      : ['npx', ['-y', '-p', agent.npm[0], agent.npm[1]]];
    const { out, err } = await run(command, [...args, ...agent.args(api)], {
      cwd: project,
      env: { PATH: process.env.PATH, ...agent.env(api, home) },
    });
    return agent.listing(api.bodies, err, folders, join(project, agent.skillsDir), out);
  } finally {
    api.close();
  }
}

/**
 * Two messages for a skipped file are the same when equal, or both say the YAML is not valid
 * (the YAML reader's own words differ: Codex's is in Rust).
 */
const sameMessage = (a, b) =>
  a === b || (a?.startsWith('invalid YAML: ') && b?.startsWith('invalid YAML: '));

/** One library folder: each skill folder's line (or skip) from the agent and from Skillbench. */
async function compare(lib, work) {
  const home = join(work, 'home');
  const project = join(work, 'project');
  const skills = join(project, agent.skillsDir);
  // Why .codex too: Codex refuses to start when CODEX_HOME names a folder that does not exist.
  await mkdir(join(home, '.codex'), { recursive: true });
  await agent.prepare?.(home);
  await mkdir(skills, { recursive: true });
  const own = await agentListing(project, home, []);
  const copied = [];
  for (const entry of await readdir(lib, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const dir = join(lib, entry.name);
    if (!(await stat(join(dir, 'SKILL.md')).catch(() => null))) continue;
    await cp(dir, join(skills, entry.name), { recursive: true });
    copied.push(entry.name);
  }
  const listed = await agentListing(project, home, copied);
  const catalog = JSON.parse(
    await run(process.execPath, [
      join(import.meta.dirname, '..', 'main', 'cli', 'skillbench.mjs'),
      'catalog',
      lib,
      '--format',
      'json',
    ]).then(
      (r) => r.out,
      (error) => JSON.stringify({ skills: [], problems: [String(error.message)] }),
    ),
  );
  const ours = agent.ours(catalog);
  const ownKeys = new Set(own.lines.map((l) => l.key));
  const theirs = listed.lines.filter((l) => !ownKeys.has(l.key) && l.folder !== undefined);
  const said = (side, folder) => {
    const line = side.lines.find((l) => l.folder === folder)?.line;
    if (line !== undefined) return line;
    const skip = side.skipped.find((s) => s.folder === folder)?.message;
    return skip === undefined ? null : `(skipped: ${skip})`;
  };
  // Skills Skillbench says share a name the agent lists once: which folders it listed of each.
  const listedOf = (name) =>
    ours.lines.filter((l) => l.maybe === name && theirs.some((t) => t.folder === l.folder)).length;
  const rows = copied.map((folder) => {
    const real = said({ lines: theirs, skipped: listed.skipped }, folder);
    const skillbench = said(ours, folder);
    const maybe = ours.lines.find((l) => l.folder === folder)?.maybe;
    const same =
      real === skillbench ||
      (maybe !== undefined && real === null && listedOf(maybe) === 1) ||
      (real?.startsWith('(skipped: ') === true &&
        sameMessage(real.slice(10, -1), skillbench?.slice(10, -1)));
    return {
      folder,
      agent: real,
      skillbench: maybe === undefined ? skillbench : `(one of those named ${maybe}) ${skillbench}`,
      same,
    };
  });
  // The order of the lines too: the folders in the order each lists them.
  const theirOrder = theirs.map((l) => l.folder);
  const ourOrder = ours.lines.map((l) => l.folder).filter((f) => copied.includes(f));
  const sameOrder = agent.ordered === false || theirOrder.join('\n') === ourOrder.join('\n');
  return { rows, sameOrder, theirOrder, ourOrder };
}

/**
 * The probe groups (scripts/probes/AGENT.json, one rule each) and the frontmatter corpus
 * (shared/validation/fixtures/frontmatter-cases.json) as groups of { folder, text, files }.
 */
async function probeGroups() {
  const probes = JSON.parse(
    await readFile(join(import.meta.dirname, 'probes', `${values.agent}.json`), 'utf8'),
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

const work = await mkdtemp(join(tmpdir(), `skillbench-${values.agent}-`));
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
        for (const [path, text] of Object.entries(skill.files ?? {})) {
          await mkdir(dirname(join(dir, skill.folder, path)), { recursive: true });
          await writeFile(join(dir, skill.folder, path), text);
        }
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
  if (values.record && values.probes) {
    const entry = /^<name>([\s\S]*)<\/name> <description>([\s\S]*)<\/description>$/;
    const record = {
      about: `What ${agent.name} (${agent.npm[0]}) listed of each probe (scripts/probes/${values.agent}.json, then the frontmatter corpus), recorded with: node scripts/agent-listing.mjs --probes --agent ${values.agent} --record. listed: the name and description it showed (no description: it loaded the skill without one), or null when it did not list the skill.`,
      skills: rows.map((r) => {
        const m = r.agent === null ? null : entry.exec(r.agent);
        return {
          group: r.group,
          folder: r.folder,
          // Why `(none)` left out: OpenCode loads a skill without a description, and shows it
          // no model; no probe's description is that text.
          listed: m
            ? { name: m[1], ...(m[2] === '(none)' ? {} : { description: m[2] }) }
            : r.agent === null
              ? null
              : r.agent,
        };
      }),
    };
    await writeFile(
      join(import.meta.dirname, 'probes', `${values.agent}.observed.json`),
      `${JSON.stringify(record, null, 1)}\n`,
    );
  }
  const misordered = orders.filter((o) => !o.sameOrder);
  const who = agent.name.padEnd('Skillbench'.length);
  if (values.json)
    process.stdout.write(
      `${JSON.stringify({ agent: values.agent, skills: rows, order: orders.map(({ rows: _rows, ...o }) => o) }, null, 2)}\n`,
    );
  else {
    for (const r of rows)
      if (!values.probes || !r.same)
        process.stdout.write(
          `${r.same ? '=' : '≠'} ${r.folder}${r.group ? ` (${r.group})` : ''}\n    ${who}: ${r.agent ?? '(not listed)'}\n    Skillbench: ${r.skillbench ?? '(not listed)'}\n`,
        );
    for (const o of misordered)
      process.stdout.write(
        `≠ the order${o.group ? ` (${o.group})` : ''}\n    ${who}: ${o.theirOrder.join(', ')}\n    Skillbench: ${o.ourOrder.join(', ')}\n`,
      );
    const same = rows.filter((r) => r.same).length;
    const order =
      agent.ordered === false
        ? `the order not compared (${agent.orderWhy})`
        : `the order alike in ${orders.length - misordered.length} of ${orders.length} ${orders.length === 1 ? 'folder' : 'folders'}`;
    process.stdout.write(
      `${agent.name}: ${rows.length} skills: ${same} read alike, ${rows.length - same} not; ${order}.\n`,
    );
  }
  process.exitCode = rows.every((r) => r.same) && misordered.length === 0 ? 0 : 1;
} catch (error) {
  process.stderr.write(`agent-listing: ${error.message}\n`);
  process.exitCode = 2;
} finally {
  await rm(work, { recursive: true, force: true });
}
