/**
 * The settings as `--help` lists them, from the table (`settings_table.ts`): one entry per
 * setting, its variable, what it does, its default and, when asked, the programs that read it.
 *
 * @example
 * ```ts
 * import { settingsHelp } from "./settings_help.ts";
 * console.log(settingsHelp(["admin"]));
 * // "  LOGO_KV               The store: a file path …"
 * ```
 * @module
 */
import { type Program, PROGRAMS, type Setting } from "./setting.ts";
import { SETTINGS } from "./settings_table.ts";

/** The columns of the help text. */
const WIDTH = 100;
/** Where a setting's text starts; a longer variable name gets a line of its own. */
const TEXT_COLUMN = 24;

/** How `--help` names each program in the "read by" tag. */
export const PROGRAM_NAMES: Readonly<Record<Program, string>> = {
  start: "deno task start",
  serve: "deno serve src/serve.ts and Deno Deploy",
  admin: "deno task admin",
};

/** Options of {@link settingsHelp}. */
export interface SettingsHelpOptions {
  /** Ends each entry with the programs that read it, `[start, serve]`; default false. */
  readBy?: boolean;
}

/** `words` joined into lines of at most `width` characters (a longer word has a line of its own). */
function wrap(words: readonly string[], width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of words) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === "" ? word : `${line} ${word}`;
    }
  }
  return [...lines, line];
}

/** The help entry of one setting, its lines indented. */
function entry(setting: Setting, readBy: boolean): string[] {
  const users = PROGRAMS.filter((program) => setting.usedBy.includes(program));
  const words = `${setting.help} Default: ${setting.default}.`.split(" ");
  if (readBy) words.push(`[${users.join(", ")}]`); // kept on one line
  const indent = " ".repeat(TEXT_COLUMN);
  const lines = wrap(words, WIDTH - TEXT_COLUMN).map((line) => indent + line);
  const name = `  ${setting.name}`;
  if (name.length < TEXT_COLUMN) {
    return [name.padEnd(TEXT_COLUMN) + lines[0].trimStart(), ...lines.slice(1)];
  }
  return [name, ...lines];
}

/** The settings any of `programs` reads, in the table's order. */
export function settingsFor(programs: readonly Program[]): Setting[] {
  const table: Readonly<Record<string, Setting>> = SETTINGS;
  return Object.values(table).filter((setting) =>
    setting.usedBy.some((program) => programs.includes(program))
  );
}

/** The help text of the settings any of `programs` reads, one entry each, ending in a newline. */
export function settingsHelp(
  programs: readonly Program[],
  options: SettingsHelpOptions = {},
): string {
  const lines = settingsFor(programs).flatMap((setting) => entry(setting, options.readBy ?? false));
  return lines.join("\n") + "\n";
}
