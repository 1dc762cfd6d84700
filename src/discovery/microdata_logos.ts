/**
 * The site's own logo in its microdata (`itemprop="logo"`), with the ownership rule JSON-LD logos
 * follow (`json_ld_logos.ts`): a logo counts when the item it belongs to is the site's own.
 *
 * A logo outside any `itemscope` counts. Inside one, it counts when that item is a top-level item
 * (its element has no `itemprop`) or the `publisher` of one, its `itemtype` (if any) is an
 * organisation, business or website ({@link OWNER_TYPES}), and its `itemprop="url"` (if any) is on
 * the site. So the `author` of an article, a profiled company or a product's `brand` never gives
 * its logo. The value is read from a `<meta content>`, `<link href>`, `<img src>`, or the first
 * `<img>` inside another element (`<a itemprop="logo"><img …></a>`).
 *
 * @example
 * ```ts
 * import { MicrodataLogos } from "./microdata_logos.ts";
 * const logos = new MicrodataLogos();
 * logos.open("div", { itemscope: "", itemtype: "https://schema.org/Organization" }, 1);
 * logos.open("img", { itemprop: "logo", src: "/logo.png" }, 2);
 * logos.close(2);
 * logos.close(1);
 * logos.own("https://acme.test/", "acme.test"); // ["/logo.png"]
 * ```
 * @module
 */
import { OWNER_TYPES, siteMatcher } from "./json_ld_logos.ts";

interface Item {
  readonly depth: number;
  /** The property this item is of its parent item (`itemprop` on the `itemscope` element). */
  readonly property: string[];
  readonly type: string;
  readonly parent: Item | undefined;
  url?: string;
  readonly logos: string[];
}

function absolute(value: string, base: string): string {
  try {
    return new URL(value, base).href;
  } catch {
    return value;
  }
}

/** Collects microdata logos from parser events; ask {@link MicrodataLogos.own} at the end. */
export class MicrodataLogos {
  #items: Item[] = [];
  #closed: Item[] = [];
  #loose: string[] = [];
  /** The item (or `null`: no item) of an open `itemprop="logo"` element awaiting its `<img>`. */
  #waiting: { depth: number; item: Item | undefined } | undefined;

  /** An element opened at `depth` (1 for the root) with its lower-cased attributes. */
  open(name: string, attributes: Record<string, string>, depth: number): void {
    const current = this.#items.at(-1);
    const props = (attributes.itemprop ?? "").toLowerCase().split(/\s+/).filter(Boolean);
    if (name === "img" && this.#waiting !== undefined) {
      this.#add(this.#waiting.item, attributes.src);
      this.#waiting = undefined;
    }
    if (props.includes("logo")) {
      const value = name === "img"
        ? attributes.src
        : name === "meta"
        ? attributes.content
        : name === "link"
        ? attributes.href
        : undefined;
      if (value) this.#add(current, value);
      else if (name !== "img" && name !== "meta") this.#waiting = { depth, item: current };
    }
    if (props.includes("url") && current !== undefined && current.url === undefined) {
      const value = attributes.href ?? attributes.content ?? attributes.src;
      if (value) current.url = value.trim();
    }
    if ("itemscope" in attributes) {
      this.#items.push({
        depth,
        property: props,
        type: attributes.itemtype ?? "",
        parent: current,
        logos: [],
      });
    }
  }

  /** The element opened at `depth` closed. */
  close(depth: number): void {
    if (this.#waiting !== undefined && depth <= this.#waiting.depth) this.#waiting = undefined;
    while ((this.#items.at(-1)?.depth ?? -1) >= depth) this.#closed.push(this.#items.pop()!);
  }

  /** The logo values (as written) that count for the page at `pageUrl`, for `domain`. */
  own(pageUrl: string, domain?: string): string[] {
    const onSite = siteMatcher(pageUrl, domain);
    const items = [...this.#closed, ...this.#items];
    const kept = [...this.#loose];
    for (const item of items) {
      const attached = item.property.length === 0 ||
        (item.property.includes("publisher") && item.parent !== undefined &&
          item.parent.property.length === 0);
      const owner = item.type === "" || OWNER_TYPES.test(item.type);
      const url = item.url === undefined ? undefined : onSite(absolute(item.url, pageUrl));
      if (attached && owner && url !== false) kept.push(...item.logos);
    }
    return [...new Set(kept)];
  }

  #add(item: Item | undefined, value: string | undefined): void {
    if (!value) return;
    (item?.logos ?? this.#loose).push(value);
  }
}
