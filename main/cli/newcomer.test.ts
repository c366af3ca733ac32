import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SKILL_TEMPLATES } from '../../shared/authoring/templates';
import { bundleCli, skillMd, writeTree } from '../testing/skill-library';
import { COMMANDS } from './commands';
import { buildSnapshot } from '../mcp-server/catalog';

// The command line as a newcomer meets it: the real bundled CLI in a child process, from a
// fresh folder, with typos, odd folder names and the first steps of making a skill.

let tmp: string;
let cli: string;

const DESC = 'Turns meeting notes into action items. Use when the user pastes notes.';

function sb(args: string[], cwd = tmp): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [cli, ...args], { cwd, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

beforeAll(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'sb-newcomer-'));
  cli = await bundleCli(join(tmp, '.cli'));
}, 60_000);

afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('skillbench new', () => {
  it('lists the template ids, one per line, the same as the wizard offers', () => {
    const r = sb(['new', '--list-templates']);
    expect(r.code).toBe(0);
    expect(r.out.trim().split('\n')).toEqual(SKILL_TEMPLATES.map((t) => t.id));
  });

  it.each(SKILL_TEMPLATES.map((t, i) => [t.id, i]))(
    'creates a skill from the %s template that validates clean under its own format',
    (template, i) => {
      // Why not the template id in the name: names with "claude" are refused by upload readers.
      const name = `made-from-template-${i}`;
      const made = sb([
        'new',
        name,
        '--template',
        template,
        '--into',
        'lib',
        '--description',
        DESC,
      ]);
      expect(made.code, made.err).toBe(0);
      expect(made.out).toContain(`Created ${join(tmp, 'lib', name)}`);
      const checked = sb(['validate', join('lib', name)]);
      // Notes (such as Claude Code's $ARGUMENTS) are not problems.
      expect(checked.err + checked.out).toMatch(/No problems found|: 0 errors, 0 warnings,/);
      expect(checked.code).toBe(0);
    },
  );

  it('without a description, says to write one, and validate warns until it is written', async () => {
    const made = sb(['new', 'undescribed', '--into', 'plain']);
    expect(made.code, made.err).toBe(0);
    expect(made.out).toContain('Write its description (what it does and when to use it)');
    const checked = sb(['validate', join('plain', 'undescribed')]);
    expect(checked.code).toBe(0);
    expect(checked.out).toContain('warning description/template-text');
    const md = join(tmp, 'plain', 'undescribed', 'SKILL.md');
    const text = await readFile(md, 'utf8');
    await writeFile(md, text.replace(/^description: .*$/m, `description: ${DESC}`));
    expect(sb(['validate', join('plain', 'undescribed')]).out).toContain('No problems found');
  });

  it('a name written as words is answered with the name to type, and nothing is made', async () => {
    const spaced = sb(['new', 'Meeting', 'Notes', '--into', 'words']);
    expect(spaced.code).toBe(2);
    expect(spaced.err).toContain(
      'A name of several words is written with hyphens: `skillbench new meeting-notes`.',
    );
    const quoted = sb(['new', 'Meeting Notes', '--into', 'words']);
    expect(quoted.code).toBe(1);
    expect(quoted.err).toContain('Try: `skillbench new meeting-notes`.');
    expect(await readdir(tmp)).not.toContain('words');
  });

  it('takes a path as the folder that receives the skill and its last part as the name', async () => {
    const made = sb(['new', 'paths/lib/pdf-helper/']);
    expect(made.code, made.err).toBe(0);
    expect(made.out).toContain(`Created ${join(tmp, 'paths', 'lib', 'pdf-helper')}`);
    expect(await readFile(join(tmp, 'paths', 'lib', 'pdf-helper', 'SKILL.md'), 'utf8')).toMatch(
      /^---\nname: pdf-helper\n/,
    );
    // With --into, the path is under that folder.
    expect(sb(['new', 'lib/notes', '--into', 'paths']).code).toBe(0);
    expect(await readdir(join(tmp, 'paths', 'lib'))).toEqual(['notes', 'pdf-helper']);
    // Only the last part is the name, and it is checked as any name is.
    const dotted = sb(['new', 'paths/.git']);
    expect(dotted.code).toBe(1);
    expect(await readdir(join(tmp, 'paths'))).toEqual(['lib']);
  });

  it('refuses a name that is not a safe folder name, and never touches an existing folder', async () => {
    const dot = sb(['new', '.git', '--into', 'lib2']);
    expect(dot.code).toBe(1);
    expect(await readdir(tmp)).not.toContain('lib2');
    expect(sb(['new', 'twice', '--into', 'lib3']).code).toBe(0);
    await writeFile(join(tmp, 'lib3', 'twice', 'SKILL.md'), 'mine\n');
    const again = sb(['new', 'twice', '--into', 'lib3']);
    expect(again.code).toBe(1);
    expect(again.err).toContain('already exists');
    expect(await readFile(join(tmp, 'lib3', 'twice', 'SKILL.md'), 'utf8')).toBe('mine\n');
  });

  it('with --into, a NAME that leads outside that folder is refused, and a file in the way is named', async () => {
    await mkdir(join(tmp, 'into-lib'));
    for (const name of ['a/../../escaped', join(tmp, 'escaped')]) {
      const out = sb(['new', name, '--into', 'into-lib']);
      expect(out.code).toBe(2);
      expect(out.err).toContain(
        `skillbench new: With --into, NAME must stay inside into-lib: "${name}" leads outside it.`,
      );
    }
    expect(await readdir(tmp)).not.toContain('escaped');
    expect(await readdir(join(tmp, 'into-lib'))).toEqual([]);
    await writeFile(join(tmp, 'a-file'), 'x');
    const onFile = sb(['new', 'x', '--into', 'a-file/deeper']);
    expect(onFile.code).toBe(2);
    expect(onFile.err).toBe(
      `skillbench new: ${join(tmp, 'a-file')} is a file, not a folder, so x cannot be made in it. Choose a folder for the new skill; nothing was written.\n`,
    );
    // A name too long for the file system is said in words, not as an errno.
    const long = sb(['import', 'x'.repeat(300), '--into', 'into-lib']);
    expect(long.code).toBe(2);
    expect(long.err).toContain('is too long a name: this computer allows at most 255 bytes');
    expect(long.err).not.toContain('ENAMETOOLONG');
  });

  it('a SKILL.md that is a link: validate, scan, pack and serve give one sentence, and nothing is followed', async () => {
    await mkdir(join(tmp, 'linked-out'));
    await writeFile(join(tmp, 'linked-out', 'SKILL.md'), skillMd('name: s\ndescription: Linked.'));
    await mkdir(join(tmp, 'linked-lib', 's'), { recursive: true });
    await symlink('../../linked-out/SKILL.md', join(tmp, 'linked-lib', 's', 'SKILL.md'));
    const dir = join(tmp, 'linked-lib', 's');
    const sentence = `its SKILL.md is a link (to ../../linked-out/SKILL.md), and Skillbench never follows a link in place of a skill's file, so the folder is not read as a skill. Put the file itself in the folder.`;
    for (const command of ['validate', 'scan']) {
      const r = sb([command, dir]);
      expect(r.code, command).toBe(2);
      expect(r.err, command).toBe(
        `skillbench ${command}: No skills found in ${dir}: ${sentence}\n`,
      );
    }
    const packed = sb(['pack', dir, '--target', 'archive-zip']);
    expect(packed.code).toBe(2);
    expect(packed.err).toBe(`skillbench pack: ${dir} is not a skill folder: ${sentence}\n`);
    const snap = await buildSnapshot([dir]);
    expect(snap.skills).toEqual([]);
    expect(snap.excluded.map((e) => e.reasons[0])).toEqual([`${dir}: ${sentence}`]);
  });

  it('suggests the template meant when one is mistyped', () => {
    const r = sb(['new', 'x', '--template', 'refrences']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('Did you mean references?');
  });
});

/** An option line of a --help: the option with its values (`--x N`, `--f a|b`, `--s "C A"`), then its description. */
const OPTION_LINE =
  /^ {2}(-[\w-]+(?:[ =](?:[A-Z][A-Z0-9_.]*|"[^"]*"|[a-z0-9-]+(?:\|[a-z0-9-]+)+|\[[^\]]*\]))*)( +)\S/;

describe('the command line forgives a newcomer', () => {
  it('skillbench --help lists every command with one capitalised line, and each has its own --help', () => {
    const r = sb(['--help']);
    expect(r.code).toBe(0);
    const listed = r.out
      .split('\n')
      .filter((line) => /^ {2}\S/.test(line))
      .map((line) => line.trim().split(/\s{2,}/));
    expect(listed.map(([name]) => name)).toEqual(COMMANDS.map((c) => c.name));
    for (const [name, summary] of listed) {
      expect(summary, name).toMatch(/^[A-Z]/);
      const own = sb([name, '--help']);
      expect(own.code, name).toBe(0);
      expect(own.out, name).toContain(`skillbench ${name}`);
      // Each option's words start in one column, as a reader scans them.
      const columns = new Set(
        own.out.split('\n').flatMap((line) => {
          const m = OPTION_LINE.exec(line);
          return m ? [2 + (m[1] ?? '').length + (m[2] ?? '').length] : [];
        }),
      );
      expect(columns.size, `${name} --help: option descriptions in one column`).toBe(1);
    }
    // No command at all: the same list, and exit code 2 (nothing was done).
    const bare = sb([]);
    expect(bare.code).toBe(2);
    expect(bare.out).toBe(r.out);
  });

  it('select with the prompt forgotten says so, instead of asking for a folder it was given', () => {
    const r = sb(['select', 'lib']);
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      'skillbench select: Give the prompt first, then the library folders: skillbench select "PROMPT" lib.',
    );
    const words = sb(['select', 'make a pdf']);
    expect(words.err).toContain('skillbench select "make a pdf" LIB.');
  });

  it('suggests the command meant when one is mistyped', () => {
    const r = sb(['vaildate', '.']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('Did you mean `skillbench validate`?');
  });

  it('a folder whose name starts with "-" is named in the hint, and works after --', async () => {
    await mkdir(join(tmp, 'odd', '-my-skill'), { recursive: true });
    await writeFile(
      join(tmp, 'odd', '-my-skill', 'SKILL.md'),
      '---\nname: my-skill\ndescription: Shows what happens to a folder named with a leading dash.\n---\nBody\n',
    );
    const cwd = join(tmp, 'odd');
    const wrong = sb(['validate', '-my-skill'], cwd);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toContain('There is no option -my-skill');
    expect(wrong.err).toContain('-- -my-skill');
    const right = sb(['validate', '--', '-my-skill'], cwd);
    expect(right.err).not.toContain('There is no option');
    expect(right.out).toContain('-my-skill');
  });

  it('pack --out with an existing folder writes the archive inside it, and counts "1 file"', async () => {
    expect(sb(['new', 'solo', '--into', 'packlib']).code).toBe(0);
    await mkdir(join(tmp, 'dist'), { recursive: true });
    const r = sb(['pack', join('packlib', 'solo'), '--target', 'archive-zip', '--out', 'dist']);
    expect(r.code, r.err).toBe(0);
    expect(await readdir(join(tmp, 'dist'))).toEqual(['solo.zip']);
    expect(r.out).toContain('Package: 1 file,');
    expect(r.out).not.toContain('1 files');
  });

  it('a path that does not exist is explained without pointing at buttons the CLI has not got', () => {
    const r = sb(['validate', 'no-such-folder']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('Nothing exists at');
    expect(r.err).not.toContain('Browse');
  });

  it('a --port that is not a port gets the same sentence from serve and web, and nothing starts', () => {
    for (const port of ['abc', '', '0x50', '99999']) {
      for (const args of [
        ['serve', '--http', '--port', port, '.'],
        ['web', '--port', port],
      ]) {
        const r = sb(args);
        expect(r.code, args.join(' ')).toBe(2);
        expect(r.err).toContain(`--port must be a whole number from 0 to 65535, not "${port}".`);
      }
    }
  });

  it('every numeric option refuses what is not a plain number in its range, in one sentence, before doing anything', () => {
    const cases: [string[], string, string][] = [
      [
        ['inspect', '--timeout', 'X', 'http://127.0.0.1:9/mcp'],
        '--timeout',
        'a number of seconds from 0.001 to 86400',
      ],
      [
        ['inspect', '--max-pages', 'X', 'http://127.0.0.1:9/mcp'],
        '--max-pages',
        'a whole number of pages from 1 to 1000000',
      ],
      [['select', 'a prompt', '--threshold', 'X', '.'], '--threshold', 'a number from 0 to 1000'],
      [
        ['import', 'x.zip', '--into', 'lib', '--max-files', 'X'],
        '--max-files',
        'a whole number of files from 1 to 1000000',
      ],
      [['serve', '--http', '--port', 'X', '.'], '--port', 'a whole number from 0 to 65535'],
    ];
    // "" and " 5" and "0x10" and "1e3" are numbers to Number(); 3000000 seconds would overflow a timer.
    expect(sb(['import', 'x.zip', '--into', 'lib', '--max-files=-1']).err).toContain(
      '--max-files must be a whole number of files from 1 to 1000000, not "-1".',
    );
    for (const bad of ['', ' 5', '0x10', '1e3', '-1', 'abc', '3000000', '1.5.2']) {
      for (const [argv, option, range] of cases) {
        const args = argv.map((a) => (a === 'X' ? bad : a));
        const r = sb(args);
        expect(r.code, args.join(' ')).toBe(2);
        // Why apart: the command line reads "-1" as an option, so it is asked for as --max-files=-1.
        const expected = bad.startsWith('-')
          ? `${option} needs a value after it; a value that starts with "-" is written ${option}=${bad}.`
          : `${option} must be ${range}, not "${bad}".`;
        expect(r.err, args.join(' ')).toContain(expected);
      }
    }
  });

  it('an option that takes one of a few words names them, in the same sentence everywhere', () => {
    const cases: [string[], string][] = [
      [['validate', '--format', 'xml', '.'], '--format must be text, json or sarif, not "xml".'],
      [['scan', '--format', 'xml', '.'], '--format must be text, json or sarif, not "xml".'],
      [['scan', '--fail-on', 'never', '.'], '--fail-on must be review or danger, not "never".'],
      [['select', 'a prompt', '--format', 'xml', '.'], '--format must be text or json, not "xml".'],
      [['catalog', '--format', 'text', '.'], '--format must be xml or json, not "text".'],
      [
        ['inspect', '--report', 'html', 'http://127.0.0.1:9/mcp'],
        '--report must be md or json, not "html".',
      ],
      [['agents', '--format', 'xml'], '--format must be text or json, not "xml".'],
      [['installed', '--format', 'xml'], '--format must be text or json, not "xml".'],
      [['outdated', '--format', 'xml'], '--format must be text or json, not "xml".'],
    ];
    for (const [args, sentence] of cases) {
      const r = sb(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err, args.join(' ')).toContain(sentence);
    }
  });

  it('a mistyped agent gets the likely one, and where the list is, not a wall of ids', () => {
    for (const command of ['installed', 'install lib', 'uninstall demo']) {
      const r = sb([...command.split(' '), '--agent', 'claud-code']);
      expect(r.code, command).toBe(2);
      expect(r.err, command).toContain(
        'There is no agent "claud-code". Did you mean claude-code? Run skillbench agents --all for the list.',
      );
      expect(r.err, command).not.toContain('zencoder');
    }
  });

  it('every command names an unknown option, and where its options are listed, in one sentence', () => {
    for (const { name } of COMMANDS) {
      const r = sb([name, '--bogus']);
      expect(r.code, name).toBe(2);
      expect(r.err, name).toContain(
        `There is no option --bogus. Run \`skillbench ${name} --help\` to see the options.`,
      );
    }
  });

  it('every command reads --option=value as --option value, and says when an option takes no value', async () => {
    await writeTree(join(tmp, 'eq-lib'), { 'eq-skill/SKILL.md': skillMd('eq-skill', DESC) });
    for (const args of [
      ['catalog', 'eq-lib', '--format=json'],
      ['select', 'turn my meeting notes into action items', 'eq-lib', '--format=json'],
      ['validate', 'eq-lib', '--format=json'],
      ['scan', 'eq-lib', '--format=json'],
    ]) {
      const r = sb(args);
      const spaced = sb(args.flatMap((a) => (a === '--format=json' ? ['--format', 'json'] : [a])));
      // Read, not refused (2), and the same JSON document either way (without its clock).
      expect(r.code, `${args.join(' ')}: ${r.err}`).not.toBe(2);
      expect(r.code, args[0]).toBe(spaced.code);
      const shape = (text: string): string[] => Object.keys(JSON.parse(text) as object);
      expect(shape(r.out), args[0]).toEqual(shape(spaced.out));
    }
    for (const [args, option] of [
      [['validate', 'eq-lib', '--fix=no'], '--fix'],
      [['serve', '--stdio=yes', 'eq-lib'], '--stdio'],
      [['inspect', '--verify=1', 'http://127.0.0.1:9/mcp'], '--verify'],
      [['select', '--eval=true', 'eq-lib'], '--eval'],
    ] as const) {
      const r = sb([...args]);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err, args.join(' ')).toContain(`${option} takes no value; write ${option} alone.`);
    }
  });

  it('a usage problem is one sentence that starts with a capital (or the option it names)', () => {
    for (const args of [
      ['validate'],
      ['pack', 'lib/x'],
      ['install', 'x'],
      ['select'],
      ['catalog'],
      ['new'],
      ['import'],
      ['scan'],
      ['serve'],
      ['inspect'],
      ['uninstall'],
      ['update', '--keep-local', '--take-theirs'],
      ['installed', '--agent'],
      ['pack', 'lib/x', '--target', 'dropbox'],
      ['new', 'a', '--template', 'nope'],
      ['catalog', '--stdio', 'node "x'],
      ['install', 'x', '--agent', 'codex', '--copy', '--link'],
      ['nonsense'],
    ]) {
      const r = sb(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err.split('\n')[0], args.join(' ')).toMatch(/^skillbench( [a-z]+)?: [A-Z-]/);
    }
  });

  it('a command that takes no folder says so in words, naming what was one too many', () => {
    for (const name of ['agents', 'installed', 'web']) {
      const r = sb([name, 'extra-word']);
      expect(r.code, name).toBe(2);
      expect(r.err, name).toContain(
        `skillbench ${name} takes no folder or name; "extra-word" is one too many.`,
      );
      expect(r.err, name).not.toContain('positional');
    }
  });

  it('a --project folder that is not there is named before anything is looked at or changed', async () => {
    const typo = join(tmp, 'projcet');
    for (const args of [
      ['installed', '--project', 'projcet'],
      ['outdated', '--project', 'projcet'],
      ['update', '--project', 'projcet'],
      ['uninstall', 'demo', '--agent', 'claude-code', '--project', 'projcet'],
      ['install', 'lib', '--agent', 'claude-code', '--project', 'projcet'],
    ]) {
      const r = sb(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err, args.join(' ')).toContain(
        `There is no project folder at ${typo}. Check the spelling.`,
      );
    }
    expect(await readdir(tmp)).not.toContain('projcet');
  });

  it('serve refuses to start when none of its folders is there, and serves the others when one is missing', async () => {
    const alone = sb(['serve', '--stdio', 'no-such-lib']);
    expect(alone.code).toBe(2);
    expect(alone.err).toBe(
      `skillbench serve: Nothing exists at ${join(tmp, 'no-such-lib')}. Check the spelling.\n`,
    );
    await writeFile(join(tmp, 'a-file'), 'x');
    expect(sb(['serve', '--http', 'a-file']).err).toContain(
      `${join(tmp, 'a-file')} is a file, not a folder. Choose the folder that holds your skills.`,
    );
    await mkdir(join(tmp, 'empty-lib'), { recursive: true });
    // Its input is closed at once, so the stdio server ends by itself after listing.
    const some = sb(['serve', '--stdio', '--no-watch', 'no-such-lib', 'empty-lib']);
    expect(some.code, some.err).toBe(0);
    expect(some.err).toContain(`not served: ${join(tmp, 'no-such-lib')}`);
    expect(some.err).toContain('serving 0 skills');
  });

  it('a mistyped server address is named in words, by inspect and by catalog --http', () => {
    for (const args of [
      ['inspect', 'http://[::1/mcp'],
      ['catalog', '--http', 'http://[::1/mcp'],
    ]) {
      const r = sb(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toContain('"http://[::1/mcp" is not a web address. Use http://… or https://….');
    }
  });
});

describe('a reader that stops early', () => {
  it("`validate --format json | head` ends with the command's own exit code and no stack trace", async () => {
    // Why 200 skills: the report (~300 kB) is larger than a pipe holds, so writing it must meet
    // the closed pipe whatever the timing.
    const lib = join(tmp, 'piped-lib');
    const files: Record<string, string> = {};
    for (let i = 0; i < 200; i++) {
      const name = `piped-${String(i).padStart(3, '0')}`;
      files[`${name}/SKILL.md`] = skillMd(
        `name: ${name}\ndescription: Piped skill ${i}. Use it when reading a report through head.`,
      );
    }
    await writeTree(lib, files);
    const child = spawn(process.execPath, [cli, 'validate', lib, '--format', 'json'], {
      cwd: tmp,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    // The first piece of the report, then the reader goes away as `head` does.
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(err).toBe('');
    expect(code).toBe(0);
  }, 60_000);
});

describe('skillbench web stops when asked', () => {
  it.each([['SIGINT'], ['SIGTERM']] as const)(
    'ends on %s with exit code 0 (the process and its server are gone)',
    async (signal) => {
      const renderer = join(tmp, `renderer-${signal}`);
      await mkdir(renderer, { recursive: true });
      await writeFile(join(renderer, 'index.html'), '<!doctype html><title>t</title>');
      const child = spawn(
        process.execPath,
        [cli, 'web', '--renderer-dir', renderer, '--user-data', join(tmp, `ud-${signal}`)],
        { cwd: tmp, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let out = '';
      await new Promise<number>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const m = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(out);
          if (m && out.includes('Press Ctrl+C to stop')) resolve(Number(m[1]));
        });
        child.on('exit', () => reject(new Error(`web ended early: ${out}`)));
      });
      const exited = new Promise<number | null>((resolve) =>
        child.on('exit', (code) => resolve(code)),
      );
      child.kill(signal);
      expect(await exited).toBe(0);
    },
    60_000,
  );
});
