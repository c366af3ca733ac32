/**
 * Host compatibility of one skill (docs/agent-view.md §4): whether the Claude API, Claude Code,
 * an MCP client and OpenAI's strict tool calling can take it as written. Each host's verdict
 * gathers the validation profile that models it (docs/skill-format.md §2) and the host's own
 * limits from seed 003's host profiles: at most 8 skills per Claude API request and 8 MB per
 * skill, MCP's `inputSchema`, and OpenAI strict mode's schema subset. Pure: the renderer runs it
 * on every keystroke, the CLI on files.
 */
import { claudeCodeList, claudeCodeReading, loadsDespiteErrors } from './claude-code-list';
import { codexReading } from './codex-list';
import { geminiReading } from './gemini-list';
import { openCodeReading } from './opencode-list';
import { readerVerdict, type AgentReadings } from './readers';
import { formatBytes, formatBytesAgainst } from '../text/bytes';
import { projectSkillText } from '../projection/frontmatter';
import { parseSkill } from '../skill/frontmatter-parser';
import { validateSkill } from '../validation/validate-skill';
import type { FileView, ProfileId, QuickFix } from '../validation/types';
import { exportTools, rootNotObject, strictProblems, toolsOf } from './tools';

/** Seed 003: a Claude API request carries at most 8 skills. */
export const CLAUDE_API_MAX_SKILLS = 8;

/**
 * Seed 003: at most 8 MB per skill on the Claude API. Why 8,000,000 bytes: the smaller reading
 * of "MB", as for claude.ai's 30 MB (shared/projection/targets.ts).
 */
export const CLAUDE_API_MAX_SKILL_BYTES = 8_000_000;

/** The hosts reported on. */
export type HostId =
  'claude-api' | 'claude-code' | 'codex' | 'gemini-cli' | 'opencode' | 'mcp' | 'openai-strict';

/** One remark about a host. */
export interface HostNote {
  severity: 'error' | 'warning' | 'info';
  message: string;
  fix?: QuickFix;
  /** Text the note offers to copy (the tools in the host's format), with the button's label. */
  copy?: { text: string; label: string };
}

/** One host's verdict. */
export interface HostReport {
  host: HostId;
  label: string;
  verdict: 'ok' | 'warning' | 'problem' | 'not-applicable';
  /**
   * The verdict in a few words, as the Hosts strip says it. Why per host: Claude Code loads a
   * skill whose frontmatter it cannot read as written (checked against Claude Code itself,
   * docs/claude-code-listing.md; `loadsDespiteErrors`), so those problems are "not as written",
   * not "refused".
   */
  words: string;
  /** A `problem` means the host refuses the skill (false where Claude Code loads it anyway). */
  refuses: boolean;
  /** One sentence. */
  summary: string;
  notes: HostNote[];
}

/** What the check needs besides the text. */
export interface HostContext {
  /** The skill folder as the validator sees it (sizes of what is shared). */
  fileView?: FileView;
  /** How many skills the library holds (Claude API's per-request limit). */
  librarySkills?: number;
  /**
   * The safety review says "Don't trust" and nobody chose "Trust anyway": Skillbench itself then
   * serves, exports and installs it for no host (the one gate, docs/safety-review.md), so no
   * host's verdict may say it is ready through Skillbench.
   */
  heldBack?: boolean;
  /** The skill's folder name: Claude Code's list names a skill by its folder. */
  folderName?: string;
}

/** What the safety gate holds back, in the words of each host's row. */
const HELD_BACK = `the safety review says "Don't trust". Read its findings; "Trust anyway" there lets it through.`;

/** Bytes of what a shared copy holds: files not withheld. */
export function sharedBytes(view: FileView): number {
  return view.entries
    .filter((e) => e.kind === 'file' && e.withheld === undefined)
    .reduce((n, e) => n + e.size, 0);
}

