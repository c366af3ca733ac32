import { stat } from 'node:fs/promises';
import type { ApiError } from '../../shared/ipc/contract';
import { formatBytes, formatBytesAgainst } from '../../shared/text/bytes';

/** Turn a Node file-system error into a sentence a non-developer can act on. */
export function describeFsError(
  error: unknown,
  path: string,
  action: 'read' | 'write' | 'open',
): ApiError {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const detail = error instanceof Error ? error.message : String(error);
  switch (code) {
    case 'ENOENT':
      return {
        code: 'not-found',
        message: `Nothing exists at ${path}. Check the spelling.`,
        detail,
      };
    case 'ENOTDIR':
      return {
        code: 'not-a-folder',
        message: `${path} is a file, not a folder. Choose the folder that holds your skills.`,
        detail,
      };
    case 'EISDIR':
      return { code: 'is-a-folder', message: `${path} is a folder, not a file.`, detail };
    case 'EACCES':
    case 'EPERM':
      return {
        code: 'permission-denied',
        message: `Skillbench is not allowed to ${action} ${path}. Check the file's permissions.`,
        detail,
      };
    case 'ENOSPC':
      return {
        code: 'disk-full',
        message: `The disk is full, so ${path} could not be saved. Your text is still in the editor.`,
        detail,
      };
    case 'EFBIG':
    case 'ERR_FS_FILE_TOO_LARGE': {
      const { size, max } = error as { size?: unknown; max?: unknown };
      const [sizeText, maxText] =
        typeof size === 'number' && typeof max === 'number'
          ? formatBytesAgainst(size, max)
          : [
              typeof size === 'number' ? formatBytes(size) : '',
              typeof max === 'number' ? formatBytes(max) : '',
            ];
      const sized = sizeText ? ` (${sizeText})` : '';
      const most = maxText ? ` of up to ${maxText}` : '';
      return {
        code: 'too-large',
        message: `${path} is too large${sized}; Skillbench reads files${most}, so it did not ${action} it.`,
        detail:
          typeof size === 'number' && typeof max === 'number' ? `${size} bytes > ${max}` : detail,
      };
    }
    case 'ENAMETOOLONG':
      return {
        code: 'name-too-long',
        message: `${path} is too long a name: this computer allows at most 255 bytes for one file or folder name (and about 4,000 for a whole path). Choose a shorter one.`,
        detail,
      };
    case 'ELOOP':
      return {
        code: 'link-loop',
        message: `${path} leads through links that loop (or too many links in a row), so it cannot be opened.`,
        detail,
      };
    case 'EROFS':
      return {
        code: 'read-only',
        message: `${path} is on a read-only disk, so it cannot be saved.`,
        detail,
      };
    default:
      return { code: 'io', message: `Skillbench could not ${action} ${path}.`, detail };
  }
}

/**
 * The sentence of {@link describeFsError} when it knows the error, else the error's own message
 * (which names what failed): for command lines and lists that show one line per problem.
 */
export function fsErrorSentence(
  error: unknown,
  path: string,
  action: 'read' | 'write' | 'open',
): string {
  const d = describeFsError(error, path, action);
  return d.code === 'io' ? (d.detail ?? d.message) : d.message;
}

/**
 * Why `path` cannot be used as a folder the user named, or undefined when it is a folder (a link to
 * one counts: a library or a project may live behind a link, ~/code pointing at another disk). The
 * one check for a library (opening it in the app, `validate`, `serve`) and for a project (install,
 * adding it, every `--project`); `kind` only chooses the words.
 */
export async function folderProblem(
  path: string,
  kind: 'library' | 'project',
): Promise<ApiError | undefined> {
  try {
    if ((await stat(path)).isDirectory()) return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (kind === 'project' && (code === 'ENOENT' || code === 'ENOTDIR'))
      return {
        code: 'not-found',
        message: `There is no project folder at ${path}. Check the spelling.`,
      };
    return describeFsError(error, path, 'open');
  }
  return {
    code: 'not-a-folder',
    message: `${path} is a file, not a folder. ${kind === 'project' ? "Choose the project's folder." : 'Choose the folder that holds your skills.'}`,
  };
}

/**
 * The sentence for an error a command did not expect: a file-system error that names its path
 * (Node's errors carry `code` and `path`) in words, anything else by its own message. Why: the
 * last net of the command line must not print "ENAMETOOLONG: name too long, lstat '…'".
 */
export function unexpectedErrorSentence(error: unknown): string {
  const e = error as NodeJS.ErrnoException | undefined;
  if (e && typeof e.code === 'string' && typeof e.path === 'string') {
    const d = describeFsError(error, e.path, e.syscall === 'open' ? 'open' : 'read');
    if (d.code !== 'io') return d.message;
  }
  return error instanceof Error ? error.message : String(error);
}
