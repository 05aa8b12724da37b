/** "Did you mean" suggestions for misspelt names. */

export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length];
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
  const limit = Math.max(1, Math.min(3, Math.floor(name.length / 3)));
  return bestDistance <= limit ? best : undefined;
}