function verdictOf(notes: readonly HostNote[]): HostReport['verdict'] {
  if (notes.some((n) => n.severity === 'error')) return 'problem';
  if (notes.some((n) => n.severity === 'warning')) return 'warning';
  return 'ok';
}

function profileNotes(
  text: string,
  profile: ProfileId,
  view: FileView | undefined,
  reader: string,
  /** Set when the reader loads the skill despite these errors, otherwise than written. */
  loadsAnyway?: { value: boolean },
): HostNote[] {
  const result = validateSkill(text, { profiles: [profile], ...(view ? { fileView: view } : {}) });
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  const warnings = result.diagnostics.filter((d) => d.severity === 'warning');
  const loads = loadsDespiteErrors(
    profile,
    errors.map((d) => d.ruleId),
  );
  if (loadsAnyway) loadsAnyway.value = loads;
  if (errors.length > 0)
    return [
      {
        severity: 'error',
        message: `${reader} ${loads ? 'would load it, but not as written' : 'would refuse it'}: ${errors.length} problem${errors.length === 1 ? '' : 's'} under the ${profile} target, first “${errors[0]?.message ?? ''}”`,
      },
    ];
  if (warnings.length > 0)
    return [
      {
        severity: 'warning',
        message: `${reader} accepts it, with ${warnings.length} warning${warnings.length === 1 ? '' : 's'} under the ${profile} target, first “${warnings[0]?.message ?? ''}”`,
      },
    ];
  return [];
}

/** Each verdict in a few words (Claude Code's problems excepted: see HostReport.words). */
const VERDICT_WORDS = {
  ok: 'Ready',
  warning: 'Works, with warnings',
  problem: 'Would be refused',
  'not-applicable': 'Nothing to check',
} as const;

