/**
 * The page at `/`, as text: what the service is, the URL format, and a playground that shows a
 * domain's logo through real `<img>` tags. No framework and no request to another origin: one
 * HTML document with one inline `<style>` and one inline `<script>`, which `home_page.ts` allows
 * by their SHA-256 hashes in a strict Content-Security-Policy. The option values it names come from
 * `src/sdk/logo_options.ts` and the token format from `src/store/key_token.ts`, so the page
 * cannot drift from what the endpoint accepts.
 *
 * The playground's type box (`icon`, the default, or `logo`, the wordmark) adds `type=` to every
 * URL it shows; a `logo` answered by the icon shows the fallback under the main logo.
 *
 * The playground asks for a publishable key and never sends anything else: a token that starts
 * with `sk_` is wiped from the box and refused before any request; a token that is not
 * `pk_` + 24 letters and digits is refused too. It sends nothing until the form is submitted, so
 * typing does not spend the key's rate limit. The page does not show the demo key: the page is
 * public, the demo key is the operator's (`deno task start` prints it).
 *
 * @example
 * ```ts
 * import { HOME_PAGE_SCRIPT, HOME_PAGE_STYLE, homePageHtml } from "./home_page_html.ts";
 * const html = homePageHtml(HOME_PAGE_STYLE, HOME_PAGE_SCRIPT);
 * html.startsWith("<!doctype html>"); // true
 * ```
 * @module
 */
import {
  DEFAULT_SIZE,
  DEFAULT_TYPE,
  GREYSCALE_SPELLINGS,
  LOGO_FALLBACKS,
  LOGO_FORMATS,
  LOGO_THEMES,
  LOGO_TYPES,
  MAX_PUBLISHABLE_SIZE,
} from "../sdk/logo_options.ts";
import { TOKEN_BODY_LENGTH } from "../store/key_token.ts";

/** The sizes the playground shows, in px; the default one is sent without `size`. */
export const PLAYGROUND_SIZES: readonly number[] = [32, 64, DEFAULT_SIZE, 256];

