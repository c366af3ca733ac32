/**
 * Gathering what the agent sees (docs/agent-view.md): the skills of library folders, read with
 * the one skill-folder reader (main/skill-folder), and the skills the inspector discovered on
 * connected servers (main/inspector), as catalog candidates in source order; and each library
 * skill's trigger evals from its withheld `evals/` folder.
 */
import { claudeCodeList, claudeCodeReading } from '../../shared/agent-view/claude-code-list';
import { codexReading } from '../../shared/agent-view/codex-list';
import { geminiReading } from '../../shared/agent-view/gemini-list';
import { openCodeReading } from '../../shared/agent-view/opencode-list';
import { isUtf8 } from 'node:buffer';
import { basename, join } from 'node:path';
import {
  parseTriggerEvals,
  TRIGGER_EVALS_FILE,
  TRIGGER_EVALS_MAX_BYTES,
  type CatalogCandidate,
  type EvalSource,
} from '../../shared/agent-view';
import { parseSkill, SKILL_MD_MAX_BYTES, type ParsedSkill } from '../../shared/skill';
import type { InspectedSkill } from '../../shared/inspector/types';
import type { FileView } from '../../shared/validation';
import type { ReviewMemo } from '../safety/service';
import { mapLimit, TimeSlicer } from '../platform/concurrency';
import { describeFsError } from '../platform/fs-errors';
import { readBoundedSync, readRegularFileSync } from '../platform/read-file';
import { NOT_UTF8 } from '../mcp-server/catalog';
import { mcpServeCheck, type GateInput, type SkillCheck } from '../mcp-server/skill-check';
import { findSkillFolders, noSkillsFound, type FoundSkill } from '../skill-folder';
import { readCodexSettings } from '../skill-folder/codex';
import { isJsonObject } from '../../shared/json/values';

/** A library skill as gathered: the candidate, its folder, and its trigger evals if it has any. */
export interface GatheredSkill {
  candidate: CatalogCandidate;
  dir: string;
  evals?: EvalSource;
}

/** What reading the library folders gave, with the folders or files that could not be read (or not as meant). */
export interface GatheredLibrary {
  skills: GatheredSkill[];
  problems: { path: string; message: string }[];
}

/**
 * Why what the block shows for a skill may not be what its author meant, or undefined: no
 * frontmatter, frontmatter that is not valid YAML (a strict reader drops the skill), or no
 * description (the model has nothing to choose it by).
 */
function readingProblem(parsed: ParsedSkill, file: string): string | undefined {
  if (!parsed.frontmatter)
    return `${file} has no frontmatter, so it is listed under its folder name with no description. Start the file with a --- line, name and description, and another --- line.`;
  if (parsed.yamlErrors.length > 0)
    return `The frontmatter of ${file} could not be read whole as YAML, so its name and description are listed as far as they could be read; a reader that checks strictly leaves this skill out. Run skillbench validate on it to see what to fix.`;
  const fm = isJsonObject(parsed.data) ? parsed.data : undefined;
  if (typeof fm?.['description'] !== 'string' || fm['description'].trim() === '')
    return `${file} has no description, so the model has nothing to choose this skill by. Add a description to its frontmatter.`;
  return undefined;
}

/**
 * Read one SKILL.md into a candidate (name and description from the frontmatter, else the folder
 * name and ''), with why the listing may not be what the author meant.
 */
export function candidateFromText(
  text: string,
  file: string,
  dir: string,
  folderName: string,
  root: string,
): { candidate: CatalogCandidate; parsed: ParsedSkill; problem?: string } {
  const parsed = parseSkill(text);
  const fm = isJsonObject(parsed.data) ? parsed.data : undefined;
  const name =
    typeof fm?.['name'] === 'string' && fm['name'].trim() !== '' ? fm['name'] : folderName;
  const description = typeof fm?.['description'] === 'string' ? fm['description'] : '';
  const candidate: CatalogCandidate = {
    name,
    description,
    location: file,
    directory: dir,
    source: { kind: 'library', root },
    body: parsed.body,
  };
  if (fm) candidate.frontmatter = fm;
  const problem = readingProblem(parsed, file);
  return problem ? { candidate, parsed, problem } : { candidate, parsed };
}

/** A skill's `evals/triggers.json`, if it has one. */
export function readTriggerEvalsFile(dir: string): EvalSource | undefined {
  const path = join(dir, ...TRIGGER_EVALS_FILE.split('/'));
  let read;
  try {
    read = readRegularFileSync(path, TRIGGER_EVALS_MAX_BYTES);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return { error: describeFsError(error, path, 'read').message, file: path };
  }
  if (!read.bytes)
    return {
      error: `${TRIGGER_EVALS_FILE} is larger than ${TRIGGER_EVALS_MAX_BYTES} bytes, so it was not read.`,
      file: path,
    };
  const parsed = parseTriggerEvals(read.bytes.toString('utf8'));
  return parsed.ok ? { evals: parsed.evals, file: path } : { error: parsed.error, file: path };
}

/**
 * Every skill of the library folders, in the order the folders are given (each in folder order).
 * `served` is the check `skillbench serve` makes (default: without the safety gate); with a gate
 * on top (withSafetyGate), a skill the gate holds back is marked `heldBack`.
 */
