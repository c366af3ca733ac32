/** Export (archives, folder copies, Claude Code installs) and safe import of skills. */
export { exportSkill, planSkillExport, folderDestination, archiveDestination } from './export';
export type { ExportOptions, PlannedExport, ClaudeCodeScope } from './export';
export { previewImport, importSkill } from './import';
export type { ImportOptions, ImportSkillOptions } from './import';
export { readImportSource } from './archive-reader';
export type { ReadEntry, ReadSourceResult } from './archive-reader';
export { writeArchive, FIXED_DATE } from '../platform/archive-writer';
export type { ArchiveItem, WrittenArchive } from '../platform/archive-writer';
export { loadSkillFolder, NotASkillError } from './source-files';
export type { LoadedSkill } from './source-files';
export { defaultTrashDir, moveToTrash } from '../platform/trash';
export { packToolDefinitions } from './tool-definitions';
export type { ToolPackResult } from './tool-definitions';
