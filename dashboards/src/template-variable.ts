/**
 * A dashboard template variable as both dashboards use them: several values may be picked, "All"
 * is offered and stands for `.*` (so it also matches series and points without the tag or label),
 * All is selected when the dashboard opens, and the values are read again when the time range
 * changes (a server or app seen only last week disappears from the list).
 */
import {
  QueryVariableBuilder,
  VariableRefresh,
  VariableSort,
} from "@grafana/grafana-foundation-sdk/dashboard";

export function templateVariable(name: string, label: string, query: string): QueryVariableBuilder {
  return new QueryVariableBuilder(name)
    .label(label)
    .query(query)
    .multi(true)
    .includeAll(true)
    .allValue(".*")
    .current({ selected: true, text: ["All"], value: ["$__all"] })
    .refresh(VariableRefresh.OnTimeRangeChanged)
    .sort(VariableSort.AlphabeticalAsc);
}
