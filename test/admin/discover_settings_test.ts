/**
 * The admin CLI's discover settings (`logo discover`, `bulk-discover`): `DENO_CERT` is read as the
 * server reads it, so the CLI trusts a private CA's sites as the server's discovery does, and a
 * file that cannot be used is a usage error naming it.
 */
import assert from "node:assert/strict";
import { readAdminSettings } from "../../src/admin/admin_settings.ts";
import { UsageError } from "../../src/admin/usage.ts";

const PRIVATE_CA = new URL("../fixtures/discovery_tls/private_ca.pem", import.meta.url).pathname;

Deno.test("discover settings: DENO_CERT's certificates are trusted besides the default roots", () => {
  const settings = readAdminSettings({ DENO_CERT: PRIVATE_CA });
  assert.equal(settings.extraCaCerts?.length, 1);
  assert.match(settings.extraCaCerts![0], /^-----BEGIN CERTIFICATE-----/);
  assert.equal(readAdminSettings({}).extraCaCerts, undefined, "unset: the default roots alone");
});

Deno.test("discover settings: a DENO_CERT that cannot be read is a usage error naming it", () => {
  assert.throws(
    () => readAdminSettings({ DENO_CERT: "/nonexistent/ca.pem" }),
    (error) =>
      error instanceof UsageError &&
      /^Cannot use DENO_CERT=\/nonexistent\/ca\.pem/.test(error.message),
  );
});
