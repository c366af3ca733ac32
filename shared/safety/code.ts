/**
 * What scripts do (docs/safety-review.md, "Scripts"): found by content as well as name, read
 * whole (never truncated), judged line by line with bounded patterns and, for flows such as
 * "reads secrets and talks to the network", over the whole file.
 */

/** The kind of program a file is, or undefined when it is not one. */
export type ScriptKind =
  | 'shell'
  | 'python'
  | 'js'
  | 'powershell'
  | 'batch'
  | 'ruby'
  | 'perl'
  | 'php'
  | 'make'
  | 'npm'
  | 'other';

const BY_EXTENSION: Record<string, ScriptKind> = {
  sh: 'shell',
  bash: 'shell',
  zsh: 'shell',
  ksh: 'shell',
  fish: 'shell',
  command: 'shell',
  tool: 'shell',
  py: 'python',
  pyw: 'python',
  pth: 'python',
  ipynb: 'python',
  js: 'js',
  mjs: 'js',
  cjs: 'js',
  ts: 'js',
  mts: 'js',
  cts: 'js',
  jsx: 'js',
  tsx: 'js',
  ps1: 'powershell',
  psm1: 'powershell',
  psd1: 'powershell',
  bat: 'batch',
  cmd: 'batch',
  vbs: 'other',
  vbe: 'other',
  wsf: 'other',
  applescript: 'other',
  scpt: 'other',
  lua: 'other',
  tcl: 'other',
  rb: 'ruby',
  pl: 'perl',
  pm: 'perl',
  php: 'php',
  mk: 'make',
  // Why: `go run scripts/main.go` runs a Go file as a script, with no build step to notice.
  go: 'other',
};
const BY_NAME: Record<string, ScriptKind> = {
  makefile: 'make',
  gnumakefile: 'make',
  justfile: 'make',
  rakefile: 'ruby',
  'package.json': 'npm',
  dockerfile: 'shell',
  '.bashrc': 'shell',
  '.zshrc': 'shell',
  '.profile': 'shell',
  pkgbuild: 'shell',
};

/** A Markdown fence language that holds commands an agent may run. */
export function fenceKind(lang: string): ScriptKind | undefined {
  if (lang === '' || /^(?:bash|sh|shell|zsh|console|terminal|shell-session|fish)$/.test(lang))
    return 'shell';
  if (/^(?:python|py|python3)$/.test(lang)) return 'python';
  if (/^(?:js|javascript|node|ts|typescript|mjs)$/.test(lang)) return 'js';
  if (/^(?:powershell|ps1|pwsh|ps)$/.test(lang)) return 'powershell';
  if (/^(?:bat|batch|cmd|dos)$/.test(lang)) return 'batch';
  if (/^(?:makefile|make)$/.test(lang)) return 'make';
  return undefined;
}

/** What kind of script a file is: by name, by extension, then by its first line (`#!`). */
export function scriptKind(path: string, text: string | undefined): ScriptKind | undefined {
  const name = path.slice(path.lastIndexOf('/') + 1).toLowerCase();
  const byName = BY_NAME[name];
  if (byName) return byName;
  const dot = name.lastIndexOf('.');
  if (dot > 0) {
    const byExt = BY_EXTENSION[name.slice(dot + 1)];
    if (byExt) return byExt;
  }
  if (text !== undefined && text.startsWith('#!')) {
    const first = text.slice(0, Math.min(text.length, 200)).split('\n', 1)[0] ?? '';
    if (/python/.test(first)) return 'python';
    if (/node|deno|bun|tsx|ts-node/.test(first)) return 'js';
    if (/pwsh|powershell/.test(first)) return 'powershell';
    if (/ruby/.test(first)) return 'ruby';
    if (/perl/.test(first)) return 'perl';
    if (/php/.test(first)) return 'php';
    return 'shell';
  }
  return undefined;
}

