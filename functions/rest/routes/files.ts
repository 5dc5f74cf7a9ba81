/**
 * File routes, local runner only: copy, move, delete inside approved
 * directories, create a directory (anywhere, as Butler does) or under the table-data directory.
 * 403 outside approved directories, 409 existing target with overwrite false, 404 missing source.
 * In every path `\` is a separator, on every OS; on Windows drive paths and UNC shares are taken,
 * case is ignored, and alternate data streams and device names are refused (core/files/path-guard.ts).
 */
import * as v from "valibot";
import type { FileOperations } from "../../../core/ports.ts";
import { jsonResponse } from "../respond.ts";
import { defineRoute, type RouteSpec } from "../route.ts";

const Path = (what: string) => v.pipe(v.string(), v.minLength(1, `${what} must not be empty`));
const CopyBody = v.object({
  fromFile: Path("fromFile"),
  toFile: Path("toFile"),
  overwrite: v.optional(v.boolean(), false),
  preserveTimestamp: v.optional(v.boolean(), false),
});
const MoveBody = v.object({
  fromFile: Path("fromFile"),
  toFile: Path("toFile"),
  overwrite: v.optional(v.boolean(), false),
});
const DeleteBody = v.object({ deleteFile: Path("deleteFile") });
const DirectoryBody = v.object({ directory: v.string() });
const NonEmptyDirectoryBody = v.object({ directory: Path("directory") });

const errors = {
  400: {
    description:
      "Invalid path (NUL byte, over-long name, UNC on Linux; on Windows an alternate data stream, a device name such as NUL, ...)",
  },
  403: { description: "Outside the approved directories, or permission denied" },
};

export function fileRoutes(files: FileOperations): RouteSpec[] {
  const tag = "Files";
  return [
    defineRoute({
      method: "PUT",
      path: "/v4/filecopy",
      endpoint: "fileCopy",
      tag,
      summary: "Copies a file or directory (recursively) between approved directories",
      body: CopyBody,
      responses: {
        201: { description: "Copied; paths normalised", schema: CopyBody },
        ...errors,
        404: { description: "fromFile does not exist" },
        409: { description: "toFile exists and overwrite is false" },
      },
      handler: async ({ body }, c) => jsonResponse(c, await files.copy(body), 201),
    }),
    defineRoute({
      method: "PUT",
      path: "/v4/filemove",
      endpoint: "fileMove",
      tag,
      summary: "Moves a file or directory between approved directories",
      body: MoveBody,
      responses: {
        201: { description: "Moved; paths normalised", schema: MoveBody },
        ...errors,
        404: { description: "fromFile does not exist" },
        409: { description: "toFile exists and overwrite is false" },
      },
      handler: async ({ body }, c) => jsonResponse(c, await files.move(body), 201),
    }),
    defineRoute({
      method: "DELETE",
      path: "/v4/filedelete",
      endpoint: "fileDelete",
      tag,
      summary: "Deletes a file or directory (recursively) inside an approved directory",
      body: DeleteBody,
      responses: {
        200: { description: "Deleted", schema: v.object({}) },
        ...errors,
        404: { description: "The file does not exist" },
      },
      handler: async ({ body }, c) => {
        await files.delete(body.deleteFile);
        return jsonResponse(c, {});
      },
    }),
    defineRoute({
      method: "POST",
      path: "/v4/createdirqvd",
      endpoint: "createDirTableData",
      tag,
      summary: "Creates a directory (relative path) under the table-data directory",
      body: DirectoryBody,
      responses: {
        201: { description: "Created or already there", schema: DirectoryBody },
        ...errors,
        503: { description: "No table-data directory configured" },
      },
      handler: async ({ body }, c) => {
        await files.createDirTableData(body.directory);
        return jsonResponse(c, { directory: body.directory }, 201);
      },
    }),
    defineRoute({
      method: "POST",
      path: "/v4/createdir",
      endpoint: "createDir",
      tag,
      summary: "Creates a directory anywhere the service may write; nothing happens if it exists",
      body: NonEmptyDirectoryBody,
      responses: { 201: { description: "Created or already there", schema: DirectoryBody }, ...errors },
      handler: async ({ body }, c) => {
        await files.createDir(body.directory);
        return jsonResponse(c, { directory: body.directory }, 201);
      },
    }),
  ];
}
