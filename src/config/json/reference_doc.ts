/** Markdown rendering of the reference-field table, for docs/configuration.md (kept in step by a test). */
import type { ReferenceField } from "./reference_fields.ts";

const escape = (text: string) => text.replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll("|", "\\|");

export function renderReferenceTable(entries: readonly ReferenceField[]): string {
  const rows = entries.map((e) => {
    const where = e.where ?? e.paths.map((p) => `\`${p}\``).join(", ");
    const types = (e.types ? ` (type ${e.types.map((t) => `\`${t}\``).join(", ")})` : "") +
      (e.whenText ? `, ${e.whenText}` : "");
    return `| ${e.id} | ${e.decision === "warn" ? "warning" : "error"} | ${where}${types} | ${
      escape(e.reason)
    } |`;
  });
  return ["| Field | Decision | Where | Message |", "| --- | --- | --- | --- |", ...rows].join("\n");
}