/** An interpreter named in a command, and the kind of script it runs. */
const INTERPRETERS: ReadonlyArray<readonly [RegExp, ScriptKind]> = [
  [/^(?:python[23]?(?:\.\d+)?|py|uv\s+run|pipenv\s+run\s+python)$/, 'python'],
  [/^(?:ba|z|k|da)?sh$|^source$/, 'shell'],
  [/^(?:node|deno\s+run|bun|bun\s+run|tsx|ts-node|npx\s+tsx)$/, 'js'],
  [/^(?:pwsh|powershell)(?:\.exe)?(?:\s+-file)?$/i, 'powershell'],
  [/^ruby$/, 'ruby'],
  [/^perl$/, 'perl'],
  [/^php$/, 'php'],
];
const RUN_FILE =
  /(?:^|[\s`'"(;&|])((?:python[23]?(?:\.\d+)?|py|uv\s+run|pipenv\s+run\s+python|(?:ba|z|k|da)?sh|source|node|deno\s+run|bun(?:\s+run)?|tsx|ts-node|npx\s+tsx|pwsh(?:\.exe)?(?:\s+-[Ff]ile)?|powershell(?:\.exe)?(?:\s+-[Ff]ile)?|ruby|perl|php))\s+(?:-[A-Za-z]\w*\s+){0,3}["']?(?:\.\/)?(?:\$\{?CLAUDE_SKILL_DIR\}?\/|\{baseDir\}\/)?([\w.-]{1,100}(?:\/[\w.-]{1,100}){0,10})/g;

/**
 * Files a document runs with an interpreter (`python3 scripts/helper`, `bash tools/setup.txt`):
 * path → the kind of script. Why: a file with no extension or shebang, or named like text, is
 * still a script when the skill tells the agent to run it that way.
 */
export function scriptsRunBy(text: string, into: Map<string, ScriptKind>): void {
  // A cheap look first: most texts run nothing.
  if (
    !/python|py\b|sh\b|source|node|deno|bun|tsx|pwsh|powershell|ruby|perl|php|uv\b|pipenv/.test(
      text,
    )
  )
    return;
  RUN_FILE.lastIndex = 0;
  let m: RegExpExecArray | null;
  let n = 0;
  while ((m = RUN_FILE.exec(text)) !== null && n++ < 2000) {
    const interpreter = (m[1] ?? '').replace(/\s+/g, ' ');
    const path = (m[2] ?? '').replace(/^\.\//, '');
    const kind = INTERPRETERS.find(([re]) => re.test(interpreter))?.[1];
    if (kind && path !== '' && !into.has(path)) into.set(path, kind);
  }
}

/** Sensitive places and what they are called in the summary ("reads ~/.ssh"). */
const CREDENTIALS: ReadonlyArray<readonly [string, RegExp]> = [
  [
    '~/.ssh',
    /~\/\.ssh\b|\$HOME\/\.ssh\b|\.ssh\/(?:id_|authorized_keys|known_hosts|config)|\bid_(?:rsa|ed25519|ecdsa|dsa)\b|['"]\.ssh['"]/,
  ],
  [
    'cloud credentials',
    /\.aws\/(?:credentials|config)|~\/\.aws\b|['"]\.aws['"]|AWS_SECRET_ACCESS_KEY|\.config\/gcloud|application_default_credentials|\.azure\/|\.kube\/config|\.docker\/config\.json/,
  ],
  [
    'browser data',
    /Login Data|\bCookies\b|Local State|\.mozilla\/firefox|logins\.json|key4\.db|Google\/Chrome|google-chrome|BraveSoftware|Microsoft\/Edge|Library\/Safari/,
  ],
  [
    'crypto wallets',
    /wallet\.dat|\.electrum|\.bitcoin|\.ethereum|\bkeystore\b|Exodus|[Mm]eta[Mm]ask|nkbihfbeogaeaoehlefnkodbefgpgknn|[Pp]hantom|seed[_ ]phrase|mnemonic/,
  ],
  [
    'all environment variables',
    /\bos\.environ\b(?!\.get|\[|\s*\.setdefault)|dict\(os\.environ\)|JSON\.stringify\(\s*process\.env\s*\)|\b(?:const|let|var)\s+\w+\s*=\s*process\.env\s*;?\s*$|\(\s*process\.env\s*\)|\bENV\.(?:to_h|to_a|each|map|inspect)\b|\bos\.Environ\(\)|%ENV\b(?!\s*\{)|Object\.(?:entries|keys)\(\s*process\.env\s*\)|\.\.\.process\.env\b|\bprintenv\b|^\s*env\s*(?:\||>|$)|\$\(env\)|`env`|Get-ChildItem\s+env:|\bgci\s+env:|\bset\s*>/m,
  ],
  [
    'a .env file',
    /(?:open|readFile(?:Sync)?|cat|type|Get-Content|read_text)\s*\(?\s*[^\n]{0,40}['"/ ]\.env\b(?!\.example|\.sample)/,
  ],
  [
    'saved passwords and keys',
    /\.gnupg|Keychains|\bsecurity\s+find-(?:generic|internet)-password|\.password-store|\.git-credentials|\.netrc\b|\.npmrc\b|\.pypirc\b|\.config\/gh\/hosts\.yml|\.claude\/\.credentials|\.codex\/auth\.json/,
  ],
];

/** Network use: [label, pattern]. `send` marks patterns that send data (not only fetch). */
const NETWORK =
  /\b(?:curl|wget|nc|ncat|netcat|socat|scp|rsync|ftp|sftp|telnet)\b|requests\.\w+\(|urllib|http\.client|httpx\.|aiohttp|\bfetch\(|axios|https?\.(?:request|get)\(|Invoke-(?:WebRequest|RestMethod)|\b(?:iwr|irm)\b|Net\.WebClient|WebClient|socket\.|\/dev\/(?:tcp|udp)\/|smtplib|XMLHttpRequest|new\s+WebSocket|\bnslookup\b|\bdig\b|Net::HTTP|HTTParty|\bhttp\.(?:Post|PostForm|Get|NewRequest)\(|LWP::|HTTP::Tiny|IO::Socket|gethostbyname\(|\bdns\.(?:lookup|resolve\w*)\(/;
const NETWORK_SEND =
  /\bcurl\b[^\n]{0,300}(?:\s-(?:d|F|T)\b|\s--data|\s--upload-file|\s--form|\s-X\s*(?:POST|PUT))|\bwget\b[^\n]{0,300}--post-|requests\.(?:post|put|patch)\(|urlopen\([^\n]{0,200}data=|method\s*[:=]\s*['"](?:POST|PUT)|axios\.(?:post|put)\(|Invoke-(?:WebRequest|RestMethod)[^\n]{0,300}-(?:Method\s+(?:Post|Put)|Body|InFile)|UploadString|UploadFile|UploadData|\.send\(|sendall\(|\/dev\/(?:tcp|udp)\/|\b(?:nc|ncat|netcat)\s+[^\n]{0,60}\d|\bscp\b|smtplib|\b(?:nslookup|dig)\b[^\n]{0,100}\$|Net::HTTP\.post|\bhttp\.(?:Post|PostForm)\(|HTTParty\.post|gethostbyname\([^\n)]{0,100}\+|\bdns\.(?:lookup|resolve\w*)\([^\n)]{0,100}(?:\+|\$\{)/i;

/**
 * Where a script reaches, for the summary: URLs' host names (group 2), and what an address puts
 * before an `@` (group 1: `user:password@`, or `github.com@evil.example`, which goes to
 * evil.example).
 */
export const URL_RE =
  /\bhttps?:\/\/(?:([^\s/'"`<>)\]}\\?#@]{1,200})@)?([^\s/'"`<>)\]}\\:?#@]{1,253})/g;