/** The page's only style sheet (inline, allowed by its hash). */
export const HOME_PAGE_STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem 1.5rem;color:#1b1b1f;background:#fafafa}
h1{margin:.5rem 0 0}h2{margin-top:2rem;font-size:1.25rem}
code,pre,input,select{font:14px/1.5 ui-monospace,monospace}
pre{background:#eee;padding:.75rem;overflow-x:auto}
table{border-collapse:collapse}td,th{text-align:left;padding:.25rem .75rem .25rem 0;vertical-align:top}
form{display:flex;flex-wrap:wrap;gap:.75rem;align-items:end}
label{display:flex;flex-direction:column;font-size:.875rem}
input{padding:.4rem;border:1px solid #888;border-radius:4px;min-width:16rem}
select{padding:.4rem;border:1px solid #888;border-radius:4px}
button{padding:.45rem 1rem;border:0;border-radius:4px;background:#1b1b1f;color:#fff;font:inherit;cursor:pointer}
#message{min-height:1.5rem}.error{color:#b00020}
.copy{display:flex;gap:.5rem;margin:.5rem 0 1rem}.copy input{flex:1}
.grid{display:flex;flex-wrap:wrap;gap:1rem;align-items:start}
figure{margin:0;cursor:pointer}figcaption{font-size:.8rem;max-width:16rem}
.tile{display:flex;align-items:center;justify-content:center;padding:12px;min-width:64px;min-height:64px;border:1px solid #ddd;border-radius:6px;background:#fff}
.dark{background:#16161a;border-color:#16161a}
img{display:block;max-width:100%}
`;

/** The page's only script (inline, allowed by its hash). Plain JavaScript, no module. */
export const HOME_PAGE_SCRIPT = `
"use strict";
const PUBLISHABLE = /^pk_[0-9A-Za-z]{${TOKEN_BODY_LENGTH}}$/;
const form = document.getElementById("try");
const message = document.getElementById("message");
const results = document.getElementById("results");
const urlBox = document.getElementById("url");
const images = Array.from(document.querySelectorAll("img[data-query]"));
const main = images.find((img) => img.dataset.query === "");
let shown = "";

function say(text, kind) {
  message.textContent = text;
  message.className = kind || "";
}
function clear() {
  results.hidden = true;
  shown = "";
  for (const img of images) img.removeAttribute("src");
}
function domainOf(input) {
  const text = input.trim();
  if (!/[/:]/.test(text)) return text;
  try {
    return new URL(text.includes("://") ? text : "https://" + text).hostname;
  } catch {
    return text;
  }
}
function logoUrl(domain, token, type, query) {
  const url = new URL("./" + encodeURIComponent(domain), location.href);
  const typed = type === "${DEFAULT_TYPE}" ? "" : "&type=" + encodeURIComponent(type);
  url.search = "token=" + token + typed + (query === "" ? "" : "&" + query);
  return url.href;
}
async function explain(url) {
  try {
    const response = await fetch(url);
    if (url === shown && !response.ok) {
      say("The logo did not load: " + response.status + " " + (await response.text()), "error");
    }
  } catch {
    if (url === shown) say("The logo did not load: the service did not answer", "error");
  }
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const token = form.elements.token.value.trim();
  const domain = domainOf(form.elements.domain.value);
  const type = form.elements.type.value;
  clear();
  if (/^sk_/i.test(token)) {
    form.elements.token.value = "";
    say("That is a secret key (sk_…): it was not sent. Secret keys stay on your server; " +
      "use the key's publishable token (pk_…) here.", "error");
    return;
  }
  if (!PUBLISHABLE.test(token)) {
    say("A publishable key is pk_ followed by ${TOKEN_BODY_LENGTH} letters and digits.", "error");
    return;
  }
  if (domain === "") {
    say("Type a domain, such as example.com.", "error");
    return;
  }
  say("", "");
  for (const img of images) img.src = logoUrl(domain, token, type, img.dataset.query);
  shown = main.src;
  urlBox.value = shown;
  results.hidden = false;
  if (type !== "${DEFAULT_TYPE}") tellFallback(shown);
});
async function tellFallback(url) {
  try {
    const response = await fetch(url, { method: "HEAD" });
    const fallback = response.headers.get("x-logo-fallback");
    if (url === shown && response.ok && fallback !== null) {
      say("No wordmark is stored for this domain: its icon is shown (X-Logo-Fallback: " +
        fallback + ").", "");
    }
  } catch {
    // The image's own error handler says why it did not load.
  }
}
main.addEventListener("error", () => {
  if (main.src === shown) explain(shown);
});
for (const img of images) {
  img.closest("figure").addEventListener("click", () => {
    if (img.src !== "") urlBox.value = img.src;
  });
}
document.getElementById("copy").addEventListener("click", () => {
  urlBox.select();
  if (navigator.clipboard === undefined) return;
  navigator.clipboard.writeText(urlBox.value).then(
    () => say("Copied.", ""),
    () => say("Press Ctrl+C to copy the selected URL.", ""),
  );
});
`;

/**
 * The page's icon, inline (a `data:` URL, which the CSP's `img-src` allows), so the browser does
 * not ask for `/favicon.ico` — a path the service would answer `401`, an error in the console.
 */
const FAVICON = "data:image/svg+xml," + encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" ' +
    'rx="3" fill="#1b1b1f"/><rect x="4" y="4" width="8" height="8" rx="1" fill="#f26b1d"/></svg>',
);

/** One logo of the playground: the query after the token, the tile's class, its caption. */
interface Example {
  query: string;
  tile: "light" | "dark";
  caption: string;
}

const EXAMPLES: Example[] = [
  ...PLAYGROUND_SIZES.map((size): Example => ({
    query: size === DEFAULT_SIZE ? "" : `size=${size}`,
    tile: "light",
    caption: size === DEFAULT_SIZE ? `${size} px (the default)` : `size=${size}`,
  })),
  { query: "greyscale=true", tile: "light", caption: "greyscale=true" },
  { query: "theme=light", tile: "light", caption: "theme=light, on a light page" },
  { query: "theme=dark", tile: "dark", caption: "theme=dark, on a dark page" },
  { query: "", tile: "dark", caption: "no theme, on a dark page" },
  {
    query: "fallback=monogram",
    tile: "light",
    caption: "fallback=monogram: the logo, or a letter tile when there is none",
  },
];

function figure(example: Example): string {
  return `<figure><div class="tile ${example.tile}"><img data-query="${example.query}" alt=""></div>` +
    `<figcaption>${example.caption}</figcaption></figure>`;
}

/** The whole document, with `style` and `script` inlined (their hashes go in the CSP). */
export function homePageHtml(style: string, script: string): string {
  return `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Logo Lookup</title>
<link rel="icon" href="${FAVICON}">
<style>${style}</style>
<h1>Logo Lookup</h1>
<p>A company's logo for its domain, as an image URL you can put in an <code>&lt;img&gt;</code> tag.
Logos are resized, turned grey or adapted to light and dark pages on request.</p>

<h2>The URL</h2>
<pre>GET /{domain}?token=pk_…&amp;size=64</pre>
<table>
<tr><th>Parameter</th><th>Default</th><th>Accepted</th></tr>
<tr><td><code>token</code></td><td>—</td><td>a publishable key, <code>pk_…</code></td></tr>
<tr><td><code>type</code></td><td>${DEFAULT_TYPE}</td><td>${
    LOGO_TYPES.join(", ")
  }: the square icon, or the wide wordmark (the icon when there is none)</td></tr>
<tr><td><code>size</code></td><td>${DEFAULT_SIZE}</td><td>width in px, 1–${MAX_PUBLISHABLE_SIZE}</td></tr>
<tr><td><code>greyscale</code></td><td>false</td><td>${
    [...GREYSCALE_SPELLINGS.true, ...GREYSCALE_SPELLINGS.false].join(", ")
  }</td></tr>
<tr><td><code>theme</code></td><td>none</td><td>${LOGO_THEMES.join(", ")}</td></tr>
<tr><td><code>format</code></td><td>png</td><td>${LOGO_FORMATS.join(", ")}</td></tr>
<tr><td><code>fallback</code></td><td>404</td><td>${LOGO_FALLBACKS.join(", ")}</td></tr>
</table>
<p>Secret keys (<code>sk_…</code>) are for servers only: they go in an
<code>Authorization: Bearer</code> header, never in a page.</p>

<h2>Try it</h2>
<form id="try" autocomplete="off">
<label>Domain <input name="domain" placeholder="example.com" spellcheck="false"></label>
<label>Publishable key <input name="token" placeholder="pk_…" spellcheck="false"></label>
<label>Type <select name="type">${
    LOGO_TYPES.map((type) => `<option value="${type}">${type}</option>`).join("")
  }</select></label>
<button>Show</button>
</form>
<p id="message" role="status"></p>
<div id="results" hidden>
<div class="copy"><input id="url" readonly aria-label="URL of the selected logo"><button id="copy" type="button">Copy</button></div>
<div class="grid">
${EXAMPLES.map(figure).join("\n")}
</div>
<p>Click a logo to put its URL in the box.</p>
</div>
<script>${script}</script>
</html>
`;
}
