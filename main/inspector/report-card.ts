/**
 * The server report card: one action checks a server against the Skills
 * extension (docs/skills-over-mcp.md §2–§4) and says pass/fail per check with the evidence. It reads
 * every listed file on purpose — this is a conformance check of the server, not a host loading a
 * skill — within the session's bounds. Exports as Markdown and JSON.
 */
import { randomBytes } from 'node:crypto';
import {
  DIRECTORY_MIME_TYPE,
  INVALID_PARAMS,
  RESERVED_METADATA_PREFIX,
  SKILL_LIMITS,
  SKILL_MD_MIME_TYPE,
  SkillEntrySchema,
  SkillsCapabilitySchema,
} from '../../shared/sep';
import { InspectorError, rpcCode } from './errors';
import { listExtensionSkills } from './discovery';
import type { InspectorSession } from './session';
import { describeTarget } from './session';
import { walkDirectory } from './skill-reader';
import { checkReadableUri, finalSegment, manifestUriProblem } from './uris';
import { jsonEqual } from '../../shared/json/values';
import { verifyRead } from './verify';
import type {
  CheckStatus,
  FileVerification,
  InspectedSkill,
  ReportCard,
  ReportCheck,
} from './types';
import { count, grouped } from '../../shared/text/words';

export type { CheckStatus, ReportCard, ReportCheck } from './types';

const MAX_EVIDENCE = 50;

class Check {
  evidence: string[] = [];
  failed = 0;
  warned = 0;
  total = 0;
  constructor(
    readonly id: string,
    readonly title: string,
    readonly source: string,
  ) {}
  fail(line: string): void {
    this.failed++;
    if (this.evidence.length < MAX_EVIDENCE) this.evidence.push(line);
  }
  warn(line: string): void {
    this.warned++;
    if (this.evidence.length < MAX_EVIDENCE) this.evidence.push(line);
  }
  note(line: string): void {
    if (this.evidence.length < MAX_EVIDENCE) this.evidence.push(line);
  }
  done(passSummary: string, status?: CheckStatus): ReportCheck {
    const s: CheckStatus = status ?? (this.failed > 0 ? 'fail' : this.warned > 0 ? 'warn' : 'pass');
    const summary =
      s === 'fail'
        ? `${count(this.failed, 'problem')} found.`
        : s === 'warn'
          ? `${count(this.warned, 'warning')}.`
          : passSummary;
    return {
      id: this.id,
      title: this.title,
      status: s,
      summary,
      evidence: this.evidence,
      source: this.source,
    };
  }
}

function skipped(id: string, title: string, source: string, why: string): ReportCheck {
  return { id, title, status: 'skip', summary: why, evidence: [], source };
}

/** Send a deliberate probe for `uri` (announced to the protocol log) and expect -32602 back. */
async function expectInvalidParams(
  session: InspectorSession,
  uri: string,
  call: () => Promise<unknown>,
): Promise<string | undefined> {
  const withdraw = session.wire.expectProbe(uri);
  try {
    await call();
    return 'answered with a result instead of error -32602';
  } catch (e) {
    if (e instanceof InspectorError && (e.code === 'cancelled' || e.code === 'not-connected'))
      throw e;
    const code = rpcCode(e);
    return code === INVALID_PARAMS
      ? undefined
      : `answered with ${code === undefined ? `a failure (${(e as Error).message})` : `error ${code}`} instead of -32602`;
  } finally {
    withdraw();
  }
}

