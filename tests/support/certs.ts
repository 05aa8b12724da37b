/**
 * Test certificates made with the real openssl: an EC P-256 CA and a separate leaf for
 * localhost, 127.0.0.1 and ::1 signed by it (rustls refuses a self-signed CA used as the leaf).
 * Writes ca.pem, ca.key, leaf.pem and leaf.key into `dir`.
 */
async function openssl(args: string[], cwd: string): Promise<void> {
  const out = await new Deno.Command("openssl", { args, cwd, stdout: "null", stderr: "piped" }).output();
  if (!out.success) throw new Error(`openssl ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
}

export async function makeTestCertificates(dir: string): Promise<void> {
  const ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"];
  await openssl([
    "req",
    "-x509",
    ...ec,
    "-days",
    "2",
    "-subj",
    "/CN=svc test CA",
    "-keyout",
    "ca.key",
    "-out",
    "ca.pem",
    "-addext",
    "basicConstraints=critical,CA:TRUE",
    "-addext",
    "keyUsage=critical,keyCertSign,cRLSign",
  ], dir); // deno-fmt-ignore
  await openssl(["req", ...ec, "-subj", "/CN=localhost", "-keyout", "leaf.key", "-out", "leaf.csr"], dir);
  await Deno.writeTextFile(
    `${dir}/leaf.ext`,
    "basicConstraints=critical,CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n" +
      "subjectAltName=DNS:localhost,IP:127.0.0.1,IP:::1\n",
  );
  await openssl([
    "x509",
    "-req",
    "-in",
    "leaf.csr",
    "-CA",
    "ca.pem",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-days",
    "2",
    "-out",
    "leaf.pem",
    "-extfile",
    "leaf.ext",
  ], dir); // deno-fmt-ignore
}
