/**
 * What the one-box nginx recipe (`docs/operate/deploy/nginx.conf`) sets: its directives, and nginx's main
 * context as its comments advise it.
 */
import assert from "node:assert/strict";
import { DEPLOY_RECIPE, type MainContext } from "./nginx_cache.ts";

/** The recipe's text. */
export const RECIPE: string = await Deno.readTextFile(DEPLOY_RECIPE);

/** The value of the directive `name`, which `config` (a recipe) must set exactly once. */
export function directive(config: string, name: string): string {
  const found = [...config.matchAll(new RegExp(`^\\s*${name}\\s+([^;]*);`, "gm"))];
  assert.equal(found.length, 1, `the recipe sets ${name} exactly once`);
  return found[0][1].trim();
}

/** Milliseconds of an nginx time such as `10s` or `500ms`. */
export function milliseconds(time: string): number {
  const match = /^(\d+)(ms|s|m)?$/.exec(time);
  assert.ok(match, `an nginx time: ${time}`);
  return Number(match[1]) * ({ ms: 1, s: 1000, m: 60_000 }[match[2] ?? "s"] ?? 1000);
}

/** A number the recipe's comments give for nginx.conf's main context, e.g. worker_connections. */
function advised(name: string): number {
  const match = new RegExp(`^#.*\\b${name} (\\d+);`, "m").exec(RECIPE);
  assert.ok(match, `the recipe's comments give ${name} for nginx.conf's main context`);
  return Number(match[1]);
}

/** nginx's main context as the recipe advises it. */
export const MAIN_CONTEXT: MainContext = {
  workerConnections: advised("worker_connections"),
  workerRlimitNofile: advised("worker_rlimit_nofile"),
};

/** Idle connections nginx keeps to the instances: all the service sees of the clients at rest. */
export const UPSTREAM_KEEPALIVE: number = Number(directive(RECIPE, "keepalive"));
