/**
 * Public, JSON-safe types of the inspector. They live in shared/inspector/types.ts so the
 * IPC contract and the renderer use the same definitions; re-exported here for main/inspector.
 */
export * from '../../shared/inspector/types';
