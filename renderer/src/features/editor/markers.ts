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
