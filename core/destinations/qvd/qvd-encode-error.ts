/** What a QVD file cannot hold (a text with NUL), or columns that do not make a table. */
export class QvdEncodeError extends Error {
  override name = "QvdEncodeError";
}
