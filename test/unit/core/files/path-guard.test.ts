/**
 * The REST file API's path rules as Windows reads paths, checked on any OS with `path.win32`:
 * drive paths, UNC shares and backslashes taken; case ignored when paths are compared; `..` that
 * leaves an approved directory, alternate data streams, device names and the device namespaces
 * refused. The same inputs with the POSIX rules show what stays as it was on Linux.
 */
import { describe, expect, it } from "vitest";
import { InvalidPathError } from "../../../../core/files/errors.ts";
import {
  isInsideOrEqual,
  isStrictlyInside,
  normalisePath,
  pathRulesFor,
  samePath,
} from "../../../../core/files/path-guard.ts";

const windows = pathRulesFor("win32", () => "C:\\Program Files\\Steward");
const linux = pathRulesFor("linux", () => "/opt/steward");

describe("normalisePath on Windows", () => {
  it.each([
    ["C:\\Qlik\\exports\\a.qvd", "C:\\Qlik\\exports\\a.qvd"],
    ["C:/Qlik/exports/a.qvd", "C:\\Qlik\\exports\\a.qvd"],
    ["c:\\qlik\\EXPORTS\\sub\\..\\a.qvd", "c:\\qlik\\EXPORTS\\a.qvd"],
    ["\\\\fileserver\\qlik\\exports\\a.qvd", "\\\\fileserver\\qlik\\exports\\a.qvd"],
    ["//fileserver/qlik/a.qvd", "\\\\fileserver\\qlik\\a.qvd"],
    ["data\\exports\\a.qvd", "C:\\Program Files\\Steward\\data\\exports\\a.qvd"],
    ["C:\\Qlik\\console.txt", "C:\\Qlik\\console.txt"],
  ])("takes %s as %s", (input, expected) => {
    expect(normalisePath(input, "fromFile", windows)).toBe(expected);
  });

  it.each([
    ["an alternate data stream", "C:\\Qlik\\exports\\file.txt:stream", "alternate data stream"],
    ["the default data stream by name", "C:\\Qlik\\exports\\file.txt::$DATA", "alternate data stream"],
    ["a stream of a directory", "C:\\Qlik\\exports:hidden\\a.txt", "alternate data stream"],
    ["a drive-relative stream", "C:file.txt:stream", "alternate data stream"],
    ["CON", "C:\\Qlik\\CON", "device name"],
    ["NUL with an extension", "C:\\Qlik\\exports\\nul.txt", "device name"],
    ["COM1 in a directory", "C:\\Qlik\\COM1\\a.txt", "device name"],
    ["LPT1 on a share", "\\\\fileserver\\qlik\\lpt1.log", "device name"],
    ["a trailing dot", "C:\\Qlik\\exports\\a.qvd.", "dot or a space"],
    ["a trailing space", "C:\\Qlik\\exports \\a.qvd", "dot or a space"],
    ["a refused character", "C:\\Qlik\\a|b.qvd", "Windows refuses"],
    ["the device namespace", "\\\\.\\COM1", "device paths"],
    ["the long-path namespace", "\\\\?\\C:\\Qlik\\a.qvd", "device paths"],
  ])("refuses %s", (_name, input, why) => {
    expect(() => normalisePath(input, "fromFile", windows)).toThrow(InvalidPathError);
    expect(() => normalisePath(input, "fromFile", windows)).toThrow(why);
  });

  it("leaves names with ':' and device names alone on Linux, where they are ordinary names", () => {
    expect(normalisePath("/srv/qlik/nul.txt", "fromFile", linux)).toBe("/srv/qlik/nul.txt");
    expect(normalisePath("/srv/qlik/a:b", "fromFile", linux)).toBe("/srv/qlik/a:b");
    expect(() => normalisePath("\\\\fileserver\\qlik\\a.qvd", "fromFile", linux)).toThrow("UNC paths");
  });
});

describe("comparing paths on Windows", () => {
  it("holds a path in an approved directory whatever the case of either", () => {
    expect(isStrictlyInside("c:\\qlik\\exports\\a.qvd", "C:\\Qlik\\Exports", windows)).toBe(true);
    expect(isStrictlyInside("\\\\FILESERVER\\Qlik\\a.qvd", "\\\\fileserver\\qlik", windows)).toBe(true);
    expect(isInsideOrEqual("C:\\QLIK\\EXPORTS", "c:\\qlik\\exports", windows)).toBe(true);
    expect(samePath("C:\\Qlik\\a.txt", "c:\\qlik\\A.TXT", windows)).toBe(true);
  });

  it("holds nothing outside: another drive, another share, a sibling, the parent, a .. escape", () => {
    const approved = "C:\\Qlik\\exports";
    for (const outside of [
      "D:\\Qlik\\exports\\a.qvd",
      "\\\\fileserver\\qlik\\exports\\a.qvd",
      "C:\\Qlik\\exports2\\a.qvd",
      "C:\\Qlik",
      normalisePath("C:\\Qlik\\exports\\..\\secret.txt", "fromFile", windows),
      normalisePath("C:/Qlik/exports/sub/../../secret.txt", "fromFile", windows),
    ]) {
      expect(isStrictlyInside(outside, approved, windows), outside).toBe(false);
    }
    expect(isStrictlyInside(approved, approved, windows)).toBe(false);
  });

  it("keeps case significant on Linux", () => {
    expect(samePath("/srv/a.txt", "/srv/A.TXT", linux)).toBe(false);
    expect(isStrictlyInside("/srv/qlik/a.qvd", "/srv/Qlik", linux)).toBe(false);
  });
});
