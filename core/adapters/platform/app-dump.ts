/**
 * Assembles an app dump from an open engine document: properties, load script, lineage, sheets,
 * stories, master objects (with their full property trees), dimensions, measures, variables,
 * bookmarks, snapshots, fields, data connections and embedded media (what Butler's dump holds).
 */
import type { AppDump } from "../../ports.ts";
import { EngineRequestError, type EngineSession } from "./engine-session.ts";

type JsonObject = Record<string, unknown>;

function asObject(value: unknown): JsonObject {
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as JsonObject) : {};
}

function asArray(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function handleOf(result: unknown): number {
  const handle = asObject(asObject(result).qReturn).qHandle;
  if (typeof handle !== "number")
    throw new EngineRequestError("engine returned no object handle", -1, "qReturn");
  return handle;
}

function itemId(item: unknown): string {
  return String(asObject(asObject(item).qInfo).qId ?? "");
}

/** Creates a session list object and returns the items of its layout. */
async function listItems(
  session: EngineSession,
  doc: number,
  listType: string,
  definitionKey: string,
  layoutKey: string,
  definition: JsonObject,
): Promise<unknown[]> {
  const created = await session.call(doc, "CreateSessionObject", {
    qProp: { qInfo: { qType: listType }, [definitionKey]: definition },
  });
  const layout = asObject(asObject(await session.call(handleOf(created), "GetLayout")).qLayout);
  return asArray(asObject(layout[layoutKey]).qItems);
}

function appObjectList(session: EngineSession, doc: number, qType: string): Promise<unknown[]> {
  return listItems(session, doc, `${qType}List`, "qAppObjectListDef", "qAppObjectList", {
    qType,
    qData: { title: "/qMetaDef/title", description: "/qMetaDef/description" },
  });
}

/** For each listed item: open it with `getter` and read its properties. */
async function propertiesOf(
  session: EngineSession,
  doc: number,
  items: unknown[],
  getter: string,
): Promise<JsonObject[]> {
  return Promise.all(
    items.map(async (item) => {
      const handle = handleOf(await session.call(doc, getter, { qId: itemId(item) }));
      return asObject(asObject(await session.call(handle, "GetProperties")).qProp);
    }),
  );
}

async function fullPropertyTrees(session: EngineSession, doc: number, items: unknown[]): Promise<unknown[]> {
  return Promise.all(
    items.map(async (item) => {
      const handle = handleOf(await session.call(doc, "GetObject", { qId: itemId(item) }));
      return asObject(await session.call(handle, "GetFullPropertyTree")).qPropEntry;
    }),
  );
}

async function variables(session: EngineSession, doc: number): Promise<JsonObject[]> {
  const items = await listItems(session, doc, "VariableList", "qVariableListDef", "qVariableList", {
    qType: "variable",
    qShowReserved: true,
    qShowConfig: true,
    qData: { tags: "/tags" },
  });
  return Promise.all(
    items.map(async (item) => {
      const handle = handleOf(await session.call(doc, "GetVariableById", { qId: itemId(item) }));
      const properties = asObject(asObject(await session.call(handle, "GetProperties")).qProp);
      const listed = asObject(item);
      // Flags are only present when true, as in the engine's own list items.
      for (const flag of ["qIsScriptCreated", "qIsReserved", "qIsConfig"]) {
        if (listed[flag] === true) properties[flag] = true;
      }
      return properties;
    }),
  );
}

async function bookmarks(session: EngineSession, doc: number, qType: string): Promise<JsonObject[]> {
  const items = await listItems(session, doc, `${qType}List`, "qBookmarkListDef", "qBookmarkList", {
    qType,
    qData: { title: "/qMetaDef/title" },
  });
  return Promise.all(
    items.map(async (item) => {
      const handle = handleOf(await session.call(doc, "GetBookmark", { qId: itemId(item) }));
      const properties = asObject(asObject(await session.call(handle, "GetProperties")).qProp);
      const layout = asObject(asObject(await session.call(handle, "GetLayout")).qLayout);
      properties.qData = { ...asObject(properties.qData), qBookMark: layout.qBookmark };
      return properties;
    }),
  );
}

/** Lineage is missing on older engines; its absence is not an error (Butler omits it too). */
async function lineage(session: EngineSession, doc: number): Promise<unknown[] | undefined> {
  try {
    return asArray(asObject(await session.call(doc, "GetLineage")).qLineage);
  } catch (error) {
    if (error instanceof EngineRequestError) return undefined;
    throw error;
  }
}

export async function dumpDocument(session: EngineSession, doc: number, appId: string): Promise<AppDump> {
  const [properties, script, lineageEntries, sheets, stories, masterobjects] = await Promise.all([
    session.call(doc, "GetAppProperties"),
    session.call(doc, "GetScript"),
    lineage(session, doc),
    appObjectList(session, doc, "sheet"),
    appObjectList(session, doc, "story"),
    appObjectList(session, doc, "masterobject"),
  ]);
  const [appprops, dimensions, measures, variableList, bookmarkList, snapshots, fields, connections, media] =
    await Promise.all([
      fullPropertyTrees(session, doc, [...sheets, ...stories, ...masterobjects]),
      listItems(session, doc, "DimensionList", "qDimensionListDef", "qDimensionList", {
        qType: "dimension",
      }).then((items) => propertiesOf(session, doc, items, "GetDimension")),
      listItems(session, doc, "MeasureList", "qMeasureListDef", "qMeasureList", { qType: "measure" }).then(
        (items) => propertiesOf(session, doc, items, "GetMeasure"),
      ),
      variables(session, doc),
      bookmarks(session, doc, "bookmark"),
      bookmarks(session, doc, "snapshot"),
      listItems(session, doc, "FieldList", "qFieldListDef", "qFieldList", {
        qShowSystem: true,
        qShowHidden: true,
        qShowSemantic: true,
        qShowSrcTables: true,
      }),
      session.call(doc, "GetConnections"),
      session.call(doc, "GetMediaList"),
    ]);
  return {
    properties: asObject(asObject(properties).qProp),
    loadScript: String(asObject(script).qScript ?? ""),
    ...(lineageEntries === undefined ? {} : { lineage: lineageEntries }),
    sheets,
    stories,
    masterobjects,
    appprops,
    dimensions,
    measures,
    variables: variableList,
    bookmarks: bookmarkList,
    snapshots,
    fields,
    dataconnections: asArray(asObject(connections).qConnections),
    embeddedmedia: asArray(asObject(asObject(media).qList).qItems).filter((item) =>
      String(asObject(item).qUrlDef ?? "").startsWith("/media/"),
    ),
    appId,
  };
}
