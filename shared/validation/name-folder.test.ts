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
});
