/**
 * The domain trie inside sing-box's .srs files (sing `common/domain`: a LOUDS succinct set, after
 * openacid/succinct). Keys are domains reversed byte-wise; a suffix item ends in a marker byte:
 * "\r" after ".example.com" reversed (names under it) and "\n" after "example.com" reversed (the
 * name and names under it). Version 1 files spell "example.com" suffixes as the exact name plus
 * the "\r" form.
 *
 * We never match on the trie: reading expands it back to domain and suffix lists and the
 * route matchers' DomainSet takes them (hash lookups per label), so one fast path serves all.
 *
 * Layout: nodes in breadth-first order; `labelBitmap` has, per node, a 0 bit per child label then
 * a 1 bit; `labels` holds the child labels in the same order, so label k leads to node k + 1;
 * `leaves` has bit i set when node i ends a key.
 */
import { ProtocolError } from "../../common/errors.ts";

export const PREFIX_LABEL = 0x0d;
export const ROOT_LABEL = 0x0a;

/** Bit `i` of a bitmap held as 32-bit little-end-first words (word i>>5 holds bits 32k..32k+31). */
function bit(words: Uint32Array, i: number): number {
  return (words[i >>> 5] >>> (i & 31)) & 1;
}

/**
 * Every key of the trie as a byte string (one char per byte), in sorted order. `leaves` and
 * `labelBitmap` are the 64-bit words split into (low, high) 32-bit halves.
 */
export function succinctKeys(leaves: Uint32Array, labelBitmap: Uint32Array, labels: Uint8Array): string[] {
  // First label index of each node: walk the bitmap once.
  const nodes = labels.length + 1;
  const start = new Int32Array(nodes + 1);
  let node = 0, labelIndex = 0;
  const bits = labelBitmap.length * 32;
  start[0] = 0;
  for (let i = 0; i < bits && node < nodes; i++) {
    if (bit(labelBitmap, i)) start[++node] = labelIndex;
    else labelIndex++;
  }
  if (node < nodes || labelIndex !== labels.length) {
    throw new ProtocolError("malformed domain trie: the label bitmap does not match the labels");
  }
  const keys: string[] = [];
  const path: number[] = [];
  // Iterative depth-first walk; `next[d]` is the next label index to visit at depth d.
  const stackNode: number[] = [0];
  const stackNext: number[] = [start[0]];
  const isLeaf = (n: number) => (n >>> 5) < leaves.length && bit(leaves, n) === 1;
  if (isLeaf(0)) keys.push("");
  while (stackNode.length > 0) {
    const top = stackNode.length - 1;
    const n = stackNode[top];
    const k = stackNext[top];
    if (k >= start[n + 1]) {
      stackNode.pop();
      stackNext.pop();
      path.pop();
      continue;
    }
    stackNext[top] = k + 1;
    const child = k + 1;
    if (child <= n || stackNode.length > 1024) {
      throw new ProtocolError("malformed domain trie: bad child order");
    }
    path.push(labels[k]);
    if (isLeaf(child)) keys.push(String.fromCharCode(...path));
    stackNode.push(child);
    stackNext.push(start[child]);
  }
  return keys;
}

function setBit(words: number[], i: number): void {
  while (words.length <= i >>> 5) words.push(0);
  words[i >>> 5] |= 1 << (i & 31);
}

/** Builds the trie of sorted, distinct byte-string keys (sing's newSuccinctSet). */
export function buildSuccinct(
  keys: readonly string[],
): { leaves: number[]; labelBitmap: number[]; labels: number[] } {
  const leaves: number[] = [];
  const labelBitmap: number[] = [];
  const labels: number[] = [];
  let lIdx = 0;
  const queue: number[] = [0, keys.length, 0];
  for (let q = 0, i = 0; q < queue.length; q += 3, i++) {
    let s = queue[q];
    const e = queue[q + 1], col = queue[q + 2];
    if (s < e && col === keys[s].length) {
      s++;
      setBit(leaves, i);
    }
    for (let j = s; j < e;) {
      const from = j;
      const c = keys[from].charCodeAt(col);
      while (j < e && keys[j].charCodeAt(col) === c) j++;
      queue.push(from, j, col + 1);
      labels.push(c);
      lIdx++;
    }
    setBit(labelBitmap, lIdx);
    lIdx++;
  }
  return { leaves, labelBitmap, labels };
}
