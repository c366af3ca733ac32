import { isCollection, isMap, isPair, isScalar, isSeq } from 'yaml';
import { codePointLength, quoteYamlString, textOf, yamlScalarText } from '../skill/yaml-strings';
import { templateTextIn } from '../skill/template-text';
import { splitAllowedTools } from '../text/tool-list';
import { scalarSource } from '../skill/yaml-typing';
import { foldDescriptionFix, moveToMetadataFix, replaceFix, valueReplaceFix } from './fixes';
import type { RuleContext, TopEntry } from './rule-context';
import { claudeCodeListing, CLAUDE_CODE_LISTING_MAX } from './listing';
import { AGENT_SKILLS_KEYS, AGENTSKILLS_MCP_CAMEL_KEYS, CLAUDE_CODE_KEYS } from './profiles';
import type { FileView, QuickFix } from './types';

/** Spec §2 limits. */
export const LIMITS = {
  nameMax: 64,
  descriptionMax: 1024,
  compatibilityMax: 500,
  descriptionShortMcp: 50,
  claudeCodeListing: CLAUDE_CODE_LISTING_MAX,
} as const;

const XML_TAG = /<\/?[A-Za-z][A-Za-z0-9_.:-]*(?:\s[^<>]*)?\/?>/;
const ANGLE = /[<>]/;
const RESERVED = ['anthropic', 'claude'] as const;
// What Python's str.isalnum() accepts (letters and numbers of any script, not combining marks),
// which is the reference validator's test after NFKC (docs/skill-format.md §2.1).
const NAME_CHAR = /^[\p{L}\p{N}-]$/u;
const ASCII_NAME = /^[a-z0-9-]*$/;
/** A name every reader accepts: lowercase a–z and digits, single hyphens between words. */
const VALID_NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const CLAUDE_CODE_ONLY = new Set<string>(
  CLAUDE_CODE_KEYS.filter((k) => !(AGENT_SKILLS_KEYS as readonly string[]).includes(k)),
);

/**
 * Text value of a scalar entry as the profile's reader sees it: strings as is; for the reference
 * validator (strictyaml) every plain value as written, `null` and `~` included; for the others a
 * null is no text, and other plain scalars count as written (their typing is the typing rule's).
 */
function scalarText(ctx: RuleContext, e: TopEntry): string | null {
  const v = e.value;
  if (!isScalar(v)) return null;
  if (typeof v.value === 'string') return v.value;
  if (ctx.spec.reader.typing === 'strictyaml' && v.type === 'PLAIN') return scalarSource(v);
  if (v.value === null || v.value === undefined) return null;
  const s = ctx.parsed.nodeSpan(v);
  return s ? ctx.parsed.text.slice(s.start, s.end) : textOf(v.value);
}

/** Range of the first regex match inside a node's source, falling back to the whole value. */
function matchSpan(
  ctx: RuleContext,
  node: unknown,
  re: RegExp,
  e: TopEntry,
): { start: number; end: number } {
  const s = ctx.spanOf(node, e) ?? { start: e.keyStart, end: e.keyEnd };
  const src = ctx.parsed.text.slice(s.start, s.end);
  // An alias is written elsewhere than its text: point at the alias as a whole.
  if (node !== e.written) return s;
  const m = re.exec(src);
  return m ? { start: s.start + m.index, end: s.start + m.index + m[0].length } : s;
}

function frontmatterHead(ctx: RuleContext): { start: number; end: number } {
  const fm = ctx.parsed.frontmatter;
  return fm ? { start: fm.openStart, end: fm.openEnd } : { start: 0, end: 0 };
}

