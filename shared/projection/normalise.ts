import type { Normalisation } from './types';

/** The UTF-8 byte-order mark as a JS character. */
const BOM = '\uFEFF';

/** SKILL.md text normalised for export, and what was done to it. */
export interface NormalisedSkillText {
  text: string;
  normalisations: Normalisation[];
}

/**
 * Strip the BOM and turn CRLF/CR into LF. Why: official validators reject a BOM before `---`,
 * and CRLF breaks many third-party loaders (docs/skill-format.md §1, "Always on export" in §3).
 */
export function normaliseSkillText(source: string): NormalisedSkillText {
  const normalisations: Normalisation[] = [];
  let text = source;
  if (text.startsWith(BOM)) {
    text = text.slice(1);
    normalisations.push({
      kind: 'bom-stripped',
      why: 'The file started with an invisible byte-order mark, which official validators reject; it was removed.',
    });
  }
  if (/\r/.test(text)) {
    text = text.replace(/\r\n?/g, '\n');
    normalisations.push({
      kind: 'crlf-to-lf',
      why: 'Windows line endings (CRLF) were changed to LF, which every skill loader reads.',
    });
  }
  return { text, normalisations };
}

/** Unicode NFC form of a path, `\` turned into `/` (archive names are `/`-separated UTF-8, docs/skill-format.md §3). */
export function normaliseOutputPath(path: string): string {
  return path.replace(/\\/g, '/').normalize('NFC');
}

/** The key two names collide under on a case-insensitive, normalising file system (macOS, Windows). */
export function collisionKey(path: string): string {
  return path.normalize('NFC').toLowerCase().normalize('NFC');
}

/** Windows device names that cannot be file names on Windows, with or without an extension. */
const WINDOWS_RESERVED =
  /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$|clock\$)(\..*)?$/i;

/**
 * Why a path segment is unsafe on some OS, or undefined. Why: uploads need "path characters
 * safe on every OS" (docs/skill-format.md §2 claude-upload); Windows forbids these characters and names and
 * silently strips trailing dots and spaces.
 */
export function unportableSegmentReason(segment: string): string | undefined {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(segment)) return 'contains a control character';
  if (/[<>:"|?*\\]/.test(segment))
    return 'contains one of < > : " | ? * \\, which Windows does not allow in names';
  if (/[. ]$/.test(segment) && segment !== '.' && segment !== '..')
    return 'ends with a dot or a space, which Windows drops';
  if (WINDOWS_RESERVED.test(segment)) return 'is a device name on Windows (CON, NUL, COM1, …)';
  if (utf8Length(segment) > 255) return 'is longer than 255 bytes';
  return undefined;
}

/** Bytes of `text` in UTF-8 (shared/ has no TextEncoder: no DOM, no Node). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/** C1 controls, and format characters that reorder or hide text (bidi overrides, zero-width, BOM). */
const INVISIBLE = /[\u0080-\u009f\p{Cf}\u2028\u2029]/u;

/**
 * Why `name` cannot be the folder of a skill in a library, as a plain clause ("starts with a
 * dot, …"), or undefined when it can. The one check for every place a skill's name becomes a
 * folder: import, the inspector's Save, the new-skill wizard. Why each: a dot-name is hidden or
 * special (`.git` makes the library a git repository whose config runs commands, `..` leaves
 * it); a separator makes a path; Windows refuses device names (CON, NUL, COM1 …, with any
 * extension) and drops trailing dots and spaces; control and invisible characters make a name
 * that shows as another.
 */
export function skillFolderNameProblem(name: string): string | undefined {
  if (name === '') return 'is empty';
  if (name.startsWith('.'))
    return 'starts with a dot, which makes a hidden folder (and names such as .git or .. have a special meaning)';
  if (/[/\\]/.test(name))
    return 'contains a / or \\, which would make it a path of several folders';
  if (INVISIBLE.test(name)) return 'contains an invisible control or formatting character';
  return unportableSegmentReason(name);
}
