import { describe, expect, it } from 'vitest';
import {
  contentWords,
  DEFAULT_THRESHOLD,
  hasFileType,
  namedIn,
  selectSkills,
  type SelectableSkill,
} from './select';
import { normaliseFileType, priorityRank, readTriggers } from './triggers';

function skill(
  name: string,
  whenToUse?: Record<string, unknown> | string,
  description = `The ${name} skill.`,
): SelectableSkill {
  return {
    name,
    description,
    frontmatter: whenToUse === undefined ? { name } : { name, when_to_use: whenToUse },
  };
}

const pdf = skill('pdf-forms', {
  mentions: ['pdf', 'fill in form'],
  file_types: ['.pdf'],
  intents: ['fill-form'],
});

describe('selection: the scoring rules', () => {
  it('gives +3 for a file type, compared on the extension case-insensitively', () => {
    const r = selectSkills([pdf], { prompt: 'hello', files: ['Report.PDF'] });
    expect(r.selected.map((s) => [s.name, s.score])).toEqual([['pdf-forms', 3]]);
    expect(r.selected[0]?.reasons).toEqual([
      expect.objectContaining({
        kind: 'file-type',
        trigger: '.pdf',
        matched: 'Report.PDF',
        points: 3,
      }),
    ]);
  });

  it('counts a file type once however many files match, and never a file merely named like it', () => {
    const r = selectSkills([pdf], {
      prompt: 'x',
      files: ['a.pdf', 'b.pdf', 'pdf', 'notes.pdf.txt'],
    });
    expect(r.selected[0]?.score).toBe(3);
    expect(hasFileType('pdf', '.pdf')).toBe(false);
    expect(hasFileType('dir/archive.TAR.GZ', '.tar.gz')).toBe(true);
    expect(hasFileType('C:\\docs\\x.Pdf', '.pdf')).toBe(true);
  });

  it('gives +2 per mention matched as whole words, case-insensitively, several words included', () => {
    const r = selectSkills([pdf], {
      prompt: 'Please FILL IN\n  FORM fields of this PDF',
      threshold: 4,
    });
    expect(r.selected[0]?.score).toBe(4);
    expect(r.selected[0]?.reasons.map((x) => [x.kind, x.trigger, x.matched])).toEqual([
      ['mention', 'pdf', 'PDF'],
      ['mention', 'fill in form', 'FILL IN\n  FORM'],
    ]);
  });

  it('does not match a mention inside another word', () => {
    const r = selectSkills([pdf], { prompt: 'pdfs and refill information forms', threshold: 1 });
    expect(r.selected).toEqual([]);
    expect(r.considered[0]?.score).toBe(0);
  });

  it('matches mentions that start or end with punctuation (c++, .net)', () => {
    const s = skill('langs', { mentions: ['c++', '.net'] });
    const r = selectSkills([s], { prompt: 'port this C++ code to .NET', threshold: 4 });
    expect(r.selected[0]?.score).toBe(4);
  });

  it('gives +1 per intent the host reports, compared case-insensitively', () => {
    const r = selectSkills([pdf], { prompt: 'x', intents: ['Fill-Form', 'other'], threshold: 1 });
    expect(r.selected[0]?.reasons).toEqual([
      expect.objectContaining({
        kind: 'intent',
        trigger: 'fill-form',
        matched: 'Fill-Form',
        points: 1,
      }),
    ]);
  });

  it('adds every kind of match together', () => {
    const r = selectSkills([pdf], {
      prompt: 'fill in form on the pdf',
      files: ['f.pdf'],
      intents: ['fill-form'],
    });
    expect(r.selected[0]?.score).toBe(3 + 2 + 2 + 1);
  });
});

