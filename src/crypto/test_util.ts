/** Helpers shared by the crypto tests (not exported from mod.ts). */

export const hex = (s: string): Uint8Array => Uint8Array.from(s.match(/../g) ?? [], (b) => parseInt(b, 16));
export const toHex = (b: Uint8Array): string =>
  Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");

/** Runs the system `openssl` CLI with `stdin`; returns stdout (throws with stderr on failure). */
export async function openssl(args: string[], stdin: Uint8Array = new Uint8Array(0)): Promise<Uint8Array> {
  const child = new Deno.Command("openssl", { args, stdin: "piped", stdout: "piped", stderr: "piped" })
    .spawn();
  const w = child.stdin.getWriter();
  await w.write(stdin);
  await w.close();
  const out = await child.output();
  if (!out.success) throw new Error(`openssl ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  return out.stdout;
}
