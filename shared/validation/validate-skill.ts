import { parseSkill } from '../skill/frontmatter-parser';
import type { ParsedSkill } from '../skill/frontmatter-parser';
import { buildFacts, RuleContext } from './rule-context';
import type { RuleFn } from './rule-context';
import { bodyLengthRule, bodyPlaceholderRules } from './rules/body-rules';
import {
  descriptionRules,
  nameRules,
  optionalFieldRules,
  unexpectedKeysRule,
} from './rules/field-rules';
import { folderRules } from './rules/folder-rules';
import { fileRules, frontmatterBoundaryRules } from './rules/frontmatter-rules';
import { schemaRule } from './rules/schema-rules';
import { universalRules } from './rules/universal-rules';
import { xPersonalMcpRules } from './rules/x-personal-mcp-rules';
import {
  ambiguousScalarRule,
  commentTruncationRule,
  notJsonRule,
  tabIndentRule,
  tripleDashRule,
  unquotedColonRule,
  yamlStyleRules,
  yamlSyntaxRules,
} from './rules/yaml-rules';
import { PROFILE_IDS } from './types';
import type { Diagnostic, ProfileId, ValidateOptions, ValidationResult } from './types';

/** Every hand rule, in reporting order; the schema rule runs last so hand rules win duplicates. */
const RULE_FUNCTIONS: readonly RuleFn[] = [
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
  schemaRule,
];

/** The profiles to check: the given ones, deduplicated and known, or the default. */
function profilesOf(options: ValidateOptions): ProfileId[] {
  const list = (options.profiles ?? []).filter((p) => PROFILE_IDS.includes(p));
  return list.length > 0 ? [...new Set(list)] : ['agentskills'];
}

/** Validate a SKILL.md (text or already parsed) against one or more profiles; never throws. */
export function validateSkill(
  input: string | ParsedSkill,
  options: ValidateOptions = {},
): ValidationResult {
  const parsed = typeof input === 'string' ? parseSkill(input) : input;
  const facts = buildFacts(parsed);
  const diagnostics: Diagnostic[] = [];
  const verdicts: ValidationResult['verdicts'] = {};
  for (const profile of profilesOf(options)) {
    const out: Diagnostic[] = [];
    const ctx = new RuleContext(parsed, profile, facts, options.fileView, out);
    for (const rule of RULE_FUNCTIONS) {
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
    out.sort((a, b) => (a.range?.start.offset ?? -1) - (b.range?.start.offset ?? -1));
    verdicts[profile] = out.some((d) => d.severity === 'error')
      ? 'error'
      : out.some((d) => d.severity === 'warning')
        ? 'warning'
        : 'valid';
    diagnostics.push(...out);
  }
  return { diagnostics, verdicts };
}
