import { parseSkill } from '../skill/frontmatter-parser';
import { resolveLimits } from '../skill/limits';
import type { ParsedSkill } from '../skill/frontmatter-parser';
import { buildFacts, RuleContext } from './rule-context';
import type { RuleFn } from './rule-context';
import { bodyLengthRule, bodyPlaceholderRules } from './body-rules';
import { descriptionRules, nameRules, optionalFieldRules, unexpectedKeysRule } from './field-rules';
import { folderRules } from './folder-rules';
import { linkRules } from './link-rules';
import { limitRules, reportLimit } from './limit-rules';
import { fileRules, frontmatterBoundaryRules } from './frontmatter-rules';
import { schemaRule } from './schema-rules';
import { universalRules } from './universal-rules';
import { xPersonalMcpRules } from './x-personal-mcp-rules';
import {
  ambiguousScalarRule,
  commentTruncationRule,
  notJsonRule,
  tabIndentRule,
  tripleDashRule,
  unquotedColonRule,
  yamlStyleRules,
  yamlSyntaxRules,
} from './yaml-rules';
import { keepOwnFormatFixes } from './choose-profiles';
import { PROFILE_IDS } from './types';
import type { Diagnostic, ProfileId, ValidateOptions, ValidationResult } from './types';

/** Every hand rule, in reporting order; the schema rule runs last so hand rules win duplicates. */
const RULE_FUNCTIONS: readonly RuleFn[] = [
  limitRules,
  frontmatterBoundaryRules,
  fileRules,
  yamlSyntaxRules,
  unquotedColonRule,
  commentTruncationRule,
  tripleDashRule,
  ambiguousScalarRule,
  yamlStyleRules,
  tabIndentRule,
  notJsonRule,
  unexpectedKeysRule,
  nameRules,
  descriptionRules,
  optionalFieldRules,
  bodyLengthRule,
  bodyPlaceholderRules,
  xPersonalMcpRules,
  universalRules,
  folderRules,
  linkRules,
  schemaRule,
];

/**
 * The rules that need nothing from the YAML: what runs when the frontmatter went past a bound and
 * was not read (the others would report fields as missing that were only not read).
 */
const TEXT_RULES: ReadonlySet<RuleFn> = new Set([
  limitRules,
  frontmatterBoundaryRules,
  fileRules,
  tripleDashRule,
  bodyLengthRule,
  bodyPlaceholderRules,
  folderRules,
  linkRules,
]);

/** The profiles to check: the given ones, deduplicated and known, or the default. */
function profilesOf(options: ValidateOptions): ProfileId[] {
  const list = (options.profiles ?? []).filter((p) => PROFILE_IDS.includes(p));
  return list.length > 0 ? [...new Set(list)] : ['agentskills'];
}

/**
 * Validate a SKILL.md (text or already parsed) against one or more profiles; never throws. The
 * work is bounded (shared/skill/limits.ts): past a bound the file gets one `file/too-complex`
 * finding per profile and only what can be checked safely is checked.
 */
export function validateSkill(
  input: string | ParsedSkill,
  options: ValidateOptions = {},
): ValidationResult {
  const parsed = typeof input === 'string' ? parseSkill(input, { limits: options.limits }) : input;
  const maxFindings = options.limits
    ? resolveLimits({ ...parsed.limits, ...options.limits }).findings
    : parsed.limits.findings;
  const yamlUnread = parsed.overLimits.some(
    (o) => o.limit !== 'bodyBytes' && o.limit !== 'findings',
  );
  const facts = buildFacts(parsed);
  const diagnostics: Diagnostic[] = [];
  const verdicts: ValidationResult['verdicts'] = {};
  for (const profile of profilesOf(options)) {
    const out: Diagnostic[] = [];
    const ctx = new RuleContext(parsed, profile, facts, options.fileView, out, maxFindings);
    for (const rule of RULE_FUNCTIONS) {
      if (yamlUnread && !TEXT_RULES.has(rule)) continue;
      try {
        rule(ctx);
      } catch (e) {
        // A rule bug must not hide the other findings; it surfaces as its own diagnostic.
        ctx.report('engine/rule-failed', {
          message:
            'Skillbench could not finish one of its checks on this file. Please report this.',
          detail: `${rule.name}: ${e instanceof Error ? e.message : String(e)}`,
        });
      }
    }
    const dropped = ctx.dropped;
    if (dropped.error + dropped.warning + dropped.info > 0) {
      // One finding past the bound, so the list says it is not the whole story.
      const cap = new RuleContext(parsed, profile, facts, options.fileView, out);
      reportLimit(cap, {
        limit: 'findings',
        max: maxFindings,
        found: out.length + dropped.error + dropped.warning + dropped.info,
        exact: false,
        start: 0,
        end: 0,
      });
    }
    out.sort((a, b) => (a.range?.start.offset ?? -1) - (b.range?.start.offset ?? -1));
    verdicts[profile] =
      dropped.error > 0 || out.some((d) => d.severity === 'error')
        ? 'error'
        : dropped.warning > 0 || out.some((d) => d.severity === 'warning')
          ? 'warning'
          : 'valid';
    // Why a loop and not push(...out): spreading passes every finding as an argument, and past
    // about 125,000 of them the call itself throws.
    for (const d of out) diagnostics.push(d);
  }
  keepOwnFormatFixes(diagnostics, options.ownProfiles);
  return { diagnostics, verdicts };
}
