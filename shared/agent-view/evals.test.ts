import { describe, expect, it } from 'vitest';
import { parseTriggerEvals, runTriggerEvals, type EvalSource } from './evals';
import type { SelectableSkill } from './select';

const skills: SelectableSkill[] = [
  {
    name: 'pdf-forms',
    description: 'Fill PDF forms.',
    frontmatter: { when_to_use: { mentions: ['form'], file_types: ['.pdf'] } },
  },
  {
    name: 'invoices',
    description: 'Make invoices.',
    frontmatter: { when_to_use: { mentions: ['invoice', 'pdf'], file_types: ['.xlsx'] } },
  },
  { name: 'notes', description: 'Keep notes.' },
];

function evals(should: unknown[], shouldNot: unknown[] = []): EvalSource {
  const parsed = parseTriggerEvals(
    JSON.stringify({ should_select: should, should_not_select: shouldNot }),
  );
  if (!parsed.ok) throw new Error(parsed.error);
  return { evals: parsed.evals, file: 'evals/triggers.json' };
}

describe('trigger evals: the file', () => {
  it('accepts prompts as text or as objects with files and intents', () => {
    const r = parseTriggerEvals(
      '\uFEFF{"should_select": ["a", {"prompt": "b", "files": ["x.pdf"], "intents": ["i"]}], "should_not_select": ["c"]}',
    );
    expect(r).toEqual({
      ok: true,
      evals: {
        shouldSelect: [{ prompt: 'a' }, { prompt: 'b', files: ['x.pdf'], intents: ['i'] }],
        shouldNotSelect: [{ prompt: 'c' }],
      },
    });
  });

  it('refuses what is not JSON or not the documented shape, with a sentence', () => {
    expect(parseTriggerEvals('{')).toMatchObject({
      ok: false,
      error: expect.stringContaining('not valid JSON'),
    });
    expect(parseTriggerEvals('{"should_trigger": []}')).toMatchObject({
      ok: false,
      error: expect.stringContaining('not in the expected shape'),
    });
    expect(parseTriggerEvals('{"should_select": [{"prompt": ""}]}').ok).toBe(false);
  });

  it('says in plain words where a file a newcomer wrote goes wrong, and what to write', () => {
    const error = (text: string) => {
      const r = parseTriggerEvals(text);
      if (r.ok) throw new Error('expected a refusal');
      expect(r.error).not.toMatch(
        /Invalid input|Unrecognized key|Too small|expected \w+, received/,
      );
      expect(r.error).toContain('Expected: one JSON object with the lists "should_select"');
      return r.error;
    };
    expect(error('[{"query": "Fill the form", "should_trigger": true}]')).toContain(
      'The file is a list of {"query", "should_trigger"} entries (the skill-creator format). Put the queries with should_trigger true in "should_select"',
    );
    expect(error('[]')).toContain('The file must be an object, not a list.');
    expect(error('{"should_select": "Fill the form"}')).toContain(
      '"should_select" must be a list, not a string.',
    );
    expect(error('{"should_select": ["ok", {"prompt": "x", "file": ["a.pdf"]}]}')).toContain(
      'Example 2 of "should_select" has the key "file", which this file does not use (did you mean "files"?).',
    );
    expect(error('{"should_not_select": [{"prompt": "x", "files": "a.pdf"}]}')).toContain(
      '"files" in example 1 of "should_not_select" must be a list, not a string.',
    );
    expect(error('{"should_select": [{"query": "x"}]}')).toContain(
      'Example 1 of "should_select" has no "prompt".',
    );
    expect(error('{"should_select": [""]}')).toContain('Example 1 of "should_select" is empty.');
    expect(error('{"should_selct": []}')).toContain(
      'The file has the key "should_selct", which this file does not use (did you mean "should_select"?).',
    );
  });
});

describe('trigger evals: precision, recall and stolen prompts', () => {
  it('counts hits, misses, false alarms and quiet negatives per skill and for the library', () => {
    const sources = new Map<string, EvalSource>([
      [
        'pdf-forms',
        evals(
          [
            { prompt: 'fill this', files: ['a.pdf'] }, // TP
            'a form please', // FN (2 < 3)
          ],
          [
            { prompt: 'print it', files: ['b.pdf'] }, // FP
            'hello', // TN
          ],
        ),
      ],
      [
        'invoices',
        evals([
          { prompt: 'an invoice for this pdf', files: ['c.pdf'] }, // TP for invoices; pdf-forms takes it
        ]),
      ],
    ]);
    const r = runTriggerEvals(skills, sources);
    const pdf = r.skills.find((s) => s.name === 'pdf-forms');
    const inv = r.skills.find((s) => s.name === 'invoices');
    expect(pdf?.metrics).toEqual({
      truePositives: 1,
      falsePositives: 2,
      falseNegatives: 1,
      trueNegatives: 1,
      precision: 1 / 3,
      recall: 0.5,
    });
    expect(pdf?.took).toEqual([{ prompt: 'an invoice for this pdf', from: 'invoices' }]);
    expect(inv?.metrics).toMatchObject({
      truePositives: 1,
      falsePositives: 0,
      precision: 1,
      recall: 1,
    });
    expect(inv?.cases[0]).toMatchObject({
      passed: true,
      selection: ['invoices', 'pdf-forms'],
      stolenBy: ['pdf-forms'],
    });
    expect(r.library).toMatchObject({ truePositives: 2, falsePositives: 2, falseNegatives: 1 });
    expect(r.library.precision).toBe(0.5);
    expect(r.withoutEvals).toEqual(['notes']);
    expect(r.threshold).toBe(3);
  });

  it('does not count a prompt both skills list as theirs as a theft', () => {
    const shared = { prompt: 'invoice form', files: ['x.pdf', 'y.xlsx'] };
    const r = runTriggerEvals(
      skills,
      new Map([
        ['pdf-forms', evals([shared])],
        ['invoices', evals([shared])],
      ]),
    );
    expect(r.library).toMatchObject({ truePositives: 2, falsePositives: 0 });
    expect(r.skills.every((s) => s.took.length === 0)).toBe(true);
  });

  it('reports a skill whose file could not be read, and leaves the rates empty where nothing counts', () => {
    const r = runTriggerEvals(skills, new Map([['notes', { error: 'bad JSON' }]]), 1);
    expect(r.skills).toEqual([
      expect.objectContaining({ name: 'notes', error: 'bad JSON', cases: [] }),
    ]);
    expect(r.library.precision).toBeNull();
    expect(r.library.recall).toBeNull();
    expect(r.threshold).toBe(1);
  });
});
