/**
 * `<meta http-equiv="refresh" content="0; url=/en/">`: the page a home page sends browsers on to
 * (language splash pages, parked redirects). Discovery follows it like a redirect, at most
 * {@link MAX_REFRESHES} times, through the same safe fetch (`fetch_site.ts`).
 *
 * The page is parsed with htmlparser2; the `content` attribute is read as the HTML standard's
 * "shared declarative refresh steps" describe (a delay, then `;` or `,`, then an optional
 * `url=`, then the URL, optionally quoted).
 *
 * @module
 */
import { Parser } from "htmlparser2";

/** Meta refreshes followed at most from one home page. */
export const MAX_REFRESHES = 2;

/**
 * The absolute `http(s)` URL a page's first `<meta http-equiv="refresh">` points to, resolved
 * against `pageUrl`; undefined when there is none, it only reloads the page, or it would go from
 * `https` to `http` (never downgraded).
 *
 * @example
 * ```ts
 * refreshTarget(`<meta http-equiv="refresh" content="0; URL='/en/'">`, "https://a.test/");
 * // "https://a.test/en/"
 * ```
 */
export function refreshTarget(html: string, pageUrl: string): string | undefined {
  let content: string | undefined;
  const parser = new Parser({
    onopentag(name, attributes) {
      const equiv = (attributes["http-equiv"] ?? "").trim().toLowerCase();
      if (name === "meta" && equiv === "refresh" && content === undefined) {
        content = attributes.content ?? "";
      }
    },
  }, { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true });
  parser.write(html);
  parser.end();
  if (content === undefined) return undefined;
  const match = /^\s*[\d.]*\s*[;,]?\s*(?:url\s*=\s*)?(.*)$/is.exec(content);
  const raw = (match?.[1] ?? "").trim().replace(/^(['"])(.*?)(\1|$).*$/s, "$2").trim();
  if (raw === "") return undefined;
  try {
    const url = new URL(raw, pageUrl);
    url.hash = "";
    if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
    if (pageUrl.startsWith("https:") && url.protocol === "http:") return undefined;
    return url.href === new URL(pageUrl).href ? undefined : url.href;
  } catch {
    return undefined;
  }
}
