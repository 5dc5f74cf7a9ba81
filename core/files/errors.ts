/** Errors of the file operations, mapped to HTTP statuses at the REST edge. */

/** The path is malformed: NUL byte, over-long name, UNC path, wrong kind of path (400). */
export class InvalidPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "InvalidPathError";
  }
}

/** The path (after normalising and resolving symlinks) is outside every approved directory (403). */
export class PathNotApprovedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PathNotApprovedError";
  }
}

/** The operating system refused access (403). */
export class FilePermissionError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "FilePermissionError";
  }
}

/** The source file or directory does not exist (404). */
export class SourceNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SourceNotFoundError";
  }
}

/** The target exists and `overwrite` is false (409). */
export class TargetExistsError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TargetExistsError";
  }
}

/** Any other file system failure (500). */
export class FileOperationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "FileOperationError";
  }
}