/** Every host's verdict for one SKILL.md text. */
export function hostCompatibility(text: string, context: HostContext = {}): HostReport[] {
  const parsed = parseSkill(text);
  const tools = toolsOf(parsed.data);
  const view = context.fileView;

  // Claude API: judged on what an export sends (docs/skill-format.md §3.2: the upload projection
  // moves other keys into metadata and tools into tools.json), not on the author's file.
  const projected = projectSkillText(text, { frontmatter: 'upload', toolsJson: true });
  const api: HostNote[] = profileNotes(
    projected.problem ? text : projected.text,
    'claude-upload',
    view,
    'The Claude API upload',
  );
  const moved = projected.changes.filter((c) => c.action !== 'kept').length;
  if (!projected.problem && moved > 0)
    api.push({
      severity: 'info',
      message: `Export rewrites the frontmatter for the upload: ${moved} key${moved === 1 ? '' : 's'} move${moved === 1 ? 's' : ''} into metadata or tools.json (Export… shows each one).`,
    });
  if (view) {
    const bytes = sharedBytes(view);
    api.push(
      bytes > CLAUDE_API_MAX_SKILL_BYTES
        ? {
            severity: 'error',
            message: `The skill is ${formatBytesAgainst(bytes, CLAUDE_API_MAX_SKILL_BYTES).join('; the Claude API takes at most ')} per skill. Move large files out of it.`,
          }
        : {
            severity: 'info',
            message: `Size ${formatBytes(bytes)} of the ${formatBytes(CLAUDE_API_MAX_SKILL_BYTES)} a skill may have.`,
          },
    );
  }
  if (context.librarySkills !== undefined && context.librarySkills > CLAUDE_API_MAX_SKILLS)
    api.push({
      severity: 'warning',
      message: `A Claude API request carries at most ${CLAUDE_API_MAX_SKILLS} skills; your library has ${context.librarySkills}, so each request must pick ${CLAUDE_API_MAX_SKILLS}.`,
    });
  for (const t of tools)
    if (rootNotObject(t))
      api.push({
        severity: 'error',
        message: `The Claude API requires each tool's input_schema to be an object schema; ${t.name}'s is not (type: object).`,
      });
  if (tools.length > 0) {
    const given = exportTools(parsed.data, 'claude');
    const them = tools.length === 1 ? 'Its tool' : `Its ${tools.length} tools`;
    api.push({
      severity: 'info',
      message:
        given.status === 'ready'
          ? `${them} must be sent as tools in the request; Copy gives ${tools.length === 1 ? 'it' : 'them'} in the Claude API's form (input_schema).`
          : `${them} must be sent as tools in the request, once the problems above are fixed.`,
      ...(given.status === 'ready'
        ? { copy: { text: given.json, label: 'Copy the tools as Claude API tools' } }
        : {}),
    });
  }

  if (context.heldBack)
    api.push({ severity: 'warning', message: `Skillbench does not export it: ${HELD_BACK}` });

  // Claude Code
  const codeLoads = { value: false };
  const code: HostNote[] = profileNotes(text, 'claude-code', view, 'Claude Code', codeLoads);
  const [listed] = claudeCodeList([
    {
      folder: context.folderName ?? 'this-skill',
      reading: claudeCodeReading(parsed),
    },
  ]);
  if (listed)
    code.push({
      severity: 'info',
      message: `Claude Code's skill list shows it to the model as: ${listed.line}`,
    });
  if (context.heldBack)
    code.push({
      severity: 'warning',
      message: `Skillbench does not install it into Claude Code: ${HELD_BACK}`,
    });
  if (tools.length > 0)
    code.push({
      severity: 'info',
      message:
        'Claude Code does not turn frontmatter tools into tools; the instructions must run the scripts themselves.',
    });

  // Codex, Gemini CLI and OpenCode: what each itself does with the file (codex-list.ts,
  // gemini-list.ts, opencode-list.ts), with the spec's findings in the words the install checks
  // give (readers.ts).
  const spec = validateSkill(text, {
    profiles: ['agentskills'],
    ...(view ? { fileView: view } : {}),
  });
  const folderName = context.folderName ?? 'this-skill';
  /** An agent's row: its verdict's problems, the line its list gives the skill, a held-back note. */
  const modelledRow = (
    agent: string,
    name: string,
    readings: AgentReadings,
    listed: string | undefined,
  ): { notes: HostNote[]; judged: ReturnType<typeof readerVerdict> } => {
    const judged = readerVerdict(
      agent,
      'agentskills',
      spec.verdicts['agentskills'] ?? 'valid',
      spec.diagnostics,
      readings,
    );
    const notes: HostNote[] = judged.problems.slice(0, 3).map((message) => ({
      severity: judged.verdict === 'error' ? 'error' : 'warning',
      message,
    }));
    if (listed !== undefined)
      notes.push({
        severity: 'info',
        message: `${name}'s skill list shows it to the model as: ${listed}`,
      });
    if (context.heldBack)
      notes.push({
        severity: 'warning',
        message: `Skillbench does not install it into ${name}: ${HELD_BACK}`,
      });
    return { notes, judged };
  };
  const codexRead = codexReading(text, folderName, { parsed });
  const { notes: codex, judged: codexJudged } = modelledRow(
    'codex',
    'Codex',
    { codex: codexRead },
    codexRead.loads ? `${codexRead.line} (file: …/SKILL.md)` : undefined,
  );
  const openCodeRead = openCodeReading(text, { parsed });
  const { notes: opencode, judged: openCodeJudged } = modelledRow(
    'opencode',
    'OpenCode',
    { opencode: openCodeRead },
    openCodeRead.loads && openCodeRead.description !== undefined
      ? `<name>${openCodeRead.name}</name> <description>${openCodeRead.description}</description>`
      : undefined,
  );
  const geminiRead = geminiReading(text, folderName, { parsed });
  const { notes: gemini, judged: geminiJudged } = modelledRow(
    'gemini-cli',
    'Gemini CLI',
    { gemini: geminiRead },
    geminiRead.loads
      ? `<name>${geminiRead.name}</name> <description>${geminiRead.description}</description>`
      : undefined,
  );

  // MCP
  const mcp: HostNote[] = profileNotes(text, 'mcp-serve', view, "Skillbench's MCP server");
  if (context.heldBack)
    mcp.unshift({
      severity: 'error',
      message: `Skillbench's MCP server does not serve it: ${HELD_BACK}`,
    });
  for (const t of tools)
    if (rootNotObject(t))
      mcp.push({
        severity: 'error',
        message: `MCP requires each tool's inputSchema to be an object schema; ${t.name}'s is not (type: object).`,
      });
  if (tools.length > 0) {
    const given = exportTools(parsed.data, 'mcp');
    const appear = tools.length === 1 ? 'Its tool appears' : `Its ${tools.length} tools appear`;
    mcp.push({
      severity: 'info',
      message:
        given.status === 'ready'
          ? `${appear} in tools/list with inputSchema; Copy gives the entries.`
          : `${appear} in tools/list with inputSchema, once the problems above are fixed.`,
      ...(given.status === 'ready'
        ? { copy: { text: given.json, label: 'Copy the tools as MCP tools/list entries' } }
        : {}),
    });
  }

  // OpenAI strict
  const openai: HostNote[] = [];
  tools.forEach((tool, toolIndex) => {
    for (const p of strictProblems(tool, { text, toolIndex }))
      openai.push({ severity: 'error', message: p.message, ...(p.fix ? { fix: p.fix } : {}) });
  });
  const strict = tools.length > 0 ? exportTools(parsed.data, 'openai') : undefined;
  if (strict?.status === 'ready')
    openai.push({
      severity: 'info',
      message: 'Copy gives the function tools, with strict: true.',
      copy: { text: strict.json, label: 'Copy the tools as OpenAI function tools' },
    });

  const report = (
    host: HostId,
    label: string,
    notes: HostNote[],
    ok: string,
    applicable = true,
  ): HostReport => {
    const verdict = applicable ? verdictOf(notes) : 'not-applicable';
    const loads =
      (host === 'claude-code' && codeLoads.value) ||
      (host === 'codex' && codexJudged.notAsWritten === true) ||
      (host === 'gemini-cli' && geminiJudged.notAsWritten === true) ||
      (host === 'opencode' && openCodeJudged.notAsWritten === true);
    const summary =
      verdict === 'not-applicable'
        ? ok
        : verdict === 'ok'
          ? ok
          : loads
            ? `${label} loads it, but does not read it as written: see below.`
            : verdict === 'warning'
              ? 'Works, with warnings below.'
              : 'Would be refused: see below.';
    const words = loads && verdict !== 'ok' ? 'Loads it, not as written' : VERDICT_WORDS[verdict];
    return {
      host,
      label,
      verdict,
      words,
      refuses: verdict === 'problem' && !loads,
      summary,
      notes,
    };
  };
  return [
    report('claude-api', 'Claude API', api, 'Ready for the Claude API.'),
    report('claude-code', 'Claude Code', code, 'Ready for Claude Code.'),
    report('codex', 'Codex', codex, 'Ready for Codex.'),
    report('gemini-cli', 'Gemini CLI', gemini, 'Ready for Gemini CLI.'),
    report('opencode', 'OpenCode', opencode, 'Ready for OpenCode.'),
    report('mcp', 'MCP', mcp, 'Ready to serve over MCP.'),
    tools.length === 0
      ? report(
          'openai-strict',
          'OpenAI (strict tools)',
          [],
          'No tools: nothing for OpenAI tool calling.',
          false,
        )
      : report(
          'openai-strict',
          'OpenAI (strict tools)',
          openai,
          `Strict mode accepts all ${tools.length} tool schema${tools.length === 1 ? '' : 's'}.`,
        ),
  ];
}