/** Fields a profile does not know (docs/skill-format.md §2: only six keys outside Claude Code). */
export function unexpectedKeysRule(ctx: RuleContext): void {
  if (!ctx.on('keys/unexpected')) return;
  const upload = ctx.profile === 'claude-upload';
  const allowed = [...ctx.spec.keys].join(', ');
  for (const e of ctx.facts.entries) {
    if (ctx.spec.keys.has(e.key)) continue;
    const ccField = CLAUDE_CODE_ONLY.has(e.key) && ctx.profile !== 'claude-code';
    // docs/skill-format.md §2.4: agentskills-mcp reads only the kebab-case spelling today.
    const kebab = ctx.profile === 'agentskills-mcp' ? AGENTSKILLS_MCP_CAMEL_KEYS[e.key] : undefined;
    if (kebab !== undefined) {
      ctx.report('keys/unexpected', {
        message: `agentskills-mcp ignores "${e.key}": it reads this setting only when written "${kebab}". Rename the field.`,
        detail: `agentskills-mcp maps only kebab-case keys; ${e.key} is ignored (expected ${kebab})`,
        start: e.keyStart,
        end: e.keyEnd,
        pointer: `/${e.key}`,
        fixes: ctx.facts.byKey.has(kebab)
          ? undefined
          : [replaceFix(`Rename to '${kebab}'`, e.keyStart, e.keyEnd, kebab, false)],
      });
      continue;
    }
    const fix =
      ctx.spec.keys.has('metadata') && ctx.keeps('keys/unexpected')
        ? moveToMetadataFix(ctx, e)
        : null;
    ctx.report('keys/unexpected', {
      message: ccField
        ? `"${e.key}" is a Claude Code field. This target does not accept it; keep it only for Claude Code or move it into metadata.`
        : ctx.profile === 'claude-code'
          ? `Claude Code does not know the field "${e.key}" and ignores it.`
          : ctx.profile === 'agentskills-mcp'
            ? `agentskills-mcp does not know the field "${e.key}" and ignores it.`
            : `The field "${e.key}" is not allowed here. Allowed fields: ${allowed}.${fix ? ' You can move it into metadata.' : ''}`,
      detail: upload
        ? 'unexpected key in SKILL.md frontmatter'
        : `Unexpected field in frontmatter: ${e.key}. Only ${allowed} are allowed.`,
      start: e.keyStart,
      end: e.keyEnd,
      pointer: `/${e.key.replace(/~/g, '~0').replace(/\//g, '~1')}`,
      fixes: fix ? [fix] : undefined,
    });
  }
}

function slugify(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{Nd}]+/gu, '-')
    .replace(/-+/g, '-')
    .replace(/^-|-$/g, '');
}

