import { describe, expect, it } from 'vitest';
import { applyEdits } from '../skill';
import { validateSkill } from './validate-skill';
import type { FileView } from './types';

const view = (folderName: string): FileView => ({ folderName, fileName: 'SKILL.md', entries: [] });
const text = (name: string) =>
  `---\nname: ${name}\ndescription: Makes slides. Use when asked.\n---\n# Slides\n`;

describe('the name and the folder name', () => {
  it('offers one fix that renames the skill and its folder together when they carry the same name', () => {
    const result = validateSkill(text('Slide-Maker'), { fileView: view('Slide-Maker') });
    const fixes = result.diagnostics.flatMap((d) => d.fixes ?? []);
    expect(fixes).toEqual([
      expect.objectContaining({
        title: "Rename the skill and its folder to 'slide-maker'",
        fileOperations: [{ kind: 'rename-folder', newName: 'slide-maker' }],
        safe: true,
      }),
    ]);
    const fixed = applyEdits(text('Slide-Maker'), fixes[0]?.edits ?? []);
    expect(validateSkill(fixed, { fileView: view('slide-maker') }).diagnostics).toEqual([]);
  });

  it('never offers to rename the folder to a name another folder beside it already has, and says so', () => {
    const taken = { ...view('slides'), takenNames: ['slide-maker', 'other'] };
    const mismatch = validateSkill(text('slide-maker'), { fileView: taken }).diagnostics.find(
      (d) => d.ruleId === 'name/folder-mismatch',
    );
    expect(mismatch?.fixes?.map((f) => f.title)).toEqual(["Change the name to 'slides'"]);
    expect(mismatch?.message).toContain(
      'Another folder beside this one is already called "slide-maker", so change the name, or rename or move that other folder first.',
    );
    // The name and its folder renamed together: not to a taken name, and not the name alone
    // (it would then differ from the folder).
    const both = validateSkill(text('Slide-Maker'), {
      fileView: { ...view('Slide-Maker'), takenNames: ['slide-maker'] },
    });
    expect(both.diagnostics.map((d) => d.ruleId)).toContain('name/uppercase');
    expect(both.diagnostics.flatMap((d) => d.fixes ?? [])).toEqual([]);
    // A free name is offered as before.
    const free = validateSkill(text('slide-maker'), {
      fileView: { ...view('slides'), takenNames: ['other'] },
    }).diagnostics.find((d) => d.ruleId === 'name/folder-mismatch');
    expect(free?.fixes?.map((f) => f.title)).toEqual([
      "Rename the folder to 'slide-maker'",
      "Change the name to 'slides'",
    ]);
  });

  it('never offers to change the name back to a folder name that breaks the name rules', () => {
    const result = validateSkill(text('slide-maker'), { fileView: view('Slide-Maker') });
    const mismatch = result.diagnostics.find((d) => d.ruleId === 'name/folder-mismatch');
    expect(mismatch?.fixes?.map((f) => f.title)).toEqual(["Rename the folder to 'slide-maker'"]);
  });

  it('still offers both ways when the folder name is a valid name', () => {
    const result = validateSkill(text('slide-maker'), { fileView: view('slides') });
    const mismatch = result.diagnostics.find((d) => d.ruleId === 'name/folder-mismatch');
    expect(mismatch?.fixes?.map((f) => f.title)).toEqual([
      "Rename the folder to 'slide-maker'",
      "Change the name to 'slides'",
    ]);
  });

  it('never offers to rename the folder to a name that breaks the name rules; every fix leads to a valid name', () => {
    const result = validateSkill(text('My Notes'), { fileView: view('meeting-notes') });
    const mismatch = result.diagnostics.find((d) => d.ruleId === 'name/folder-mismatch');
    expect(mismatch?.fixes?.map((f) => f.title)).toEqual(["Change the name to 'meeting-notes'"]);
    const fixes = result.diagnostics.flatMap((d) => d.fixes ?? []);
    expect(fixes.some((f) => f.fileOperations?.length)).toBe(false);
    // The case finding offers the valid name too, never "my notes" (lowercase, still a space).
    expect(new Set(fixes.map((f) => f.title))).toEqual(
      new Set(["Change the name to 'meeting-notes'", "Change the name to 'my-notes'"]),
    );
    for (const fix of fixes) {
      const fixed = applyEdits(text('My Notes'), fix.edits);
      const after = validateSkill(fixed, { fileView: view('meeting-notes') }).diagnostics;
      expect(
        after.filter((d) => d.ruleId.startsWith('name/') && d.ruleId !== 'name/folder-mismatch'),
      ).toEqual([]);
    }
  });

  it('renames a folder that carries the same invalid name to the valid name, not to the lowered one', () => {
    const result = validateSkill(text('My Notes'), { fileView: view('My Notes') });
    const fixes = result.diagnostics.flatMap((d) => d.fixes ?? []);
    expect(fixes.length).toBeGreaterThan(0);
    for (const fix of fixes) {
      expect(fix.safe).toBe(false);
      expect(fix.fileOperations ?? []).toEqual([{ kind: 'rename-folder', newName: 'my-notes' }]);
    }
  });
});
