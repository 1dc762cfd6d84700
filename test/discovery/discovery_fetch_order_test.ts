import assert from "node:assert/strict";
import type { Candidate } from "../../src/discovery/candidates.ts";
import { extractCandidates } from "../../src/discovery/candidates.ts";
import { fetchOrder, KIND_ORDER, kindPreference } from "../../src/discovery/rank.ts";

const url = (name: string) => `https://acme.test/${name}`;

Deno.test("fetch order: by kind preference, then larger declared sizes first, else declaration order", () => {
  const candidates: Candidate[] = [
    { url: url("og.png"), kind: "og:image" },
    { url: url("16.png"), kind: "icon", sizes: "16x16" },
    { url: url("m192.png"), kind: "manifest", sizes: "192x192" },
    { url: url("any.svg"), kind: "icon", sizes: "any" },
    { url: url("favicon.ico"), kind: "favicon" },
    { url: url("64.png"), kind: "icon", sizes: "32x32 64X64" },
    { url: url("m512.png"), kind: "manifest", sizes: "512x512" },
    { url: url("touch.png"), kind: "apple-touch-icon" },
    { url: url("nosize.png"), kind: "icon" },
    { url: url("ld.png"), kind: "json-ld" },
    { url: url("mask.svg"), kind: "mask-icon" },
  ];
  assert.deepEqual(fetchOrder(candidates).map((c) => c.url.slice(url("").length)), [
    "any.svg",
    "nosize.png",
    "64.png",
    "16.png",
    "touch.png",
    "mask.svg",
    "m512.png",
    "m192.png",
    "favicon.ico",
    "ld.png",
    "og.png",
  ]);
});

Deno.test("fetch order: kinds are preferred in one declared order, which extraction follows", () => {
  assert.deepEqual(KIND_ORDER, [
    "icon",
    "apple-touch-icon",
    "mask-icon",
    "manifest",
    "favicon",
    "json-ld",
    "og:image",
  ]);
  assert.ok(kindPreference("icon") < kindPreference("og:image"));
  const html = `<meta property="og:image" content="/og.png">
    <link rel="mask-icon" href="/mask.svg"><link rel="apple-touch-icon" href="/touch.png">
    <script type="application/ld+json">{"logo": "/ld.png"}</script><link rel="icon" href="/i.png">`;
  const kinds = extractCandidates(html, "https://acme.test/").candidates.map((c) => c.kind);
  assert.deepEqual(kinds, kinds.toSorted((a, b) => kindPreference(a) - kindPreference(b)));
  assert.deepEqual(new Set(kinds), new Set(KIND_ORDER.filter((k) => k !== "manifest")));
});
