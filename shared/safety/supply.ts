/**
 * Supply chain (docs/safety-review.md, "Supply chain"): what a skill installs and where from.
 * Package and domain lists are short and fixed; a name is judged by its distance to them, never
 * by a list of known-bad names that a new squat would not be on.
 */
import { decodePunycode, mixesScripts } from './unicode';
import { editDistance } from '../text/edit-distance';

/** Well-known sites whose near-misses are suspicious: the name before the top-level domain. */
const KNOWN_SITES = [
  'github',
  'githubusercontent',
  'gitlab',
  'bitbucket',
  'npmjs',
  'pypi',
  'pythonhosted',
  'python',
  'nodejs',
  'google',
  'googleapis',
  'microsoft',
  'anthropic',
  'openai',
  'amazonaws',
  'amazon',
  'cloudflare',
  'docker',
  'huggingface',
  'rubygems',
  'crates',
  'rust-lang',
  'apple',
  'slack',
  'stripe',
  'paypal',
  'dropbox',
  'discord',
  'telegram',
  'vercel',
  'heroku',
  'claude',
  'homebrew',
];
/** Real sites one edit away from a known one. */
const REAL_NEIGHBOURS = new Set([
  'gitlab',
  'github',
  'pypi',
  'pypa',
  'npmjs',
  'googleapis',
  'google',
  'amazon',
  'amazonaws',
  'python',
  'pythonhosted',
  'rust',
  'discord',
  'discordapp',
  'apple',
]);

/** Popular packages per ecosystem: installs one edit away from these are suspicious. */
const POPULAR_PY = [
  'requests',
  'numpy',
  'pandas',
  'urllib3',
  'setuptools',
  'boto3',
  'botocore',
  'django',
  'flask',
  'pyyaml',
  'cryptography',
  'pillow',
  'matplotlib',
  'scipy',
  'colorama',
  'python-dateutil',
  'beautifulsoup4',
  'selenium',
  'tensorflow',
  'torch',
  'scikit-learn',
  'jinja2',
  'pytest',
  'click',
  'httpx',
  'aiohttp',
  'openai',
  'anthropic',
  'pydantic',
  'fastapi',
  'sqlalchemy',
  'psycopg2',
  'lxml',
  'paramiko',
  'pycryptodome',
  'pyjwt',
  'certifi',
  'idna',
  'charset-normalizer',
  'rich',
  'typer',
  'uvicorn',
  'tqdm',
  'openpyxl',
  'pypdf',
  'python-docx',
  'markdown',
  'playwright',
];
const POPULAR_JS = [
  'lodash',
  'express',
  'react',
  'axios',
  'chalk',
  'commander',
  'moment',
  'debug',
  'typescript',
  'webpack',
  'eslint',
  'prettier',
  'dotenv',
  'uuid',
  'yargs',
  'underscore',
  'jquery',
  'electron',
  'puppeteer',
  'playwright',
  'vite',
  'jest',
  'mocha',
  'cross-env',
  'node-fetch',
  'socket.io',
  'mongoose',
  'openai',
  'nodemon',
  'body-parser',
  'cors',
  'inquirer',
  'minimist',
  'glob',
  'rimraf',
  'semver',
  'zod',
  'marked',
  'sharp',
  'tailwindcss',
  'esbuild',
  'prisma',
  'vitest',
  'execa',
];
/** Real packages one edit away from a popular one. */
const REAL_PACKAGES = new Set([
  'request',
  'preact',
  'color',
  'colors',
  'colour',
  'scapy',
  'jinja',
  'boto',
  'openapi',
  'react-dom',
  'glob2',
  'globby',
  'mock',
  'moments',
  'click7',
  'rich-click',
  'pytest-cov',
  'httpie',
  'cors-anywhere',
  'marko',
  'sharp-cli',
  'vitest',
  'vite',
  'jest',
  'eslint',
  'types',
  'torchx',
  'numba',
  'execa',
  'exec',
  'lxml2',
  'pillow-heif',
  'ultra',
]);

