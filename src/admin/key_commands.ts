/**
 * `deno task admin key …`: create, list and revoke keys, and record attribution.
 *
 * @module
 */
import {
  type ApiKey,
  KeyStore,
  normalizeAttributionUrl,
  resolveKeyOptions,
} from "../store/key_store.ts";
import { type AdminCommand, type AdminContext, isoTime, printJson } from "./io.ts";
import { parseCommandArgs, parseWholeNumber, UsageError } from "./usage.ts";

/**
 * Parses `key <subcommand> …` into a command. Every argument is validated here, before the KV is
 * opened, so a bad one writes nothing.
 *
 * @throws {UsageError} for an unknown subcommand or a bad argument.
 */
export function parseKeyCommand(args: string[]): AdminCommand {
  const [subcommand, ...rest] = args;
  switch (subcommand) {
    case "create":
      return parseCreate(rest);
    case "list": {
      parseCommandArgs("key list", rest, []);
      return { run: listKeys };
    }
    case "revoke": {
      const [id] = parseCommandArgs("key revoke", rest, ["ID"]).positionals;
      return { run: (context) => revokeKey(context, id) };
    }
    case "attribution": {
      const [id, url] = parseCommandArgs("key attribution", rest, ["ID", "URL"]).positionals;
      const attributionUrl = orUsage(() => normalizeAttributionUrl(url));
      return { run: (context) => recordAttribution(context, id, attributionUrl) };
    }
    case undefined:
      throw new UsageError("key: expected a subcommand: create, list, revoke or attribution");
    default:
      throw new UsageError(`key: unknown subcommand "${subcommand}"`);
  }
}

function parseCreate(args: string[]): AdminCommand {
  const { values } = parseCommandArgs("key create", args, [], {
    plan: { type: "string" },
    limit: { type: "string" },
    window: { type: "string" },
    allow: { type: "string", multiple: true },
    attribution: { type: "boolean" },
  });
  const limit = values.limit === undefined
    ? undefined
    : parseWholeNumber("limit", values.limit as string);
  const window = values.window === undefined
    ? undefined
    : parseWholeNumber("window", values.window as string);
  const options = {
    plan: values.plan as string | undefined,
    limit,
    window,
    allow: (values.allow as string[] | undefined) ?? [],
    attribution: values.attribution === true,
  };
  // Validate now (plan, bounds, allowlist) so a bad value never reaches the store.
  orUsage(() => resolveKeyOptions(options));
  return {
    async run(context) {
      const { key, secretKey } = await new KeyStore(context.kv).create(options);
      printJson(context, {
        id: key.id,
        publishableKey: key.publishableKey,
        secretKey,
        plan: key.plan,
        limit: key.limit,
        window: key.window,
        allow: key.allow,
        attribution: key.attribution,
      });
      context.stderr("Key created. The secret key is shown only this once: store it now.\n");
      return 0;
    },
  };
}

function orUsage<T>(validate: () => T): T {
  try {
    return validate();
  } catch (error) {
    if (error instanceof RangeError) throw new UsageError(error.message);
    throw error;
  }
}

/** What `key list` shows of a key: everything but the secret's hash. */
function describeKey(key: ApiKey): Record<string, unknown> {
  return {
    id: key.id,
    publishableKey: key.publishableKey,
    plan: key.plan,
    limit: key.limit,
    window: key.window,
    allow: key.allow,
    attribution: key.attribution,
    attributionUrl: key.attributionUrl,
    attributionRecordedAt: isoTime(key.attributionRecordedAt),
    revoked: key.revoked,
    revokedAt: isoTime(key.revokedAt),
    createdAt: isoTime(key.createdAt),
  };
}

async function listKeys(context: AdminContext): Promise<number> {
  printJson(context, (await new KeyStore(context.kv).list()).map(describeKey));
  return 0;
}

async function revokeKey(context: AdminContext, id: string): Promise<number> {
  if (!(await new KeyStore(context.kv).revoke(id))) {
    context.stderr(`No key with id "${id}"\n`);
    return 1;
  }
  printJson(context, { id, revoked: true });
  return 0;
}

async function recordAttribution(context: AdminContext, id: string, url: string): Promise<number> {
  const keys = new KeyStore(context.kv);
  if (!(await keys.recordAttribution(id, url))) {
    context.stderr(`No live key with id "${id}"\n`);
    return 1;
  }
  const key = await keys.get(id);
  printJson(context, {
    id,
    attribution: key?.attribution ?? false,
    attributionUrl: key?.attributionUrl,
    attributionRecordedAt: isoTime(key?.attributionRecordedAt),
  });
  if (key !== null && !key.attribution) {
    context.stderr("Note: this key does not require attribution; recorded anyway.\n");
  }
  return 0;
}
