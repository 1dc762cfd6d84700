/**
 * The commands a README asks its reader to type: every line of its fenced `sh` blocks, comments
 * and blank lines left out, in order. `test/readme_commands_test.ts` runs them.
 *
 * @example
 * ```ts
 * import { readmeCommands } from "./readme_commands.ts";
 * readmeCommands("```sh\nnpx -y deno@2.9.6 task start   # serve\n```\n"); // ["npx -y deno@2.9.6 task start   # serve"]
 * ```
 * @module
 */

/** The shell lines of `markdown`'s fenced `sh`, `shell`, `bash` and `console` blocks. */
export function readmeCommands(markdown: string): string[] {
  const commands: string[] = [];
  let inShell = false;
  let inOther = false;
  for (const line of markdown.split("\n")) {
    const fence = /^\s*```(\w*)/.exec(line);
    if (fence) {
      if (inShell || inOther) {
        inShell = inOther = false;
      } else if (/^(sh|shell|bash|console)$/.test(fence[1])) {
        inShell = true;
      } else {
        inOther = true;
      }
      continue;
    }
    const text = line.trim();
    if (inShell && text !== "" && !text.startsWith("#")) commands.push(text);
  }
  return commands;
}