/** Digits that stand in for letters in lookalike names (g1thub, paypa1). */
function undigit(s: string): string {
  return s
    .replace(/0/g, 'o')
    .replace(/1/g, 'l')
    .replace(/3/g, 'e')
    .replace(/5/g, 's')
    .replace(/4/g, 'a');
}

/** Two-label country suffixes under which anyone registers a name (`example.co.uk`). */
const COUNTRY_SUFFIXES = new Set([
  'co.uk',
  'org.uk',
  'ac.uk',
  'gov.uk',
  'me.uk',
  'com.au',
  'net.au',
  'org.au',
  'co.nz',
  'co.jp',
  'ne.jp',
  'or.jp',
  'co.kr',
  'co.in',
  'co.za',
  'com.br',
  'com.cn',
  'com.hk',
  'com.mx',
  'com.sg',
  'com.tr',
  'com.tw',
]);

/**
 * Hosting platforms that give each customer a name of its own: `openweathermap.github.io` is
 * whoever took that name on GitHub Pages, not OpenWeather. Short and fixed, as the lists above: a
 * platform missing here is judged by its customer's name, as before.
 */
const PLATFORM_SUFFIXES = new Set([
  'github.io',
  'gitlab.io',
  'herokuapp.com',
  'vercel.app',
  'netlify.app',
  'pages.dev',
  'workers.dev',
  'appspot.com',
  'web.app',
  'firebaseapp.com',
  'azurewebsites.net',
  'cloudfront.net',
  'ngrok.io',
  'ngrok-free.app',
]);

/**
 * The part of a host name its owner registered (`api.github.com` → `github.com`,
 * `a.b.example.co.uk` → `example.co.uk`, `api.github.com.evil.example` → `evil.example`): what
 * decides whose server it is. The whole host when it is one label or an IP address.
 */
export function registrableDomain(host: string): string {
  const lower = host.toLowerCase().replace(/\.$/, '');
  if (/^[\d.]+$/.test(lower) || lower.includes(':')) return lower;
  const labels = lower.split('.');
  if (labels.length < 2) return lower;
  const lastTwo = labels.slice(-2).join('.');
  const keep = COUNTRY_SUFFIXES.has(lastTwo) || PLATFORM_SUFFIXES.has(lastTwo) ? 3 : 2;
  return labels.slice(-keep).join('.');
}

/** Whether the host is a customer's name on a hosting platform (anyone may have taken it). */
export function onHostingPlatform(host: string): boolean {
  const labels = host.toLowerCase().replace(/\.$/, '').split('.');
  return labels.length > 2 && PLATFORM_SUFFIXES.has(labels.slice(-2).join('.'));
}

/** The owner's own name in a host: the first label of its registrable domain (`github`). */
export function siteName(host: string): string {
  return registrableDomain(host).split('.')[0] ?? '';
}

/** The endings a well-known site's own address has after its name (`github.com`, `claude.ai`). */
const SITE_ENDINGS = new Set(['com', 'org', 'net', 'io', 'ai', 'dev', 'app', 'co']);

/**
 * The well-known site a host spells out before the name its owner registered
 * (`api.github.com.evil.example` → `github.com`), or undefined. Why only labels before that
 * name: `google.com.ar` ends in a country's suffix this file may not list, and is still Google's.
 */
function embeddedSite(lower: string): string | undefined {
  const own = registrableDomain(lower).split('.').length;
  const labels = lower.split('.');
  const before = labels.slice(0, labels.length - own);
  for (let i = 0; i + 1 < before.length; i++) {
    const [name, ending] = [before[i] ?? '', before[i + 1] ?? ''];
    if (KNOWN_SITES.includes(name) && SITE_ENDINGS.has(ending)) return `${name}.${ending}`;
  }
  return undefined;
}

/**
 * Why a host name imitates a well-known one, or undefined. `userinfo` is what the address puts
 * before an `@` (`https://github.com@evil.example/` goes to evil.example).
 */
