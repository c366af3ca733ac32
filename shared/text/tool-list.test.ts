import { describe, expect, it } from 'vitest';
import { splitAllowedTools } from './tool-list';

describe('splitAllowedTools: the one reading of an allowed-tools text', () => {
  it('splits on spaces and commas, and says when commas separate entries', () => {
    expect(splitAllowedTools('Read Grep  Glob')).toEqual({
      tools: ['Read', 'Grep', 'Glob'],
      commas: false,
    });
    expect(splitAllowedTools('Read, Grep,Glob')).toEqual({
      tools: ['Read', 'Grep', 'Glob'],
      commas: true,
    });
    expect(splitAllowedTools('Read,')).toEqual({ tools: ['Read'], commas: true });
    expect(splitAllowedTools('')).toEqual({ tools: [], commas: false });
  });

  it('keeps what is inside a tool’s parentheses whole, commas and spaces included', () => {
    expect(splitAllowedTools('Bash(git add:*, git commit:*) Read')).toEqual({
      tools: ['Bash(git add:*, git commit:*)', 'Read'],
      commas: false,
    });
    expect(splitAllowedTools('Bash(npm run *), mcp__github__search')).toEqual({
      tools: ['Bash(npm run *)', 'mcp__github__search'],
      commas: true,
    });
    // An unbalanced ")" does not swallow the rest.
    expect(splitAllowedTools('Read) Grep').tools).toEqual(['Read)', 'Grep']);
  });
});
