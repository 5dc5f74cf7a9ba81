/**
 * A file that a validated setting names (a certificate, its key, a CA), as the schema walk finds
 * it: `core/` does no file I/O, so the walk lists them and the local adapter
 * (core/adapters/local/config-file.ts) checks each in the same pass as the schema.
 */
export interface NamedFile {
  /** The setting, as problems name it: `Service.cert.clientCert`. */
  readonly path: string;
  /**
   * As written, `${ENV}` references resolved; relative paths resolve from the working directory.
   * "" only for a setting left empty that names its problem in `whenEmpty`.
   */
  readonly file: string;
  /** The problem of an empty value: the file is needed where the process runs. */
  readonly whenEmpty?: string;
}

/** How a file that cannot be read is reported, wherever it is opened: the path and the error code. */
export function cannotReadFile(absolute: string, error: unknown): string {
  return `cannot read file ${absolute} (${(error as { code?: string }).code ?? "error"})`;
}