/** `name`: required, ≤ 64, lowercase letters/digits/`-`, no edge or double hyphens, reserved words, tags (docs/skill-format.md §2). */
export function nameRules(ctx: RuleContext): void {
  const e = ctx.entry('name');
  const profile = ctx.profile;
  if (!e) {
    if (ctx.data || ctx.parsed.frontmatter) {
      ctx.report('name/missing', {
        message: 'The skill has no name. Add a line "name: your-skill-name" to the frontmatter.',
        detail: 'Missing required field in frontmatter: name',
        ...frontmatterHead(ctx),
        pointer: '/name',
      });
    }
    return;
  }
  // The hand rules own the name in profiles that check its form: the JSON Schema does not judge it
  // again (its pattern cannot say NFKC or Unicode letters, docs/skill-format.md §2).
  if (ctx.on('name/pattern')) ctx.reported.add('/name');
  if (ctx.typeRejected.has('/name')) return;
  const v = e.value;
  if (isCollection(v)) {
    const s = ctx.spanOf(v, e);
    ctx.report('name/type', {
      message: 'The name must be a single word like "my-skill", not a list or a group of fields.',
      detail: "Field 'name' must be a string",
      start: s?.start,
      end: s?.end,
      pointer: '/name',
    });
    return;
  }
  const raw = scalarText(ctx, e);
  const span = ctx.spanOf(v, e) ?? { start: e.keyStart, end: e.keyEnd };
  // Only a quoted value can keep spaces around it: a plain one is trimmed by every YAML reader
  // (a lone CR that the YAML 1.2 parser keeps is a line break for js-yaml).
  const mode =
    ctx.spec.reader.name === 'raw' && !(isScalar(v) && v.type === 'PLAIN')
      ? 'raw'
      : ctx.spec.reader.name === 'raw'
        ? 'trim'
        : ctx.spec.reader.name;
  if (raw === null || (mode === 'raw' ? raw === '' : raw.trim() === '')) {
    ctx.report('name/missing', {
      message: 'The name is empty. Write the skill name after "name:".',
      detail: "Field 'name' must be a non-empty string",
      start: e.keyStart,
      end: e.keyEnd,
      pointer: '/name',
    });
    return;
  }
  // As the reader reads it (docs/skill-format.md §2): the reference validator trims and applies
  // NFKC (`ｍｙ-skill` is `my-skill`), skill-creator trims, agentskills-mcp takes it as it is.
  const written = mode === 'raw' ? raw : raw.trim();
  const name = mode === 'nfkc' ? written.normalize('NFKC') : written;
  // Why the folder too when it carries the same name: changing only the name would make them
  // differ, and the folder-name check would then offer the old name back (a fix that loops).
  const sameAsFolder = ctx.fileView !== undefined && ctx.fileView.folderName === written;
  const fixTo = (to: string, title: string, safe = false): QuickFix[] => {
    if (!to || to === raw) return [];
    const fix = valueReplaceFix(ctx.parsed, span.start, span.end, to, title, safe);
    if (!sameAsFolder || !VALID_NAME.test(to)) return [fix];
    // Why no fix at all: the folder cannot take a name in use beside it, and the name alone
    // would then differ from the folder.
    if (folderNameTaken(ctx.fileView, to)) return [];
    return [
      {
        ...fix,
        title: `Rename the skill and its folder to '${to}'`,
        fileOperations: [{ kind: 'rename-folder', newName: to }],
      },
    ];
  };
  const len = codePointLength(name);
  if (len > LIMITS.nameMax) {
    ctx.report('name/too-long', {
      message: `The name has ${len} characters; at most ${LIMITS.nameMax} are allowed. Shorten it.`,
      detail: `Skill name exceeds ${LIMITS.nameMax} character limit (${len} chars)`,
      ...span,
      pointer: '/name',
    });
  }
  const lower = name.toLowerCase();
  // x-personal-mcp names must start with a letter, so its suggestion drops leading digits too.
  const slug =
    profile === 'x-personal-mcp' ? slugify(lower).replace(/^[0-9-]+/, '') : slugify(lower);
  const bad = Array.from(lower).filter((c) => !NAME_CHAR.test(c));
  if (name !== lower) {
    // Why the slug when lowercase is not enough (`My Notes`): lowering only the case would leave a
    // name that still breaks the rules (`my notes`), one fix that leads to another finding.
    const to = bad.length > 0 && slug ? slug : lower;
    ctx.report('name/uppercase', {
      message: `The name "${name}" has capital letters. Skill names must be all lowercase, like "${slugify(name) || lower}".`,
      detail: `Skill name '${name}' must be lowercase`,
      ...span,
      pointer: '/name',
      // Why safe when only the case changes: the folder changes with it, nothing else reads differently.
      fixes: fixTo(
        to,
        `Change the name to '${to}'`,
        to === lower && sameAsFolder && VALID_NAME.test(lower),
      ),
    });
  }
  if (bad.length > 0) {
    ctx.report('name/pattern', {
      message: `The name contains ${[...new Set(bad)].map((c) => (c === ' ' ? 'a space' : `"${c}"`)).join(', ')}. Use only lowercase letters, digits and hyphens, like "${slug}".`,
      detail: `Skill name '${name}' contains invalid characters. Only letters, digits, and hyphens are allowed.`,
      ...span,
      pointer: '/name',
      fixes: fixTo(slug, `Change the name to '${slug}'`),
    });
  }
  if (name.startsWith('-') || name.endsWith('-')) {
    ctx.report('name/pattern', {
      message: 'The name starts or ends with a hyphen. Hyphens may only be used between words.',
      detail: 'Skill name cannot start or end with a hyphen',
      ...span,
      pointer: '/name',
      fixes: fixTo(slug, `Change the name to '${slug}'`),
    });
  }
  if (name.includes('--')) {
    ctx.report('name/pattern', {
      message: 'The name has two hyphens in a row. Use a single hyphen between words.',
      detail: 'Skill name cannot contain consecutive hyphens',
      ...span,
      pointer: '/name',
      fixes: fixTo(slug, `Change the name to '${slug}'`),
    });
  }
  // Spec §2 x-personal-mcp: kebab-case starting with a letter (`^[a-z][a-z0-9-]*$`).
  if (profile === 'x-personal-mcp' && /^[0-9]/.test(name)) {
    ctx.report('name/pattern', {
      message:
        'The name starts with a digit. For this repository contract it must start with a letter.',
      detail: 'name must match ^[a-z][a-z0-9-]*$',
      ...span,
      pointer: '/name',
    });
  }
  // docs/skill-format.md §2.1: other scripts' lowercase letters pass the reference validator but
  // not the upload targets; tested on the name as written, since only the reference validator
  // applies NFKC (`ｍｙ-skill` is ASCII for it and for no other reader).
  const writtenLower = written.toLowerCase();
  if (bad.length === 0 && !ASCII_NAME.test(writtenLower)) {
    const ascii = slugify(lower.normalize('NFKD').replace(/\p{M}/gu, '')).replace(
      /[^a-z0-9-]/g,
      '',
    );
    const compat = ASCII_NAME.test(lower) && mode === 'nfkc';
    ctx.report('name/non-ascii', {
      message:
        ctx.sev('name/non-ascii') === 'error'
          ? 'The name uses letters outside a–z. This target accepts only a–z, 0–9 and hyphens.'
          : compat
            ? `The name is written with full-width or other look-alike characters. The Agent Skills reference validator reads it as "${lower}" and accepts it, but Claude upload and other readers reject it.`
            : 'The name uses letters outside a–z. The Agent Skills reference validator accepts that, but Claude upload targets reject it.',
      detail: 'name must match ^[a-z0-9-]+$ for upload targets',
      ...span,
      pointer: '/name',
      fixes:
        ascii && ascii !== writtenLower ? fixTo(ascii, `Change the name to '${ascii}'`) : undefined,
    });
  }
  // Spec §2 claude-upload: name must not contain `anthropic` or `claude`.
  if (ctx.on('name/reserved-word')) {
    for (const word of RESERVED) {
      if (!lower.includes(word)) continue;
      const stripped = lower.split(word).join('-').replace(/-+/g, '-').replace(/^-|-$/g, '');
      ctx.report('name/reserved-word', {
        message: `The name contains "${word}", a word Anthropic reserves. Claude upload rejects it; choose a name without it.`,
        detail: `Skill name in SKILL.md cannot contain the reserved word '${word}'`,
        ...span,
        pointer: '/name',
        fixes:
          stripped && !RESERVED.some((w) => stripped.includes(w))
            ? fixTo(stripped, `Change the name to '${stripped}'`)
            : undefined,
      });
    }
  }
  if (XML_TAG.test(name)) {
    ctx.report('name/xml-tag', {
      message:
        'The name contains something that looks like an XML tag (<word>). Remove the angle brackets.',
      detail:
        ctx.profile === 'claude-upload'
          ? 'Skill name in SKILL.md cannot contain XML tags'
          : 'name contains an XML tag',
      ...matchSpan(ctx, v, XML_TAG, e),
      pointer: '/name',
    });
  }
  folderMismatch(ctx, name, span, raw, ctx.spec.reader.name === 'raw');
}

