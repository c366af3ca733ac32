/** Export (archives, folder copies, Claude Code installs) and safe import of skills. */
export { exportSkill, planSkillExport, folderDestination, archiveDestination } from './export';
export type { ExportOptions, ExportResult, PlannedExport, ClaudeCodeScope } from './export';
export { previewImport, importSkill } from './import';
export type { ImportOptions, ImportSkillOptions, ImportPreview, ImportResult, PreviewSkill, PreviewFile } from './import';
export { readImportSource } from './archive-reader';
export type { ReadEntry, ReadSourceResult, SourceFormat } from './archive-reader';
export { writeArchive, FIXED_DATE } from './archive-writer';
export type { ArchiveItem, WrittenArchive } from './archive-writer';
export { loadSkillFolder, NotASkillError } from './source-files';
export type { LoadedSkill } from './source-files';
export type { FolderDiff } from './folder-writer';
export { defaultTrashDir, moveToTrash } from './trash';
