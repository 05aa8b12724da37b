/**
 * The few error classes of svc. Each has a stable `code` so callers (CLI exit codes, the APIs,
 * the C ABI) branch on it rather than on message text. Messages follow Deno std style:
 * sentence case, no trailing period, quoted values, a colon before detail.
 */
export class SvcError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

/** A problem in a configuration, located by JSON pointer path (`/route/rules/3/outbound`) or source line. */
export class ConfigError extends SvcError {
  /** JSON pointer of the offending value, or "" for the whole document. */
  readonly path: string;
  /** 1-based source line, when known (YAML, .conf, or JSON with offsets). */
  readonly line?: number;
  /** 1-based source column, when the format gives one (YAML). */
  readonly column?: number;
  constructor(path: string, message: string, line?: number, column?: number) {
    super("config", path ? `${path}: ${message}` : message);
    this.path = path;
    this.line = line;
    this.column = column;
    this.detail = message;
  }
  /** The message without the path prefix. */
  readonly detail: string;
}

/** Several configuration errors found at once; `check` lists them all. */
export class ConfigErrors extends SvcError {
  readonly errors: ConfigError[];
  readonly warnings: string[];
  constructor(errors: ConfigError[], warnings: string[] = []) {
    super("config", errors.map((e) => e.message).join("\n"));
    this.errors = errors;
    this.warnings = warnings;
  }
}

export class DialError extends SvcError {
  constructor(message: string, options?: ErrorOptions) {
    super("dial", message, options);
  }
}

export class ProtocolError extends SvcError {
  constructor(message: string, options?: ErrorOptions) {
    super("protocol", message, options);
  }
}

export class DnsError extends SvcError {
  constructor(message: string, options?: ErrorOptions) {
    super("dns", message, options);
  }
}

/** A feature the configuration asks for that this platform or build cannot provide. */
export class UnsupportedError extends SvcError {
  constructor(message: string) {
    super("unsupported", message);
  }
}

/** Text of any thrown value, for logs. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
