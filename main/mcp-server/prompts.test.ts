/**
 * Prompt arguments are client text: they are inserted literally, once, in one pass
 * (`String.replace` with a string would read `$&`, `$'`, `` $` `` and `$1` in them as
 * replacement patterns, and later passes would expand placeholders inside earlier values).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ServedSkill } from './catalog';
import { MAX_PROMPT_CHARS, PromptTooLongError, renderPromptBody, skillPrompts } from './prompts';
import type { SkillPrompt } from './prompts';

function prompt(body: string, frontmatter: Record<string, unknown> = {}): SkillPrompt {
  const skill = {
    name: 'p',
    skillPath: 'p',
    description: 'A prompt.',
    frontmatter: { name: 'p', description: 'A prompt.', ...frontmatter },
    body,
  } as unknown as ServedSkill;
  const [p] = skillPrompts([skill]);
  if (!p) throw new Error('no prompt');
  return p;
}

const PATTERNS = ['$&', "$'", '$`', '$$', '$1', '$<x>', '$ARGUMENTS', '$ARGUMENTS[0]', '$2'];

describe('prompt arguments', () => {
  it('are inserted literally: replacement patterns in client text come out as typed', () => {
    const p = prompt('All: $ARGUMENTS | first: $ARGUMENTS[0] | second: $2 | end\n');
    for (const v of PATTERNS) {
      const text = `${v} ${v}x`;
      expect(renderPromptBody(p, { arguments: text })).toBe(
        `All: ${text} | first: ${v} | second: ${v}x | end\n`,
      );
    }
  });

  it('named arguments too, and a value holding a placeholder is not expanded again', () => {
    const p = prompt('Deploy $service to $env ($1/$2) [$ARGUMENTS]\n', {
      arguments: ['service', 'env'],
    });
    expect(renderPromptBody(p, { service: '$env', env: "$'$&" })).toBe(
      "Deploy $env to $'$& ($env/$'$&) [$env $'$&]\n",
    );
  });

  it('substitute exactly like a literal split-and-join, for any argument text (property)', () => {
    const p = prompt('A $ARGUMENTS B $ARGUMENTS C\n');
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('$', '&', "'", '`', '1', 'A', ' ', 'x') }),
        (v) => {
          const all = v.trim();
          expect(renderPromptBody(p, { arguments: v })).toBe(`A ${all} B ${all} C\n`);
        },
      ),
    );
  });

  it('grow linearly: 20 KB of "$\'$&" in a body with three placeholders gives exactly three copies', () => {
    // Before the fix this input took ~10 s and 1.7 GiB (each "$'" expanded to the rest of the text).
    const p = prompt('One: $ARGUMENTS\nTwo: $ARGUMENTS\nThree: $ARGUMENTS[0]\n');
    const v = "$'$&".repeat(5_000);
    const out = renderPromptBody(p, { arguments: v });
    expect(out).toBe(`One: ${v}\nTwo: ${v}\nThree: ${v}\n`);
  });

  it('refuse a prompt that the arguments would make longer than the cap', () => {
    const p = prompt('$ARGUMENTS '.repeat(20));
    const v = 'y'.repeat(Math.ceil(MAX_PROMPT_CHARS / 20) + 1);
    expect(() => renderPromptBody(p, { arguments: v })).toThrow(PromptTooLongError);
    expect(() => renderPromptBody(p, { arguments: v })).toThrow(/longer than 1,048,576 characters/);
  });
});
