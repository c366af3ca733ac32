import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import {
  isTargetId,
  isToolTargetId,
  TARGET_IDS,
  TOOL_TARGETS,
  type ExportPlan,
  type PackageIssue,
  type ToolTargetId,
} from '../../../shared/projection';
import { PROFILE_IDS, type ProfileId } from '../../../shared/validation';
import { exportSkill, NotASkillError, packToolDefinitions } from '../../pack';
import { defaultUserDataDir } from '../../platform/user-data';
import { term } from '../../security/terminal-text';
import { formatBytes } from '../../../shared/text/bytes';
import { terminalIO } from '../support/terminal-io';
import { readCommandLine } from '../support/command-line';
import { UsageError, type CliCommand, type CliIO } from '../support/types';
import { count } from '../support/words';
import { TRUST_OPTIONS, trustHint, trustRequest, trustUsage } from '../support/trust-options';

const USAGE = `Usage: skillbench pack SKILL --target TARGET [options]

Pack a skill folder for one destination. The skill is checked first with the destination's own
rules; nothing is written when it would be rejected.

  SKILL                 the skill folder (or its SKILL.md)
  --target TARGET       ${TARGET_IDS.join(' | ')}
                        or the skill's tool definitions for one host:
                        ${TOOL_TARGETS.map((t) => t.id).join(' | ')} (JSON on stdout, or
                        written to --out PATH; refused while a tool's input_schema is not
                        type: object, and tools-openai while OpenAI strict mode would refuse
                        a schema)
  --out PATH            archives: the archive file, or a folder to put it in (end PATH with /
                        for a folder not made yet; default ./<name>.zip, .skill or .tar.gz)
                        folder: the folder that receives <name>/ (required)
                        claude-code: a project folder: installs into PATH/.claude/skills/<name>/
                        (default: ~/.claude/skills/<name>/)
  --sha256              also write <archive>.sha256 (sha256sum format)
  --keep PATH           include a file that was left out as secret-looking, or the file a link
                        inside the skill points to (repeatable)
  --project-frontmatter archives and folder copies: reduce the frontmatter to the six upload keys
  --profile PROFILE     folder: check with this profile instead of agentskills (repeatable)
  --overwrite           replace an existing archive, or an existing copy (the old one goes to
                        Skillbench's trash folder); without it, an existing copy is only compared
  --force-folder        claude-code and folder: copy even though the check found errors
${trustUsage('pack', 24)}

Exit codes: 0 written, 1 blocked or destination exists, 2 usage or I/O problem.
`;

/** One finding as printed: severity, rule, sentence, destination wording, detail. */
function formatIssue(issue: PackageIssue): string {
  const lines = [term`  ${issue.severity.padEnd(7)} ${issue.message} [${issue.ruleId}]`];
  if (issue.destinationWording)
    lines.push(term`          The destination says: "${issue.destinationWording}"`);
  if (issue.detail) lines.push(term`          (${issue.detail})`);
  return lines.join('\n');
}

/** The plan as people read it: changes, files left out, findings (the skill's names and keys escaped). */
export function formatPlan(plan: ExportPlan): string {
  const out: string[] = [
    term`Target: ${plan.target.label} (${plan.target.id})`,
    term`Skill: ${plan.skillName}`,
  ];
  const changes = plan.projection.changes;
  if (plan.projection.normalisations.length > 0 || changes.length > 0) {
    out.push('', 'SKILL.md for this destination:');
    for (const n of plan.projection.normalisations) out.push(term`  - ${n.why}`);
    for (const c of changes) {
      const what =
        c.action === 'moved-to-metadata'
          ? `moved to ${c.to ?? 'metadata'}`
          : c.action === 'written-to-file'
            ? `written to ${c.to ?? 'a file'}`
            : c.action;
      out.push(term`  - ${c.key}: ${what}. ${c.why}`);
    }
  }
  const left = plan.entries.filter((e) => !e.included);
  if (left.length > 0) {
    out.push('', 'Left out:');
    for (const e of left)
      out.push(
        term`  - ${e.source ?? e.output}${e.kind === 'directory' ? '/' : ''}: ${e.reason ?? ''}${e.keepable ? ' (use --keep to include it)' : ''}`,
      );
  }
  const issues = plan.issues.filter((i) => i.severity !== 'info');
  if (issues.length > 0) {
    out.push('', 'Checks:');
    for (const i of issues) out.push(formatIssue(i));
  }
  out.push(
    '',
    `Package: ${count(plan.totals.files, 'file')}, ${formatBytes(plan.totals.bytes)} before compression.`,
  );
  return `${out.join('\n')}\n`;
}

/** Resolve SKILL (a folder or its SKILL.md) to the skill folder. */
async function skillFolder(arg: string, cwd: string): Promise<string> {
  const path = resolve(cwd, arg);
  const st = await stat(path).catch(() => undefined);
  if (!st) throw new NotASkillError(`${path} does not exist.`);
  if (st.isFile() && basename(path).toLowerCase() === 'skill.md') return dirname(path);
  return path;
}