/** Run every check against a connected session. */
export async function runReportCard(
  session: InspectorSession,
  options: { signal?: AbortSignal; concurrency?: number } = {},
): Promise<ReportCard> {
  const started = performance.now();
  const before = session.bytesRead;
  const signal = options.signal;
  const checks: ReportCheck[] = [];
  const status = session.statusExtra();
  let files = 0;

  // 1. Capability shape (SEP-2640 §2).
  const cap = new Check('capability-shape', 'Capability shape', 'docs/skills-over-mcp.md §2');
  const declared = session.skillsCapability;
  const caps = status.capabilities ?? {};
  if (declared === undefined)
    cap.fail('capabilities.extensions["io.modelcontextprotocol/skills"] is not declared.');
  else {
    const parsed = SkillsCapabilitySchema.safeParse(declared);
    if (!parsed.success || Array.isArray(declared))
      cap.fail(
        `The extension value ${JSON.stringify(declared)} is not an object with an optional boolean directoryRead.`,
      );
    else cap.note(`Declared: ${JSON.stringify(declared)}.`);
  }
  if (caps.resources === undefined)
    cap.fail('capabilities.resources is not declared; the extension needs it too.');
  checks.push(cap.done('The extension and resources are declared with the right shape.'));
  if (declared === undefined) {
    const why = 'The server does not declare the Skills extension.';
    for (const [id, title] of [
      ['pagination', 'Pagination to the end'],
      ['entry-shape', 'Entry shape'],
      ['final-segment-name', 'Final segment equals name'],
      ['frontmatter-identical', 'Frontmatter identical to the served SKILL.md'],
      ['manifest-complete', 'Manifest complete'],
      ['digests-sizes', 'Digests and sizes'],
      ['skills-get', 'skills/get answers for listed skills'],
      ['unknown-skill-error', '-32602 for unknown skills'],
      ['non-directory-error', '-32602 for non-directories'],
      ['mime-types', 'Mime types'],
      ['limits', 'Limits'],
    ] as const)
      checks.push(skipped(id, title, 'docs/skills-over-mcp.md §3–§4', why));
    return finish();
  }

  // 2. Pagination (§3).
  const pag = new Check('pagination', 'Pagination to the end', 'docs/skills-over-mcp.md §3');
  const listed = await listExtensionSkills(session, signal);
  for (const p of listed.problems.filter((x) => /Stopped|more than once/.test(x))) pag.fail(p);
  pag.note(`${count(listed.raw.length, 'entry', 'entries')} in ${count(listed.pages, 'page')}.`);
  checks.push(
    pag.done(
      `Followed skills/list to the end: ${count(listed.pages, 'page')}, ${count(listed.raw.length, 'entry', 'entries')}, no repeats.`,
    ),
  );

  // 3. Entry shape (§3).
  const shape = new Check('entry-shape', 'Entry shape', 'docs/skills-over-mcp.md §3');
  listed.raw.forEach((raw, i) => {
    const r = SkillEntrySchema.safeParse(raw);
    const uri = (raw as { uri?: unknown } | null)?.uri;
    if (!r.success) {
      shape.fail(
        `Entry ${i + 1} (${String(uri)}): ${r.error.issues.map((x) => `${x.path.join('.') || '(entry)'}: ${x.message}`).join('; ')}`,
      );
      return;
    }
    const e = r.data;
    const c = checkReadableUri(e.uri);
    if (!c.ok) shape.fail(`${e.uri}: ${c.reason}`);
    if (!e.uri.endsWith('/SKILL.md'))
      shape.fail(`${e.uri}: the entry URI must be the skill's SKILL.md.`);
    if (Array.isArray(e.resources)) {
      const uris = e.resources.map((x) => x.uri);
      const listings = uris.filter((u) => u === e.uri).length;
      if (listings !== 1)
        shape.fail(
          `${e.uri}: the manifest lists SKILL.md ${count(listings, 'time')}; it must list it exactly once.`,
        );
      const dupes = uris.filter((u, k) => uris.indexOf(u) !== k);
      if (dupes.length)
        shape.fail(
          `${e.uri}: the manifest lists ${[...new Set(dupes)].join(', ')} more than once.`,
        );
      const root = e.uri.slice(0, -'/SKILL.md'.length);
      for (const u of uris) {
        const cu = checkReadableUri(u);
        if (!cu.ok) shape.fail(`${e.uri}: ${cu.reason}`);
        else if (!u.startsWith(`${root}/`))
          shape.fail(`${e.uri}: the manifest lists ${u}, which is outside the skill folder.`);
      }
    }
    const meta = (e.frontmatter as { metadata?: unknown }).metadata;
    if (meta && typeof meta === 'object') {
      for (const k of Object.keys(meta))
        if (k.startsWith(RESERVED_METADATA_PREFIX))
          shape.warn(
            `${e.uri}: frontmatter.metadata key "${k}" uses the reserved prefix ${RESERVED_METADATA_PREFIX}.`,
          );
    }
  });
  checks.push(
    shape.done(
      `All ${listed.raw.length} entries have uri, frontmatter and a manifest listing SKILL.md once.`,
    ),
  );

  const skills = listed.skills;
  // 4. Final segment = name (§1).
  const seg = new Check(
    'final-segment-name',
    'Final segment equals name',
    'docs/skills-over-mcp.md §1',
  );
  for (const s of skills) {
    const last = finalSegment(s.rootUri);
    if (last !== s.frontmatter?.name)
      seg.fail(
        `${s.uri}: final segment "${last}" but frontmatter name ${JSON.stringify(s.frontmatter?.name)}.`,
      );
  }
  checks.push(seg.done(`For all ${skills.length} skills the URI's final segment equals the name.`));

  // 5–7, 10–11: read every listed file, walk folders.
  const fm = new Check(
    'frontmatter-identical',
    'Frontmatter identical to the served SKILL.md',
    'docs/skills-over-mcp.md §3, §5',
  );
  const dig = new Check('digests-sizes', 'Digests and sizes', 'docs/skills-over-mcp.md §3, §5');
  const complete = new Check(
    'manifest-complete',
    'Manifest complete',
    'docs/skills-over-mcp.md §3',
  );
  const mime = new Check('mime-types', 'Mime types', 'docs/skills-over-mcp.md §1, §4');
  const lim = new Check('limits', 'Limits', 'docs/skills-over-mcp.md §3, §5');
  const walkable = session.directoryRead;
  const perSkill = async (s: InspectedSkill): Promise<void> => {
    if (!Array.isArray(s.manifest)) {
      dig.note(`${s.uri}: resources is "dynamic"; nothing to compare.`);
      return;
    }
    const total = s.manifest.reduce((n, f) => n + (f.size ?? 0), 0);
    // Why warn: SEP-2640 §3 — a server *should not* exceed 512 files / 16 MiB; hosts must accept up to them.
    if (s.manifest.length > SKILL_LIMITS.files)
      lim.warn(`${s.uri}: ${s.manifest.length} files, more than ${SKILL_LIMITS.files}.`);
    if (total > SKILL_LIMITS.bytes)
      lim.warn(`${s.uri}: ${grouped(total)} bytes, more than ${grouped(SKILL_LIMITS.bytes)}.`);
    for (const f of s.manifest) {
      // Why: a URI outside the skill is already an entry-shape failure, and is never requested.
      const outside = manifestUriProblem(s.rootUri, f.uri);
      if (outside !== undefined) {
        dig.note(`${f.uri}: not read (${outside})`);
        continue;
      }
      if (f.size !== undefined && f.size > session.limits.maxResourceBytes) {
        lim.fail(
          `${f.uri}: listed at ${grouped(f.size)} bytes, beyond the inspector's ${grouped(session.limits.maxResourceBytes)}-byte bound; not read.`,
        );
        continue;
      }
      let v: FileVerification;
      try {
        const read = await session.readResource(f.uri, signal);
        files++;
        const isSkillMd = f.uri === s.uri;
        v = verifyRead(f, read, {
          listed: true,
          isSkillMd,
          entryFrontmatter: isSkillMd ? s.frontmatter : undefined,
        });
        if (isSkillMd) {
          if (v.frontmatterDiffs === undefined) fm.fail(`${s.uri}: ${v.reasons.join(' ')}`);
          else
            for (const d of v.frontmatterDiffs)
              fm.fail(
                `${s.uri}: ${d.field} ${d.kind} (entry ${JSON.stringify(d.entry)}, file ${JSON.stringify(d.file)}).`,
              );
          if (read.mimeType !== SKILL_MD_MIME_TYPE)
            mime.fail(
              `${s.uri}: served as ${JSON.stringify(read.mimeType)}, expected "${SKILL_MD_MIME_TYPE}".`,
            );
        } else if (!read.mimeType) mime.warn(`${f.uri}: served without a mimeType.`);
        const sizeOrDigest = v.reasons.filter(
          (r) => /bytes|digest/.test(r) && v.status === 'mismatch',
        );
        for (const r of sizeOrDigest) dig.fail(`${f.uri}: ${r}`);
      } catch (e) {
        if (e instanceof InspectorError && (e.code === 'cancelled' || e.code === 'not-connected'))
          throw e;
        if (e instanceof InspectorError && (e.code === 'too-large' || e.code === 'budget'))
          lim.fail(`${f.uri}: ${e.message}`);
        else dig.fail(`${f.uri}: could not be read (${(e as Error).message}).`);
      }
    }
    if (walkable) {
      try {
        const walk = await walkDirectory(session, s.rootUri, signal);
        for (const p of walk.problems) complete.fail(`${s.uri}: ${p}`);
        const inManifest = new Set(s.manifest.map((f) => f.uri));
        const inWalk = new Set(walk.files.map((f) => f.uri));
        for (const u of inWalk)
          if (!inManifest.has(u))
            complete.fail(
              `${u} is served in the folder but missing from the manifest of ${s.uri}.`,
            );
        for (const u of inManifest)
          if (!inWalk.has(u))
            complete.fail(`${u} is in the manifest of ${s.uri} but not in its folder listing.`);
        for (const f of walk.files)
          if (f.uri === s.uri && f.mimeType !== SKILL_MD_MIME_TYPE)
            mime.fail(
              `${f.uri}: listed in its folder as ${JSON.stringify(f.mimeType)}, expected "${SKILL_MD_MIME_TYPE}".`,
            );
      } catch (e) {
        if (e instanceof InspectorError && (e.code === 'cancelled' || e.code === 'not-connected'))
          throw e;
        complete.fail(`${s.rootUri}: resources/directory/read failed (${(e as Error).message}).`);
      }
    }
  };
  let next = 0;
  const workers = Array.from(
    { length: Math.min(options.concurrency ?? 4, skills.length) },
    async () => {
      while (next < skills.length) await perSkill(skills[next++]);
    },
  );
  await Promise.all(workers);
  checks.push(
    fm.done(`Every served SKILL.md has exactly the entry's frontmatter (${skills.length} skills).`),
  );
  checks.push(
    walkable
      ? complete.done(`Every manifest matches its folder walk (${skills.length} skills).`)
      : skipped(
          'manifest-complete',
          'Manifest complete',
          'docs/skills-over-mcp.md §3',
          'The server does not declare directoryRead, so there is no folder walk to compare with.',
        ),
  );
  checks.push(dig.done(`All ${count(files, 'file')} read match their listed size and digest.`));

  // 8. skills/get for every listed skill returns the same entry; unknown skills give -32602 (§3).
  const get = new Check(
    'skills-get',
    'skills/get answers for listed skills',
    'docs/skills-over-mcp.md §3',
  );
  for (const s of skills) {
    try {
      const r = await session.getSkill(s.uri, signal);
      const original = listed.raw.find((x) => (x as { uri?: unknown }).uri === s.uri);
      if (!jsonEqual(JSON.parse(JSON.stringify(r.skill)), original))
        get.fail(`${s.uri}: skills/get returned a different entry than skills/list.`);
    } catch (e) {
      if (e instanceof InspectorError && (e.code === 'cancelled' || e.code === 'not-connected'))
        throw e;
      get.fail(`${s.uri}: skills/get failed (${(e as Error).message}).`);
    }
  }
  checks.push(get.done(`skills/get returned the listed entry for all ${skills.length} skills.`));
  const unknown = new Check(
    'unknown-skill-error',
    '-32602 for unknown skills',
    'docs/skills-over-mcp.md §3',
  );
  const probe = `skill://skillbench-probe-${randomBytes(6).toString('hex')}/SKILL.md`;
  const u1 = await expectInvalidParams(session, probe, () => session.getSkill(probe, signal));
  if (u1) unknown.fail(`skills/get ${probe} ${u1}.`);
  const firstFile = skills.find((s) => Array.isArray(s.manifest) && s.manifest.length > 1);
  const nonSkill =
    firstFile && Array.isArray(firstFile.manifest)
      ? firstFile.manifest.find((f) => f.uri !== firstFile.uri)?.uri
      : undefined;
  if (nonSkill) {
    const u2 = await expectInvalidParams(session, nonSkill, () =>
      session.getSkill(nonSkill, signal),
    );
    if (u2) unknown.fail(`skills/get ${nonSkill} (a supporting file, not a SKILL.md) ${u2}.`);
  }
  checks.push(
    unknown.done(
      `skills/get answered -32602 for an unknown skill${nonSkill ? ' and for a non-skill URI' : ''}.`,
    ),
  );

  // 9. Non-directories give -32602 (§4).
  if (walkable && skills[0]) {
    const nd = new Check(
      'non-directory-error',
      '-32602 for non-directories',
      'docs/skills-over-mcp.md §4',
    );
    const a = await expectInvalidParams(session, skills[0].uri, () =>
      session.readDirectoryPage(skills[0].uri, undefined, signal),
    );
    if (a) nd.fail(`resources/directory/read ${skills[0].uri} (a file) ${a}.`);
    const missing = `${skills[0].rootUri}/skillbench-probe-${randomBytes(4).toString('hex')}`;
    const b = await expectInvalidParams(session, missing, () =>
      session.readDirectoryPage(missing, undefined, signal),
    );
    if (b) nd.fail(`resources/directory/read ${missing} (unknown) ${b}.`);
    const root = await session
      .readDirectoryPage(skills[0].rootUri, undefined, signal)
      .catch(() => undefined);
    const folders = root?.resources.filter((r) => r.mimeType === DIRECTORY_MIME_TYPE) ?? [];
    if (root)
      mime.note(
        `${skills[0].rootUri}: ${count(folders.length, 'folder')} listed as ${DIRECTORY_MIME_TYPE}.`,
      );
    checks.push(
      nd.done('resources/directory/read answered -32602 for a file and for an unknown folder.'),
    );
  } else
    checks.push(
      skipped(
        'non-directory-error',
        '-32602 for non-directories',
        'docs/skills-over-mcp.md §4',
        walkable ? 'No skills to probe.' : 'The server does not declare directoryRead.',
      ),
    );

  checks.push(
    mime.done(`SKILL.md files are served as ${SKILL_MD_MIME_TYPE}; other files carry a mime type.`),
  );
  if (listed.partial) lim.fail('The listing was cut short by the page bound.');
  checks.push(
    lim.done(
      `Every skill is within ${SKILL_LIMITS.files} files and ${grouped(SKILL_LIMITS.bytes)} bytes, and within the inspector's bounds.`,
    ),
  );
  return finish();

  function finish(): ReportCard {
    const counts: Record<CheckStatus, number> = { pass: 0, fail: 0, warn: 0, skip: 0 };
    for (const c of checks) counts[c.status]++;
    return {
      server: session.label,
      target: describeTarget(session.input),
      serverInfo: status.serverInfo,
      protocolVersion: status.protocolVersion,
      generatedAt: new Date().toISOString(),
      durationMs: Math.round(performance.now() - started),
      skills: listedCount(),
      files,
      bytesRead: session.bytesRead - before,
      verdict: counts.fail > 0 ? 'fail' : 'pass',
      counts,
      checks,
    };
  }
  function listedCount(): number {
    return checks.find((c) => c.id === 'pagination')?.status === 'skip' ? 0 : skills.length;
  }
}

