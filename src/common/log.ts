/**
 * Leveled logger owned by one engine (no global logger: several engines may share a process).
 * Console lines are coloured only on a terminal and never when NO_COLOR is set.
 */
export type LogLevel = "trace" | "debug" | "info" | "warn" | "error";

const RANK: Record<LogLevel, number> = { trace: 0, debug: 1, info: 2, warn: 3, error: 4 };
const COLOUR: Record<LogLevel, string> = {
  trace: "\x1b[90m",
  debug: "\x1b[36m",
  info: "\x1b[32m",
  warn: "\x1b[33m",
  error: "\x1b[31m",
};
const LABEL: Record<LogLevel, string> = {
  trace: "TRACE",
  debug: "DEBUG",
  info: "INFO",
  warn: "WARN",
  error: "ERROR",
};

/** Maps a configured level name to a level: warning is warn, fatal and panic act as error. */
export function parseLogLevel(name: string): LogLevel {
  switch (name) {
    case "warning":
      return "warn";
    case "fatal":
    case "panic":
      return "error";
    case "trace":
    case "debug":
    case "info":
    case "warn":
    case "error":
      return name;
    default:
      throw new Error(`Unknown log level "${name}"`);
  }
}

export interface LogSink {
  write(line: string): void;
}

export interface LoggerOptions {
  level?: LogLevel;
  /** "full" prefixes level (and tag); "compact" writes the message alone. */
  format?: "full" | "compact";
  timestamp?: boolean;
  disabled?: boolean;
  colour?: boolean;
  sink?: LogSink;
  /** Injected clock for tests. */
  now?: () => Date;
  /** Listeners receive every line at or above `level` (APIs stream logs from here). */
  listeners?: Set<(level: LogLevel, message: string) => void>;
}

export class Logger {
  readonly level: LogLevel;
  private readonly rank: number;
  private readonly opts: LoggerOptions;
  private readonly sink: LogSink;
  private readonly scope: string;

  constructor(opts: LoggerOptions = {}, scope = "") {
    this.opts = opts;
    this.level = opts.level ?? "info";
    this.rank = opts.disabled ? 99 : RANK[this.level];
    this.sink = opts.sink ?? stderrSink();
    this.scope = scope;
  }

  /** A logger that prefixes messages with `scope` (e.g. "inbound/mixed[mixed-in]"). */
  child(scope: string): Logger {
    return new Logger(this.opts, this.scope ? `${this.scope}/${scope}` : scope);
  }

  enabled(level: LogLevel): boolean {
    return RANK[level] >= this.rank;
  }

  trace(msg: string): void {
    if (this.rank <= 0) this.emit("trace", msg);
  }
  debug(msg: string): void {
    if (this.rank <= 1) this.emit("debug", msg);
  }
  info(msg: string): void {
    if (this.rank <= 2) this.emit("info", msg);
  }
  warn(msg: string): void {
    if (this.rank <= 3) this.emit("warn", msg);
  }
  error(msg: string): void {
    if (this.rank <= 4) this.emit("error", msg);
  }

  private emit(level: LogLevel, msg: string): void {
    const text = this.scope ? `${this.scope}: ${msg}` : msg;
    for (const l of this.opts.listeners ?? []) l(level, text);
    if (this.opts.format === "compact") {
      this.sink.write(msg + "\n");
      return;
    }
    const colour = this.opts.colour ?? false;
    const label = colour ? `${COLOUR[level]}${LABEL[level]}\x1b[0m` : LABEL[level];
    const time = this.opts.timestamp ? `${(this.opts.now ?? (() => new Date()))().toISOString()} ` : "";
    this.sink.write(`${time}${label} ${text}\n`);
  }
}

const encoder = new TextEncoder();

function stderrSink(): LogSink {
  return { write: (line) => void Deno.stderr.writeSync(encoder.encode(line)) };
}

/** A sink appending to a file; lines are written synchronously so nothing is lost at exit. */
export function fileSink(path: string): LogSink & { close(): void } {
  const file = Deno.openSync(path, { append: true, create: true });
  return {
    write: (line) => void file.writeSync(encoder.encode(line)),
    close: () => file.close(),
  };
}

/** Whether console output should carry colours: a terminal, and NO_COLOR unset. */
export function consoleWantsColour(): boolean {
  return Deno.stderr.isTerminal() && !Deno.env.get("NO_COLOR");
}
