import { formatBytesAgainst } from '../text/bytes';
import type { RuleContext } from './rule-context';

/** Spec §2 `mcp-serve` limits. */
export const SERVE_LIMITS = { files: 512, bytes: 16 * 1024 * 1024 } as const;

/** Symlinks leaving the skill, and the server's size limits (docs/skill-format.md §2 `mcp-serve`, §3 "never follow a symlink silently"). */
export function folderRules(ctx: RuleContext): void {
  const fv = ctx.fileView;
  if (!fv) return;
  for (const e of fv.entries) {
    if (e.kind === 'symlink' && e.escapes) {
      ctx.report('files/symlink-escapes', {
        message: `"${e.path}" is a shortcut (symbolic link) to something outside the skill folder, or to nothing. It will not be followed; copy the file into the skill instead.`,
        detail: `symlink ${e.path} resolves outside the skill folder or dangles`,
        file: e.path,
      });
    } else if (e.kind === 'symlink' && ctx.on('files/symlink-inside')) {
      const to = e.target !== undefined && e.target !== '' ? `"${e.target}"` : 'another file';
      ctx.report('files/symlink-inside', {
        message: `"${e.path}" is a shortcut (symbolic link) to ${to} in this skill. Skillbench's server, exports and copies leave shortcuts out, so an agent that gets the skill that way cannot open "${e.path}". Refer to ${to} instead, or replace the shortcut with a copy of the file.`,
        detail: `symlink ${e.path} -> ${e.target ?? '?'} inside the skill folder; links are never served, packed or copied`,
        file: e.path,
      });
    }
  }
  if (ctx.on('files/too-many')) {
    // Why without withheld entries: the server never publishes them, so they do not count against its limits.
    const files = fv.entries.filter((e) => e.kind !== 'directory' && !e.withheld).length;
    if (files > SERVE_LIMITS.files) {
      ctx.report('files/too-many', {
        message: `The skill folder has ${files} files; the skill server serves at most ${SERVE_LIMITS.files}. Remove files the skill does not need.`,
        detail: `${files} files > ${SERVE_LIMITS.files}`,
      });
    }
  }
  if (ctx.on('files/too-large')) {
    const bytes = fv.entries.reduce(
      (sum, e) => sum + (e.kind === 'file' && !e.withheld ? e.size : 0),
      0,
    );
    if (bytes > SERVE_LIMITS.bytes) {
      ctx.report('files/too-large', {
        message: `The skill folder holds ${formatBytesAgainst(bytes, SERVE_LIMITS.bytes).join('; the skill server serves at most ')}. Remove large files.`,
        detail: `${bytes} bytes > ${SERVE_LIMITS.bytes}`,
      });
    }
  }
}