function folderMismatch(
  ctx: RuleContext,
  name: string,
  span: { start: number; end: number },
  raw: string,
  exact: boolean,
): void {
  const fv = ctx.fileView;
  if (!fv || !ctx.on('name/folder-mismatch')) return;
  // Spec §2 mcp-serve: the folder path's final segment equals `name`.
  const folder =
    ctx.profile === 'mcp-serve' && fv.relativePath
      ? (fv.relativePath.split('/').filter(Boolean).pop() ?? fv.folderName)
      : fv.folderName;
  // docs/skill-format.md §2: compared after Unicode NFKC, except by agentskills-mcp, whose loader
  // compares the folder with the name exactly.
  if (exact ? folder === name : folder.normalize('NFKC') === name.normalize('NFKC')) return;
  // Why either way only to a valid name: renaming the folder to a name that breaks the name rules
  // (`My Notes`) would put an invalid name on disk, and changing the name to such a folder name
  // would trade one finding for another, whose fix leads back here. The name's own findings offer
  // the valid name.
  const taken = folderNameTaken(fv, name);
  const fixes: QuickFix[] =
    VALID_NAME.test(name) && !taken
      ? [
          {
            title: `Rename the folder to '${name}'`,
            edits: [],
            fileOperations: [{ kind: 'rename-folder', newName: name }],
            safe: false,
          },
        ]
      : [];
  if (folder !== raw && VALID_NAME.test(folder))
    fixes.push(
      valueReplaceFix(
        ctx.parsed,
        span.start,
        span.end,
        folder,
        `Change the name to '${folder}'`,
        false,
      ),
    );
  ctx.report('name/folder-mismatch', {
    message: taken
      ? `The name "${name}" is different from the folder name "${folder}". They must be the same. Another folder beside this one is already called "${name}", so change the name, or rename or move that other folder first.`
      : `The name "${name}" is different from the folder name "${folder}". They must be the same: rename the folder or change the name.`,
    detail: `Directory name '${folder}' must match skill name '${name}'`,
    ...span,
    pointer: '/name',
    fixes,
  });
}

