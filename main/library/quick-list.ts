import { join } from 'node:path';
import type { SkillSummary } from '../../shared/ipc/contract';
import { locateFrontmatter, SKILL_MD_MAX_BYTES } from '../../shared/skill';
import { NEVER_ENTERED } from '../../shared/skill/file-set';
import { TimeSlicer } from '../platform/concurrency';
import { readBoundedSync } from '../platform/read-file';
import { walkFolder, type WalkedEntry } from '../platform/walk';
import { skillFileNameIn } from '../skill-folder';

/** Strip one pair of matching quotes around a YAML scalar written on one line. */
function unquote(value: string): string {
  const v = value.trim();
  if (v.length >= 2 && (v[0] === '"' || v[0] === "'") && v[v.length - 1] === v[0])
    return v.slice(1, -1);
  return v;
}

/**
 * `name` and the first line of `description` from a SKILL.md's frontmatter, read line by line
 * without the YAML parser. Why: a first glance for the list while the real check runs; the
 * checked listing replaces it (odd YAML may read differently here, never wrongly there).
 */
export function glanceFrontmatter(text: string): { name?: string; description?: string } {
  const { block } = locateFrontmatter(text);
  if (!block || block.openStart !== (text.charCodeAt(0) === 0xfeff ? 1 : 0)) return {};
  const lines = block.raw.split(/\r?\n/, 200);
  const out: { name?: string; description?: string } = {};
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const m = /^(name|description):[ \t]*(.*)$/.exec(line);
    if (!m) continue;
    let value = m[2] ?? '';
    // A block scalar (`>`, `|`) or a value on the next lines: take the next indented line.
    if (value === '' || /^[>|][+-]?\s*$/.test(value))
      value = /^[ \t]+(.*)$/.exec(lines[i + 1] ?? '')?.[1] ?? '';
    if (m[1] === 'name') out.name = unquote(value);
    else out.description = unquote(value);
  }
  return out;
}

/**
 * A first listing of a large library, for the list to show while every skill is being checked:
 * the folders at the top of the root and one level inside those that are not skills (groups),
 * each SKILL.md's `name` and description at a glance, every skill marked `pending`. Returns null
 * when the root is itself a skill or has fewer than `minFolders` folders (then the checked
 * listing comes quickly enough). Synchronous calls in time slices, like the walk.
 */
export async function quickList(root: string, minFolders: number): Promise<SkillSummary[] | null> {
  /** One folder's entries, names and kinds only (the one walker, without lstat: a glance). */
  const list = (relDir: string): WalkedEntry[] | null => {
    const children = new Map<string, WalkedEntry[]>();
    return walkFolder(root, relDir, children, [], NEVER_ENTERED, false)
      ? (children.get(relDir) ?? [])
      : null;
  };
  const top = list('');
  if (top === null || skillFileNameIn(top) !== undefined) return null;
  const folders = top.filter((d) => d.kind === 'directory' && !d.notEntered).map((d) => d.name);
  if (folders.length < minFolders) return null;
  const slicer = new TimeSlicer();
  const skills: SkillSummary[] = [];
  const visit = (relDir: string, depth: number): void => {
    const entries = list(relDir);
    if (entries === null) return;
    const fileName = skillFileNameIn(entries);
    if (fileName === undefined) {
      if (depth === 0)
        for (const d of entries)
          if (d.kind === 'directory' && !d.notEntered) visit(`${relDir}/${d.name}`, 1);
      return;
    }
    const path = join(root, relDir, fileName);
    let glance: { name?: string; description?: string } = {};
    try {
      const listed = entries.find((e) => e.name === fileName);
      glance = glanceFrontmatter(
        readBoundedSync(path, SKILL_MD_MAX_BYTES, listed).toString('utf8'),
      );
    } catch {
      // Why: an unreadable (or too large) file is listed by its folder; the check explains the problem.
    }
    skills.push({
      path,
      relativeDir: relDir,
      root,
      name: glance.name || (relDir.split('/').pop() ?? relDir),
      description: (glance.description ?? '').trim(),
      counts: { error: 0, warning: 0, info: 0 },
      suggestedProfiles: [],
      pending: true,
    });
  };
  for (const name of folders) {
    if (slicer.due()) await slicer.pause();
    visit(name, 0);
  }
  return skills.sort((a, b) =>
    a.relativeDir < b.relativeDir ? -1 : a.relativeDir > b.relativeDir ? 1 : 0,
  );
}
