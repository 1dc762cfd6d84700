import assert from "node:assert/strict";
import { type Candidate, KIND_ORDER, kindPreference } from "../../src/discovery/candidate.ts";
import { extractCandidates } from "../../src/discovery/candidates.ts";
import { expected, fetchOrder } from "../../src/discovery/rank.ts";

const url = (name: string) => `https://acme.test/${name}`;

Deno.test("fetch order: by expected score from declared sizes, size hints in names and the usual size of a kind", () => {
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
    { url: url("favicon-120x120.png"), kind: "icon" },
    { url: url("logo_450x.png"), kind: "json-ld" },
    { url: url("mask.svg"), kind: "mask-icon" },
  ];
  assert.deepEqual(fetchOrder(candidates).map((c) => c.url.slice(url("").length)), [
    "any.svg",
    "m512.png",
    "logo_450x.png",
    "m192.png",
    "touch.png",
    "favicon-120x120.png",
    "64.png",
    "nosize.png",
    "favicon.ico",
    "16.png",
    "mask.svg",
    "og.png",
  ]);
});

Deno.test("fetch order: what a candidate is expected to be", () => {
  const sides = [
    { url: url("favicon-192.png"), kind: "icon" },
    { url: url("apple-icon-180x180.png"), kind: "icon" },
    { url: url("t.png"), kind: "apple-touch-icon" },
    { url: url("fluid.png"), kind: "fluid-icon" },
    { url: url("w.png"), kind: "msapplication", sizes: "310x310" },
    { url: url("apple-touch-icon-precomposed.png"), kind: "favicon" },
    { url: url("favicon.png"), kind: "favicon" },
  ].map((c, i) => expected(c as Candidate, i).width);
  assert.deepEqual(sides, [192, 180, 180, 512, 310, 180, 32]);
  assert.equal(expected({ url: url("i.svg"), kind: "icon" }, 0).format, "svg");
  assert.equal(expected({ url: url("i"), kind: "icon", type: "image/svg+xml" }, 0).format, "svg");
});

Deno.test("fetch order: kinds are preferred in one declared order, which extraction follows", () => {
  assert.equal(KIND_ORDER[0], "bimi");
  assert.deepEqual(KIND_ORDER.slice(-2), ["mask-icon", "og:image"]);
  assert.ok(kindPreference("icon") < kindPreference("og:image"));
  const html =
    `<meta property="og:image" content="/og.png"><meta property="og:logo" content="/l.png">
    <link rel="mask-icon" href="/mask.svg"><link rel="apple-touch-icon" href="/touch.png">
    <meta name="msapplication-TileImage" content="/tile.png"><link rel="fluid-icon" href="/f.png">
    <span itemprop="logo"><img src="/ip.png"></span>
    <script type="application/ld+json">{"@type":"Organization","logo": "/ld.png"}</script>
    <link rel="icon" href="/i.png">`;
  const kinds = extractCandidates(html, "https://acme.test/").candidates.map((c) => c.kind);
  assert.deepEqual(kinds, kinds.toSorted((a, b) => kindPreference(a) - kindPreference(b)));
  assert.deepEqual(
    new Set(kinds),
    new Set(KIND_ORDER.filter((k) => k !== "manifest" && k !== "bimi")),
  );
});