/** Whether the folder that holds the skill folder already has an entry called `name` (when known). */
function folderNameTaken(view: FileView | undefined, name: string): boolean {
  return view?.takenNames?.includes(name) ?? false;
}

/** `description`: required, non-empty, ≤ 1024 code points, no XML tags for Anthropic targets (docs/skill-format.md §2). */
export function descriptionRules(ctx: RuleContext): void {
  const e = ctx.entry('description');
  const upload = ctx.profile === 'claude-upload';
  if (!e) {
    if (ctx.data || ctx.parsed.frontmatter) {
      ctx.report('description/missing', {
        message:
          'The skill has no description. Add "description:" with a sentence saying what the skill does and when to use it.',
        detail: 'Missing required field in frontmatter: description',
        ...frontmatterHead(ctx),
        pointer: '/description',
      });
    }
    return;
  }
  // Hand rules own the description where they check it (as for the name).
  if (ctx.on('description/empty')) ctx.reported.add('/description');
  if (ctx.typeRejected.has('/description')) return;
  const v = e.value;
  if (isCollection(v)) {
    const s = ctx.spanOf(v, e);
    ctx.report('description/type', {
      message:
        'The description must be text, but here it is a list or a group of fields. If it contains a colon, put it in quotes.',
      detail: "Field 'description' must be a string",
      start: s?.start,
      end: s?.end,
      pointer: '/description',
    });
    return;
  }
  const desc = scalarText(ctx, e);
  // agentskills-mcp's schema asks only for one character; the others trim first.
  if (desc === null || (ctx.spec.reader.name === 'raw' ? desc === '' : desc.trim() === '')) {
    ctx.report('description/empty', {
      message:
        'The description is empty. Write a sentence saying what the skill does and when to use it.',
      detail: "Field 'description' must be a non-empty string",
      start: e.keyStart,
      end: e.keyEnd,
      pointer: '/description',
    });
    return;
  }
  const span = ctx.spanOf(v, e) ?? { start: e.keyStart, end: e.keyEnd };
  const len = codePointLength(desc);
  if (len > LIMITS.descriptionMax && ctx.on('description/too-long')) {
    const fold = foldDescriptionFix(ctx, span.start, span.end, desc, LIMITS.descriptionMax);
    ctx.report('description/too-long', {
      message: `The description has ${len} characters; at most ${LIMITS.descriptionMax} are allowed. Shorten it, or move the details into the body.`,
      detail: upload
        ? "field 'description' in SKILL.md must be at most 1024 characters"
        : `Description exceeds ${LIMITS.descriptionMax} character limit (${len} chars)`,
      ...span,
      pointer: '/description',
      fixes: fold ? [fold] : undefined,
    });
  }
  if (len < LIMITS.descriptionShortMcp) {
    ctx.report('description/too-short', {
      message: `The description has only ${len} characters. Say in at least ${LIMITS.descriptionShortMcp} characters what the skill does and when to use it.`,
      detail: `description shorter than ${LIMITS.descriptionShortMcp} characters`,
      ...span,
      pointer: '/description',
    });
  }
  const template = ctx.on('description/template-text') ? templateTextIn(desc) : null;
  if (template !== null) {
    ctx.report('description/template-text', {
      message:
        'The description is still template text. Agents choose a skill by its description: write what the skill does and when to use it.',
      detail: `description is ${template}`,
      ...span,
      pointer: '/description',
    });
  }
  if (XML_TAG.test(desc)) {
    ctx.report('description/xml-tag', {
      message:
        'The description contains something that looks like an XML tag (such as <input>). Claude upload rejects that; write it without angle brackets.',
      detail: upload
        ? 'SKILL.md description cannot contain XML tags'
        : 'description contains an XML tag',
      ...matchSpan(ctx, v, XML_TAG, e),
      pointer: '/description',
    });
  } else if (ANGLE.test(desc)) {
    ctx.report('description/angle-bracket', {
      message:
        ctx.sev('description/angle-bracket') === 'error'
          ? 'The description contains "<" or ">". Claude upload rejects any angle bracket in the description (skill-creator checks for it before packaging); write "to" or "over" instead.'
          : 'The description contains "<" or ">". The skill-creator packaging script rejects any angle bracket; write "to" or "over" instead.',
      detail: 'skill-creator: Description cannot contain angle brackets (< or >)',
      ...matchSpan(ctx, v, ANGLE, e),
      pointer: '/description',
    });
  }
  if (ctx.on('description/listing-truncated')) {
    const w = ctx.entry('when_to_use');
    const { total, cut } = claudeCodeListing(desc, w ? (scalarText(ctx, w) ?? '') : '');
    if (cut > 0) {
      ctx.report('description/listing-truncated', {
        message: `The description${w ? ' and when_to_use, as Claude Code joins them (with " - " between),' : ''} ${w ? 'have' : 'has'} ${total} characters. Claude Code's skill list shows the first ${LIMITS.claudeCodeListing - 1} and "…", so the last ${cut} are not seen.`,
        detail: `${w ? 'description + " - " + when_to_use' : 'description'} > ${LIMITS.claudeCodeListing} characters (UTF-16 units, as Claude Code counts)`,
        ...span,
        pointer: '/description',
      });
    }
  }
}