export function lookalikeHost(
  host: string,
  userinfo?: string,
): { why: string; shown: string } | undefined {
  const lower = host.toLowerCase().replace(/\.$/, '');
  const labels = lower.split('.');
  // Why the part before a colon, with a dot in it: `x-access-token:…@github.com` is a user name
  // and a password, `github.com:443@evil.example` a site's address put where a user name goes.
  const shownBefore = userinfo?.toLowerCase().split(':')[0];
  if (
    shownBefore?.includes('.') === true &&
    KNOWN_SITES.includes(siteName(shownBefore)) &&
    registrableDomain(shownBefore) !== registrableDomain(lower)
  )
    return {
      why: `the address shows "${shownBefore}" before an @, but it goes to ${registrableDomain(lower)}`,
      shown: `${shownBefore}@${lower}`,
    };
  if (labels.some((l) => l.startsWith('xn--'))) {
    const shown = labels
      .map((l) => (l.startsWith('xn--') ? (decodePunycode(l.slice(4)) ?? l) : l))
      .join('.');
    return { why: `punycode address that displays as "${shown}"`, shown };
  }
  if (mixesScripts(lower))
    return { why: 'address mixes Latin with Cyrillic or Greek letters', shown: lower };
  if (labels.length < 2) return undefined;
  const inside = embeddedSite(lower);
  if (inside !== undefined)
    return {
      why: `it begins like ${inside}, but the address belongs to ${registrableDomain(lower)}`,
      shown: lower,
    };
  const name = siteName(lower);
  if (name.length < 5 || KNOWN_SITES.includes(name) || REAL_NEIGHBOURS.has(name)) return undefined;
  const plain = undigit(name);
  for (const site of KNOWN_SITES) {
    if (site.length < 5) continue;
    if (plain === site || editDistance(name, site) === 1 || editDistance(plain, site) === 1)
      return { why: `"${name}" is one letter away from "${site}"`, shown: lower };
  }
  return undefined;
}

/** Why a package name looks like a misspelling of a popular one, or undefined. */
export function typosquatOf(name: string, ecosystem: 'py' | 'js'): string | undefined {
  const n = name.toLowerCase().replace(/_/g, '-');
  if (n.length < 4 || REAL_PACKAGES.has(n)) return undefined;
  const list = ecosystem === 'py' ? POPULAR_PY : POPULAR_JS;
  if (list.includes(n)) return undefined;
  for (const p of list) {
    if (p.length < 4) continue;
    if (editDistance(n, p) === 1 || undigit(n) === p) return p;
    // Why: "python3-dateutil" and "requests-py" style squats add a familiar word.
    if (ecosystem === 'py' && (n === `python3-${p}` || n === `${p}-py` || n === `py${p}`)) return p;
  }
  return undefined;
}