const TOOL_TARGET_OPTIONS = new Set(['target', 'out']);

/** `pack --target tools-*`: the skill's tools in one host's format (docs/agent-view.md §4). */
async function runToolTarget(
  skill: string,
  target: ToolTargetId,
  values: Record<string, string | boolean | string[] | undefined>,
  raw: CliIO,
): Promise<number> {
  const io = terminalIO(raw);
  const extra = Object.keys(values).filter(
    (k) => values[k] !== undefined && !TOOL_TARGET_OPTIONS.has(k),
  );
  if (extra.length > 0)
    throw new UsageError(`--${extra[0] ?? ''} does not apply to --target ${target}.`);
  let result;
  try {
    const dir = await skillFolder(skill, io.cwd);
    result = await packToolDefinitions(dir, target, {
      cwd: io.cwd,
      ...(typeof values.out === 'string' ? { out: values.out } : {}),
    });
  } catch (error) {
    io.stderr(term`skillbench pack: ${(error as Error).message}\n`);
    return 2;
  }
  if (result.status === 'no-tools') {
    io.stderr(
      term`skillbench pack: ${result.skillName} declares no tools in its frontmatter, so there is nothing to write.\n`,
    );
    return 1;
  }
  if (result.status === 'blocked') {
    const lines = [
      term`Not written: ${result.refusedBy} would refuse the tools of ${result.skillName}:`,
    ];
    for (const p of result.problems) lines.push(term`  - ${p.message}`);
    lines.push('Fix them (the editor offers a fix where one is safe) and pack again.');
    io.stderr(`${lines.join('\n')}\n`);
    return 1;
  }
  if (result.unnamed > 0)
    io.stderr(
      `skillbench pack: ${count(result.unnamed, 'entry', 'entries')} of tools in the frontmatter ${result.unnamed === 1 ? 'has' : 'have'} no name, so ${result.unnamed === 1 ? 'it was' : 'they were'} left out. Give each tool a name.\n`,
    );
  if (result.path === undefined) raw.stdout(result.json);
  else io.stdout(term`Wrote ${result.path} (${count(result.count, 'tool')}).\n`);
  return 0;
}

/** Parse argv; every problem is a UsageError (exit 2). */
function parse(args: string[]): {
  skill: string;
  target: (typeof TARGET_IDS)[number] | ToolTargetId;
  values: Record<string, string | boolean | string[] | undefined>;
} {
  const parsed = readCommandLine('pack', args, {
    target: { type: 'string', short: 't' },
    out: { type: 'string', short: 'o' },
    sha256: { type: 'boolean' },
    keep: { type: 'string', multiple: true },
    'project-frontmatter': { type: 'boolean' },
    profile: { type: 'string', multiple: true },
    overwrite: { type: 'boolean' },
    'force-folder': { type: 'boolean' },
    ...TRUST_OPTIONS,
  });
  const { values, positionals } = parsed;
  if (positionals.length !== 1)
    throw new UsageError(
      positionals.length === 0
        ? 'Give the skill folder to pack.'
        : `One skill at a time (got ${positionals.join(', ')}).`,
    );
  if (!values.target) throw new UsageError(`--target is required (${TARGET_IDS.join(', ')}).`);
  if (isToolTargetId(values.target))
    return { skill: positionals[0], target: values.target, values };
  if (!isTargetId(values.target))
    throw new UsageError(
      `Unknown target "${values.target}"; use one of ${[...TARGET_IDS, ...TOOL_TARGETS.map((t) => t.id)].join(', ')}.`,
    );
  const folderTarget = values.target === 'claude-code' || values.target === 'folder';
  // Why: only folder copies may be forced past errors; an upload would be rejected anyway.
  if (values['force-folder'] && !folderTarget)
    throw new UsageError(
      '--force-folder works only with --target claude-code or folder: archives for upload are never written with errors.',
    );
  if (values.sha256 && folderTarget)
    throw new UsageError('--sha256 works only with archive targets.');
  if (values.target === 'folder' && !values.out)
    throw new UsageError('--target folder needs --out DIR (the folder that receives the copy).');
  for (const p of values.profile ?? [])
    if (!(PROFILE_IDS as readonly string[]).includes(p))
      throw new UsageError(`Unknown profile "${p}"; use one of ${PROFILE_IDS.join(', ')}.`);
  if (values.profile && values.target !== 'folder')
    throw new UsageError(
      "--profile works only with --target folder; other targets use their destination's own rules.",
    );
  return { skill: positionals[0], target: values.target, values };
}

