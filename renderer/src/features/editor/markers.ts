import type { SafetyFinding } from '../../../../shared/safety/types';
import type { Diagnostic } from '../../../../shared/validation/types';
import { monaco } from './monaco-setup';

/** The marker owner for the core's findings. */
export const CORE_MARKER_OWNER = 'skillbench';

/** The text shown on hover: the plain sentence first, then what a developer needs. */
export function markerMessage(d: Diagnostic): string {
  return d.detail ? `${d.message}\n\n${d.detail}` : d.message;
}

/** Turn findings with ranges into Monaco markers; findings about the folder go on line 1. */
export function toMarkers(diagnostics: readonly Diagnostic[]): monaco.editor.IMarkerData[] {
  return diagnostics.map((d) => ({
    severity:
      d.severity === 'error'
        ? monaco.MarkerSeverity.Error
        : d.severity === 'warning'
          ? monaco.MarkerSeverity.Warning
          : monaco.MarkerSeverity.Info,
    message: markerMessage(d),
    source: d.profile,
    code: d.ruleId,
    startLineNumber: d.range?.start.line ?? 1,
    startColumn: d.range?.start.column ?? 1,
    endLineNumber: d.range?.end.line ?? 1,
    endColumn: d.range
      ? Math.max(
          d.range.end.column,
          d.range.start.line === d.range.end.line ? d.range.start.column + 1 : 1,
        )
      : 4,
  }));
}

/** The marker owner for the safety review's findings (kept apart from the core's). */
export const SAFETY_MARKER_OWNER = 'skillbench-safety';

/**
 * The safety review's findings as Monaco markers: the headline, then why it matters and what to
 * do, and the rule id as the code. Findings about the whole file go on line 1.
 */
export function toSafetyMarkers(findings: readonly SafetyFinding[]): monaco.editor.IMarkerData[] {
  return findings.map((f) => {
    const line = f.line > 0 ? f.line : 1;
    const start = f.column ?? 1;
    return {
      severity:
        f.severity === 'critical' || f.severity === 'high'
          ? monaco.MarkerSeverity.Error
          : f.severity === 'medium'
            ? monaco.MarkerSeverity.Warning
            : monaco.MarkerSeverity.Info,
      message: `Safety: ${f.title}${f.hidden !== undefined ? `\nHidden text: ${f.hidden}` : ''}\n\n${f.why}\n${f.action}`,
      source: 'safety review',
      code: f.rule,
      startLineNumber: line,
      startColumn: start,
      endLineNumber: line,
      endColumn: f.endColumn !== undefined && f.endColumn > start ? f.endColumn : 1000,
    };
  });
}
