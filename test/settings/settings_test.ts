/**
 * The settings table (`src/settings/`): every setting is listed by `--help` (the server's and the
 * admin CLI's, each the settings it reads), a bad value of each stops start-up with its one-line
 * message (table-driven: a setting added without a case here fails the test), each program reads
 * only its own settings, and no other module of `src/` reads `Deno.env`.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { USAGE } from "../../src/main.ts";
import { USAGE as ADMIN_USAGE, UsageError } from "../../src/admin/usage.ts";
import { readAdminSettings } from "../../src/admin/admin_settings.ts";
import { MAX_CACHE_MB } from "../../src/server/cache_budgets.ts";
import { MAX_RENDER_WORKERS } from "../../src/server/render_pool.ts";
import { readSettings } from "../../src/settings/read_settings.ts";
import { PROGRAMS, type Setting } from "../../src/settings/setting.ts";
import { SETTINGS } from "../../src/settings/settings_table.ts";

const ROOT = new URL("../..", import.meta.url).pathname;
const SRC = join(ROOT, "src");
const TABLE: Readonly<Record<string, Setting>> = SETTINGS;
const ALL = Object.values(TABLE);

/** A listed entry: the name at the start of a line, after two spaces. */
const listed = (text: string, name: string) => new RegExp(`^ {2}${name}( |$)`, "m").test(text);

/** A bad value of each setting and its whole start-up message. */
const BAD: Readonly<Record<string, readonly [string, string | RegExp]>> = {
  PORT: ["80a", 'Invalid PORT "80a": expected a whole number from 0 to 65535'],
  LOGO_HOSTNAME: [
    "localhost",
    'Invalid LOGO_HOSTNAME "localhost": expected an IP address to listen on, such as 127.0.0.1 ' +
    "(this machine only), 0.0.0.0 (every IPv4 address) or ::",
  ],
  LOGO_REUSE_PORT: ["yes", 'Invalid LOGO_REUSE_PORT "yes": expected on or off'],
  LOGO_WATCHDOG_MS: [
    "500",
    'Invalid LOGO_WATCHDOG_MS "500": expected 0 (off) or a whole number of ms from 1000',
  ],
  LOGO_DISCOVERY: ["maybe", 'Invalid LOGO_DISCOVERY "maybe": expected on or off'],
  LOGO_CONNECT_TO: [
    "acme.test:80",
    'Invalid LOGO_CONNECT_TO entry "acme.test:80": expected host:port:address:port',
  ],
  LOGO_DNS_SERVER: [
    "dns.test:53",
    'Invalid LOGO_DNS_SERVER "dns.test:53": expected address:port, e.g. 127.0.0.1:53 or [::1]:53',
  ],
  DENO_CERT: [
    "/nonexistent/ca.pem",
    /^Cannot use DENO_CERT=\/nonexistent\/ca\.pem: cannot read it \(.+\)$/,
  ],
  LOGO_ACCESS_LOG: ["verbose", 'Invalid LOGO_ACCESS_LOG "verbose": expected off, json or logfmt'],
  LOGO_ACCESS_LOG_SAMPLE: [
    "2",
    'Invalid LOGO_ACCESS_LOG_SAMPLE "2": expected a number above 0 and at most 1',
  ],
  LOGO_METRICS_TOKEN: [
    "short",
    "Invalid LOGO_METRICS_TOKEN: expected at least 16 printable ASCII characters without spaces " +
    "(e.g. openssl rand -hex 24)",
  ],
  LOGO_VARIANT_CACHE_MB: [
    "lots",
    `Invalid LOGO_VARIANT_CACHE_MB "lots": expected a whole number of MiB from 0 (no cache) to ${MAX_CACHE_MB}`,
  ],
  LOGO_SOURCE_CACHE_MB: [
    "-1",
    `Invalid LOGO_SOURCE_CACHE_MB "-1": expected a whole number of MiB from 0 (no cache) to ${MAX_CACHE_MB}`,
  ],
  LOGO_RECORD_CACHE_MB: [
    "1.5",
    `Invalid LOGO_RECORD_CACHE_MB "1.5": expected a whole number of MiB from 0 (no cache) to ${MAX_CACHE_MB}`,
  ],
  LOGO_RENDER_WORKERS: [
    "many",
    `Invalid LOGO_RENDER_WORKERS "many": expected a whole number from 0 (render inline) to ${MAX_RENDER_WORKERS}`,
  ],
  LOGO_RENDER_DEADLINE_MS: [
    "soon",
    'Invalid LOGO_RENDER_DEADLINE_MS "soon": expected a whole number of ms from 100 to 60000',
  ],
};

/** The settings no value of which is refused by its parser, and why. */
const ANY_VALUE: Readonly<Record<string, string>> = {
  LOGO_KV: "a location that cannot be opened is refused when the store opens (startup_errors_test)",
  DENO_KV_ACCESS_TOKEN: "read by Deno",
  DENO_DEPLOYMENT_ID: "set by the platform",
  OTEL_DENO: "anything but true or 1 is off, as Deno reads it",
};

