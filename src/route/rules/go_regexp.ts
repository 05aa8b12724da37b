/**
 * sing-box compiles `domain_regex` (and later `process_path_regex`, `package_name_regex`) with
 * Go's `regexp` (RE2 syntax, linear time). We run them on JS RegExp, so each pattern is
 * translated once and refused where the two disagree or where backtracking could explode:
 *
 * - translated: `(?P<name>` to `(?<name>`, `\A` to `^`, `\z` to `$` (JS `$` without the m flag
 *   is end of input, like Go's), `\Q...\E` literals, POSIX classes `[[:alpha:]]`, and leading
 *   flags `(?i)`, `(?s)`, `(?m)` to RegExp flags (`(?i:...)` groups work natively);
 * - refused, as Go refuses them: backreferences and lookaround;
 * - refused, as JS cannot do them the Go way: `\p{...}` classes, `\C`, the `U` flag and flag
 *   groups not at the start;
 * - refused to keep backtracking in bounds (a heuristic, not a proof): a group repeated without
 *   bound whose body repeats `.`/`\S`/`\W`/`\D` without bound, or has an alternative made only of
 *   unbounded repeats: `(a+)+`, `(.+\.)*x`, `(a+|b)*`. Delimited forms such as `([a-z]+\.)*` pass.
 */

const POSIX: Record<string, string> = {
  alnum: "0-9A-Za-z",
  alpha: "A-Za-z",
  ascii: "\\x00-\\x7f",
  blank: "\\t ",
  cntrl: "\\x00-\\x1f\\x7f",
  digit: "0-9",
  graph: "!-~",
  lower: "a-z",
  print: " -~",
  punct: "!-/:-@[-`{-~",
  space: "\\t\\n\\v\\f\\r ",
  upper: "A-Z",
  word: "0-9A-Za-z_",
  xdigit: "0-9A-Fa-f",
};

function escapeLiteral(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
}

interface Frame {
  /** Atoms in the current alternative of this group. */
  atoms: number;
  /** Of those, atoms repeated without bound. */
  unbounded: number;
  /** Some finished alternative consists only of atoms repeated without bound, as in `a+|b`. */
  someAltUnbounded: boolean;
  /** The body repeats a "wide" atom (`.`, `\\S`, `\\W`, `\\D`) without bound. */
  wide: boolean;
}

interface Atom {
  /** A wide single-character atom. */
  wide: boolean;
  /** A group whose repetition without bound would be ambiguous. */
  risky: boolean;
}

