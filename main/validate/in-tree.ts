import { basename } from 'node:path';
import { parseSkill, SKILL_MD_MAX_BYTES } from '../../shared/skill';
import type { ParsedSkill } from '../../shared/skill';
import { chooseProfiles, suggestProfiles, validateSkill } from '../../shared/validation';
import type { FileView, ProfileId } from '../../shared/validation';
import { describeFsError } from '../platform/fs-errors';
import { joinWalked } from '../platform/paths';
import { readBoundedSync } from '../platform/read-file';
import { fileViewFromTree, readViewTextsSync } from '../skill-folder';
import type { WalkedTree } from '../skill-folder';
import {
  diskDiagnostic,
  notUtf8Diagnostics,
  packageDiagnostics,
  packageSize,
  targetFits,
} from './disk-rules';
import { memberFacts } from './library-checks';
import type { LibraryMember } from './library-checks';
import type { SkillValidation } from './types';

/** One skill's validation plus what the library-wide checks need from it. */
export interface Validated {
  result: SkillValidation;
  member: LibraryMember;
}

/** Validate the skill at `relDir` of a walked tree: read SKILL.md (+ comparison files), run the core and the disk checks. */
export function validateInTree(
  tree: WalkedTree,
  relDir: string,
  relativePath: string,
  fileName: string,
  given: readonly ProfileId[] | undefined,
  extra: readonly ProfileId[] = [],
): Validated {
  const dir = joinWalked(tree.root, relDir);
  const file = joinWalked(dir, fileName);
  const view = fileViewFromTree(tree, relDir, relativePath);
  let parsed: ParsedSkill;
  let bytes: Buffer;
  let text: string;
  try {
    // Why synchronous reads: see TimeSlicer in main/platform/concurrency.ts; callers slice the work.
    // Why the listed entry: one fstat after the read confirms it is the file the walk listed.
    const listed = tree.children.get(relDir)?.find((e) => e.name === fileName);
    bytes = readBoundedSync(file, SKILL_MD_MAX_BYTES, listed);
    readViewTextsSync(dir, view);
    text = bytes.toString('utf8');
    parsed = parseSkill(text);
  } catch (error) {
    return unreadable(dir, file, relativePath, view, given, error);
  }
  const { profiles, own, source } = chooseProfiles(parsed, given, extra);
  const core = validateSkill(parsed, { profiles, ownProfiles: own, fileView: view });
  const size = packageSize(view);
  const diagnostics = [
    ...notUtf8Diagnostics(bytes, text, profiles),
    ...core.diagnostics,
    ...packageDiagnostics(size, profiles),
  ];
  const facts = memberFacts(parsed, profiles);
  const result: SkillValidation = {
    file,
    dir,
    relativePath,
    name: facts.name,
    profiles,
    profilesSource: source,
    diagnostics,
    verdicts: core.verdicts,
    counts: { error: 0, warning: 0, info: 0 },
    size,
    targets: targetFits(size),
    suggestedProfiles: source === 'suggested' ? [...own] : suggestProfiles(parsed),
  };
  if (facts.description !== undefined) result.description = facts.description;
  return {
    result,
    member: {
      relativePath,
      filePath: relativePath === '' ? fileName : `${relativePath}/${fileName}`,
      facts,
      profiles,
      diagnostics,
    },
  };
}

function unreadable(
  dir: string,
  file: string,
  relativePath: string,
  view: FileView,
  given: readonly ProfileId[] | undefined,
  error: unknown,
): Validated {
  const profiles: ProfileId[] = given && given.length > 0 ? [...new Set(given)] : ['agentskills'];
  const why = describeFsError(error, file, 'read');
  const diagnostics = profiles.flatMap(
    (p) =>
      diskDiagnostic('file/unreadable', p, {
        message: why.message,
        detail: why.detail ?? why.code,
      }) ?? [],
  );
  const size = packageSize(view);
  return {
    result: {
      file,
      dir,
      relativePath,
      name: null,
      profiles,
      profilesSource: given?.length ? 'given' : 'suggested',
      diagnostics,
      verdicts: {},
      counts: { error: 0, warning: 0, info: 0 },
      size,
      targets: targetFits(size),
      suggestedProfiles: ['agentskills'],
    },
    member: {
      relativePath,
      filePath: `${relativePath}/${basename(file)}`,
      facts: { name: null, dependencies: [] },
      profiles,
      diagnostics,
    },
  };
}
