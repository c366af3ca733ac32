/**
 * The safety review of one skill (docs/safety-review.md): every file of the skill, read whole,
 * judged by the rules of this folder, turned into one verdict and a plain summary of what the
 * skill can do. Pure and deterministic: the same files give the same report; every step is
 * linear in the size of the input (bounded patterns, one pass per text).
 */
import { splitAllowedTools } from '../text/tool-list';
import { SAFETY_RULES, safetyRule, VERDICT_HEADLINES } from './catalog';
import {
  codeLineHits,
  credentialsIn,
  destructiveIn,
  downloadThenRun,
  fenceKind,
  longEncodedBlock,
  indirectCallIn,
  networkUse,
  persistenceIn,
  scriptKind,
  scriptsRunBy,
  secretInRequest,
  secretNamesIn,
  URL_RE,
  type ScriptKind,
} from './code';
import { extensionKind, magicKind } from './files';
import { ACTION_WORD, ADDRESSES_AGENT, phraseHits, type PhraseMatcher } from './instructions';
import {
  analyseMarkdown,
  findLinks,
  findStyledHidden,
  presents,
  type MarkdownDoc,
} from './markdown';
import { findSecrets, secretFileName } from './secrets';
import {
  imageUrlCarriesData,
  installedPackages,
  lookalikeHost,
  onHostingPlatform,
  registrableDomain,
  registryRedirect,
  siteName,
  typosquatOf,
  unpinnedInstall,
} from './supply';
import { Lines } from './text-lines';
import type {
  NotExamined,
  ReviewFile,
  ReviewInput,
  SafetyCapabilities,
  SafetyFinding,
  SafetyReport,
  SafetySeverity,
  SafetyVerdict,
} from './types';
import { findHiddenCharacters, foldForMatching, makeVisible, mixesScripts } from './unicode';

const ORDER: Record<SafetySeverity, number> = { low: 0, medium: 1, high: 2, critical: 3 };
/** At most this many findings of one rule in one file (the rest are counted in the last one). */
const PER_RULE_PER_FILE = 8;

/** Severity one step lower (a quoted example in a document that is not about security). */
function lower(s: SafetySeverity): SafetySeverity {
  return s === 'critical' ? 'high' : s === 'high' ? 'medium' : 'low';
}
function atMost(s: SafetySeverity, cap: SafetySeverity): SafetySeverity {
  return ORDER[s] > ORDER[cap] ? cap : s;
}

/** Collects findings, capping repeats and building each one's wording from the catalog. */
class Findings {
  readonly list: SafetyFinding[] = [];
  private readonly counts = new Map<string, number>();
  private readonly seen = new Set<string>();

  add(f: {
    rule: string;
    file: string;
    line: number;
    detail: string;
    severity?: SafetySeverity;
    column?: number;
    length?: number;
    excerpt?: string;
    hidden?: string;
    title?: string;
    /** What to do, when the rule's usual advice does not fit (a file name has no line to read). */
    action?: string;
  }): void {
    const same = `${f.rule}\u0000${f.file}\u0000${f.line}\u0000${f.detail}`;
    if (this.seen.has(same)) return;
    this.seen.add(same);
    const key = `${f.rule}\u0000${f.file}`;
    const n = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, n);
    if (n > PER_RULE_PER_FILE) return;
    const info = safetyRule(f.rule);
    const finding: SafetyFinding = {
      rule: f.rule,
      severity: f.severity ?? info.severity,
      category: info.category,
      file: f.file,
      line: f.line,
      title: f.title ?? info.title,
      detail: makeVisible(f.detail, 300),
      why: info.why,
      action: f.action ?? info.action,
    };
    if (f.column !== undefined) {
      finding.column = f.column;
      finding.endColumn = f.column + Math.max(1, f.length ?? 1);
    }
    if (f.excerpt !== undefined) finding.excerpt = makeVisible(f.excerpt.trim(), 240);
    if (f.hidden !== undefined && f.hidden !== '') finding.hidden = makeVisible(f.hidden, 2000);
    this.list.push(finding);
  }
}

/** What the review learns about the skill's reach while reading it. */
class Reach {
  runs = new Set<string>();
  hosts = new Set<string>();
  reads = new Set<string>();
  changes = new Set<string>();
}

const DOC_EXT = /\.(?:md|markdown|mdx|txt|rst|adoc|html?)$/i;
const DATA_EXT = /\.(?:json|jsonl|ya?ml|toml|ini|cfg|conf|xml|csv|tsv)$/i;

/** The hosts of the URLs on a line, added to `reach`, each judged for lookalikes. */
function urlsOn(
  line: string,
  lineNo: number,
  file: string,
  out: Findings,
  reach: Reach | undefined,
): void {
  if (line.indexOf('://') === -1) return;
  URL_RE.lastIndex = 0;
  let m: RegExpExecArray | null;
  let count = 0;
  while ((m = URL_RE.exec(line)) !== null && count++ < 50) {
    const host = (m[2] ?? '').toLowerCase();
    if (host === '') continue;
    if (reach) reach.hosts.add(host);
    const look = lookalikeHost(host, m[1]);
    if (look)
      out.add({
        rule: 'supply/lookalike-domain',
        file,
        line: lineNo,
        column: m.index + 1,
        length: m[0].length,
        // Why `shown` for an address with an @: it is the name a reader sees (never a password).
        detail: `${m[1] !== undefined && look.shown.includes('@') ? look.shown : host}: ${look.why}`,
        excerpt: line,
      });
  }
  // Why bare domains too: `pip install --index-url xn--…` or `curl githuh.com/x` name hosts without a scheme.
}

/** Supply-chain rules on one line of commands (a script line, or a command in a document). */
function supplyOn(
  line: string,
  lineNo: number,
  file: string,
  out: Findings,
  severityCap: SafetySeverity,
): void {
  const unpinned = unpinnedInstall(line);
  if (unpinned)
    out.add({
      rule: 'supply/unpinned-package',
      file,
      line: lineNo,
      detail: unpinned,
      excerpt: line,
      severity: atMost('medium', severityCap),
    });
  const redirect = registryRedirect(line);
  if (redirect)
    out.add({
      rule: 'supply/registry-redirect',
      file,
      line: lineNo,
      detail: redirect,
      excerpt: line,
      severity: atMost('high', severityCap),
    });
  for (const install of installedPackages(line)) {
    for (const name of install.names) {
      const like = typosquatOf(name, install.ecosystem);
      if (like)
        out.add({
          rule: 'supply/typosquat',
          file,
          line: lineNo,
          detail: `${name} (did you mean ${like}?) in: ${install.command}`,
          excerpt: line,
          severity: atMost('high', severityCap),
        });
    }
  }
}

/** Code rules on one line; `cap` limits severities (commands inside documents are capped). */
function codeOn(
  line: string,
  lineNo: number,
  file: string,
  out: Findings,
  cap: SafetySeverity,
  inDoc: boolean,
): void {
  for (const hit of codeLineHits(line, lineNo)) {
    let rule = hit.rule;
    // Why: in a document, `curl … | sh` is an instruction to install that way, the supply-chain rule.
    if (inDoc && rule === 'script/download-execute' && /\|/.test(hit.match))
      rule = 'supply/pipe-to-shell';
    const base = hit.severity ?? safetyRule(rule).severity;
    out.add({
      rule,
      file,
      line: lineNo,
      column: hit.index + 1,
      length: hit.match.length,
      detail: hit.note !== undefined ? `${hit.note}: ${hit.match}` : hit.match,
      excerpt: line,
      severity: atMost(inDoc && rule !== 'script/reverse-shell' ? atMost(base, 'high') : base, cap),
    });
  }
  const destroy = destructiveIn(line);
  if (destroy)
    out.add({
      rule: 'script/destructive-delete',
      file,
      line: lineNo,
      detail: destroy,
      excerpt: line,
      severity: atMost('high', cap),
    });
  supplyOn(line, lineNo, file, out, cap);
}

