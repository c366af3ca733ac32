import { describe, expect, it } from 'vitest';
import type { FileView } from '../validation/types';
import { parseSkill } from '../skill';
import { chooseProfiles, validateSkill } from '../validation';
import { renderTemplate, SKILL_TEMPLATES } from './templates';

/** A file view of the files a template writes, as main/validate would build it. */
function viewOf(name: string, files: Record<string, string>): FileView {
  const entries: FileView['entries'] = [];
  const folders = new Set<string>();
  for (const [path, text] of Object.entries(files)) {
    entries.push({ path, kind: 'file', size: new TextEncoder().encode(text).length });
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++) folders.add(parts.slice(0, i).join('/'));
  }
  for (const folder of folders) entries.push({ path: folder, kind: 'directory', size: 0 });
  return { folderName: name, relativePath: name, fileName: 'SKILL.md', entries, texts: {} };
}

describe('new-skill templates', () => {
  for (const template of SKILL_TEMPLATES) {
    it(`"${template.title}" validates clean for ${template.profile}`, () => {
      const files = renderTemplate(
        template.id,
        'meeting-notes',
        'Turns meeting notes into action items. Use when the user pastes notes: it lists owners and dates.',
      );
      const result = validateSkill(files['SKILL.md'], {
        profiles: [template.profile],
        fileView: viewOf('meeting-notes', files),
      });
      const problems = result.diagnostics
        .filter((d) => d.severity !== 'info')
        .map((d) => `${d.ruleId}: ${d.message}`);
      expect(problems).toEqual([]);
      expect(result.verdicts[template.profile]).toBe('valid');
    });
  }

  for (const template of SKILL_TEMPLATES) {
    it(`"${template.title}" is checked for its own format (${template.profile}) by default, and is clean`, () => {
      const files = renderTemplate(template.id, 'slide-maker', 'Makes slides. Use when asked.');
      const text = files['SKILL.md'];
      const choice = chooseProfiles(parseSkill(text));
      expect(choice.own).toContain(template.profile);
      const result = validateSkill(text, {
        profiles: choice.profiles,
        ownProfiles: choice.own,
        fileView: viewOf('slide-maker', files),
      });
      expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    });
  }
});
