/**
 * The many-boxes recipe of `docs/operate/deploy.md`: a real `denokv` behind real nginx terminating TLS with
 * the doc's config (`docs/operate/deploy/denokv-tls.conf`, addresses and certificate paths moved into a
 * temporary directory), a certificate signed by a private CA made here with `openssl`, and the
 * admin CLI reaching the store over `https://` with `DENO_CERT` and the access token. Without
 * `DENO_CERT` the certificate is refused; with a wrong token the server refuses.
 */
import assert from "node:assert/strict";
import { externalTool } from "../support/external_tool.ts";
import { lines, readUntil } from "../support/lines.ts";
import { mainConfig, startNginx } from "../support/nginx_cache.ts";
import { ADMIN_MAIN, REPO_ROOT } from "../support/admin_cli.ts";

const HOME = Deno.env.get("HOME") ?? "/root";
const denokv = externalTool(
  "denokv",
  [`${HOME}/.cargo/bin/denokv`],
  "cargo install denokv --locked",
);
const nginx = externalTool("nginx", ["/usr/sbin/nginx"], "apt-get install nginx");
const openssl = externalTool("openssl", ["/usr/bin/openssl"], "apt-get install openssl");
const RECIPE = new URL("../../docs/operate/deploy/denokv-tls.conf", import.meta.url);
const TOKEN = "tls-recipe-token-0123456789abcdef";
const DOC = new URL("../../docs/operate/deploy.md", import.meta.url);

Deno.test("deploy.md includes docs/operate/deploy/denokv-tls.conf verbatim (indented in its list item)", async () => {
  const [doc, recipe] = await Promise.all([Deno.readTextFile(DOC), Deno.readTextFile(RECIPE)]);
  const indented = recipe.split("\n").map((line) => (line === "" ? "" : `   ${line}`)).join("\n");
  assert.ok(doc.includes("   ```nginx\n" + indented + "   ```"), "the doc's block is the file");
});

async function run(command: string, args: string[], cwd: string): Promise<void> {
  const output = await new Deno.Command(command, { args, cwd, stdout: "null", stderr: "piped" })
    .output();
  assert.ok(
    output.success,
    `${command} ${args.join(" ")}: ${new TextDecoder().decode(output.stderr)}`,
  );
}

/** A private CA (`ca.pem`) and a certificate for localhost/127.0.0.1 it signed (`cert.pem`). */
async function makeCertificates(dir: string): Promise<void> {
  const ssl = (...args: string[]) => run(openssl.path, args, dir);
  await ssl(
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    "ca.key",
    "-out",
    "ca.pem",
    "-days",
    "2",
    "-subj",
    "/CN=Logo Lookup test CA",
  );
  await ssl(
    "req",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-keyout",
    "key.pem",
    "-out",
    "server.csr",
    "-subj",
    "/CN=localhost",
  );
  await Deno.writeTextFile(
    `${dir}/ext.cnf`,
    "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\n" +
      "extendedKeyUsage=serverAuth\n",
  );
  await ssl(
    "x509",
    "-req",
    "-in",
    "server.csr",
    "-CA",
    "ca.pem",
    "-CAkey",
    "ca.key",
    "-CAcreateserial",
    "-out",
    "cert.pem",
    "-days",
    "2",
    "-extfile",
    "ext.cnf",
  );
}

function move(config: string, from: string, to: string): string {
  const parts = config.split(from);
  assert.equal(parts.length, 2, `the recipe holds "${from}" exactly once`);
  return parts.join(to);
}

function optional(name: string): Record<string, string> {
  const value = Deno.env.get(name);
  return value === undefined ? {} : { [name]: value };
}

async function admin(env: Record<string, string>, args: string[]) {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ADMIN_MAIN, ...args],
    cwd: REPO_ROOT,
    // Only these settings: a DENO_CERT or KV token of the caller's must not leak in.
    env: { NO_COLOR: "1", HOME, ...optional("DENO_DIR"), ...env },
    clearEnv: true,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder();
  return {
    code: output.code,
    stdout: text.decode(output.stdout),
    stderr: text.decode(output.stderr),
  };
}

Deno.test({
  name: "denokv behind the doc's nginx TLS config: the admin CLI works over https with DENO_CERT",
  ignore: denokv.ignore || nginx.ignore || openssl.ignore,
  async fn() {
    const dir = await Deno.makeTempDir({ prefix: "denokv_tls_" });
    const kv = new Deno.Command(denokv.path, {
      args: [
        "--sqlite-path",
        `${dir}/kv.sqlite`,
        "serve",
        "--access-token",
        TOKEN,
        "--addr",
        "127.0.0.1:0",
      ],
      stdout: "null",
      stderr: "piped",
    }).spawn();
    try {
      await makeCertificates(dir);
      const kvLog = lines(kv.stderr);
      const kvLines = await readUntil(kvLog, (line) => /Listening on http:\/\//.test(line));
      const kvAddress = /Listening on http:\/\/(\S+)/.exec(kvLines.at(-1) ?? "")?.[1];
      assert.ok(kvAddress, `denokv did not start:\n${kvLines.join("\n")}`);
      (async () => {
        for await (const _ of kvLog); // keep draining denokv's log
      })();
      const recipe = await Deno.readTextFile(RECIPE);
      await using proxy = await startNginx(nginx.path, (nginxDir, port) => {
        let config = move(recipe, "listen 4513 ssl http2;", `listen 127.0.0.1:${port} ssl http2;`);
        config = move(
          config,
          "proxy_pass http://127.0.0.1:4512;",
          `proxy_pass http://${kvAddress};`,
        );
        config = move(config, "/etc/nginx/tls/kv.example.com.crt", `${dir}/cert.pem`);
        config = move(config, "/etc/nginx/tls/kv.example.com.key", `${dir}/key.pem`);
        return mainConfig(nginxDir, config);
      });
      const url = `https://localhost:${new URL(proxy.url).port}`;
      const env = { LOGO_KV: url, DENO_KV_ACCESS_TOKEN: TOKEN, DENO_CERT: `${dir}/ca.pem` };

      const created = await admin(env, ["key", "create"]);
      assert.equal(created.code, 0, `${created.stderr}\n${proxy.log()}`);
      const { id } = JSON.parse(created.stdout);
      const listed = await admin(env, ["key", "list"]);
      assert.equal(listed.code, 0, listed.stderr);
      assert.deepEqual(JSON.parse(listed.stdout).map((k: { id: string }) => k.id), [id]);

      const { DENO_CERT: _, ...withoutCa } = env;
      const untrusted = await admin(withoutCa, ["key", "list"]);
      assert.equal(untrusted.code, 1);
      assert.match(
        untrusted.stderr,
        /Cannot open the store at LOGO_KV=https:.*invalid peer certificate/,
      );
      const wrongToken = await admin({ ...env, DENO_KV_ACCESS_TOKEN: "wrong" }, ["key", "list"]);
      assert.equal(wrongToken.code, 1);
      assert.match(wrongToken.stderr, /the KV server refused DENO_KV_ACCESS_TOKEN/);
    } finally {
      kv.kill("SIGTERM");
      await kv.status;
      await Deno.remove(dir, { recursive: true });
    }
  },
});