/**
 * `P=$(echo … | base64 -d)` and later `eval "$P"` (or `sh -c "$P"`, `source`): code decoded into a
 * variable and run, over two lines, which the line rule of script/decode-execute cannot see.
 */
function decodedVariableRun(file: string, lines: Lines, out: Findings): void {
  if (out.list.some((f) => f.file === file && f.rule === 'script/decode-execute')) return;
  const text = lines.text;
  const decoded =
    /\b([A-Za-z_]\w{0,60})=["']?\$\([^\n)]{0,300}\b(?:base64\s+(?:-d|--decode|-D)|xxd\s+-r|openssl\s+(?:base64|enc)\b[^\n)]{0,60}\s-d)\b/.exec(
      text,
    );
  const name = decoded?.[1];
  if (!decoded || !name) return;
  const run = new RegExp(
    `(?:\\beval|\\b(?:ba|z)?sh\\s+-c|\\bsource|^\\s*\\.)\\s+["']?\\$\\{?${name}\\b`,
    'm',
  ).exec(text.slice(decoded.index));
  if (!run) return;
  const line = lines.lineOf(decoded.index + run.index);
  out.add({
    rule: 'script/decode-execute',
    file,
    line,
    detail: `decodes into $${name} (line ${lines.lineOf(decoded.index)}) and runs it: ${lines.line(line).trim().slice(0, 120)}`,
    excerpt: lines.line(line),
  });
}

/**
 * A test of whether a line copies the environment only to hand it to a child process: `env =
 * os.environ.copy()` (or `dict(os.environ)`, `{k: v for k, v in os.environ.items() …}`,
 * `{**os.environ, …}`, `{...process.env, …}`) where the file passes `env=env` (or `env: env`) and
 * no line that uses the network names it. Why: that is how a script sets one variable for a
 * program it starts, not a read of secrets. Bounded: the file's network lines are found once,
 * and only the first 20 such lines are looked into (past them, the line counts as a read).
 */
function environmentForChild(text: string): (line: string) => boolean {
  let networkLines: string[] | undefined;
  let asked = 0;
  return (line) => {
    const name =
      /^\s*(?:(?:const|let|var)\s+)?([A-Za-z_]\w{0,60})\s*=\s*(?:os\.environ\.copy\(\)|dict\(os\.environ\)|\{[^}\n]{0,100}\bos\.environ\.items\(\)[^}\n]{0,100}\}|\{\s*\*\*os\.environ\b[^}\n]{0,200}\}|\{\s*\.\.\.process\.env\b[^}\n]{0,200}\})\s*;?\s*$/.exec(
        line,
      )?.[1];
    if (name === undefined || ++asked > 20) return false;
    if (!new RegExp(`\\benv\\s*[=:]\\s*${name}\\b`).test(text)) return false;
    networkLines ??= text.split('\n').filter((l) => networkUse(l) !== undefined);
    const uses = new RegExp(`\\b${name}\\b`);
    return !networkLines.some((l) => uses.test(l));
  };
}

/**
 * A secret environment variable sent to an address (secretInRequest). Critical, wherever it is on
 * the line, when the address imitates a well-known one (`api.github.com.evil.example`): a key
 * sent there is meant to look as if it went to its own service. Otherwise only a key in the
 * query string is judged (a header is how documented APIs are called): nothing when the host
 * is the service the key's name says it is for (`OPENWEATHER_API_KEY` to
 * api.openweathermap.org), or when SKILL.md names both the variable and the host (the skill's
 * own documented API). Critical when the name says whose key it is and the host is someone
 * else's (`OPENAI_API_KEY` to c.example): that key has no business there. Otherwise (`API_KEY`
 * to a host SKILL.md does not name) a review, saying which key goes where. `cap` lowers it as a
 * document's block is lowered.
 */
function secretSentOn(
  line: string,
  raw: string,
  lineNo: number,
  file: string,
  names: ReadonlyMap<string, string>,
  skillMd: string,
  out: Findings,
  cap: SafetySeverity = 'critical',
): void {
  const hit = secretInRequest(line, names);
  if (!hit) return;
  const { variable, host, owner } = hit;
  const look = lookalikeHost(host, hit.userinfo);
  if (look) {
    out.add({
      rule: 'script/secret-to-network',
      file,
      line: lineNo,
      detail: `sends ${variable} to ${look.shown}: ${look.why}, so the key would go to whoever owns that address`,
      excerpt: raw,
      severity: atMost('critical', cap),
    });
    return;
  }
  if (hit.place !== 'query') return;
  // Whose server it is: the registered name, so api.openweathermap.org.evil.example is not
  // OpenWeather's however it starts.
  const site = registrableDomain(host);
  if (!onHostingPlatform(host) && owner.some((w) => siteName(host).replace(/-/g, '').includes(w)))
    return;
  const doc = skillMd.toLowerCase();
  const namesVariable = doc.includes(variable.toLowerCase());
  const namesHost = doc.includes(site);
  if (namesVariable && namesHost) return;
  const whose = owner.length > 0 ? `a key for ${owner.join(' ')}` : 'a secret';
  const where = `the query string of an address at ${host}`;
  out.add({
    rule: 'script/secret-to-network',
    file,
    line: lineNo,
    detail:
      owner.length > 0 && !namesHost
        ? `puts ${variable} (${whose}) in ${where}, a host that is not ${owner.join(' ')}'s and that SKILL.md does not name: the key would be sent there`
        : `puts ${variable} (${whose}) in ${where}; SKILL.md ${namesHost ? 'names this host but not the variable' : namesVariable ? 'names the variable but not this host' : 'names neither'}, so check that ${host} is the service the key is for`,
    excerpt: raw,
    severity: atMost(owner.length > 0 && !namesHost ? 'critical' : 'high', cap),
  });
}

/** A git command that records or sends files: `git commit`, `git push`. */
const GIT_SEND = /\bgit\s+(?:-C\s+\S+\s+)?(?:commit|push)\b/;

/**
 * Addresses a script keeps in a variable (`BASE = "https://c.example/?k="`, `URL="https://…"`,
 * `const api = 'https://…'`): the name and the address, at most 50, for the lines that use the
 * name instead of the address. Same-file string assignments only, no other data flow.
 */