describe('selection: the threshold', () => {
  it('defaults to 3: a single mention (2) is not enough, a file type (3) is', () => {
    expect(DEFAULT_THRESHOLD).toBe(3);
    expect(selectSkills([pdf], { prompt: 'a pdf' }).selected).toEqual([]);
    expect(selectSkills([pdf], { prompt: 'a pdf' }).considered[0]?.why).toContain(
      'below the threshold 3',
    );
    expect(selectSkills([pdf], { prompt: 'x', files: ['a.pdf'] }).selected).toHaveLength(1);
  });

  it('selects at exactly the threshold and not one below', () => {
    expect(selectSkills([pdf], { prompt: 'a pdf', threshold: 2 }).selected).toHaveLength(1);
    expect(selectSkills([pdf], { prompt: 'a pdf', threshold: 2.5 }).selected).toHaveLength(0);
    expect(selectSkills([pdf], { prompt: 'a pdf', threshold: 2 }).threshold).toBe(2);
  });
});

describe('selection: naming a skill explicitly', () => {
  it('selects a named skill whatever its score, and puts it first', () => {
    const other = skill('spreadsheets', { file_types: ['.pdf', '.xlsx'], mentions: ['table'] });
    const r = selectSkills([other, pdf], {
      prompt: 'use /pdf-forms for this table',
      files: ['a.xlsx'],
    });
    expect(r.selected.map((s) => [s.name, s.score, s.named])).toEqual([
      ['pdf-forms', 2, true],
      ['spreadsheets', 5, false],
    ]);
    expect(r.selected[0]?.reasons[0]).toMatchObject({ kind: 'named', matched: '/pdf-forms' });
    expect(r.selected[1]?.order?.by).toBe('named');
  });

  it('overrides a threshold no score could reach, and works for skills without triggers', () => {
    const plain = skill('notes');
    const r = selectSkills([plain, pdf], { prompt: 'the notes skill please', threshold: 100 });
    expect(r.selected.map((s) => s.name)).toEqual(['notes']);
  });

  it('recognises /name, $name, @name, "name skill", "skill name" and a hyphenated name', () => {
    expect(namedIn('run $pdf-forms', 'pdf-forms')).toBe('$pdf-forms');
    expect(namedIn('ask @notes', 'notes')).toBe('@notes');
    expect(namedIn('Use the Notes skill', 'notes')).toBe('Notes skill');
    expect(namedIn('skill “notes” now', 'notes')).toBe('skill “notes');
    expect(namedIn('open pdf-forms now', 'pdf-forms')).toBe('pdf-forms');
  });

  it('does not take an ordinary word, a path or a longer name for a naming', () => {
    expect(namedIn('take some notes', 'notes')).toBeNull();
    expect(namedIn('see docs/notes/today', 'notes')).toBeNull();
    expect(namedIn('/notes-archive', 'notes')).toBeNull();
    expect(namedIn('use pdf-forms-v2', 'pdf-forms')).toBeNull();
  });
});

describe('selection: text in decomposed form (é as e + accent)', () => {
  const resume = skill('résumé-writer', { mentions: ['résumé'], intents: ['écrire'] });
  const nfd = (t: string) => t.normalize('NFD');

  it('names a skill and matches mentions and intents whichever form the prompt or the skill uses', () => {
    const named = selectSkills([resume], { prompt: nfd('use /résumé-writer please') });
    expect(named.selected.map((s) => s.name)).toEqual(['résumé-writer']);
    const decomposedSkill = skill(nfd('résumé-writer'), { mentions: [nfd('résumé')] });
    expect(namedIn('the résumé-writer skill', decomposedSkill.name)).not.toBeNull();
    const scored = selectSkills([resume, decomposedSkill], {
      prompt: nfd('fix my résumé'),
      intents: [nfd('écrire')],
      threshold: 2,
    });
    expect(scored.selected.map((s) => [s.name, s.score])).toEqual([
      ['résumé-writer', 3],
      [nfd('résumé-writer'), 2],
    ]);
  });
});