/** Install commands and the package names they name: [ecosystem, names]. */
export function installedPackages(
  line: string,
): { ecosystem: 'py' | 'js'; names: string[]; command: string }[] {
  const out: { ecosystem: 'py' | 'js'; names: string[]; command: string }[] = [];
  const py =
    /\b(?:pip3?|uv\s+pip|python3?\s+-m\s+pip|pipx|uv)\s+(?:install|add)\s+([^\n;&|#]{1,400})/.exec(
      line,
    );
  if (py)
    out.push({ ecosystem: 'py', names: packageWords(py[1] ?? '', /[=<>~!;[]/), command: py[0] });
  const js =
    /\b(?:npm\s+(?:install|i|add)|pnpm\s+(?:add|install|i|dlx)|yarn\s+(?:add|dlx)|bun\s+(?:add|install|x)|bunx|npx)\s+([^\n;&|#]{1,400})/.exec(
      line,
    );
  if (js) out.push({ ecosystem: 'js', names: packageWords(js[1] ?? '', /(?!^)@/), command: js[0] });
  return out;
}

/** The package-name words of an install command's arguments (options and paths dropped). */
function packageWords(args: string, versionCut: RegExp): string[] {
  const names: string[] = [];
  for (const word of args.trim().split(/\s+/)) {
    if (
      word === '' ||
      word.startsWith('-') ||
      /[/\\]|^\.|:\/\//.test(word.replace(/^@[\w.-]+\//, ''))
    )
      continue;
    const cut = word.search(versionCut);
    const name = (cut > 0 ? word.slice(0, cut) : word).replace(/^['"]|['"]$/g, '');
    if (/^@?[\w.-]+(?:\/[\w.-]+)?$/.test(name)) names.push(name);
  }
  return names.slice(0, 40);
}

/** `npx -y pkg` / `@latest` / a git install without a commit: the unpinned command, or undefined. */
export function unpinnedInstall(line: string): string | undefined {
  const npx =
    /\b(?:npx|bunx|pnpm\s+dlx|yarn\s+dlx)\s+(?:-y|--yes)\s+(@?[\w.-]+(?:\/[\w.-]+)?(?:@[\w.^~*-]+)?)/.exec(
      line,
    );
  if (npx) {
    const spec = npx[1] ?? '';
    const at = spec.lastIndexOf('@');
    if (at <= 0 || /@(?:latest|next|\*|\^|~)/.test(spec)) return npx[0];
  }
  const latest =
    /\b(?:npx|npm\s+(?:install|i)|pnpm\s+(?:add|dlx)|yarn\s+(?:add|dlx)|bunx|uvx)\s+[^\n;&|]{0,200}@latest\b/.exec(
      line,
    );
  if (latest) return latest[0];
  const git = /\bpip3?\s+install\s+[^\n;&|]{0,100}git\+https?:\/\/[^\s@#]{1,300}(?:\s|$)/.exec(
    line,
  );
  if (git) return git[0].trim();
  return undefined;
}

const OFFICIAL_REGISTRY =
  /^(?:https?:\/\/)?(?:registry\.npmjs\.org|registry\.yarnpkg\.com|pypi\.org|files\.pythonhosted\.org|pypi\.python\.org)(?:\/|$)/i;

/** A package manager pointed at another registry or index on this line: the setting, or undefined. */
export function registryRedirect(line: string): string | undefined {
  const m =
    /(?:--registry(?:=|\s+)|--(?:extra-)?index-url(?:=|\s+)|npm\s+config\s+set\s+registry\s+|pip3?\s+config\s+set\s+global\.(?:extra-)?index-url\s+|(?:PIP_(?:EXTRA_)?INDEX_URL|NPM_CONFIG_REGISTRY|npm_config_registry|UV_INDEX_URL|UV_EXTRA_INDEX_URL)\s*=\s*|^\s*(?:registry|index-url|extra-index-url)\s*=\s*)["']?(\S{1,300})/i.exec(
      line,
    );
  if (m && !OFFICIAL_REGISTRY.test((m[1] ?? '').replace(/["']$/, ''))) return m[0];
  const trusted = /--trusted-host(?:=|\s+)\S{1,200}/.exec(line);
  return trusted ? trusted[0] : undefined;
}

/**
 * Whether an image URL carries data: placeholders or variables in it, or query values that
 * look filled in by the agent. Why images: agents and chat windows load them without asking.
 */
export function imageUrlCarriesData(url: string): string | undefined {
  if (!/^https?:/i.test(url)) return undefined;
  if (/[{}<>$]|%7B|%24|\[\[|\]\]/i.test(url)) return 'placeholders in the address';
  const q = url.indexOf('?');
  if (q === -1) return undefined;
  const query = url.slice(q + 1);
  if (
    /(?:^|&)(?:data|secret|token|key|password|pass|env|creds?|ssh|cookie|session|conversation|history|chat|content|payload|exfil|d|q)=[^&]{24,}/i.test(
      query,
    )
  )
    return 'a long value in the address';
  return undefined;
}