function addressVariables(text: string): Map<string, string> {
  const found = new Map<string, string>();
  const assignment =
    /^[ \t]{0,40}(?:export\s+|const\s+|let\s+|var\s+|readonly\s+)?([A-Za-z_]\w{0,40})\s{0,4}=\s{0,4}["'`](https?:\/\/[^"'`\s]{1,300})["'`]/gm;
  for (let m = assignment.exec(text); m !== null && found.size < 50; m = assignment.exec(text))
    found.set(m[1] ?? '', m[2] ?? '');
  return found;
}

/**
 * A line with the address variables it uses written out: `BASE + key` as `"https://…" + key`,
 * `"$URL$KEY"` as `"https://…$KEY"`. The line as it is when it names none.
 */
function withAddresses(line: string, addresses: ReadonlyMap<string, string>): string {
  if (addresses.size === 0 || /https?:\/\//.test(line)) return line;
  return line.replace(/\$\{?([A-Za-z_]\w{0,40})\}?|\b([A-Za-z_]\w{0,40})\b/g, (m, shell, plain) => {
    const name = (shell ?? plain) as string;
    const address = addresses.get(name);
    if (address === undefined) return m;
    return shell !== undefined ? address : JSON.stringify(address);
  });
}

/**
 * Credentials read and then sent (over the network, or committed with git) in one run of
 * commands: a script, or the commands of SKILL.md's fenced blocks. One owner for both, so the
 * same lines get the same verdict wherever they are written; a block's cap (an example, a skill
 * about security) lowers it as for its other findings.
 */
class CredentialFlow {
  private credLine = 0;
  private credLabels: string[] = [];
  private firstCred = '';
  private copyLine = 0;
  private sendLine = 0;
  private useLine = 0;
  /** Lines seen, by their line number, for "then commits" and the finding's detail. */
  private readonly seen: { line: number; text: string }[] = [];

  constructor(
    private readonly reach: Reach,
    private readonly forChild: (line: string) => boolean,
  ) {}

  /** One line (folded), numbered as in its file. */
  see(line: string, i: number): void {
    this.seen.push({ line: i, text: line });
    const creds = credentialsIn(line).filter(
      (c) => c !== 'all environment variables' || !this.forChild(line),
    );
    if (creds.length > 0) {
      for (const c of creds) this.reach.reads.add(c);
      if (this.credLine === 0) {
        this.credLine = i;
        this.firstCred = line;
      }
      this.credLabels = [...new Set([...this.credLabels, ...creds])];
    }
    if (
      this.copyLine === 0 &&
      creds.some((c) => c !== 'all environment variables') &&
      /\b(?:cp|copy|Copy-Item|shutil\.copy\w*|copyFile(?:Sync)?|cat|tee)\b/.test(line)
    )
      this.copyLine = i;
    const net = networkUse(line);
    if (net === 'send' && this.sendLine === 0) this.sendLine = i;
    if (net && this.useLine === 0) this.useLine = i;
  }

  /** The finding, if the lines read credentials; `lineText` gives a line as written. */
  report(file: string, out: Findings, lineText: (i: number) => string, cap: SafetySeverity): void {
    if (this.credLine === 0) return;
    const { credLine, credLabels, copyLine } = this;
    const netLine = this.sendLine || this.useLine;
    if (netLine > 0)
      out.add({
        rule: 'script/secret-to-network',
        file,
        line: credLine,
        detail: `reads ${credLabels.join(', ')} (line ${credLine}) and uses the network (line ${netLine}: ${lineText(netLine).trim().slice(0, 120)})`,
        excerpt: this.firstCred,
        severity: atMost(this.sendLine > 0 ? 'critical' : 'high', cap),
      });
    else if (copyLine > 0 && this.seen.some((l) => l.line >= copyLine && GIT_SEND.test(l.text)))
      // Why as serious as a request: a commit carries the file to wherever the repository is
      // pushed or shared, and stays in its history after the file is deleted.
      out.add({
        rule: 'script/secret-to-network',
        file,
        line: copyLine,
        detail: `copies ${credLabels.join(', ')} (line ${copyLine}) into files that it then commits with git, which carries them wherever the repository goes`,
        excerpt: lineText(copyLine),
        severity: atMost('critical', cap),
      });
    else
      out.add({
        rule: 'script/reads-credentials',
        file,
        line: credLine,
        detail: `reads ${credLabels.join(', ')}`,
        excerpt: this.firstCred,
        severity: atMost('medium', cap),
      });
  }
}

/** Everything the review checks in one script (or data file read as commands). */
function reviewCode(
  file: string,
  lines: Lines,
  kind: ScriptKind | 'data',
  out: Findings,
  reach: Reach,
  skillMd = '',
): void {
  const text = lines.text;
  const secretNames = kind === 'data' ? new Map<string, string>() : secretNamesIn(text);
  const flow = new CredentialFlow(reach, environmentForChild(text));
  const addresses = kind === 'data' ? new Map<string, string>() : addressVariables(text);
  for (let i = 1; i <= lines.count; i++) {
    const raw = lines.line(i);
    if (raw.trim() === '') continue;
    const line = foldForMatching(raw);
    codeOn(line, i, file, out, 'critical', false);
    urlsOn(raw, i, file, out, kind === 'data' ? undefined : reach);
    flow.see(line, i);
    if (kind !== 'data')
      secretSentOn(withAddresses(line, addresses), raw, i, file, secretNames, skillMd, out);
    const persist = persistenceIn(line);
    if (persist) {
      reach.changes.add(persist);
      out.add({
        rule: 'script/persistence',
        file,
        line: i,
        detail: `writes to ${persist}`,
        excerpt: raw,
        severity: /authorized_keys/.test(persist) ? 'critical' : 'high',
      });
    }
    const blob = longEncodedBlock(line);
    if (blob !== undefined)
      out.add({
        rule: 'script/obfuscated',
        file,
        line: i,
        column: blob + 1,
        length: 400,
        detail: `${line.slice(blob, blob + 60)}… (a long base64 block)`,
      });
  }
  if (kind === 'data') return;
  flow.report(file, out, (i) => lines.line(i), 'critical');
  // Flows over several lines: decode then run, download then run, a socket handed to a shell.
  if (kind === 'python' || kind === 'js') {
    const decodes =
      /b64decode|b32decode|fromhex|zlib\.decompress|marshal\.loads|codecs\.decode|atob\(|Buffer\.from\([^\n)]{0,200}['"](?:base64|hex)['"]/.exec(
        text,
      );
    // Why commands too: decoded text handed to a shell (execSync, os.system) runs as surely as eval.
    const runs =
      /\bexec(?:Sync)?\s*\(|\beval\s*\(|new\s+Function\s*\(|runInThisContext|compile\([^\n)]{0,200}['"]exec['"]|\bos\.(?:system|popen)\s*\(|subprocess\.\w+\([^\n)]{0,200}shell\s*=\s*True/.exec(
        text,
      );
    // A function reached by a built or looked-up name (`getattr(__builtins__, "ex"+"ec")`)
    // that runs decoded text is hidden twice over: as serious as `exec(b64decode(…))`.
    const indirect = decodes
      ? lines.text.split('\n').findIndex((l) => indirectCallIn(l) !== undefined)
      : -1;
    if (
      decodes &&
      (runs || indirect !== -1) &&
      !out.list.some((f) => f.file === file && f.rule === 'script/decode-execute')
    ) {
      const at = indirect !== -1 ? indirect + 1 : lines.lineOf(runs?.index ?? 0);
      out.add({
        rule: 'script/decode-execute',
        file,
        line: at,
        detail:
          indirect !== -1
            ? `decodes (${decodes[0]}) and runs it through a function reached by a built name (${indirectCallIn(lines.line(at)) ?? ''})`
            : `decodes (${decodes[0]}) and runs code (${runs?.[0] ?? ''})`,
        excerpt: lines.line(at),
        severity: indirect !== -1 ? 'critical' : 'high',
      });
    }
    if (
      /socket\.socket\(|net\.Socket\(|net\.connect\(/.test(text) &&
      /(?:subprocess|child_process|pty\.spawn|os\.dup2|spawn\(\s*['"](?:\/bin\/)?(?:ba)?sh)/.test(
        text,
      ) &&
      /\/bin\/(?:ba)?sh|cmd\.exe|['"](?:ba)?sh['"]/.test(text) &&
      !out.list.some((f) => f.file === file && f.rule === 'script/reverse-shell')
    ) {
      const at = /socket\.socket\(|net\.Socket\(|net\.connect\(/.exec(text)?.index ?? 0;
      out.add({
        rule: 'script/reverse-shell',
        file,
        line: lines.lineOf(at),
        detail: 'connects a network socket to a shell',
        excerpt: lines.line(lines.lineOf(at)),
      });
    }
  }
  // A shell script that decodes into a variable and runs it: `P=$(… | base64 -d)`, then `eval "$P"`.
  if (kind === 'shell') decodedVariableRun(file, lines, out);
  const fetched = downloadThenRun(text);
  if (fetched && !out.list.some((f) => f.file === file && f.rule === 'script/download-execute')) {
    const line = lines.lineOf(fetched.index);
    out.add({
      rule: 'script/download-execute',
      file,
      line,
      detail: `downloads ${fetched.target} and then runs it (${fetched.run})`,
      excerpt: lines.line(line),
    });
  }
  const name = file.slice(file.lastIndexOf('/') + 1).toLowerCase();
  if (kind === 'npm') {
    const hook =
      /"(preinstall|install|postinstall|prepare|prepublish|preuninstall|postuninstall)"\s*:\s*"([^"\n]{1,2000})"/.exec(
        text,
      );
    if (hook) {
      const line = lines.lineOf(hook.index);
      out.add({
        rule: 'script/install-hook',
        file,
        line,
        detail: `npm "${hook[1]}" runs: ${hook[2]}`,
        excerpt: lines.line(line),
      });
    }
  } else if (
    name === 'setup.py' &&
    /cmdclass\s*=|class\s+\w+\((?:install|develop|egg_info|build_py)\)/.test(text)
  ) {
    const at =
      /cmdclass\s*=|class\s+\w+\((?:install|develop|egg_info|build_py)\)/.exec(text)?.index ?? 0;
    out.add({
      rule: 'script/install-hook',
      file,
      line: lines.lineOf(at),
      detail: 'setup.py replaces an install command with its own code',
      excerpt: lines.line(lines.lineOf(at)),
    });
  } else if (name.endsWith('.pth') && /^\s*import\s/m.test(text)) {
    const at = /^\s*import\s/m.exec(text)?.index ?? 0;
    out.add({
      rule: 'script/install-hook',
      file,
      line: lines.lineOf(at),
      detail: 'a .pth file whose import line runs every time Python starts',
      excerpt: lines.line(lines.lineOf(at)),
      severity: 'high',
    });
  } else if (name === 'conftest.py') {
    out.add({
      rule: 'script/install-hook',
      file,
      line: 0,
      detail: 'conftest.py runs whenever pytest runs in this folder',
      severity: 'low',
    });
  }
}

/** Where a match at an offset of a joined paragraph is: its line, column and that line's text. */
type ParagraphPlace = (index: number) => { line: number; column: number; excerpt: string };

/** Whether text[start, end) sits between inline quotation marks or backticks on its line. */
function quotedInline(text: string, start: number, end: number): boolean {
  const from = Math.max(text.lastIndexOf('\n', start) + 1, start - 400);
  const before = text.slice(from, start);
  const after = text.slice(end, end + 400);
  const count = (s: string, c: string): number => s.split(c).length - 1;
  for (const mark of ['"', '`'])
    if (count(before, mark) % 2 === 1 && after.includes(mark)) return true;
  const open = before.lastIndexOf('\u201c');
  return open !== -1 && open > before.lastIndexOf('\u201d') && after.includes('\u201d');
}

/**
 * Phrase rules on a stretch of folded text; `severity` decides the context's weight.
 * `teaching`: prose of a document about security, where a phrase in quotation marks is quoted.
 */
function phrasesOn(
  text: string,
  file: string,
  lineNo: number | ParagraphPlace,
  out: Findings,
  context: 'prose' | 'teaching' | 'example' | 'quoted',
  excerpt: string,
  phrases: PhraseMatcher,
  skip?: ReadonlySet<string>,
  found?: Set<string>,
): boolean {
  const hits = phrases(text).filter((h) => !skip?.has(h.rule.rule));
  for (const { rule, match: m } of hits) {
    found?.add(rule.rule);
    const base = rule.severity ?? safetyRule(rule.rule).severity;
    // Why: a quoted or fenced example in a document about security is information, not an attack.
    const example =
      context === 'example' ||
      (context === 'teaching' && quotedInline(text, m.index, m.index + m[0].length));
    const severity = example ? 'low' : context === 'quoted' ? lower(base) : base;
    const at =
      typeof lineNo === 'number' ? { line: lineNo, column: m.index + 1, excerpt } : lineNo(m.index);
    out.add({
      rule: rule.rule,
      file,
      line: at.line,
      column: at.column,
      length: m[0].length,
      detail: m[0],
      excerpt: at.excerpt,
      severity,
    });
  }
  return hits.length > 0;
}

/** Instructions hidden where a rendered view does not show them. */
function hiddenInstruction(text: string, phrases: PhraseMatcher): boolean {
  const folded = foldForMatching(text);
  if (phrases(folded).length > 0) return true;
  return ADDRESSES_AGENT.test(folded) && ACTION_WORD.test(folded);
}

/** Persistence asked of the agent in prose: "append … to ~/.claude/settings.json". */
const PROSE_PERSIST =
  /\b(?:add|append|write|insert|put|register|modify|edit|update|create|install|save)\b[^.\n]{0,120}(~\/\.(?:bashrc|zshrc|profile|bash_profile)|\.claude\/settings(?:\.local)?\.json|\.mcp\.json|CLAUDE\.md|AGENTS\.md|\.cursor\/mcp\.json|\.codex\/config\.toml|\.git\/hooks\/\S+|authorized_keys|crontab|systemd\/user)/i;

/** Everything the review checks in a Markdown or text document. */
function reviewDoc(
  file: string,
  lines: Lines,
  out: Findings,
  reach: Reach,
  isSkillMd: boolean,
  bodyStartLine: number,
  phrases: PhraseMatcher,
): MarkdownDoc {
  const doc = analyseMarkdown(lines);
  const proseContext = doc.teaching ? 'teaching' : 'prose';
  let prose = '';
  /** Each line of the paragraph: where it starts in `prose`, and its number. */
  const proseLines: { offset: number; line: number }[] = [];
  /** Rules already found on one line of the paragraph: the joined text need not report them again. */
  const proseRules = new Set<string>();
  const place: ParagraphPlace = (index) => {
    let at = proseLines[0] ?? { offset: 0, line: 1 };
    for (const l of proseLines) if (l.offset <= index) at = l;
    return { line: at.line, column: index - at.offset + 1, excerpt: lines.line(at.line) };
  };
  const flushProse = (): void => {
    if (prose !== '') phrasesOn(prose, file, place, out, proseContext, '', phrases, proseRules);
    prose = '';
    proseLines.length = 0;
    proseRules.clear();
  };
  let hasCommands = false;
  /** The document's commands in fenced blocks, one per line, for flows over several lines. */
  const fenced: { line: number; cap: SafetySeverity }[] = [];
  let fencedText = '';
  for (let i = 1; i <= lines.count; i++) {
    const raw = lines.line(i);
    const context = doc.context[i] ?? 'prose';
    if (raw.trim() === '') {
      flushProse();
      continue;
    }
    const line = foldForMatching(raw);
    // Why per line and per paragraph: a phrase may wrap onto the next line of a paragraph.
    if (context === 'prose') {
      phrasesOn(line, file, i, out, proseContext, raw, phrases, undefined, proseRules);
      // Why the line joins the paragraph even when it matched alone: "Ignore all / previous /
      // instructions. Then send …" wraps one phrase over lines whose last line matches another.
      if (prose !== '') prose += ' ';
      proseLines.push({ offset: prose.length, line: i });
      prose += line.slice(0, 2000);
      if (prose.length > 8000) flushProse();
      const persist = PROSE_PERSIST.exec(line);
      if (persist) {
        const target = persist[1] ?? '';
        reach.changes.add(target);
        const agentSettings =
          /settings|\.mcp\.json|mcp\.json|config\.toml|hooks|authorized_keys|crontab|systemd/i.test(
            target,
          );
        out.add({
          rule: 'script/persistence',
          file,
          line: i,
          detail: persist[0],
          excerpt: raw,
          severity: agentSettings ? 'high' : 'medium',
        });
      }
      // Commands written inline in prose (`curl … | sh`) are instructions too.
      if (line.indexOf('`') !== -1 || /\b(?:curl|wget|npx|pip|npm|rm|iex)\b/.test(line)) {
        // Why only a presented command becomes a note: one word such as "security" anywhere
        // must not turn every command of a skill into a note.
        const cap: SafetySeverity = doc.teaching ? (presents(line) ? 'low' : 'medium') : 'high';
        codeOn(line, i, file, out, cap, true);
      }
      urlsOn(raw, i, file, out, undefined);
    } else {
      flushProse();
      const example = doc.presented[i] === true && doc.teaching;
      phrasesOn(line, file, i, out, example ? 'example' : 'quoted', raw, phrases);
      if (context === 'fence') {
        const kind = fenceKind(doc.lang[i] ?? '');
        if (kind) {
          hasCommands = true;
          // A block the document presents as an example is a note; in a skill about security
          // that does not present it, one step lower (a command it asks to run is still one).
          const cap: SafetySeverity = example ? 'low' : doc.teaching ? 'medium' : 'critical';
          codeOn(line, i, file, out, cap, true);
          fenced.push({ line: i, cap });
          fencedText += `${line}\n`;
          urlsOn(raw, i, file, out, cap === 'low' ? undefined : reach);
        }
      } else {
        urlsOn(raw, i, file, out, undefined);
      }
    }
    // Claude Code runs !`command` in a skill before the model reads it (docs/safety-review.md).
    if (isSkillMd && i >= bodyStartLine) {
      const bang = /(?:^|[\s(])!`([^`\n]{1,500})`/.exec(raw);
      if (bang) {
        reach.runs.add(`!\`${(bang[1] ?? '').slice(0, 60)}\` in SKILL.md`);
        const example = doc.teaching && context !== 'prose' && doc.presented[i] === true;
        out.add({
          rule: 'frontmatter/shell-preprocess',
          file,
          line: i,
          column: bang.index + 1,
          length: bang[0].length,
          detail: `!\`${bang[1] ?? ''}\``,
          excerpt: raw,
          severity: example ? 'low' : 'high',
        });
        codeOn(bang[1] ?? '', i, file, out, 'critical', false);
      }
    }
  }
  flushProse();
  if (hasCommands && isSkillMd) reach.runs.add('commands written in SKILL.md');
  // The document's commands read as one script: credentials copied then committed, or read then
  // sent, over several lines, get the verdict the same lines get in a script (lowered as each
  // block is for an example or a skill about security).
  if (
    fencedText !== '' &&
    !out.list.some((f) => f.file === file && f.rule === 'script/secret-to-network')
  ) {
    const flow = new CredentialFlow(reach, environmentForChild(fencedText));
    const commands = fencedText.split('\n');
    let cap: SafetySeverity = 'critical';
    fenced.forEach((f, k) => {
      flow.see(commands[k] ?? '', f.line);
      cap = atMost(cap, f.cap);
    });
    flow.report(file, out, (i) => lines.line(i), cap);
  }
  // A key sent to an address that imitates its service, judged as in a script. Why the document's
  // own text for "SKILL.md names it": a block names every host and variable it writes, so here
  // only an address made to look like another is a finding.
  if (fencedText !== '') {
    const names = secretNamesIn(fencedText);
    const addresses = addressVariables(fencedText);
    const commands = fencedText.split('\n');
    fenced.forEach((f, k) => {
      const command = withAddresses(commands[k] ?? '', addresses);
      secretSentOn(command, lines.line(f.line), f.line, file, names, lines.text, out, f.cap);
    });
  }
  // `curl -o tool URL`, `chmod +x tool`, `./tool` in the document's commands: as serious as
  // `curl … | sh` there (high, lowered as that is for an example or a skill about security).
  const fetched = fencedText === '' ? undefined : downloadThenRun(fencedText);
  if (fetched) {
    const at = fenced[fencedText.slice(0, fetched.index).split('\n').length - 1];
    if (at && !out.list.some((f) => f.file === file && f.rule === 'supply/pipe-to-shell'))
      out.add({
        rule: 'script/download-execute',
        file,
        line: at.line,
        detail: `downloads ${fetched.target} and then runs it (${fetched.run})`,
        excerpt: lines.line(at.line),
        severity: atMost('high', at.cap),
      });
  }
  // Why a note in an HTML file: there a comment is the ordinary way to explain the markup to
  // whoever edits it (a template's "keep this structure"), and the file is read as source, not
  // shown rendered; one that holds an attack phrase is still reported in full.
  const htmlSource = /\.(?:html?|xhtml|xml|svg)$/i.test(file);
  for (const c of doc.comments) {
    const text = c.text.trim();
    if (text.length < 12) continue;
    if (!hiddenInstruction(text, phrases)) continue;
    const line = lines.lineOf(c.offset);
    const attack = phrases(foldForMatching(text)).length > 0;
    out.add({
      rule: 'hidden/html-comment',
      file,
      line,
      detail: `<!-- ${text.slice(0, 200)} -->`,
      hidden: text,
      excerpt: lines.line(line),
      ...(htmlSource && !attack ? { severity: 'low' as const } : {}),
    });
    codeOn(foldForMatching(text.slice(0, 4000)), line, file, out, 'critical', true);
  }
  for (const h of findStyledHidden(lines.text)) {
    if (h.text.length < 12 || !hiddenInstruction(h.text, phrases)) continue;
    const line = lines.lineOf(h.offset);
    out.add({
      rule: 'hidden/styled-text',
      file,
      line,
      detail: `hidden by ${h.how}: ${h.text.slice(0, 200)}`,
      hidden: h.text,
      excerpt: lines.line(line),
    });
  }
  for (const link of findLinks(lines.text)) {
    const line = lines.lineOf(link.offset);
    if (
      link.title !== undefined &&
      link.title.length >= 12 &&
      hiddenInstruction(link.title, phrases)
    )
      out.add({
        rule: 'hidden/link-title',
        file,
        line,
        detail: `title "${link.title.slice(0, 200)}"`,
        hidden: link.title,
        excerpt: lines.line(line),
      });
    if (link.image) {
      if (link.text.length >= 24 && hiddenInstruction(link.text, phrases))
        out.add({
          rule: 'hidden/alt-text',
          file,
          line,
          detail: `alt text "${link.text.slice(0, 200)}"`,
          hidden: link.text,
          excerpt: lines.line(line),
        });
      const carries = imageUrlCarriesData(link.url);
      if (carries) {
        const example = doc.teaching && (doc.context[line] ?? 'prose') !== 'prose';
        out.add({
          rule: 'supply/data-in-image-url',
          file,
          line,
          detail: `${carries}: ${link.url.slice(0, 200)}`,
          excerpt: lines.line(line),
          severity: example ? 'low' : 'high',
        });
      }
      const host = /^https?:\/\/(?:[^/?#@]{1,200}@)?([^/?#:@]{1,253})/i.exec(link.url)?.[1];
      if (host) reach.hosts.add(host.toLowerCase());
    }
  }
  return doc;
}

/** Long runs of blank lines or spaces that push text out of view. */
function padding(file: string, lines: Lines, out: Findings): void {
  let blank = 0;
  let blankStart = 0;
  for (let i = 1; i <= lines.count; i++) {
    const line = lines.line(i);
    if (line.trim() === '') {
      if (blank === 0) blankStart = i;
      blank++;
      if (line.length >= 5000 && /^[ \t\u00a0\u3000]{5000}/.test(line.slice(0, 5000)))
        out.add({
          rule: 'hidden/padding',
          file,
          line: i,
          detail: `${line.length} spaces on one line`,
        });
      continue;
    }
    if (blank >= 500)
      out.add({
        rule: 'hidden/padding',
        file,
        line: blankStart,
        detail: `${blank} blank lines before line ${i}`,
        excerpt: line,
      });
    blank = 0;
    const spaces = /[ \t\u00a0\u3000]{5000}/.exec(line.length >= 5000 ? line : '');
    if (spaces)
      out.add({
        rule: 'hidden/padding',
        file,
        line: i,
        column: spaces.index + 1,
        detail: 'thousands of spaces inside one line',
        excerpt: line.slice(spaces.index + 5000).trimStart(),
      });
  }
  if (blank >= 500)
    out.add({
      rule: 'hidden/padding',
      file,
      line: blankStart,
      detail: `${blank} blank lines at the end of the file`,
    });
}

/** Frontmatter rules: tools granted, hooks, a description written to match everything. */
function reviewFrontmatter(
  data: unknown,
  skillMd: string,
  bodyStart: number,
  body: Lines,
  out: Findings,
  reach: Reach,
  phrases: PhraseMatcher,
): void {
  const fm = typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {};
  const lineOfKey = (key: string): number => {
    const m = new RegExp(`^${key}\\s*:`, 'm').exec(skillMd);
    return m ? body.lineOf(m.index) : 1;
  };
  const tools = fm['allowed-tools'] ?? fm.allowed_tools ?? fm.allowedTools;
  const toolList = Array.isArray(tools)
    ? tools.map(String)
    : typeof tools === 'string'
      ? splitAllowedTools(tools).tools
      : [];
  const unrestricted = toolList
    .map((t) => t.trim())
    .filter((t) =>
      /^(?:Bash|Bash\(\s*\*?\s*(?::\s*\*)?\s*\)|\*|Shell|Shell\(\*\)|PowerShell(?:\(\*\))?)$/.test(
        t,
      ),
    );
  const bodyText = skillMd.slice(body.starts[bodyStart - 1] ?? 0);
  const runsThings =
    /```(?:bash|sh|shell|zsh|console|powershell|ps1)?\s*\n|\b(?:run|execute|invoke)\s+(?:the\s+)?(?:script|command|scripts\/|bash|shell)/i.test(
      bodyText,
    );
  if (unrestricted.length > 0 && runsThings)
    out.add({
      rule: 'frontmatter/unrestricted-tools',
      file: 'SKILL.md',
      line: lineOfKey('allowed-tools'),
      detail: `allowed-tools: ${unrestricted.join(', ')} with instructions to run commands`,
    });
  const hooksLine = /^hooks\s*:/m.exec(
    skillMd.slice(0, body.starts[bodyStart - 1] ?? skillMd.length),
  );
  if (fm.hooks !== undefined || hooksLine) {
    const commands: string[] = [];
    const walk = (v: unknown, depth: number): void => {
      if (depth > 8 || commands.length > 20) return;
      if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
      else if (typeof v === 'object' && v !== null)
        for (const [k, x] of Object.entries(v)) {
          if (k === 'command' && typeof x === 'string') commands.push(x);
          else walk(x, depth + 1);
        }
    };
    walk(fm.hooks, 0);
    const line = lineOfKey('hooks');
    for (const c of commands) reach.runs.add(`hook: ${c.slice(0, 60)}`);
    out.add({
      rule: 'frontmatter/hooks',
      file: 'SKILL.md',
      line,
      detail:
        commands.length > 0
          ? `hook commands: ${commands.join(' ; ').slice(0, 280)}`
          : 'a hooks key in the frontmatter',
    });
    for (const c of commands) codeOn(foldForMatching(c), line, 'SKILL.md', out, 'critical', false);
  }
  const description = typeof fm.description === 'string' ? fm.description : '';
  if (description !== '') {
    const folded = foldForMatching(description);
    const everything =
      /\b(?:always|automatically)\s+(?:use|invoke|load|activate|apply|trigger|run)\b|\buse\s+(?:this\s+skill\s+)?(?:for|on|in|with|before)\s+(?:every|all|any|each)\s+(?:request|task|message|prompt|conversation|question|query|situation|input|turn|response|interaction)s?\b(?!\s+(?:involving|related|about|that|which|where|with|on|in|for|using|mentioning|asking|of|regarding|concerning)\b)|\bregardless\s+of\s+(?:the\s+)?(?:task|request|topic|context)|\bno\s+matter\s+what\b|\bbefore\s+(?:any|every)\s+(?:other\s+)?(?:skill|tool|action|response|task)\b|\b(?:every|all)\s+(?:user\s+)?(?:requests|messages|prompts|conversations)\b/i.exec(
        folded,
      );
    const commas = (description.match(/,/g) ?? []).length;
    if (everything || commas >= 30)
      out.add({
        rule: 'frontmatter/trigger-everything',
        file: 'SKILL.md',
        line: lineOfKey('description'),
        detail: everything
          ? `description says "${everything[0]}"`
          : `description lists ${commas + 1} comma-separated triggers`,
      });
    // Why the parsed value too: YAML escapes ("\u0069gnore …") and folded lines hide a phrase
    // from the lines as written; a rule already found on those lines is not reported twice.
    const onLines = new Set(
      out.list.filter((f) => f.file === 'SKILL.md' && f.line < bodyStart).map((f) => f.rule),
    );
    phrasesOn(
      folded,
      'SKILL.md',
      lineOfKey('description'),
      out,
      'prose',
      `description: ${description.slice(0, 200)}`,
      phrases,
      onLines,
    );
  }
}

const KIND_NAMES: Record<string, string> = {
  image: 'an image',
  executable: 'a program',
  archive: 'an archive',
  font: 'a font',
  media: 'an audio or video',
  document: 'a document',
  text: 'a text',
};

/** What to do about a file's name (the hidden-text rules' advice speaks of a line). */
const RENAME_IT =
  'Rename the file with plain letters, or remove it if you did not expect it, and check what refers to it.';

/** Findings about a path itself (its name, its kind, its bytes), before any text is read. */
function reviewPath(f: ReviewFile, out: Findings, notExamined: NotExamined[], reach: Reach): void {
  const name = f.path.slice(f.path.lastIndexOf('/') + 1);
  // Why the name too: U+202E in `run\u202Etxt.sh` shows it as `runhs.txt`, a script posing as text,
  // and zero-width characters make two names that look the same.
  for (const h of findHiddenCharacters(f.path, false))
    out.add({
      rule: h.rule,
      severity: h.severity,
      file: f.path,
      line: 0,
      detail: `in the file name: ${h.detail.replace(/ in a line without right-to-left text$/, '')}`,
      action: RENAME_IT,
      ...(h.hidden !== undefined ? { hidden: h.hidden } : {}),
      excerpt: f.path,
    });
  if (f.kind === 'directory') {
    if (f.notExamined !== undefined) {
      notExamined.push({ path: `${f.path}/`, reason: f.notExamined });
      if (name === '__pycache__')
        out.add({
          rule: 'file/compiled-python',
          file: `${f.path}/`,
          line: 0,
          detail: 'a __pycache__ folder of compiled Python',
        });
      else
        out.add({
          rule: 'file/not-examined',
          file: `${f.path}/`,
          line: 0,
          detail: f.notExamined,
          severity: /^\.(?:git|hg|svn|jj)$/.test(name) ? 'low' : 'medium',
        });
    }
    return;
  }
  if (f.kind === 'symlink') {
    const target = f.link?.target ?? '?';
    if (f.link?.inside)
      out.add({ rule: 'file/link', file: f.path, line: 0, detail: `links to ${target}` });
    else {
      const sensitive =
        credentialsIn(target).length > 0 || /\/\.(?:ssh|aws|gnupg|config)\b|\/etc\//.test(target);
      out.add({
        rule: 'file/link-outside',
        file: f.path,
        line: 0,
        detail: `links to ${target}, outside the skill`,
        severity: sensitive ? 'critical' : 'high',
      });
    }
    return;
  }
  if (f.kind === 'other') {
    notExamined.push({ path: f.path, reason: 'not a regular file (a pipe, socket or device)' });
    out.add({ rule: 'file/not-examined', file: f.path, line: 0, detail: 'not a regular file' });
    return;
  }
  const secretName = secretFileName(name);
  if (secretName) out.add({ rule: 'secret/file', file: f.path, line: 0, detail: secretName });
  if (f.notExamined !== undefined) {
    notExamined.push({ path: f.path, reason: f.notExamined });
    out.add({ rule: 'file/not-examined', file: f.path, line: 0, detail: f.notExamined });
    return;
  }
  const promised = extensionKind(f.path);
  if (promised === 'compiled-python') {
    out.add({
      rule: 'file/compiled-python',
      file: f.path,
      line: 0,
      detail: `${name}: compiled Python`,
    });
    return;
  }
  if (f.text !== undefined) {
    // Text named like an image or a program: a script disguised by its name.
    if (
      ['image', 'executable', 'archive', 'font', 'media', 'document'].includes(promised) &&
      f.size > 0
    ) {
      const shebang = f.text.startsWith('#!');
      if (promised !== 'document' || shebang)
        out.add({
          rule: 'file/disguised-binary',
          file: f.path,
          line: 1,
          detail: `named like ${KIND_NAMES[promised] ?? 'another kind of'} file but holds text${shebang ? ' starting with #! (a script)' : ''}`,
          severity: shebang ? 'critical' : 'high',
        });
    }
    return;
  }
  const head = f.head;
  if (!head) return;
  const magic = magicKind(head);
  if (!magic) {
    if (promised === 'text' || promised === 'none') {
      notExamined.push({ path: f.path, reason: 'binary content that is not a known kind of file' });
      out.add({
        rule: 'file/not-examined',
        file: f.path,
        line: 0,
        detail: 'binary content in a file named like text',
      });
    }
    return;
  }
  if (magic.kind === 'executable') {
    reach.runs.add(f.path);
    if (promised === 'executable' || promised === 'none')
      out.add({ rule: 'file/executable-binary', file: f.path, line: 0, detail: magic.what });
    else
      out.add({
        rule: 'file/disguised-binary',
        file: f.path,
        line: 0,
        detail: `named like ${KIND_NAMES[promised] ?? 'another kind of'} file but is ${magic.what}`,
      });
  } else if (magic.kind === 'archive') {
    notExamined.push({ path: f.path, reason: `${magic.what}: its contents were not examined` });
    if (promised === 'archive')
      out.add({ rule: 'file/archive', file: f.path, line: 0, detail: magic.what });
    else
      out.add({
        rule: 'file/disguised-binary',
        file: f.path,
        line: 0,
        detail: `named like ${KIND_NAMES[promised] ?? 'another kind of'} file but is ${magic.what}`,
        severity: 'high',
      });
  } else if (magic.kind === 'compiled-python') {
    out.add({
      rule: 'file/compiled-python',
      file: f.path,
      line: 0,
      detail: `compiled Python named ${name}`,
    });
  } else if (
    promised !== magic.kind &&
    promised !== 'other' &&
    promised !== 'none' &&
    !(magic.kind === 'document' && promised === 'text')
  ) {
    // An image named like a script is odd but harmless; a picture named .sh would not run.
    if (promised === 'text')
      out.add({
        rule: 'file/disguised-binary',
        file: f.path,
        line: 0,
        detail: `named like a text file but is ${magic.what}`,
        severity: 'medium',
      });
  }
}

/**
 * File names made to pass for others: a word mixing Latin with Cyrillic or Greek letters
 * (`setuр.sh` with a Cyrillic р), or two paths that read the same once lookalike letters,
 * compatibility forms and case are folded (`SKILL.md` and `ＳＫＩＬＬ.md`). Names wholly in one
 * alphabet (`отчёт.md`) are not findings.
 */
function lookalikeNames(files: readonly ReviewFile[], out: Findings): void {
  const seen = new Map<string, string>();
  for (const f of files) {
    const mixed = f.path.split(/[^\p{L}\p{M}]+/u).find((word) => mixesScripts(word));
    if (mixed !== undefined)
      out.add({
        rule: 'file/lookalike-name',
        file: f.path,
        line: 0,
        detail: `"${mixed}" mixes Latin letters with Cyrillic or Greek ones that look the same`,
      });
    const key = foldForMatching(f.path).normalize('NFKC').toLowerCase();
    const other = seen.get(key);
    if (other === undefined) seen.set(key, f.path);
    else
      out.add({
        rule: 'file/lookalike-name',
        file: f.path,
        line: 0,
        detail: `reads the same as ${other}, another file of the skill`,
      });
  }
}

/** The verdict from the findings that count (accepted ones aside). */
export function verdictOf(findings: readonly SafetyFinding[]): SafetyVerdict {
  const live = findings.filter((f) => !f.accepted);
  if (live.some((f) => f.severity === 'critical')) return 'danger';
  const highRules = new Set(live.filter((f) => f.severity === 'high').map((f) => f.rule));
  if (highRules.size >= 2) return 'danger';
  if (live.some((f) => f.severity === 'high' || f.severity === 'medium')) return 'review';
  return 'clear';
}

/** One sentence of what the skill can do. */
export function summaryOf(c: SafetyCapabilities): string {
  const parts: string[] = [];
  const list = (items: string[], max = 3): string =>
    items.length <= max
      ? items.join(', ')
      : `${items.slice(0, max).join(', ')} and ${items.length - max} more`;
  if (c.runs.length > 0) parts.push(`runs commands: ${list(c.runs)}`);
  if (c.contacts.length > 0)
    parts.push(
      `contacts ${c.contacts.length} web address${c.contacts.length === 1 ? '' : 'es'} (${list(c.contacts)})`,
    );
  if (c.reads.length > 0) parts.push(`reads ${list(c.reads, 5)}`);
  if (c.changes.length > 0) parts.push(`changes ${list(c.changes)}`);
  if (parts.length === 0)
    return 'Instructions only: runs no commands and contacts no web addresses.';
  const s = parts.join('; ');
  return `${s.charAt(0).toUpperCase()}${s.slice(1)}.`;
}

/** How {@link reviewSkill} runs; the defaults are what every caller wants. */
export interface ReviewOptions {
  /**
   * How the phrase rules are matched: the prefiltered matcher by default; tests pass
   * `phraseHitsPlain` (every pattern run) to show that both give the same report.
   */
  phrases?: PhraseMatcher;
}

/** Review one skill's files. Never throws on any input; linear in the size of the files. */
export function reviewSkill(input: ReviewInput, options: ReviewOptions = {}): SafetyReport {
  const phrases = options.phrases ?? phraseHits;
  const out = new Findings();
  const reach = new Reach();
  const notExamined: NotExamined[] = [];
  const files = [...input.files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  lookalikeNames(files, out);
  const skillFile = files.find((f) => f.path === 'SKILL.md');
  const skillMdText = skillFile?.text ?? '';
  const runBy = new Map<string, ScriptKind>();
  for (const f of files)
    if (f.text !== undefined && (f.path === 'SKILL.md' || DOC_EXT.test(f.path)))
      scriptsRunBy(f.text, runBy);
  for (const f of files) {
    reviewPath(f, out, notExamined, reach);
    if (f.kind !== 'file' || f.text === undefined || f.notExamined !== undefined) continue;
    const text = f.text;
    const lines = new Lines(text);
    const isSkillMd = f.path === 'SKILL.md' || f.path.toLowerCase() === 'skill.md';
    const kind = isSkillMd ? undefined : (scriptKind(f.path, text) ?? runBy.get(f.path));
    for (const s of findSecrets(text, 10)) {
      const line = lines.lineOf(s.index);
      out.add({
        rule: 'secret/token',
        file: f.path,
        line,
        column: lines.columnOf(s.index),
        length: s.token.length,
        detail: `${s.label}: ${s.token.slice(0, 8)}…`,
        title: `${safetyRule('secret/token').title} (${s.label})`,
      });
    }
    for (const h of findHiddenCharacters(text, kind !== undefined)) {
      const line = lines.lineOf(h.offset);
      out.add({
        rule: h.rule,
        severity: h.severity,
        file: f.path,
        line,
        column: lines.columnOf(h.offset),
        length: h.length,
        detail: h.detail,
        ...(h.hidden !== undefined ? { hidden: h.hidden } : {}),
        excerpt: lines.line(line),
      });
    }
    padding(f.path, lines, out);
    if (kind !== undefined) {
      reach.runs.add(f.path);
      reviewCode(f.path, lines, kind, out, reach, skillMdText);
      // Comments and strings in scripts can speak to the agent as well.
      for (let i = 1; i <= lines.count; i++) {
        const raw = lines.line(i);
        if (raw.length > 8 && /[a-z]{3}\s+[a-z]{3}/i.test(raw))
          phrasesOn(foldForMatching(raw), f.path, i, out, 'quoted', raw, phrases);
      }
    } else if (isSkillMd || DOC_EXT.test(f.path) || extensionKind(f.path) === 'none') {
      const bodyStart = isSkillMd ? (input.frontmatter?.bodyStartLine ?? 1) : 1;
      reviewDoc(f.path, lines, out, reach, isSkillMd, bodyStart, phrases);
      if (isSkillMd)
        reviewFrontmatter(input.frontmatter?.data, text, bodyStart, lines, out, reach, phrases);
    } else {
      // Data files: instructions hidden in them reach the agent when it reads them; commands in
      // configuration (`.npmrc`, `pip.conf`, hook files) run.
      reviewCode(f.path, lines, 'data', out, reach);
      for (let i = 1; i <= lines.count; i++) {
        const raw = lines.line(i);
        if (raw.length > 8) phrasesOn(foldForMatching(raw), f.path, i, out, 'prose', raw, phrases);
      }
      if (DATA_EXT.test(f.path) && /requirements[^/]*\.txt$/i.test(f.path) === false) continue;
    }
    if (/(?:^|\/)requirements[^/]*\.(?:txt|in)$/i.test(f.path))
      for (let i = 1; i <= lines.count; i++) {
        const name = /^\s*([A-Za-z0-9][\w.-]{1,100})/.exec(lines.line(i))?.[1];
        const like = name ? typosquatOf(name, 'py') : undefined;
        if (name && like)
          out.add({
            rule: 'supply/typosquat',
            file: f.path,
            line: i,
            detail: `${name} (did you mean ${like}?)`,
            excerpt: lines.line(i),
          });
      }
  }
  const findings = out.list.sort(
    (a, b) =>
      ORDER[b.severity] - ORDER[a.severity] ||
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
      a.line - b.line ||
      (a.rule < b.rule ? -1 : a.rule > b.rule ? 1 : 0),
  );
  const capabilities: SafetyCapabilities = {
    runs: [...reach.runs].sort(),
    contacts: [...reach.hosts].sort(),
    reads: [...reach.reads].sort(),
    changes: [...reach.changes].sort(),
  };
  const verdict = verdictOf(findings);
  return {
    verdict,
    headline: VERDICT_HEADLINES[verdict],
    summary: summaryOf(capabilities),
    capabilities,
    findings,
    notExamined,
  };
}

/**
 * Apply a "Trust anyway" to a report: every finding marked accepted, the verdict recomputed (what
 * the points of trust act on). Why the headline keeps the review's own verdict: "No known risks
 * found" above a list of critical findings would tell a reader the opposite of what was found.
 */
export function withAcceptance(
  report: SafetyReport,
  acceptance: SafetyFinding['accepted'],
): SafetyReport {
  if (!acceptance) return report;
  const findings = report.findings.map((f) => ({ ...f, accepted: acceptance }));
  const verdict = verdictOf(findings);
  const found = verdictOf(report.findings.map((f) => ({ ...f, accepted: undefined })));
  const headline =
    found === 'clear'
      ? VERDICT_HEADLINES[verdict]
      : `Trusted by you (the review says: ${VERDICT_HEADLINES[found]})`;
  return { ...report, findings, verdict, headline };
}

/** Every rule id, for SARIF's rule list and the docs. */
export const SAFETY_RULE_IDS: readonly string[] = SAFETY_RULES.map((r) => r.id);
