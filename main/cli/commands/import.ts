import { join, resolve } from 'node:path';
import {
  DEFAULT_IMPORT_LIMITS,
  type ImportLimits,
  type PreviewSkill,
  type Refusal,
} from '../../../shared/projection';
import { importSkill, previewImport } from '../../pack';
import { exists } from '../../platform/staged-folder';
import { defaultUserDataDir } from '../../platform/user-data';
import { term } from '../../security/terminal-text';
import { formatBytes } from '../../../shared/text/bytes';
import { terminalIO } from '../support/terminal-io';
import { readCommandLine } from '../support/command-line';
import { UsageError, type CliCommand, type CliIO } from '../support/types';
import { count, parseNumber } from '../support/words';
import { TRUST_OPTIONS, trustHint, trustRequest, trustUsage } from '../support/trust-options';
import { unexpectedErrorSentence } from '../../platform/fs-errors';

const USAGE = `Usage: skillbench import SOURCE --into LIBRARY [options]

Import a skill from a .zip, .skill, .tar.gz/.tgz archive, a folder or a single SKILL.md into a
library folder. Everything is checked before anything is written; unsafe archives are refused.

  SOURCE               the archive, folder or SKILL.md
  --into LIBRARY       the library folder that receives <name>/
  --rename             when the library already has <name>, import as <name>-2 (or -3 …)
  --replace            when the library already has <name>, replace it (old copy to Skillbench's trash folder)
  --pick ROOT          when the archive holds several skills, the folder of the one to import
  --max-files N        refuse more than N files (default ${DEFAULT_IMPORT_LIMITS.maxFiles})
  --max-bytes N        refuse more than N bytes unpacked; k/M/G suffixes allowed (default 16M)
  --dry-run            only show what would be imported
${trustUsage('import')}

Exit codes: 0 imported, previewed, or already in the library file for file; 1 refused, conflict or
choice needed; 2 usage or I/O problem.
`;

/** Parse a byte count: `123`, `64k`, `16M`, `1G` (binary units). */
function parseBytes(text: string): number {
  const match = /^(\d+)\s*([kmg]i?b?)?$/i.exec(text.trim());
  if (!match)
    throw new UsageError(
      `--max-bytes must be a number of bytes such as 16777216 or 16M, not "${text}".`,
    );
  const unit = (match[2] ?? '').toLowerCase().charAt(0);
  const factor = unit === 'k' ? 1024 : unit === 'm' ? 1024 ** 2 : unit === 'g' ? 1024 ** 3 : 1;
  return Number(match[1]) * factor;
}

/** The most files `--max-files` may allow (the default is the 512 a host must accept). */
const MAX_FILES_CEILING = 1_000_000;