/** Translates and compiles a Go regular expression; throws an Error saying why it cannot. */
export function compileGoRegexp(pattern: string): RegExp {
  let flags = "";
  let i = 0;
  const lead = /^\(\?([a-zA-Z]+)\)/.exec(pattern);
  if (lead) {
    for (const f of lead[1]) {
      if (f !== "i" && f !== "s" && f !== "m") throw new Error(`flag "${f}" is not supported`);
      if (!flags.includes(f)) flags += f;
    }
    i = lead[0].length;
  }
  let out = "";
  const frames: Frame[] = [{ atoms: 0, unbounded: 0, someAltUnbounded: false, wide: false }];
  let last: Atom | undefined;
  const emit = (text: string, atom: Atom | undefined) => {
    out += text;
    if (atom) frames[frames.length - 1].atoms++;
    last = atom;
  };
  const plain: Atom = { wide: false, risky: false };
  const wide: Atom = { wide: true, risky: false };
  while (i < pattern.length) {
    const rest = pattern.slice(i);
    const c = pattern[i];
    const quantifier = /^(\*|\+|\?|\{(\d+)(,(\d*))?\})\??/.exec(rest);
    if (quantifier && (c !== "{" || last)) {
      if (!last) throw new Error("missing argument to repetition operator");
      const unbounded = quantifier[1] === "*" || quantifier[1] === "+" || quantifier[4] === "";
      if (Number(quantifier[2] ?? 0) > 1000 || Number(quantifier[4] || 0) > 1000) {
        throw new Error("repeat count over 1000");
      }
      if (unbounded) {
        if (last.risky) {
          throw new Error('nested unbounded repetition (such as "(a+)+") could backtrack catastrophically');
        }
        const frame = frames[frames.length - 1];
        frame.unbounded++;
        if (last.wide) frame.wide = true;
      }
      out += quantifier[0];
      i += quantifier[0].length;
      last = undefined;
      continue;
    }
    if (c === "\\") {
      const next = pattern[i + 1];
      if (next === undefined) throw new Error("trailing backslash");
      i += 2;
      if (next === "Q") {
        const end = pattern.indexOf("\\E", i);
        const literal = pattern.slice(i, end < 0 ? pattern.length : end);
        i = end < 0 ? pattern.length : end + 2;
        for (const ch of literal) emit(escapeLiteral(ch), plain);
        continue;
      }
      if (/[1-9]/.test(next)) throw new Error("backreferences are not supported (Go refuses them)");
      if (next === "p" || next === "P") throw new Error("Unicode classes \\p are not supported");
      if (next === "C") throw new Error("\\C is not supported");
      if (next === "A") emit("^", undefined);
      else if (next === "z") emit("$", undefined);
      else if (next === "b" || next === "B") emit(c + next, undefined);
      else emit(c + next, /[SWD]/.test(next) ? wide : plain);
      continue;
    }
    if (c === "[") {
      i++;
      let cls = "[";
      if (pattern[i] === "^") {
        cls += "^";
        i++;
      }
      // A "]" first in the class is a literal in Go.
      if (pattern[i] === "]") {
        cls += "\\]";
        i++;
      }
      for (;;) {
        if (i >= pattern.length) throw new Error("missing closing ]");
        const ch = pattern[i];
        const posix = /^\[:(\^?)([a-z]+):\]/.exec(pattern.slice(i));
        if (posix) {
          const range = POSIX[posix[2]];
          if (!range) throw new Error(`unknown character class "[:${posix[2]}:]"`);
          if (posix[1]) throw new Error("negated POSIX classes are not supported");
          cls += range;
          i += posix[0].length;
        } else if (ch === "\\") {
          const next = pattern[i + 1];
          if (next === undefined) throw new Error("trailing backslash");
          if (next === "p" || next === "P") throw new Error("Unicode classes \\p are not supported");
          cls += ch + next;
          i += 2;
        } else {
          cls += ch === "[" ? "\\[" : ch;
          i++;
          if (ch === "]") break;
        }
      }
      emit(cls, plain);
      continue;
    }
    if (c === "(") {
      if (/^\(\?(=|!|<=|<!)/.test(rest)) throw new Error("lookaround is not supported (Go refuses it)");
      const named = /^\(\?P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
      const flagGroup = /^\(\?([a-zA-Z]*)(-[a-zA-Z]*)?(:|\))/.exec(rest);
      let open = "(";
      if (named) {
        open = `(?<${named[1]}>`;
      } else if (flagGroup) {
        if (flagGroup[3] === ")") throw new Error("flags are only supported at the start of the pattern");
        if (/[^ism-]/.test(flagGroup[1] + (flagGroup[2] ?? ""))) {
          throw new Error(`flags "${flagGroup[1]}${flagGroup[2] ?? ""}" are not supported`);
        }
        open = flagGroup[0];
      } else if (rest.startsWith("(?")) {
        throw new Error("unsupported group syntax");
      }
      out += open;
      i += named ? named[0].length : flagGroup ? flagGroup[0].length : 1;
      frames.push({ atoms: 0, unbounded: 0, someAltUnbounded: false, wide: false });
      last = undefined;
      continue;
    }
    if (c === ")") {
      if (frames.length === 1) throw new Error("unexpected )");
      const frame = frames.pop()!;
      const allUnbounded = frame.someAltUnbounded || (frame.atoms > 0 && frame.atoms === frame.unbounded);
      const parent = frames[frames.length - 1];
      if (frame.wide) parent.wide = true;
      i++;
      emit(")", { wide: false, risky: frame.wide || allUnbounded });
      if (allUnbounded) parent.unbounded++;
      continue;
    }
    if (c === "|") {
      const frame = frames[frames.length - 1];
      if (frame.atoms > 0 && frame.atoms === frame.unbounded) frame.someAltUnbounded = true;
      frame.atoms = frame.unbounded = 0;
      emit("|", undefined);
      i++;
      continue;
    }
    i++;
    if (c === "^" || c === "$") emit(c, undefined);
    else if (c === ".") emit(c, wide);
    else emit(c === "/" ? "\\/" : c, plain);
  }
  if (frames.length > 1) throw new Error("missing closing )");
  return new RegExp(out, flags);
}
