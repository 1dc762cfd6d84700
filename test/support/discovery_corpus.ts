/**
 * The discovery corpus (`test/fixtures/discovery_corpus/`): one folder per site, modelled on how
 * real sites declare their icons, each with a `site.json` saying what every URL serves and which
 * candidates are the right answer. Images are built in code from each spec (sizes, formats), so
 * the corpus stays small text files.
 *
 * `site.json`:
 * - `domain`: the domain discovered; `about`: what real pattern the site is modelled on;
 * - `expect`: the right winners as `host/path` (the first is the best; the others equally good);
 * - `forbid` (optional): `host/path` of another organisation's logo — picking one is the worst
 *   mistake and is counted apart;
 * - `routes`: `host/path` → what it serves: `{"file": NAME}` (a file of the folder),
 *   `{"png"|"jpeg"|"svg": [W, H]}`, `{"ico": [SIDES…]}`, `{"gif1x1": true}`, `{"mask": true}`
 *   (a one-colour Safari pinned-tab SVG), `{"json": VALUE}` (a manifest), `{"redirect": URL}`,
 *   and an optional `"status"`.
 *
 * The sites are served over plain HTTP on loopback (the test world refuses port 443), so the
 * `https://` URLs the pages and manifests declare, as real ones do, are served as `http://`.
 */
import { flatImage, iconPng, icoOf } from "./images.ts";
import type { Route } from "./discovery_sites.ts";

const CORPUS = new URL("../fixtures/discovery_corpus/", import.meta.url);

/** What one route of a corpus site serves. */
export interface RouteSpec {
  file?: string;
  png?: [number, number];
  jpeg?: [number, number];
  svg?: [number, number];
  ico?: number[];
  gif1x1?: boolean;
  mask?: boolean;
  json?: unknown;
  redirect?: string;
  status?: number;
}

/** One corpus site, as its `site.json` declares it. */
export interface CorpusSite {
  name: string;
  domain: string;
  about: string;
  expect: string[];
  forbid?: string[];
  routes: Record<string, RouteSpec>;
}

/** The classic 1×1 transparent GIF web analytics and old favicons use. */
const GIF_1X1 = Uint8Array.from(
  atob("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7"),
  (c) => c.charCodeAt(0),
);

function svg(width: number, height: number): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
    `viewBox="0 0 ${width} ${height}"><rect width="${width}" height="${height}" fill="#1a73e8"/>` +
    `<circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" ` +
    `fill="#fbbc04"/></svg>`;
}

const MASK_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16">` +
  `<path d="M8 1l7 14H1z"/></svg>`;

function typeOf(file: string): string {
  if (file.endsWith(".html")) return "text/html; charset=utf-8";
  if (file.endsWith(".svg")) return "image/svg+xml";
  return "application/octet-stream";
}

async function route(folder: URL, spec: RouteSpec): Promise<Route> {
  const status = spec.status;
  if (spec.redirect) {
    return { body: "", status: status ?? 301, headers: { location: spec.redirect } };
  }
  if (spec.file) {
    const text = await Deno.readTextFile(new URL(spec.file, folder));
    const body = text.replaceAll("https://", "http://");
    return { body, type: typeOf(spec.file), status };
  }
  if (spec.png) return { body: iconPng(...spec.png), type: "image/png", status };
  if (spec.jpeg) {
    return {
      body: flatImage(...spec.jpeg, [40, 90, 160, 255], "jpeg"),
      type: "image/jpeg",
      status,
    };
  }
  if (spec.svg) return { body: svg(...spec.svg), type: "image/svg+xml", status };
  if (spec.mask) return { body: MASK_SVG, type: "image/svg+xml", status };
  if (spec.ico) {
    const entries = spec.ico.map((side) => ({ png: iconPng(side, side), side }));
    return { body: icoOf(entries), type: "image/x-icon", status };
  }
  if (spec.gif1x1) return { body: GIF_1X1, type: "image/gif", status };
  if (spec.json !== undefined) {
    const body = JSON.stringify(spec.json).replaceAll("https://", "http://");
    return { body, type: "application/manifest+json", status };
  }
  throw new Error(`unknown route spec ${JSON.stringify(spec)}`);
}

/**
 * Every site of the corpus in `dir` (default the discovery corpus), by folder name. Another
 * corpus in the same form (`wordmark_corpus/`) declares its own answers: `Site` says which.
 */
export async function loadCorpus<Site extends { name: string } = CorpusSite>(
  dir: URL = CORPUS,
): Promise<Site[]> {
  const sites: Site[] = [];
  for await (const entry of Deno.readDir(dir)) {
    if (!entry.isDirectory) continue;
    const text = await Deno.readTextFile(new URL(`${entry.name}/site.json`, dir));
    sites.push({ name: entry.name, ...JSON.parse(text) });
  }
  return sites.sort((a, b) => a.name.localeCompare(b.name));
}

/** The routes of every site (of the corpus in `dir`), by host and path, for the test world. */
export async function corpusHosts(
  sites: Pick<CorpusSite, "name" | "routes">[],
  dir: URL = CORPUS,
): Promise<Record<string, Record<string, Route>>> {
  const hosts: Record<string, Record<string, Route>> = {};
  for (const site of sites) {
    const folder = new URL(`${site.name}/`, dir);
    for (const [key, spec] of Object.entries(site.routes)) {
      const slash = key.indexOf("/");
      const host = key.slice(0, slash);
      (hosts[host] ??= {})[key.slice(slash)] = await route(folder, spec);
    }
  }
  return hosts;
}

/** `host/path` of a URL, the form `expect` and `forbid` use. */
export function hostPath(url: string): string {
  const parsed = new URL(url);
  return parsed.host + parsed.pathname;
}
