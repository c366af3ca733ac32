/**
 * Default bounds of an inspector session. A remote server is untrusted: it may page forever,
 * serve huge files or stall (docs/skills-over-mcp.md §5: "bound page counts, bytes per resource and
 * bytes per server, and time out slow servers").
 */
import { SKILL_LIMITS } from '../../shared/sep';
import type { InspectorLimits } from './types';

/** The defaults; callers may lower or raise any of them. */
export const DEFAULT_LIMITS: InspectorLimits = {
  maxPages: 1000,
  // Why 16 MiB: the largest skill a host must accept (SEP-2640 §3), so no single file may exceed it.
  maxResourceBytes: SKILL_LIMITS.bytes,
  maxServerBytes: 512 * 1024 * 1024,
  // Why 512: the file count a host must accept per skill (SEP-2640 §3).
  maxFilesPerSkill: SKILL_LIMITS.files,
  requestTimeoutMs: 30_000,
  connectTimeoutMs: 30_000,
};

/**
 * The longest a request or a connection may be given (one day). Why a ceiling: a Node timer holds
 * at most 2^31-1 ms (~24.8 days); past it the timer fires after 1 ms, so a generous timeout would
 * turn into none at all.
 */
export const MAX_TIMEOUT_MS = 86_400_000;

/** Merge caller bounds over the defaults, keeping every number positive and each timeout at most {@link MAX_TIMEOUT_MS}. */
export function resolveLimits(partial: Partial<InspectorLimits> = {}): InspectorLimits {
  const out = { ...DEFAULT_LIMITS };
  for (const key of Object.keys(DEFAULT_LIMITS) as (keyof InspectorLimits)[]) {
    const v = partial[key];
    if (typeof v === 'number' && Number.isFinite(v) && v > 0) out[key] = v;
  }
  out.requestTimeoutMs = Math.min(out.requestTimeoutMs, MAX_TIMEOUT_MS);
  out.connectTimeoutMs = Math.min(out.connectTimeoutMs, MAX_TIMEOUT_MS);
  return out;
}
