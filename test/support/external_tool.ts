/**
 * Tests that need a program from outside the repository (Debian's `chromium` or `nginx`, the
 * `denokv` server built with cargo) find it here. On a developer's machine without it the test is
 * ignored, and says how to install it; under CI (`CI=true`, where `.ci/run` installs every one of
 * them) a missing program fails the test instead, so CI can never pass by skipping.
 *
 * @example
 * ```ts
 * import { externalTool } from "./external_tool.ts";
 * const nginx = externalTool("nginx", ["/usr/sbin/nginx"], "apt-get install nginx");
 * Deno.test({ name: "through nginx", ignore: nginx.ignore, fn() {} });
 * ```
 * @module
 */

/** Where a tool was found, and whether tests that need it are ignored. */
export interface ExternalTool {
  /** Absolute path of the program; throws when it was not found (only reached under CI). */
  readonly path: string;
  /** `true` when the tool is missing outside CI: pass as `Deno.test({ ignore })`. */
  readonly ignore: boolean;
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/**
 * Looks for `name` at each of `candidates`, then on `PATH`. `install` is the command that provides
 * it, shown when it is missing.
 */
export function externalTool(name: string, candidates: string[], install: string): ExternalTool {
  const onPath = (Deno.env.get("PATH") ?? "").split(":").filter(Boolean).map((dir) =>
    `${dir}/${name}`
  );
  const found = [...candidates, ...onPath].find(isFile);
  const inCi = Deno.env.get("CI") === "true";
  if (found === undefined && !inCi) {
    console.warn(`${name} not found: its tests are ignored (install it with: ${install})`);
  }
  return {
    ignore: found === undefined && !inCi,
    get path(): string {
      if (found === undefined) {
        throw new Error(`${name} not found; CI must install it (${install})`);
      }
      return found;
    },
  };
}