/** Run `skillbench pack`. */
async function run(args: string[], raw: CliIO): Promise<number> {
  const io = terminalIO(raw);
  const { skill, target, values } = parse(args);
  if (isToolTargetId(target)) return runToolTarget(skill, target, values, raw);
  let dir: string;
  try {
    dir = await skillFolder(skill, io.cwd);
  } catch (error) {
    io.stderr(term`skillbench pack: ${(error as Error).message}\n`);
    return 2;
  }
  const out = values.out as string | undefined;
  const trust = trustRequest({
    'trust-anyway': values['trust-anyway'] as string | undefined,
    'trust-days': values['trust-days'] as string | undefined,
  });
  let result;
  try {
    result = await exportSkill(dir, target, {
      cwd: io.cwd,
      ...(out !== undefined && target !== 'claude-code' ? { out } : {}),
      ...(target === 'claude-code'
        ? {
            claudeCode:
              out !== undefined
                ? { scope: 'project', project: resolve(io.cwd, out) }
                : { scope: 'user', home: io.env.HOME ?? homedir() },
          }
        : {}),
      keep: (values.keep as string[] | undefined) ?? [],
      ...(values['project-frontmatter'] ? { project: true } : {}),
      ...(values.profile ? { profiles: values.profile as ProfileId[] } : {}),
      sha256File: values.sha256 === true,
      overwrite: values.overwrite === true,
      force: values['force-folder'] === true,
      trashDir: join(defaultUserDataDir(io.env), 'trash'),
      // Why: export is a point of trust; a "Don't trust" skill is not packed unless accepted.
      dataDir: defaultUserDataDir(io.env),
      ...(trust ? { trust } : {}),
    });
  } catch (error) {
    io.stderr(term`skillbench pack: ${(error as Error).message}\n`);
    return 2;
  }
  io.stdout(formatPlan(result.plan));
  if (result.status === 'blocked') {
    // Why apart: the destination would take the skill; Skillbench's safety review holds it back
    // (and then no --force-folder copies it).
    const unsafe = result.plan.issues.some((i) => i.ruleId === 'package/safety-dont-trust');
    // Why apart: a link on the way to the destination is where it would go, not what the
    // destination's reader would reject, and no --force-folder writes through it.
    const linked = result.plan.issues.some((i) => i.ruleId === 'package/destination-link');
    const errors = result.plan.issues.filter(
      (i) =>
        i.severity === 'error' &&
        i.ruleId !== 'package/safety-dont-trust' &&
        i.ruleId !== 'package/destination-link',
    ).length;
    let said = '\n';
    if (unsafe)
      said += `Not written: the safety review says not to trust this skill (above).\n${trustHint('pack')}\n`;
    if (linked)
      said += `${unsafe ? 'Also: ' : 'Not written: '}the destination is reached through a link (above); make it a real folder, or choose another --out.\n`;
    if (errors > 0)
      said +=
        term`${unsafe || linked ? 'Also: ' : 'Not written: '}${errors} problem${errors === 1 ? '' : 's'} above would make ${result.plan.target.label} reject this skill. Fix ${errors === 1 ? 'it' : 'them'} and pack again` +
        (result.plan.target.overrideAllowed && !unsafe && !linked && values['force-folder'] !== true
          ? ', or add --force-folder to copy it anyway.\n'
          : '.\n');
    io.stderr(said);
    return 1;
  }
  if (result.status === 'exists') {
    const { added, changed, removed, unchanged } = result.diff;
    const lines = [
      term`\n${result.path} already exists; nothing was changed. Compared with this export:`,
    ];
    for (const p of added) lines.push(term`  + ${p} (new)`);
    for (const p of changed) lines.push(term`  ~ ${p} (changed)`);
    for (const p of removed) lines.push(term`  - ${p} (would be removed)`);
    lines.push(
      `  ${unchanged} file${unchanged === 1 ? '' : 's'} unchanged.`,
      'Add --overwrite to replace it (the old copy goes to the trash).',
    );
    io.stderr(`${lines.join('\n')}\n`);
    return 1;
  }
  if (result.status === 'archive-exists') {
    io.stderr(
      term`\n${result.path} already exists; nothing was changed. Add --overwrite to replace it, or give another --out.\n`,
    );
    return 1;
  }
  io.stdout(
    term`\nWrote ${result.path} (${count(result.files, 'file')}, ${formatBytes(result.bytes)}).\n`,
  );
  if (result.sha256) io.stdout(`sha256 ${result.sha256}\n`);
  if (result.sha256Path) io.stdout(term`Wrote ${result.sha256Path}\n`);
  if (result.trashedTo) io.stdout(term`The previous copy is in ${result.trashedTo}\n`);
  if (result.plan.apiFiles)
    io.stdout(
      `Files for a multipart /v1/skills upload (files[]):\n${result.plan.apiFiles.map((f) => term`  ${f}`).join('\n')}\n`,
    );
  return 0;
}

/** `skillbench pack` — check and pack a skill for one destination. */
export const packCommand: CliCommand = {
  name: 'pack',
  usage: USAGE,
  run,
};
