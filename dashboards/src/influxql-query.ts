/**
 * An InfluxQL query of Grafana's InfluxDB data source, for the dashboard builder. The SDK ships
 * query types for the core data sources it models, but not the InfluxDB one, so this adds it the
 * way the SDK is extended: a Dataquery variant and its builder. Every query is raw InfluxQL
 * (`rawQuery: true`): the text is what the tests execute, with Grafana's macros expanded, so the
 * shipped query and the tested one cannot differ.
 */
import type { Builder, Dataquery } from "@grafana/grafana-foundation-sdk/cog";
import type { DataSourceRef } from "@grafana/grafana-foundation-sdk/dashboard";

export type InfluxqlResultFormat = "time_series" | "table";

export interface InfluxqlQuery extends Dataquery {
  refId: string;
  datasource?: DataSourceRef;
  query: string;
  rawQuery: true;
  resultFormat: InfluxqlResultFormat;
  /** Legend text; `$tag_<name>` names a GROUP BY tag's value, `$col` the column. */
  alias?: string;
}

export class InfluxqlQueryBuilder implements Builder<Dataquery> {
  private readonly internal: InfluxqlQuery;

  constructor(query: string) {
    this.internal = {
      refId: "A",
      query,
      rawQuery: true,
      resultFormat: "time_series",
      _implementsDataqueryVariant() {},
    };
  }

  build(): InfluxqlQuery {
    return this.internal;
  }

  refId(refId: string): this {
    this.internal.refId = refId;
    return this;
  }

  alias(alias: string): this {
    this.internal.alias = alias;
    return this;
  }

  table(): this {
    this.internal.resultFormat = "table";
    return this;
  }

  datasource(datasource: DataSourceRef): this {
    this.internal.datasource = datasource;
    return this;
  }
}

/** `new InfluxqlQueryBuilder(query)`, shorter where many are written. */
export const influxql = (query: string): InfluxqlQueryBuilder => new InfluxqlQueryBuilder(query);