function assertMessage(actual: string, expected: string | RegExp, name: string): void {
  assert.doesNotMatch(actual, /\n/, `${name}: one line`);
  if (typeof expected === "string") assert.equal(actual, expected, name);
  else assert.match(actual, expected, name);
}

/** Whether `error` has the message `expected`, on one line (after `assertMessage`'s checks). */
function hasMessage(error: unknown, expected: string | RegExp, name: string): boolean {
  assert.ok(error instanceof Error, name);
  assertMessage(error.message, expected, name);
  return true;
}

Deno.test("settings: each setting is declared once, with a program that reads it", () => {
  const names = ALL.map((setting) => setting.name);
  assert.deepEqual(names, [...new Set(names)], "no variable twice");
  for (const setting of ALL) {
    assert.ok(setting.usedBy.length > 0, setting.name);
    assert.ok(setting.usedBy.every((program) => PROGRAMS.includes(program)), setting.name);
    assert.ok(setting.help.length > 0 && !setting.help.includes("\n"), `${setting.name}: one line`);
  }
});

Deno.test("settings: deno task start --help lists every setting the server reads", () => {
  const server = ALL.filter((s) => s.usedBy.includes("start") || s.usedBy.includes("serve"));
  assert.ok(server.length > 0);
  for (const setting of server) assert.ok(listed(USAGE, setting.name), setting.name);
  for (const line of USAGE.split("\n")) assert.ok(line.length <= 100, line);
});

Deno.test("settings: the admin usage lists the settings the admin CLI reads, and no other", () => {
  for (const setting of ALL) {
    assert.equal(listed(ADMIN_USAGE, setting.name), setting.usedBy.includes("admin"), setting.name);
  }
  for (const line of ADMIN_USAGE.split("\n")) assert.ok(line.length <= 100, line);
});

Deno.test("settings: --help of the real task prints every setting and exits 0", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", join(SRC, "main.ts"), "--help"],
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(output.stdout);
  assert.equal(output.code, 0, new TextDecoder().decode(output.stderr));
  for (const setting of ALL.filter((s) => !s.usedBy.every((p) => p === "admin"))) {
    assert.ok(listed(text, setting.name), setting.name);
  }
});

Deno.test("settings: every setting has a bad-value case here, or a reason it has none", () => {
  const covered = [...Object.keys(BAD), ...Object.keys(ANY_VALUE)].sort();
  assert.deepEqual(covered, ALL.map((setting) => setting.name).sort());
  for (const name of Object.keys(ANY_VALUE)) {
    const setting = ALL.find((s) => s.name === name)!;
    for (const program of setting.usedBy) {
      assert.doesNotThrow(() => readSettings({ [name]: "x y z" }, program), name);
    }
  }
});

Deno.test("settings: a bad value of each is refused with its one-line message, by each program that reads it", () => {
  for (const setting of ALL) {
    const bad = BAD[setting.name];
    if (bad === undefined) continue;
    const [value, message] = bad;
    for (const program of PROGRAMS) {
      const read = () => readSettings({ [setting.name]: value }, program);
      if (!setting.usedBy.includes(program)) {
        assert.doesNotThrow(read, `${program} does not read ${setting.name}`);
        continue;
      }
      assert.throws(read, (error) => hasMessage(error, message, `${program}: ${setting.name}`));
    }
    if (setting.usedBy.includes("admin")) {
      assert.throws(
        () => readAdminSettings({ [setting.name]: value }),
        (error) => error instanceof UsageError && hasMessage(error, message, setting.name),
        `admin: ${setting.name} is a usage error`,
      );
    }
  }
});

Deno.test("settings: a bad value of each stops deno task start with its one line, exit status 1", async () => {
  // Deno reads DENO_CERT itself before any of our code runs: the in-process test covers it.
  const cases = Object.entries(BAD).filter(([name]) => name !== "DENO_CERT");
  const run = async ([name, [value, message]]: (typeof cases)[number]) => {
    const output = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", join(SRC, "main.ts")],
      env: { LOGO_KV: ":memory:", PORT: "0", LOGO_DISCOVERY: "off", NO_COLOR: "1", [name]: value },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(output.stderr).trim();
    assert.equal(output.code, 1, `${name}: ${stderr}`);
    assertMessage(stderr, message, name);
  };
  for (let i = 0; i < cases.length; i += 4) await Promise.all(cases.slice(i, i + 4).map(run));
});

/** Every `.ts` file under `dir`. */
function sourceFiles(dir: string): string[] {
  return [...Deno.readDirSync(dir)].flatMap((entry) =>
    entry.isDirectory
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith(".ts")
      ? [join(dir, entry.name)]
      : []
  );
}

Deno.test("settings: no module of src/ but src/settings/process_env.ts reads Deno.env", () => {
  const readers = sourceFiles(SRC).filter((file) =>
    Deno.readTextFileSync(file).split("\n")
      .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line)) // doc examples may show it
      .some((line) => /\bDeno\s*(\.\s*env\b|\[\s*["'`]env["'`]\s*\])/.test(line))
  ).map((file) => relative(SRC, file));
  assert.deepEqual(readers, ["settings/process_env.ts"]);
});