/** A refusal as printed (the message, the detail and the entry come from the archive). */
function formatRefusal(refusal: Refusal): string {
  const entry = refusal.entry !== undefined ? term`; entry "${refusal.entry}"` : '';
  return `${term`Refused: ${refusal.message}\n  (${refusal.code}: ${refusal.detail}`}${entry})\nNothing was written.\n`;
}

/** One skill of a preview as printed. */
function formatSkill(skill: PreviewSkill): string {
  const lines = [
    term`Skill ${skill.name}` +
      (skill.root ? term` (folder ${skill.root}/ in the source)` : '') +
      `: ${count(skill.files.length, 'file')}, ${formatBytes(skill.bytes)}`,
  ];
  if (skill.nameNote !== undefined) lines.push(term`${skill.nameNote}`);
  for (const f of skill.files)
    lines.push(
      term`  ${f.path}  ${formatBytes(f.size)}${f.mode === 0o755 ? '  (executable)' : ''}`,
    );
  if (skill.safety) {
    const r = skill.safety.report;
    lines.push(
      term`Safety review: ${r.headline}${skill.safety.accepted ? ' (you chose to trust it)' : ''}. ${r.summary}`,
    );
    for (const f of r.findings.filter((x) => x.severity !== 'low').slice(0, 20))
      lines.push(
        term`  ${f.severity.padEnd(8)} ${f.file}${f.line > 0 ? `:${f.line}` : ''} ${f.title} [${f.rule}]`,
      );
  }
  const findings = skill.diagnostics.filter((d) => d.severity !== 'info');
  if (findings.length > 0) {
    lines.push('Checks (Agent Skills):');
    for (const d of findings)
      lines.push(term`  ${d.severity.padEnd(7)} ${d.message} [${d.ruleId}]`);
  }
  return `${lines.join('\n')}\n`;
}

/** Run `skillbench import`. */
async function run(args: string[], raw: CliIO): Promise<number> {
  const io = terminalIO(raw);
  const parsed = readCommandLine('import', args, {
    into: { type: 'string' },
    rename: { type: 'boolean' },
    replace: { type: 'boolean' },
    pick: { type: 'string' },
    'max-files': { type: 'string' },
    'max-bytes': { type: 'string' },
    'dry-run': { type: 'boolean' },
    ...TRUST_OPTIONS,
  });
  const { values, positionals } = parsed;
  if (positionals.length !== 1)
    throw new UsageError(
      positionals.length === 0
        ? 'Give the archive, folder or SKILL.md to import.'
        : `One source at a time (got ${positionals.join(', ')}).`,
    );
  if (!values.into && !values['dry-run'])
    throw new UsageError(
      '--into LIBRARY is required (the library folder that receives the skill).',
    );
  if (values.rename && values.replace)
    throw new UsageError('Choose --rename or --replace, not both.');
  const limits: Partial<ImportLimits> = {};
  if (values['max-files'] !== undefined)
    limits.maxFiles = parseNumber('--max-files', values['max-files'], {
      min: 1,
      max: MAX_FILES_CEILING,
      whole: true,
      unit: 'files',
    });
  if (values['max-bytes'] !== undefined) limits.maxBytes = parseBytes(values['max-bytes']);
  const source = resolve(io.cwd, positionals[0]);
  if (!(await exists(source))) {
    io.stderr(term`skillbench import: ${source} does not exist.\n`);
    return 2;
  }
  const dataDir = defaultUserDataDir(io.env);
  const common = {
    limits,
    dataDir,
    ...(values.pick !== undefined ? { pick: values.pick } : {}),
  };
  const trust = trustRequest(values);

  if (values['dry-run']) {
    const preview = await previewImport(source, common);
    if (preview.status === 'refused') {
      io.stderr(formatRefusal(preview.refusal));
      return 1;
    }
    io.stdout(
      `${term`Source: ${source} (${preview.format})`}\n${preview.skills.map(formatSkill).join('\n')}`,
    );
    if (preview.outside.length > 0)
      io.stdout(term`Not part of any skill (not imported): ${preview.outside.join(', ')}\n`);
    if (preview.ignored.length > 0) io.stdout(term`Skipped: ${preview.ignored.join(', ')}\n`);
    io.stdout('Dry run: nothing was written.\n');
    return 0;
  }

  let result;
  try {
    result = await importSkill(source, {
      ...common,
      into: resolve(io.cwd, values.into as string),
      trashDir: join(dataDir, 'trash'),
      ...(trust ? { trust } : {}),
      ...(values.rename
        ? { onConflict: 'rename' as const }
        : values.replace
          ? { onConflict: 'replace' as const }
          : {}),
    });
  } catch (error) {
    io.stderr(term`skillbench import: ${unexpectedErrorSentence(error)}\n`);
    return 2;
  }
  switch (result.status) {
    case 'refused':
      io.stderr(formatRefusal(result.refusal));
      return 1;
    case 'choose':
      io.stderr(
        `${term`${result.message}`}\n${result.skills.map((s) => term`  --pick ${s.root === '' ? '""' : s.root}   (${s.name}, ${count(s.files.length, 'file')})`).join('\n')}\nNothing was written.\n`,
      );
      return 1;
    case 'conflict':
      if (result.identical) {
        io.stdout(
          term`${result.message}\n  --rename   import as ${result.suggestion}\nNothing was written.\n`,
        );
        return 0;
      }
      io.stderr(
        term`${result.message}\n  --rename   import as ${result.suggestion}\n  --replace  replace ${result.existing}\nNothing was written.\n`,
      );
      return 1;
    case 'unsafe':
      io.stderr(
        `${formatSkill(result.skill)}${term`${result.message}`}\n${trustHint('import')}\nNothing was written.\n`,
      );
      return 1;
    case 'imported':
      io.stdout(formatSkill(result.skill));
      if (result.renamedFrom !== undefined)
        io.stdout(
          term`Renamed from ${result.renamedFrom} to ${result.name} (the name in SKILL.md was updated to match).\n`,
        );
      if (result.trashedTo) io.stdout(term`The previous copy is in ${result.trashedTo}\n`);
      io.stdout(
        term`Imported ${result.name} into ${result.dir} (${count(result.files.length, 'file')}).\n`,
      );
      return 0;
  }
}

/** `skillbench import` — safely import a skill archive, folder or SKILL.md into a library. */
export const importCommand: CliCommand = {
  name: 'import',
  usage: USAGE,
  run,
};