/** One line-level rule on code: id, patterns, optional severity. */
interface CodeRule {
  rule: string;
  severity?: 'low' | 'medium' | 'high' | 'critical';
  patterns: readonly RegExp[];
}

const SHELLS =
  '(?:sudo\\s+)?(?:(?:ba|z|k|da|c|tc)?sh|python[23]?|node|perl|ruby|php|iex|Invoke-Expression|bun|deno|pwsh|powershell)';
const FETCHERS = '(?:curl|wget|iwr|irm|Invoke-WebRequest|Invoke-RestMethod|fetch)';

/** Line rules on code (scripts and commands in Markdown). */
const CODE_RULES: readonly CodeRule[] = [
  {
    rule: 'script/download-execute',
    patterns: [
      new RegExp(`\\b${FETCHERS}\\b[^\\n|]{0,400}\\|\\s*${SHELLS}\\b`, 'i'),
      new RegExp(`\\b(?:ba|z)?sh\\s+(?:-[a-z]+\\s+)?<\\(\\s*${FETCHERS}\\b`, 'i'),
      new RegExp(`\\b(?:ba|z)?sh\\s+-c\\s+["']?\\$\\(\\s*${FETCHERS}\\b`, 'i'),
      /\b(?:iex|Invoke-Expression)\b[^\n]{0,300}(?:DownloadString|Invoke-WebRequest|Invoke-RestMethod|\biwr\b|\birm\b|Net\.WebClient)/i,
      /(?:DownloadString|Invoke-WebRequest|Invoke-RestMethod|\biwr\b|\birm\b)[^\n]{0,300}\|\s*(?:iex|Invoke-Expression)\b/i,
      /\b(?:exec|eval)\s*\(\s*(?:requests\.get|urllib\.request\.urlopen|urlopen|httpx\.get)\s*\(/,
      /\b(?:exec|eval)\s*\([^\n]{0,120}(?:urlopen|requests\.get|httpx\.get)\([^\n]{0,200}\)\s*\.(?:read|text|content)/,
      /\beval\s*\([^\n]{0,120}\b(?:await\s+)?(?:fetch|https?\.get|axios\.get)\s*\(/,
      /\bnew\s+Function\s*\([^\n]{0,120}\b(?:await\s+)?(?:fetch|axios)/,
      /\bimport\s*\(\s*['"`]https?:\/\//,
    ],
  },
  {
    rule: 'script/decode-execute',
    patterns: [
      new RegExp(`\\bbase64\\s+(?:-d|--decode|-D)\\b[^\\n]{0,200}\\|\\s*${SHELLS}\\b`, 'i'),
      new RegExp(`\\|\\s*base64\\s+(?:-d|--decode|-D)\\b[^\\n]{0,100}\\|\\s*${SHELLS}\\b`, 'i'),
      /\b(?:exec|eval)\s*\(\s*(?:base64\.b64decode|base64\.b32decode|codecs\.decode|zlib\.decompress|bytes\.fromhex|marshal\.loads|binascii\.\w+|__import__\(\s*['"](?:base64|zlib|marshal|codecs)['"]\))/,
      /\b(?:exec|eval)\s*\([^\n]{0,120}(?:b64decode|b32decode|decompress\(|fromhex\(|marshal\.loads|['"]rot_?13['"]|\.decode\(\s*['"](?:hex|base64)['"])/,
      /\beval\s*\(\s*(?:atob|Buffer\.from|unescape|decodeURIComponent|String\.fromCharCode)\s*\(/,
      /\b(?:new\s+Function|Function)\s*\([^\n]{0,120}(?:atob|Buffer\.from|fromCharCode)/,
      /\b(?:vm\.runIn\w+Context|vm\.Script|runInThisContext)\s*\([^\n]{0,120}(?:Buffer\.from|atob)/,
      /\b(?:powershell|pwsh)(?:\.exe)?\b[^\n]{0,80}\s-(?:e|ec|en|enc|enco|encodedcommand)\s+[A-Za-z0-9+/=]{16,}/i,
      /FromBase64String[^\n]{0,300}(?:\biex\b|Invoke-Expression|\.Invoke\(|Invoke-Command)|(?:\biex\b|Invoke-Expression)[^\n]{0,300}FromBase64String/i,
      /\bperl\s+-e\s+[^\n]{0,40}(?:unpack|decode_base64)/,
    ],
  },
  {
    // An environment variable put where the network carries it without a request: a DNS name
    // looked up, or the host part of an address. Why only there: a key in a query string or a
    // header is how documented APIs are called (a query string is judged by its host and
    // SKILL.md, secretInRequest and review.ts secretSentOn).
    rule: 'script/secret-to-network',
    patterns: [
      /\b(?:gethostbyname(?:_ex)?|getaddrinfo|dns(?:\.promises)?\.(?:lookup|resolve\w*)|Resolve-DnsName)\s*\(?[^\n)]{0,120}(?:os\.environ|os\.getenv|process\.env|\bENV\[|\$env:)/i,
      /\b(?:nslookup|dig|host|ping)\s+[^\n|;&]{0,120}\$\{?[A-Za-z_]*(?:TOKEN|SECRET|KEY|PASSWORD|PASSWD|CREDENTIAL)/i,
      /https?:\/\/(?:["'`]\s*\+\s*|\$\{\s*|\{\s*)(?:os\.environ|os\.getenv|process\.env)/,
      /https?:\/\/\$\{?[A-Za-z_]*(?:TOKEN|SECRET|KEY|PASSWORD|PASSWD|CREDENTIAL)[A-Za-z_]*\}?\./i,
    ],
  },
  {
    rule: 'script/reverse-shell',
    patterns: [
      /\/dev\/tcp\/[^\s/]{1,100}\/\d{1,5}/,
      /\b(?:nc|ncat|netcat)\b[^\n]{0,120}\s-(?:e|c)\s+[^\s]{0,30}(?:sh|bash|cmd(?:\.exe)?|powershell)\b/i,
      /\bmkfifo\b[^\n]{0,200}\b(?:nc|ncat|netcat|telnet)\b/,
      /\bsocat\b[^\n]{0,200}\bexec:/i,
      /\bpty\.spawn\s*\(\s*['"]\/bin\/(?:ba)?sh['"]/,
      /os\.dup2\s*\(\s*\w+\.fileno\(\)/,
      /Net\.Sockets\.TCPClient[^\n]{0,300}GetStream/i,
      /child_process[^\n]{0,200}\bspawn\(\s*['"]\/bin\/(?:ba)?sh['"][^\n]{0,200}\bpipe\(/,
      // Perl, Ruby and PHP one-liners hand a socket's descriptor to an interactive shell.
      /\bopen\(\s*STDIN\s*,\s*['"]>&/,
      /\/bin\/(?:ba)?sh\s+-i\s*<&\s*(?:\d|%d|\$)/,
    ],
  },
  {
    rule: 'script/obfuscated',
    severity: 'medium',
    patterns: [
      /(?:\\x[0-9a-fA-F]{2}){24,}/,
      /(?:\\u[0-9a-fA-F]{4}){16,}/,
      /(?:chr\(\d{2,3}\)\s*\+\s*){12,}/,
      /(?:String\.fromCharCode\([\d,\s]{40,})/,
    ],
  },
];

/**
 * A function found by a name the code builds or looks up instead of calling it: `getattr(
 * __builtins__, "exec")`, `globals()["eval"]`, `__import__("os").system(…)`, `window["eval"]`.
 * Run on the line with its string pieces joined ({@link joinStringPieces}), so `"ex" + "ec"`
 * is read as `"exec"`. Why high, under script/obfuscated: no honest script reaches `exec` that
 * way; the only reason is to keep the word out of sight of a reader or a scanner.
 */
const INDIRECT_CALL: readonly RegExp[] = [
  /\bgetattr\s*\(\s*(?:__builtins__|builtins|__import__\(\s*['"](?:builtins|os|subprocess|pty)['"]\s*\)|os|subprocess|pty)\s*,\s*['"](?:exec|eval|compile|__import__|system|popen|Popen|call|run|check_output|spawn\w*|exec[lv]p?e?)['"]/,
  /\b(?:globals|locals|vars)\s*\(\s*\)\s*\[\s*['"](?:exec|eval|compile|__import__|__builtins__)['"]/,
  /\b__builtins__(?:\.__dict__)?\s*\[\s*['"](?:exec|eval|compile|__import__)['"]/,
  /\b(?:window|globalThis|global|self)\s*\[\s*['"](?:eval|Function|require)['"]\s*\]/,
];
/** The same, only when the name was built from pieces (`__import__("o" + "s").system`). */
const BUILT_CALL: readonly RegExp[] = [
  /\b__import__\s*\(\s*['"](?:os|subprocess|pty|socket|builtins|base64|marshal|zlib)['"]\s*\)/,
  /\brequire\s*\(\s*['"](?:child_process|vm)['"]\s*\)/,
  /['"](?:exec|eval|system|popen|execSync|spawnSync|Function)['"]/,
];

/**
 * A line with adjacent string literals joined: `"ex" + "ec"` and `'o' 's'` become `"exec"`
 * and `'os'`. Bounded: short pieces of name characters, at most 20 joins per line.
 */
export function joinStringPieces(line: string): string {
  if (!/['"][ \t]*\+?[ \t]*['"]/.test(line)) return line;
  let out = line;
  for (let n = 0; n < 20; n++) {
    const next = out.replace(
      /(['"])([\w.$-]{0,40})\1[ \t]*\+?[ \t]*(['"])([\w.$-]{0,40})\3/,
      '$1$2$4$1',
    );
    if (next === out) break;
    out = next;
  }
  return out;
}

const INDIRECT_HINT =
  /getattr|globals|locals|vars|__builtins__|__import__|window|global|self|require|['"][ \t]*\+?[ \t]*['"]/;

/** A call reached by a looked-up or built name on this line, or undefined. */
export function indirectCallIn(line: string): string | undefined {
  // A cheap look first: most lines hold none of these.
  if (!INDIRECT_HINT.test(line)) return undefined;
  const joined = joinStringPieces(line);
  for (const p of INDIRECT_CALL) {
    const m = p.exec(joined);
    if (m) return m[0];
  }
  if (joined === line) return undefined;
  for (const p of BUILT_CALL) {
    const m = p.exec(joined);
    if (m) return m[0];
  }
  return undefined;
}

/** Persistence: places that make something run again later. */
const PERSIST_TARGET =
  /(?:~|\$HOME|\$\{HOME\}|%USERPROFILE%|\$env:USERPROFILE|expanduser\(\s*['"]~)[^\s'"]{0,3}\/?\.(?:bashrc|zshrc|profile|bash_profile|zprofile|zshenv|bash_login|bash_logout)\b|['"/ ]\.(?:bashrc|zshrc|bash_profile|zprofile|zshenv)\b|\.config\/fish\/config\.fish|\bcrontab\b|\/etc\/cron|\/var\/spool\/cron|\.config\/systemd\/user|systemctl\s+--user\s+(?:enable|start|daemon-reload)|\/etc\/systemd\/system|Library\/LaunchAgents|LaunchDaemons|launchctl\s+(?:load|bootstrap)|\.git\/hooks\/|core\.hooksPath|\.claude\/settings(?:\.local)?\.json|\.mcp\.json|\bCLAUDE\.md\b|\bAGENTS\.md\b|\.cursor\/(?:mcp\.json|rules)|\.cursorrules|\.codex\/config\.toml|\.gemini\/settings\.json|\.vscode\/(?:settings|tasks)\.json|authorized_keys|CurrentVersion\\\\?Run|schtasks(?:\.exe)?\s+\/create|Start Menu\\\\?Programs\\\\?Startup|\.config\/autostart|sitecustomize\.py|usercustomize\.py|\.pth['"]/i;
const WRITE_OP =
  />>|(?:^|[^<>=!2&])>\s*["'~$/\w]|\btee\b|\bwrite(?:File|_text|_bytes|FileSync|\()?|\bappend(?:File|FileSync)?\b|open\([^\n]{0,160}['"](?:a|w|a\+|w\+|ab|wb)['"]|\bcp\b|\bmv\b|\bln\s+-s|\binstall\s+-|Set-Content|Add-Content|Out-File|\bsed\s+-i|crontab\s+-|\|\s*crontab|systemctl|launchctl|schtasks|core\.hooksPath|\breg(?:\.exe)?\s+add|New-ItemProperty|Set-ItemProperty|copyFile|copyfile|shutil\.copy|json\.dump|fs\.writeFile/i;

/** Deletes outside the skill: a recursive delete of a place that is not the skill's own. */
const RM_RECURSIVE = /\brm\s+((?:-{1,2}[A-Za-z-]+\s+){1,5})([^\n;&|]{1,300})/;
const DANGEROUS_TARGET =
  /^["']?(?:\/\*?|~\/?\*?|\$HOME\/?\*?|\$\{HOME\}\/?\*?|"\$HOME"\/?\*?|\.\.(?:\/\.\.)*\/?\*?|\/(?:home|Users|etc|usr|var|opt|root|boot|bin|lib|srv|mnt|media|System|Library)(?:\/[^\s]*)?|(?:~|\$HOME|\$\{HOME\})\/(?!\.cache\/|tmp\/)[^\s]+|[A-Za-z]:\\?)["']?$/;
const OTHER_DESTRUCTIVE: readonly RegExp[] = [
  /shutil\.rmtree\(\s*(?:os\.path\.expanduser\(\s*['"]~\/?['"]\s*\)|['"](?:\/|~\/?)['"]|(?:pathlib\.)?Path\.home\(\)|os\.environ\[['"]HOME['"]\]|os\.path\.expanduser\(\s*['"]~\/(?:Documents|Desktop|Pictures|Downloads|\.ssh|\.config)['"]\s*\))\s*[,)]/,
  /\b(?:rmSync|rmdirSync|rimraf(?:\.sync)?|fs\.rm|fsp\.rm|remove(?:Sync)?)\s*\(\s*(?:os\.homedir\(\)|homedir\(\)|['"]\/['"]|['"]~['"]|process\.env\.HOME)\s*[,)]/,
  /Remove-Item\b[^\n]{0,200}-Recurse[^\n]{0,200}(?:\$env:USERPROFILE|\$HOME|\bC:\\(?:\*|\s|$|Users\b)|~[\\/]?(?:\s|$|\*))/i,
  /\b(?:rd|rmdir)\s+\/s\b[^\n]{0,80}(?:\bC:\\(?:\s|$|\*|Users)|%USERPROFILE%|%HOMEPATH%)/i,
  /\bdel\s+(?:\/[sfq]\s+){1,3}[^\n]{0,80}(?:\bC:\\(?:\s|$|\*)|%USERPROFILE%)/i,
  /\bfind\s+(?:\/|~|\$HOME)\s[^\n]{0,200}(?:-delete\b|-exec\s+rm\b)/,
  /\bdd\s+[^\n]{0,100}\bof=\/dev\/(?:sd|nvme|disk|hd|mmcblk)/,
  /\bmkfs(?:\.\w+)?\s+[^\n]{0,40}\/dev\//,
  /:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:/,
  /\bgit\s+clean\s+-[a-z]*f[a-z]*d[a-z]*x?\b[^\n]{0,40}(?:~|\$HOME)\b/,
];

/** A download saved to a file, in a shell (`curl -o`, `wget -O`, `> file`) or in Python. */
const DOWNLOAD_TO_FILE =
  /\b(?:curl|wget)\b[^\n]{0,300}(?:\s-o\s*|\s-O\s+|--output(?:=|\s+)|--output-document(?:=|\s+)|>\s*)(["']?[^\s"';|&]{1,200})|\burlretrieve\(\s*[^\n,]{1,300},\s*['"]([^'"\n]{1,200})['"]/;

/**
 * A file downloaded and later made executable or run in the same text: `curl -o x URL`, then
 * `chmod +x x` (or `chmod 755`, `os.chmod`) or `./x`, `bash x`, `/tmp/x`. Why as serious as
 * `curl … | sh`: the steps are split over lines, but the code that runs is whatever the server
 * sent, unreviewed.
 */
export function downloadThenRun(
  text: string,
): { index: number; target: string; run: string } | undefined {
  const download = DOWNLOAD_TO_FILE.exec(text);
  if (!download) return undefined;
  const target = (download[1] ?? download[2] ?? '').replace(/^["']/, '');
  const base = target.slice(target.lastIndexOf('/') + 1);
  if (base.length === 0) return undefined;
  const name = base.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const run = new RegExp(
    `(?:chmod\\s+(?:-\\w+\\s+)?(?:[ugoa]*\\+[rwxX]*x|[0-7]*[1357][0-7]{0,2})\\b[^\\n]{0,100}${name}|os\\.chmod\\([^\\n]{0,100}${name}|(?:\\b(?:ba|z)?sh|python3?|node|source|(?:\\n|&&|;)[ \\t]*\\.)\\s+(?:-\\w+\\s+){0,3}["']?(?:[^\\s"']{0,200}\\/)?${name}\\b|\\./${name}\\b|(?:\\n|&&|;)[ \\t]*["']?[^\\s"'#]{0,200}\\/${name}["']?(?:\\s|$)|subprocess\\.\\w+\\(\\s*\\[?\\s*['"][^'"\\n]{0,200}${name}['"])`,
  ).exec(text.slice(download.index + download[0].length));
  return run ? { index: download.index, target, run: run[0].trim() } : undefined;
}

/** Words of a variable name that say what it is, not whose it is (`OPENAI_API_KEY` → openai). */
const GENERIC_NAME_WORDS = new Set(
  'api key keys token tokens secret secrets access auth password passwd pass pwd client private id app credential credentials bearer personal pat oauth my default env prod dev test the x value'.split(
    ' ',
  ),
);
/** A variable name that holds a secret. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSW|CREDENTIAL|AUTH/i;
/** An environment variable read: its name is the first group that is set. */
const ENV_READ =
  /(?:os\.environ\.get\(\s*|os\.environ\[\s*|os\.getenv\(\s*|process\.env\[\s*|ENV\[\s*|ENV\.fetch\(\s*|getenv\(\s*)['"](\w{1,80})['"]|process\.env\.(\w{1,80})|\$env:(\w{1,80})|\$\{?([A-Z_][A-Z0-9_]{0,79})\}?/;
const ENV_SOURCE = ENV_READ.source;

/**
 * Names a script gives to secret environment variables: `key = os.environ["OPENAI_API_KEY"]`,
 * `const t = process.env.GITHUB_TOKEN`, `KEY=$OPENAI_API_KEY` → name → variable. At most 20.
 */
export function secretNamesIn(text: string): Map<string, string> {
  const names = new Map<string, string>();
  const assign = new RegExp(
    `^[ \\t]*(?:(?:const|let|var|export)\\s+)?([A-Za-z_]\\w{0,60})\\s*=\\s*["']?(?:${ENV_SOURCE})`,
    'gm',
  );
  let m: RegExpExecArray | null;
  while ((m = assign.exec(text)) !== null && names.size < 20) {
    const variable = m[2] ?? m[3] ?? m[4] ?? m[5];
    if (m[1] && variable && SECRET_NAME.test(variable)) names.set(m[1], variable);
  }
  return names;
}

/** A secret environment variable sent with a request to an address, on one line. */
export interface SecretInRequest {
  /** The environment variable (`OPENAI_API_KEY`). */
  variable: string;
  /** The address's host, lower case. */
  host: string;
  /** What the address puts before an `@` (`user:password`), when it does. */
  userinfo?: string;
  /** The words of the variable's name that say whose key it is (`openai`); none for `API_KEY`. */
  owner: string[];
  /**
   * `query`: in the address's query string or its query table; `line`: elsewhere on the line
   * (a header, `curl -u`, the address's user part).
   */
  place: 'query' | 'line';
}

/**
 * Where a line sends a secret environment variable (or a name for one) to an address: in its
 * query string, else anywhere else on the line with the first address of the line.
 */
export function secretInRequest(
  line: string,
  names: ReadonlyMap<string, string>,
): SecretInRequest | undefined {
  if (!/https?:\/\//.test(line)) return undefined;
  let host: string | undefined;
  let userinfo: string | undefined;
  let variable: string | undefined;
  let place: SecretInRequest['place'] = 'query';
  const url =
    /=|params/.test(line) &&
    /https?:\/\/(?:([^\s/?#@'"`<>]{1,200})@)?([A-Za-z0-9.-]{1,253})[^\s'"`]{0,300}?[?&][\w.[\]-]{1,40}=/.exec(
      line,
    );
  if (url) {
    userinfo = url[1];
    host = url[2];
    // Every parameter of the query, not only the first: `?q=Paris&appid=$KEY`.
    const param = /[?&][\w.[\]-]{1,40}=/g;
    param.lastIndex = url.index + url[0].length - 1;
    let at = url.index + url[0].length;
    for (let n = 0; n < 20 && variable === undefined; n++) {
      const rest = line.slice(at, at + 200);
      variable = valueIn(rest, '(?:["\'`]\\s*[+.]\\s*|\\$\\{\\s*|\\{\\s*)?', names);
      const next = param.exec(line);
      if (next === null || next.index > url.index + 600) break;
      at = next.index + next[0].length;
    }
  }
  if (variable === undefined && /params/.test(line)) {
    // The query given as a table: `requests.get(URL, params={"k": os.environ[…]})`, axios
    // `params: { key: process.env.… }`.
    const table =
      /https?:\/\/(?:([^\s/?#@'"`<>]{1,200})@)?([A-Za-z0-9.-]{1,253})[^\n]{0,300}?\bparams\s*[=:]\s*\{([^}\n]{0,300})/.exec(
        line,
      );
    const entries = table?.[3] ?? '';
    for (const entry of entries.split(',')) {
      const value = /:\s*(.{0,200})$/.exec(entry)?.[1];
      const found = value === undefined ? undefined : valueIn(value, '', names);
      if (found !== undefined) {
        userinfo = table?.[1];
        host = table?.[2];
        variable = found;
        break;
      }
    }
  }
  if (variable === undefined || !SECRET_NAME.test(variable)) {
    // Anywhere else on the line: a header, `curl -u`, the address's own user part.
    const address = /https?:\/\/(?:([^\s/?#@'"`<>]{1,200})@)?([A-Za-z0-9.-]{1,253})/.exec(line);
    variable = address ? secretOnLine(line, names) : undefined;
    userinfo = address?.[1];
    host = address?.[2];
    place = 'line';
  }
  if (host === undefined || variable === undefined || !SECRET_NAME.test(variable)) return undefined;
  const owner = variable
    .toLowerCase()
    .split(/_+/)
    .filter((w) => w.length >= 3 && !GENERIC_NAME_WORDS.has(w));
  return {
    variable,
    host: host.toLowerCase(),
    ...(userinfo !== undefined ? { userinfo } : {}),
    owner,
    place,
  };
}

/** The first secret environment variable a line reads, or names through `names`. */
function secretOnLine(line: string, names: ReadonlyMap<string, string>): string | undefined {
  const read = new RegExp(ENV_SOURCE, 'g');
  for (let m = read.exec(line), n = 0; m !== null && n < 50; m = read.exec(line), n++) {
    const variable = m[1] ?? m[2] ?? m[3] ?? m[4];
    if (variable !== undefined && SECRET_NAME.test(variable)) return variable;
  }
  if (names.size === 0) return undefined;
  const word = /[A-Za-z_]\w{0,60}/g;
  for (let m = word.exec(line), n = 0; m !== null && n < 200; m = word.exec(line), n++) {
    const variable = names.get(m[0]);
    if (variable !== undefined) return variable;
  }
  return undefined;
}

/** The secret environment variable a value starts with (after `lead`), read or named. */
function valueIn(
  value: string,
  lead: string,
  names: ReadonlyMap<string, string>,
): string | undefined {
  const direct = new RegExp(`^${lead}(?:${ENV_SOURCE})`).exec(value);
  if (direct) return direct[1] ?? direct[2] ?? direct[3] ?? direct[4];
  if (names.size === 0) return undefined;
  const named = new RegExp(
    `^${lead === '' ? '' : '(?:["\'`]\\s*[+.]\\s*|\\$\\{\\s*|\\{\\s*|\\$)?'}([A-Za-z_]\\w{0,60})\\b`,
  ).exec(value)?.[1];
  return named === undefined ? undefined : names.get(named);
}

/** One hit of a code rule on one line. */
export interface CodeHit {
  rule: string;
  severity?: 'low' | 'medium' | 'high' | 'critical';
  line: number;
  index: number;
  match: string;
  note?: string;
}

/** Labels of the sensitive places a line reads. */
export function credentialsIn(line: string): string[] {
  const out: string[] = [];
  for (const [label, pattern] of CREDENTIALS) if (pattern.test(line)) out.push(label);
  return out;
}

/** Whether a line uses the network, and whether it sends data. */
export function networkUse(line: string): 'send' | 'use' | undefined {
  if (!NETWORK.test(line)) return undefined;
  // Why: a Unix domain socket talks to a program on this computer, not to the network.
  if (
    /\bAF_UNIX\b/.test(line) &&
    !NETWORK.test(line.replace(/\bsocket\.(?:socket|AF_UNIX|SOCK_\w+)\b/g, ''))
  )
    return undefined;
  return NETWORK_SEND.test(line) ? 'send' : 'use';
}

/** The places a line changes that run again later (persistence), when it writes to them. */
export function persistenceIn(line: string): string | undefined {
  const target = PERSIST_TARGET.exec(line);
  if (!target) return undefined;
  if (!WRITE_OP.test(line)) return undefined;
  return target[0].replace(/^['"/ ]/, '').replace(/['"]$/, '');
}

/** A recursive delete of a place outside the skill on this line, or undefined. */
export function destructiveIn(line: string): string | undefined {
  const rm = RM_RECURSIVE.exec(line);
  if (rm && /-[a-zA-Z]*[rR]|--recursive/.test(rm[1] ?? '')) {
    for (const token of (rm[2] ?? '').trim().split(/\s+/)) {
      if (token.startsWith('-')) continue;
      if (DANGEROUS_TARGET.test(token)) return `rm ${(rm[1] ?? '').trim()} ${token}`;
    }
  }
  for (const p of OTHER_DESTRUCTIVE) {
    const m = p.exec(line);
    if (m) return m[0];
  }
  return undefined;
}

/** The line-rule hits of one code line. */
export function codeLineHits(line: string, lineNo: number): CodeHit[] {
  const hits: CodeHit[] = [];
  const indirect = indirectCallIn(line);
  if (indirect !== undefined)
    hits.push({
      rule: 'script/obfuscated',
      severity: 'high',
      line: lineNo,
      index: Math.max(0, line.indexOf(indirect.slice(0, 6))),
      match: indirect,
      note: 'calls a function by a name it builds or looks up',
    });
  for (const rule of CODE_RULES) {
    for (const p of rule.patterns) {
      const m = p.exec(line);
      if (m) {
        hits.push({
          rule: rule.rule,
          ...(rule.severity ? { severity: rule.severity } : {}),
          line: lineNo,
          index: m.index,
          match: m[0],
        });
        break;
      }
    }
  }
  return hits;
}

/** Whether a UTF-16 code unit is a base64 digit. */
function isB64(c: number): boolean {
  return (
    (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 43 || c === 47
  );
}

/**
 * Where the first base64 block of 400 or more characters starts on a line (data: URIs aside), or
 * undefined. Why a loop and not a regex: `[A-Za-z0-9+/]{400,}` retries from every start inside a
 * run just short of 400, which is quadratic on a padded line; this counts each run once.
 */
export function longEncodedBlock(line: string): number | undefined {
  if (line.length < 400) return undefined;
  let runStart = 0;
  let lower = false;
  let upper = false;
  let digit = false;
  for (let i = 0; i <= line.length; i++) {
    const c = i < line.length ? line.charCodeAt(i) : -1;
    if (c !== -1 && isB64(c)) {
      if (c >= 97) lower = true;
      else if (c >= 65) upper = true;
      else if (c >= 48 && c <= 57) digit = true;
      continue;
    }
    // Why all three kinds: hex digests and long identifiers are not base64 blocks.
    if (i - runStart >= 400 && lower && upper && digit) {
      const before = line.slice(Math.max(0, runStart - 80), runStart);
      if (!/data:[\w/+.-]{1,60};base64,$/.test(before)) return runStart;
    }
    runStart = i + 1;
    lower = upper = digit = false;
  }
  return undefined;
}