/** The report card as pretty JSON. */
export function reportToJson(report: ReportCard): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

function mdEscape(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** The report card as Markdown: a summary table and the evidence per check. */
export function reportToMarkdown(report: ReportCard): string {
  const icon: Record<CheckStatus, string> = {
    pass: 'PASS',
    fail: 'FAIL',
    warn: 'WARN',
    skip: 'SKIP',
  };
  const lines = [
    `# Skills server report card: ${mdEscape(report.server)}`,
    '',
    `- Target: \`${report.target}\``,
    `- Server: ${report.serverInfo ? `${mdEscape(report.serverInfo.name)} ${mdEscape(report.serverInfo.version)}` : 'unknown'}${report.protocolVersion ? `, protocol ${report.protocolVersion}` : ''}`,
    `- Verdict: **${report.verdict.toUpperCase()}** (${report.counts.pass} pass, ${report.counts.fail} fail, ${report.counts.warn} warn, ${report.counts.skip} skip)`,
    `- ${count(report.skills, 'skill')}, ${count(report.files, 'file')} read, ${count(report.bytesRead, 'byte')}, ${report.durationMs} ms, ${report.generatedAt}`,
    '',
    '| Check | Result | Summary |',
    '|---|---|---|',
    ...report.checks.map(
      (c) => `| ${mdEscape(c.title)} | ${icon[c.status]} | ${mdEscape(c.summary)} |`,
    ),
    '',
  ];
  for (const c of report.checks) {
    if (c.evidence.length === 0) continue;
    lines.push(
      `## ${c.title} — ${icon[c.status]}`,
      '',
      `Source: ${c.source}`,
      '',
      ...c.evidence.map((e) => `- ${mdEscape(e)}`),
      '',
    );
  }
  return `${lines.join('\n')}\n`;
}
