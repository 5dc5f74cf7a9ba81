/**
 * gzip for the scrape endpoint's answer, as Prometheus asks for it (`Accept-Encoding: gzip`):
 * 200 servers' exposition is about 490 KB of text and 43 KB gzipped. Compressed at level 1
 * (about 1 ms for those 490 KB; level 6 takes twice as long for a fifth less) on libuv's thread
 * pool, so the event loop goes on meanwhile, chunk by chunk as the registry keeps them.
 */
import { createGzip } from "node:zlib";

/**
 * True when an `Accept-Encoding` header value accepts gzip: `gzip` (or `x-gzip`) listed without
 * `q=0`, or else `*` without `q=0`. An absent header means no compression.
 */
export function acceptsGzip(header: string | undefined): boolean {
  if (header === undefined) return false;
  let named: boolean | undefined;
  let any: boolean | undefined;
  for (const part of header.split(",")) {
    const [coding = "", ...parameters] = part.split(";").map((piece) => piece.trim().toLowerCase());
    const q = parameters.find((parameter) => parameter.startsWith("q="));
    const accepted = q === undefined || Number(q.slice(2)) > 0;
    if (coding === "gzip" || coding === "x-gzip") named = (named ?? false) || accepted;
    else if (coding === "*") any = accepted;
  }
  return named ?? any ?? false;
}

/** The chunks one after the other, gzipped (level 1). */
export function gzipChunks(chunks: readonly Uint8Array[]): Promise<Uint8Array<ArrayBuffer>> {
  return new Promise((resolve, reject) => {
    const gzip = createGzip({ level: 1 });
    const out: Buffer[] = [];
    gzip.on("data", (chunk: Buffer) => out.push(chunk));
    // Buffer.concat allocates its own memory: never a SharedArrayBuffer.
    gzip.on("end", () => resolve(Buffer.concat(out) as Uint8Array<ArrayBuffer>));
    gzip.on("error", reject);
    for (const chunk of chunks) gzip.write(chunk);
    gzip.end();
  });
}