export async function gatherLibrary(
  roots: readonly string[],
  served: SkillCheck = mcpServeCheck,
  /** Safety reviews kept from an earlier run, answered from and added to (see ReviewMemo). */
  reviews?: ReviewMemo,
): Promise<GatheredLibrary> {
  const skills: GatheredSkill[] = [];
  const problems: GatheredLibrary['problems'] = [];
  // Why slices: a large library is thousands of synchronous reads; the window's IPC and the
  // browser shell's host must keep answering meanwhile.
  const slicer = new TimeSlicer();
  /** Skills read whole, for the server's check (and the gate on top, when there is one). */
  const checks: {
    read: ReturnType<typeof candidateFromText>;
    text: string;
    found: FoundSkill;
    view: FileView;
    folderName: string;
  }[] = [];
  for (const root of roots) {
    let found;
    try {
      // Why the folders too: the safety review reads each skill folder from this one walk, as
      // the embedded server's review does, instead of walking every skill again.
      found = await findSkillFolders(root, { views: true, folders: served.stages !== undefined });
    } catch (error) {
      problems.push({ path: root, message: describeFsError(error, root, 'read').message });
      continue;
    }
    // Why a problem: a mistyped folder would otherwise give an empty block and no word.
    if (found.length === 0) problems.push({ path: root, message: noSkillsFound(root) });
    /** This folder's skills as Claude Code's list would show them, were it its skills folder. */
    const listed: { candidate: CatalogCandidate; folder: string; parsed: ParsedSkill }[] = [];
    for (const f of found) {
      if (slicer.due()) await slicer.pause();
      let text: string;
      let utf8: boolean;
      try {
        const bytes = readBoundedSync(f.file, SKILL_MD_MAX_BYTES);
        text = bytes.toString('utf8');
        utf8 = isUtf8(bytes);
      } catch (error) {
        problems.push({ path: f.file, message: describeFsError(error, f.file, 'read').message });
        continue;
      }
      const folderName = f.dir.split(/[\\/]/).pop() ?? f.dir;
      const read = candidateFromText(text, f.file, f.dir, folderName, root);
      listed.push({ candidate: read.candidate, folder: folderName, parsed: read.parsed });
      const settings = readCodexSettings(f.dir);
      read.candidate.codex = codexReading(text, folderName, {
        fileName: basename(f.file),
        parsed: read.parsed,
        ...(settings !== undefined ? { settings } : {}),
      });
      read.candidate.gemini = geminiReading(text, folderName, {
        fileName: basename(f.file),
        parsed: read.parsed,
        depth: f.relativeDir === '' ? 0 : f.relativeDir.split('/').length,
      });
      read.candidate.opencode = openCodeReading(text, {
        fileName: basename(f.file),
        parsed: read.parsed,
      });
      if (read.problem) problems.push({ path: f.file, message: read.problem });
      // Why no check then: the server refuses such a SKILL.md before any check, with these words.
      if (!utf8) read.candidate.notServed = NOT_UTF8;
      // Why checked with a reading problem too: the server checks it, and its reason (a
      // frontmatter nested too deep, no description) is the one to give beside the problem.
      else if (f.view) checks.push({ read, text, found: f, view: f.view, folderName });
      const gathered: GatheredSkill = { candidate: read.candidate, dir: f.dir };
      const evals = readTriggerEvalsFile(f.dir);
      if (evals) gathered.evals = evals;
      skills.push(gathered);
    }
    const lines = claudeCodeList(
      listed.map((l) => ({ folder: l.folder, reading: claudeCodeReading(l.parsed) })),
    );
    listed.forEach((l, k) => {
      const line = lines[k]?.line;
      if (line !== undefined) l.candidate.claudeCode = line;
    });
  }
  // Why the server's own check: the block and `skillbench serve` must not disagree about a skill
  // without a word; the reading problems above already say why a strict reader skips. The base
  // check says what strict hosts refuse too; the gate on top only what serve holds back.
  const base = served.stages?.base ?? served;
  const gate = served.stages?.gate;
  // Why one object for the whole gathering: the gate reads the "Trust anyway" decisions once per
  // build, as the embedded server's does, not once per skill.
  const build = {};
  // Why a few at once: each check waits for digests made off this thread, and the safety review
  // for its reads; one skill's waits then overlap another's rules (a CPU profile of `catalog` on
  // 1,000 skills: the thread idle ~0.25 s of ~1.8 s when they ran one after another).
  await mapLimit(checks, 8, async ({ read, text, found: f, view, folderName }) => {
    const verdict = await base({
      text,
      parsed: read.parsed,
      fileView: view,
      skillPath: f.relativeDir === '' ? folderName : f.relativeDir,
      dir: f.dir,
    });
    if (!verdict.servable) {
      if (verdict.reasons[0] !== undefined) read.candidate.notServed = verdict.reasons[0];
      return;
    }
    if (!gate || !f.folder) return;
    // Why the parse is handed on: the review uses it only when its own decoding of the bytes it
    // reads gives exactly this text (reviewInputOfFolder).
    const seen: GateInput = {
      folder: f.folder,
      bytes: () => undefined,
      build,
      skillMd: { text, parsed: read.parsed },
      ...(reviews ? { reviews } : {}),
    };
    const gated = await gate(f.dir, verdict, seen);
    const reason = gated.reasons.at(-1);
    if (!gated.servable && reason !== undefined) read.candidate.heldBack = reason;
  });
  return { skills, problems };
}

/** Candidates for the skills discovered on servers (the inspector's), in connection order. */
export function serverCandidates(
  skills: readonly InspectedSkill[],
  targets: ReadonlyMap<string, string> = new Map(),
): CatalogCandidate[] {
  return skills.map((s) => {
    const candidate: CatalogCandidate = {
      name: s.name,
      description: s.description ?? '',
      location: s.uri,
      directory: s.rootUri,
      source: {
        kind: 'server',
        server: s.server,
        ...(targets.get(s.server) ? { target: targets.get(s.server) } : {}),
      },
    };
    if (s.frontmatter) candidate.frontmatter = s.frontmatter;
    return candidate;
  });
}