/** `compatibility` ≤ 500 characters, `metadata` string → string, `allowed-tools` a string (docs/skill-format.md §2). */
export function optionalFieldRules(ctx: RuleContext): void {
  // Fixes that rewrite a whole collection need a frontmatter that parsed without errors.
  const clean = ctx.parsed.yamlErrors.length === 0;
  const c = ctx.entry('compatibility');
  if (c && ctx.spec.keys.has('compatibility') && !ctx.typeRejected.has('/compatibility')) {
    const text = isCollection(c.value) ? null : scalarText(ctx, c);
    const s = ctx.spanOf(c.value, c) ?? { start: c.keyStart, end: c.keyEnd };
    if (isCollection(c.value)) {
      ctx.report('compatibility/type', {
        message:
          'The compatibility field must be text, such as "Needs Python 3.11 and internet access".',
        detail: "Field 'compatibility' must be a string",
        ...s,
        pointer: '/compatibility',
      });
    } else if (text !== null) {
      const n = codePointLength(text);
      if (n > LIMITS.compatibilityMax) {
        ctx.report('compatibility/too-long', {
          message: `The compatibility text has ${n} characters; at most ${LIMITS.compatibilityMax} are allowed. Shorten it.`,
          detail: `Compatibility exceeds ${LIMITS.compatibilityMax} character limit (${n} chars)`,
          ...s,
          pointer: '/compatibility',
        });
      }
    }
  }
  const m = ctx.entry('metadata');
  if (m && ctx.spec.keys.has('metadata')) {
    const v = m.value;
    const isNull = v === null || (isScalar(v) && v.value === null);
    if (!isNull && !isMap(v)) {
      const s = ctx.spanOf(v, m) ?? { start: m.keyStart, end: m.keyEnd };
      ctx.report('metadata/type', {
        message:
          'The metadata field must be a group of "name: value" lines, indented under "metadata:".',
        detail: "Field 'metadata' must be a mapping of string to string",
        ...s,
        pointer: '/metadata',
      });
    } else if (isMap(v)) {
      for (const item of v.items) {
        if (!isPair(item) || !isCollection(item.value)) continue;
        const key = isScalar(item.key) ? String(item.key.value) : '?';
        const s = ctx.spanOf(item.value, m) ?? { start: m.keyStart, end: m.keyEnd };
        const src = ctx.parsed.text.slice(s.start, s.end);
        const flat = JSON.stringify(
          ctx.data?.['metadata'] && (ctx.data['metadata'] as Record<string, unknown>)[key],
        );
        ctx.report('metadata/non-string-value', {
          message: `The metadata value "${key}" is a list or group, not text. Readers turn it into text; write it as text yourself.`,
          detail: 'metadata values must be strings',
          ...s,
          pointer: `/metadata/${key}`,
          fixes:
            item.value.flow && flat && clean
              ? [
                  replaceFix(
                    'Write the value as quoted text',
                    s.start,
                    s.end,
                    quoteYamlString(src),
                    false,
                  ),
                ]
              : undefined,
        });
      }
    }
  }
  const t = ctx.entry('allowed-tools');
  if (t && ctx.spec.keys.has('allowed-tools')) {
    const v = t.value;
    if (isSeq(v)) {
      const items = v.items.map((i) =>
        isScalar(i) && typeof i.value === 'string' ? i.value : null,
      );
      const s = ctx.spanOf(v, t) ?? { start: t.keyStart, end: t.keyEnd };
      const joinable = items.every((i): i is string => i !== null && i !== '' && !/\s/.test(i));
      ctx.report('allowed-tools/list', {
        message:
          'allowed-tools is written as a list. The Agent Skills specification wants one line with the tool names separated by spaces.',
        detail: 'allowed-tools must be a space-separated string',
        ...s,
        pointer: '/allowed-tools',
        fixes:
          joinable && items.length > 0 && clean
            ? [
                replaceFix(
                  'Write the tools on one line',
                  t.keyEnd,
                  s.end,
                  `: ${yamlScalarText(items.join(' '))}`,
                  true,
                ),
              ]
            : undefined,
      });
    } else if (isScalar(v) && typeof v.value === 'string') {
      const read = splitAllowedTools(v.value);
      if (read.commas) {
        const s = ctx.spanOf(v, t) ?? { start: t.keyStart, end: t.keyEnd };
        ctx.report('allowed-tools/commas', {
          message: `allowed-tools separates the tools with commas. The Agent Skills specification separates them with spaces, so a reader that follows it sees a tool named "${read.tools[0] ?? ''},". Claude Code accepts both.`,
          detail: 'allowed-tools must be a space-separated string',
          ...s,
          pointer: '/allowed-tools',
          fixes:
            read.tools.length > 0 && clean
              ? [
                  replaceFix(
                    'Separate the tools with spaces',
                    t.keyEnd,
                    s.end,
                    `: ${yamlScalarText(read.tools.join(' '))}`,
                    true,
                  ),
                ]
              : undefined,
        });
      }
    } else if (isCollection(v) || (isScalar(v) && v.value !== null)) {
      const s = ctx.spanOf(v, t) ?? { start: t.keyStart, end: t.keyEnd };
      // A plain scalar is the typing rule's (yaml/ambiguous-scalar, or this rule where the reader refuses it).
      if (!isScalar(v) || ctx.facts.plains.every((p) => p.node !== v)) {
        ctx.report('allowed-tools/type', {
          message: 'allowed-tools must be text listing tool names separated by spaces.',
          detail: "Field 'allowed-tools' must be a string",
          ...s,
          pointer: '/allowed-tools',
        });
      }
    }
  }
  const h = ctx.entry('argument-hint');
  if (h && ctx.spec.keys.has('argument-hint') && isSeq(h.value)) {
    const s = ctx.spanOf(h.value, h) ?? { start: h.keyStart, end: h.keyEnd };
    const src = ctx.parsed.text.slice(s.start, s.end);
    // Spec §2 claude-code: an unquoted `[x]` becomes a list.
    ctx.report('argument-hint/list', {
      message: `The argument hint ${src} is read as a list because of the square brackets. Put it in quotes so it is shown as written.`,
      detail: 'argument-hint must be a string; unquoted [..] is a YAML flow sequence',
      ...s,
      pointer: '/argument-hint',
      fixes:
        h.value.flow && clean
          ? [replaceFix('Put the hint in quotes', s.start, s.end, quoteYamlString(src), true)]
          : undefined,
    });
  }
  if (ctx.on('license/missing') && !ctx.entry('license') && ctx.data) {
    ctx.report('license/missing', {
      message:
        'The skill has no license. Add "license:" with a license name such as MIT or Apache-2.0.',
      detail: 'agentskills-mcp: missing license',
      ...frontmatterHead(ctx),
      pointer: '/license',
    });
  }
}
