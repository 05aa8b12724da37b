/** `svc generate secret`: a strong bearer secret from the CSPRNG (43 base64url characters, 256 bits). */
export function generateSecret(): string {
  while (true) {
    const bytes = crypto.getRandomValues(new Uint8Array(32));
    const text = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(
      /=+$/,
      "",
    );
    // The compat API demands at least 10 distinct characters; 43 random ones virtually always have them.
    if (isStrongSecret(text)) return text;
  }
}

/** At least 32 characters with at least 10 distinct characters (the spec's "strong secret"). */
export function isStrongSecret(s: string): boolean {
  return s.length >= 32 && new Set(s).size >= 10;
}
