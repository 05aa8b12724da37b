/**
 * `svc import [FILE|-]`: share links or a subscription body (base64 or plain link list, Clash
 * YAML `proxies`, sing-box `outbounds`) into native JSON on standard output; every entry not
 * imported is listed on standard error with its line. Exit 1 when nothing was imported.
 */
import { errorText } from "../common/errors.ts";
import { importShareLinks } from "../config/links/mod.ts";

export interface ImportIo {
  out: (text: string) => void;
  err: (text: string) => void;
}

const consoleIo: ImportIo = { out: (t) => console.log(t), err: (t) => console.error(t) };

export async function importCommand(file: string | undefined, io: ImportIo = consoleIo): Promise<number> {
  const source = file ?? "-";
  let text: string;
  try {
    text = source === "-" ? await new Response(Deno.stdin.readable).text() : await Deno.readTextFile(source);
  } catch (e) {
    io.err(`error: Cannot read "${source}": ${errorText(e)}`);
    return 1;
  }
  const r = importShareLinks(text);
  const where = r.format === "base64" ? " (of the decoded body)" : "";
  for (const p of r.problems) io.err(`${source}:${p.line}${where}: ${p.message}`);
  const doc: Record<string, unknown> = { outbounds: r.outbounds };
  if (r.endpoints.length) doc.endpoints = r.endpoints;
  io.out(JSON.stringify(doc, null, 2));
  const count = r.outbounds.length + r.endpoints.length;
  io.err(`imported ${count} of ${count + r.problems.length} entries (${r.format})`);
  return count === 0 ? 1 : 0;
}
