/**
 * `DENO_CERT` for discovery: the PEM file of extra CA certificates that Deno trusts for its own
 * connections (a private CA's, docs/operate/deploy.md). Discovery fetches with `node:https`, which does not
 * read `DENO_CERT`, so the settings read the file once at start-up ({@link readDenoCert}) and
 * discovery trusts those certificates besides the default roots (`trustedRoots` in
 * `fetch_hop.ts`). A file that cannot be used stops start-up with a message naming it, rather
 * than failing every https fetch later.
 *
 * Nothing here imports `node:tls`, slow to load (`deno task bench:serve` part 3): the server checks `DENO_CERT` before it
 * listens, and discovery's modules load after.
 *
 * @module
 */

const PEM_CERTIFICATE =
  /-----BEGIN CERTIFICATE-----\r?\n([A-Za-z0-9+/=\r\n]+?)-----END CERTIFICATE-----/g;

/**
 * The PEM certificates of the file named by `value` (`DENO_CERT`), or `undefined` when it is unset
 * or empty (the default roots alone). `read` reads a text file (default `Deno.readTextFileSync`).
 *
 * @throws {Error} "Cannot use DENO_CERT=PATH: cannot read it (…)" for a file that cannot be read,
 * "…: it holds no PEM certificate (-----BEGIN CERTIFICATE-----)" for one without a certificate,
 * "…: certificate N is not valid base64" for a damaged one.
 *
 * @example
 * ```ts
 * readDenoCert(undefined); // undefined
 * readDenoCert("/etc/logo-lookup/ca.pem"); // ["-----BEGIN CERTIFICATE-----\n…"]
 * ```
 */
export function readDenoCert(
  value: string | undefined,
  read: (path: string) => string = Deno.readTextFileSync,
): string[] | undefined {
  const path = value?.trim();
  if (!path) return undefined;
  const refuse = (why: string) => new Error(`Cannot use DENO_CERT=${path}: ${why}`);
  let text: string;
  try {
    text = read(path);
  } catch (error) {
    throw refuse(`cannot read it (${error instanceof Error ? error.message : error})`);
  }
  const certificates: string[] = [];
  for (const match of text.matchAll(PEM_CERTIFICATE)) {
    try {
      atob(match[1].replace(/\s/g, ""));
    } catch {
      throw refuse(`certificate ${certificates.length + 1} is not valid base64`);
    }
    certificates.push(match[0]);
  }
  if (certificates.length === 0) {
    throw refuse("it holds no PEM certificate (-----BEGIN CERTIFICATE-----)");
  }
  return certificates;
}
