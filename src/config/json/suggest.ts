/** "Did you mean" suggestions for misspelt names. */

/** Edit distance where swapping two neighbouring letters counts as one edit (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array(b.length).fill(0)]);
  for (let j = 0; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.length][b.length];
}

/** The candidate closest to `name`, when it is close enough to be a likely typo. */
export function closest(name: string, candidates: readonly string[]): string | undefined {
  const lower = name.toLowerCase().replaceAll("-", "_");
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const c of candidates) {
    const d = c === lower ? 0 : editDistance(lower, c);
    if (d < bestDistance) {
      best = c;
      bestDistance = d;
    }
  }
  // Short names are too close to everything: "6" is not a typo of "4", nor "xor" of "or".
  const limit = Math.max(1, Math.min(3, Math.floor(name.length / 3)));
  return best !== undefined && bestDistance <= limit && bestDistance < best.length / 2 ? best : undefined;
}