describe('selection: order and ties', () => {
  it('orders by score, then priority (higher first), then name, and says which rule decided', () => {
    const a = skill('alpha', { mentions: ['report'], priority: 1 });
    const b = skill('bravo', { mentions: ['report'], priority: 'high' });
    const c = skill('charlie', { mentions: ['report'] });
    const d = skill('delta', { mentions: ['report'] });
    const e = skill('echo', { mentions: ['report', 'chart'] });
    const r = selectSkills([d, c, a, b, e], { prompt: 'a report with a chart', threshold: 2 });
    expect(r.selected.map((s) => s.name)).toEqual(['echo', 'alpha', 'bravo', 'charlie', 'delta']);
    expect(r.selected.map((s) => s.order?.by)).toEqual([
      'score',
      'score',
      'name',
      'priority',
      'name',
    ]);
    expect(r.selected[3]?.order?.text).toContain('lower priority');
  });

  it('ranks priorities: numbers, numeric text, words; none counts as medium', () => {
    expect(priorityRank(5)).toBe(5);
    expect(priorityRank(' 2 ')).toBe(2);
    expect(priorityRank('HIGH')).toBe(1);
    expect(priorityRank('low')).toBe(-1);
    expect(priorityRank(undefined)).toBe(priorityRank('medium'));
    expect(priorityRank('whatever')).toBe(0);
  });

  it('lists the skills not selected, highest score first, then by name', () => {
    const r = selectSkills(
      [skill('b', { mentions: ['x'] }), skill('a', { mentions: ['x'] }), pdf],
      {
        prompt: 'x pdf',
        threshold: 9,
      },
    );
    expect(r.considered.map((s) => s.name)).toEqual(['a', 'b', 'pdf-forms']);
  });
});

describe('selection: skills without triggers', () => {
  it('says so and gives the words the description shares with the prompt, labelled as a hint', () => {
    const s = skill(
      'invoices',
      undefined,
      'Creates invoices from a spreadsheet of billable hours.',
    );
    const r = selectSkills([s], { prompt: 'Make invoices for the billable hours in March' });
    const c = r.considered[0];
    expect(c?.hasTriggers).toBe(false);
    expect(c?.why).toContain('no when_to_use triggers');
    expect(c?.hint?.sharedWords).toEqual(['invoices', 'billable', 'hours']);
    expect(c?.hint?.text).toMatch(/^Hint, not part of the selection rules/);
  });

  it("takes the hint from Claude Code's free-text when_to_use too, which its model reads", () => {
    const cc = skill('changes', 'When the user asks for a changelog entry.', 'Claude Code helper.');
    const r = selectSkills([cc], { prompt: 'write a changelog entry' });
    expect(r.considered[0]?.hint?.sharedWords).toEqual(['changelog', 'entry']);
    expect(r.considered[0]?.hint?.text).toContain(
      'its description and when_to_use share “changelog”, “entry” with the prompt',
    );
  });

  it("treats Claude Code's free-text when_to_use as no triggers", () => {
    expect(readTriggers({ when_to_use: 'When the user asks for PDFs' })).toMatchObject({
      kind: 'none',
      why: expect.stringContaining('free text'),
    });
    expect(readTriggers({ when_to_use: { priority: 2 } }).kind).toBe('none');
  });

  it('says what in when_to_use is not read: a list written as text, an item that is not text, a MIME type', () => {
    const reading = readTriggers({
      when_to_use: {
        mentions: [2024, 'changelog'],
        file_types: ['application/pdf'],
        intents: 'write',
      },
    });
    expect(reading.kind).toBe('triggers');
    expect(reading.ignored).toEqual([
      '“application/pdf” in when_to_use.file_types is not a file extension (such as .pdf), so it is not read.',
      'when_to_use.mentions holds 2024, which is not text, so it is not read. Put it in quotes.',
      'when_to_use.intents is written as text, not a list, so it is not read. Write intents: [write].',
    ]);
    const onlyText = skill('pdf', { file_types: 'pdf' });
    const r = selectSkills([onlyText], { prompt: 'here', files: ['a.pdf'] });
    expect(r.considered[0]?.ignored).toEqual([
      'when_to_use.file_types is written as text, not a list, so it is not read. Write file_types: [pdf].',
    ]);
    expect(selectSkills([pdf], { prompt: 'x' }).considered[0]?.ignored).toBeUndefined();
  });

  it('normalises file types and drops what is not an extension', () => {
    expect(normaliseFileType('PDF')).toBe('.pdf');
    expect(normaliseFileType('*.Tar.GZ')).toBe('.tar.gz');
    expect(normaliseFileType('application/pdf')).toBeNull();
    expect(contentWords('The PDF’s form-fields, and the forms')).toEqual([
      'pdf’s',
      'form-fields',
      'forms',
    ]);
  });
});
