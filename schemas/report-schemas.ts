// Which schemas/*.schema.json files describe the harness's own report files rather than the gateway's wire contract.
// Codegen gives them types only; the OpenAPI export and anything else that walks the wire schemas leaves them out.
export const REPORT_SCHEMA_FILES: ReadonlySet<string> = new Set(['summary.schema.json']);

export function isReportSchemaFile(file: string): boolean {
  return REPORT_SCHEMA_FILES.has(file);
}
