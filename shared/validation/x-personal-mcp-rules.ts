import { isMap, isPair, isScalar, isSeq } from 'yaml';
import { textOf } from '../skill/yaml-strings';
import type { RuleContext } from './rule-context';
import { pointerSegment } from './rule-context';

// Spec §2 x-personal-mcp: the exact semver pattern of the contract.
const SEMVER = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:[-+][0-9A-Za-z.-]+)?$/;
const KEBAB = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const BLOCK = 'x-personal-mcp';

/** The x-personal-mcp block: id, version, capabilities, tags, references (docs/skill-format.md §2 `x-personal-mcp`). */
export function xPersonalMcpRules(ctx: RuleContext): void {
  if (ctx.profile !== 'x-personal-mcp' || !ctx.data) return;
  const doc = ctx.parsed.document;
  const fv = ctx.fileView;
  // Spec §2: "Errors name the skill path and the failing field."
  const skillPath = fv?.relativePath ?? fv?.folderName ?? textOf(ctx.data['name'] ?? 'SKILL.md');
  const entry = ctx.entry(BLOCK);
  if (!entry || !doc) {
    const fm = ctx.parsed.frontmatter;
    ctx.report('x-personal-mcp/missing', {
      message:
        'This repository needs an "x-personal-mcp" block in the frontmatter (id, version, capabilities).',
      detail: `${skillPath}: missing required field x-personal-mcp`,
      start: fm?.openStart ?? 0,
      end: fm?.openEnd ?? 0,
      pointer: `/${BLOCK}`,
    });
    return;
  }
  const block = entry.value;
  if (!isMap(block)) return;
  const node = (...path: (string | number)[]): unknown => doc.getIn([BLOCK, ...path], true);
  const spanOf = (n: unknown) =>
    ctx.spanOf(n, entry) ?? { start: entry.keyStart, end: entry.keyEnd };
  const raw = ctx.data[BLOCK] as Record<string, unknown>;
  const name = typeof ctx.data['name'] === 'string' ? ctx.data['name'] : undefined;
  const id = raw['id'];

  if (id !== undefined) {
    const idStr = textOf(id);
    const folder = fv?.folderName;
    if (
      (name !== undefined && idStr !== name) ||
      (folder !== undefined && idStr !== folder.normalize('NFKC'))
    ) {
      ctx.report('x-personal-mcp/id', {
        message: `The x-personal-mcp id "${idStr}" must be the same as the name${folder !== undefined ? ' and the folder name' : ''} ("${name ?? folder ?? ''}").`,
        detail: `${skillPath}: x-personal-mcp.id = ${JSON.stringify(idStr)}, name = ${JSON.stringify(name)}${folder !== undefined ? `, folder = ${JSON.stringify(folder)}` : ''}`,
        ...spanOf(node('id')),
        pointer: `/${BLOCK}/id`,
      });
    }
  }
  const version = raw['version'];
  if (version !== undefined && (typeof version !== 'string' || !SEMVER.test(version))) {
    ctx.report('x-personal-mcp/version', {
      message: `The version "${textOf(version)}" is not a semantic version. Write it as three numbers, like 1.2.0${typeof version === 'number' ? ', in quotes' : ''}.`,
      detail: `${skillPath}: x-personal-mcp.version must match ${SEMVER.source}`,
      ...spanOf(node('version')),
      pointer: `/${BLOCK}/version`,
    });
  }
  const caps = raw['capabilities'];
  if (caps !== undefined) {
    const docUri = `resource://skills/${textOf(id ?? name ?? '')}/document`;
    if (!Array.isArray(caps) || caps.length === 0 || !caps.includes(docUri)) {
      ctx.report('x-personal-mcp/capabilities', {
        message: `The capabilities list must include "${docUri}".`,
        detail: `${skillPath}: x-personal-mcp.capabilities must be a non-empty list including ${docUri}`,
        ...spanOf(node('capabilities')),
        pointer: `/${BLOCK}/capabilities`,
      });
    }
  }
  const tags = node('tags');
  if (isSeq(tags)) {
    tags.items.forEach((t, i) => {
      const v = isScalar(t) ? t.value : undefined;
      if (typeof v === 'string' && KEBAB.test(v)) return;
      ctx.report('x-personal-mcp/tags', {
        message: `The tag "${textOf(v ?? '')}" must be kebab-case: lowercase words joined by hyphens, like "data-cleanup".`,
        detail: `${skillPath}: x-personal-mcp.tags[${i}] must match ${KEBAB.source}`,
        ...spanOf(t),
        pointer: `/${BLOCK}/tags/${i}`,
      });
    });
  }
  const refs = node('references');
  if (isMap(refs)) {
    for (const item of refs.items) {
      if (!isPair(item)) continue;
      const refId = isScalar(item.key) ? String(item.key.value) : '?';
      const ptr = `/${BLOCK}/references/${pointerSegment(refId)}`;
      const field = `${skillPath}: x-personal-mcp.references.${refId}`;
      if (!KEBAB.test(refId)) {
        ctx.report('x-personal-mcp/reference', {
          message: `The reference id "${refId}" must be kebab-case, like "api-guide".`,
          detail: `${field}: id must match ${KEBAB.source}`,
          ...spanOf(item.key),
          pointer: ptr,
        });
      }
      const val = item.value;
      if (!isMap(val)) continue;
      const path = val.get('path');
      const pathNode = val.get('path', true);
      if (typeof path === 'string') {
        const problem = referencePathProblem(path);
        if (problem) {
          ctx.report('x-personal-mcp/reference', {
            message: `The reference path "${path}" ${problem}.`,
            detail: `${field}.path: must be relative, under references/, end in .md, without ..`,
            ...spanOf(pathNode),
            pointer: `${ptr}/path`,
          });
        } else if (
          fv &&
          !fv.entries.some((e) => e.kind === 'file' && e.path === path.replace(/^\.\//, ''))
        ) {
          ctx.report('x-personal-mcp/reference-missing', {
            message: `The reference file "${path}" does not exist in the skill folder.`,
            detail: `${field}.path: file not found`,
            ...spanOf(pathNode),
            pointer: `${ptr}/path`,
            file: path,
          });
        }
      }
      const mime = val.get('mime_type');
      if (mime !== undefined && mime !== 'text/markdown') {
        ctx.report('x-personal-mcp/reference', {
          message: `The reference "${refId}" has mime_type "${textOf(mime)}"; it must be "text/markdown".`,
          detail: `${field}.mime_type must be text/markdown`,
          ...spanOf(val.get('mime_type', true)),
          pointer: `${ptr}/mime_type`,
        });
      }
    }
  }
}

/** Why a reference path is not acceptable, or null (docs/skill-format.md §2: relative, under references/, `.md`, no `..`). */
export function referencePathProblem(path: string): string | null {
  if (/^(?:[a-zA-Z]:)?[\\/]/.test(path))
    return 'must be relative to the skill folder, not absolute';
  if (path.split(/[\\/]/).includes('..')) return 'must not contain ".."';
  if (!/^(?:\.\/)?references\//.test(path)) return 'must be inside the "references/" folder';
  if (!path.endsWith('.md')) return 'must end in ".md"';
  return null;
}
