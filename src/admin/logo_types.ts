/**
 * The two types of a domain's logo in the admin CLI: the `--type icon|logo` option of `logo add`,
 * `logo import`, `logo rm` and `logo rerender`, and the commands that show or remove both types.
 *
 * - `logo add` / `logo import` store the files as icons, or with `--type logo` as wordmarks.
 * - `logo rm DOMAIN` removes everything stored for DOMAIN — icon and wordmark — so a domain taken
 *   out is out; `--type icon` or `--type logo` removes that one only and leaves the other.
 * - `logo list` lists every record, in domain order, the icon before the wordmark, each with its
 *   `logoType` (`type` stays the source's media type, as before wordmarks existed).
 *
 * @example
 * ```ts
 * import { typeOption } from "./logo_types.ts";
 * typeOption("logo add", { type: "logo" }); // "logo"
 * typeOption("logo add", {});               // undefined: the command's default
 * ```
 * @module
 */
import { isLogoType, LOGO_TYPES, type LogoType, TYPE_RULE } from "../sdk/logo_options.ts";
import { type LogoRecord, LogoStore } from "../store/logo_store.ts";
import { type AdminContext, isoTime, printJson } from "./io.ts";
import { type OptionSpecs, UsageError } from "./usage.ts";

/** The `--type` option's spec, for `parseCommandArgs`. */
export const TYPE_OPTION: OptionSpecs = { type: { type: "string" } };

/**
 * The `--type` value of a parsed command line, `undefined` when not given.
 *
 * @throws {UsageError} for anything but `icon` or `logo`.
 */
export function typeOption(
  command: string,
  values: Record<string, unknown>,
): LogoType | undefined {
  const value = values.type;
  if (value === undefined) return undefined;
  if (!isLogoType(value)) {
    throw new UsageError(`${command}: invalid --type "${String(value)}": ${TYPE_RULE}`);
  }
  return value;
}

/** A short public view of a record for JSON output. */
export function describeLogo(record: LogoRecord, logoType: LogoType): Record<string, unknown> {
  return {
    domain: record.domain,
    logoType,
    type: record.type,
    width: record.width,
    height: record.height,
    hash: record.hash,
    source: record.source,
    createdAt: isoTime(record.createdAt),
    updatedAt: isoTime(record.updatedAt),
  };
}

/** Every record of both types, in domain order, the icon first within a domain. */
export async function* listBoth(logos: LogoStore): AsyncIterable<[LogoRecord, LogoType]> {
  const iterators = LOGO_TYPES.map((type) => logos.list(type)[Symbol.asyncIterator]());
  const heads = await Promise.all(iterators.map((it) => it.next()));
  for (;;) {
    let next = -1;
    heads.forEach((head, i) => {
      if (head.done) return;
      if (next < 0 || head.value.domain < (heads[next].value as LogoRecord).domain) next = i;
    });
    if (next < 0) return;
    yield [heads[next].value as LogoRecord, LOGO_TYPES[next]];
    heads[next] = await iterators[next].next();
  }
}

/** `logo list`: every record of both types (see the module documentation). */
export async function listLogos(context: AdminContext): Promise<number> {
  const records: Record<string, unknown>[] = [];
  for await (const [record, type] of listBoth(new LogoStore(context.kv))) {
    records.push(describeLogo(record, type));
  }
  printJson(context, records);
  return 0;
}

/**
 * `logo rm DOMAIN [--type T]`: removes the domain's records of type `type`, or of both types;
 * exit status 1 when there was none.
 */
export async function removeLogo(
  context: AdminContext,
  domain: string,
  type: LogoType | undefined,
): Promise<number> {
  const logos = new LogoStore(context.kv);
  const removed: LogoType[] = [];
  for (const candidate of type === undefined ? LOGO_TYPES : [type]) {
    if (await logos.remove(domain, candidate)) removed.push(candidate);
  }
  if (removed.length === 0) {
    context.stderr(`No ${type === "logo" ? "wordmark" : type ?? "logo"} for ${domain}\n`);
    return 1;
  }
  printJson(context, { domain, removed: true, logoTypes: removed });
  return 0;
}
