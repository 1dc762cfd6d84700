import assert from "node:assert/strict";
import { extractCandidates } from "../../src/discovery/candidates.ts";

const PAGE = "https://www.acme.test/";

function itempropLogos(html: string): string[] {
  return extractCandidates(html, PAGE, "acme.test").candidates
    .filter((c) => c.kind === "itemprop-logo").map((c) => c.url);
}

Deno.test("microdata: a logo outside any item, or of a top-level organisation, counts", () => {
  assert.deepEqual(itempropLogos(`<img itemprop="logo" src="/a.png">`), [
    "https://www.acme.test/a.png",
  ]);
  assert.deepEqual(
    itempropLogos(
      `<div itemscope itemtype="https://schema.org/Corporation"><link itemprop="url" href="https://acme.test/"><meta itemprop="logo" content="/b.png"></div>`,
    ),
    ["https://www.acme.test/b.png"],
  );
});

Deno.test("microdata: an author's, a brand's or another site's organisation gives no logo", () => {
  assert.deepEqual(
    itempropLogos(
      `<article itemscope itemtype="https://schema.org/Article"><div itemprop="author" itemscope itemtype="https://schema.org/Organization"><img itemprop="logo" src="https://other.test/l.png"></div></article>`,
    ),
    [],
  );
  assert.deepEqual(
    itempropLogos(
      `<div itemscope itemtype="https://schema.org/Product"><div itemprop="brand" itemscope itemtype="https://schema.org/Brand"><img itemprop="logo" src="/brand.png"></div></div>`,
    ),
    [],
  );
  // the url may come after the logo: decided when the item ends
  assert.deepEqual(
    itempropLogos(
      `<div itemscope itemtype="https://schema.org/LocalBusiness"><img itemprop="logo" src="/p.png"><a itemprop="url" href="https://other.test/">x</a></div>`,
    ),
    [],
  );
  // a Product is not an organisation even at the top level
  assert.deepEqual(
    itempropLogos(
      `<div itemscope itemtype="https://schema.org/Product"><img itemprop="logo" src="/product.png"></div>`,
    ),
    [],
  );
});

Deno.test("microdata: the publisher of a top-level item counts, its <img> found inside the logo element", () => {
  assert.deepEqual(
    itempropLogos(
      `<article itemscope itemtype="https://schema.org/NewsArticle"><div itemprop="publisher" itemscope itemtype="https://schema.org/NewsMediaOrganization"><a itemprop="url" href="/"><span itemprop="logo" itemscope itemtype="https://schema.org/ImageObject"><img src="/mark.png"></span></a></div></article>`,
    ),
    ["https://www.acme.test/mark.png"],
  );
});
