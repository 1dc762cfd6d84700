/**
 * The page at `/` as a person sees it: `src/main.ts` started on an empty store (so it seeds and
 * prints a demo key), headless Chromium (Debian's `chromium`, driven through the DevTools Protocol
 * by npm:puppeteer-core) opens `/`, a secret key typed into the playground is refused and never
 * sent, then the printed demo key and domain are typed and every `<img>` loads at the width its
 * URL asks for — with no console error, no uncaught exception and no Content-Security-Policy
 * violation on the way; with the type box on `logo`, every URL asks for the wordmark and the page
 * says the icon stood in. For a domain without a logo, the page shows the service's answer.
 *
 * `LOGO_PAGE_SCREENSHOT=docs/use/page.png` makes the test save a screenshot of the filled-in page
 * there (how `docs/use/page.png` is made).
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert";
import puppeteer, { type Page } from "puppeteer-core";
import { DEFAULT_SIZE } from "../../src/sdk/logo_options.ts";
import { externalTool } from "../support/external_tool.ts";
import { startMainProcess } from "../support/main_process.ts";

const chromium = externalTool("chromium", ["/usr/bin/chromium"], "apt-get install chromium");

/** What each `<img>` of the playground became. */
interface Shown {
  src: string;
  complete: boolean;
  naturalWidth: number;
}

function shownImages(page: Page): Promise<Shown[]> {
  return page.$$eval("img", (images) =>
    images.map((img) => ({
      src: img.getAttribute("src") ?? "",
      complete: img.complete,
      naturalWidth: img.naturalWidth,
    })));
}

/** The value of the `<input>` that `selector` finds. */
function valueOf(page: Page, selector: string): Promise<string> {
  return page.$eval(selector, (input) => (input as unknown as { value: string }).value);
}

/** Submits the playground's form with `domain` and `token` typed in. */
async function fill(page: Page, domain: string, token: string): Promise<void> {
  for (const [name, value] of [["domain", domain], ["token", token]]) {
    await page.$eval(`input[name=${name}]`, (input) => {
      (input as unknown as { value: string }).value = "";
    });
    await page.type(`input[name=${name}]`, value);
  }
  await page.keyboard.press("Enter");
}

/** Reports every Content-Security-Policy violation of the page as a console error. */
const REPORT_CSP_VIOLATIONS = `document.addEventListener("securitypolicyviolation", (event) => {
  console.error("CSP violation: " + event.violatedDirective + " " + event.blockedURI);
});`;

Deno.test({
  name: "the page at / refuses a secret key unsent and shows the demo logo at every size",
  ignore: chromium.ignore,
  async fn() {
    await using server = await startMainProcess({ LOGO_KV: ":memory:" });
    // The URL `deno task start` prints for the demo key: `  http://…/logo-lookup.test?token=pk_…`
    const printed = new URL((await server.line(/token=pk_/)).trim());
    const base = printed.origin;
    const domain = printed.pathname.slice(1);
    const token = printed.searchParams.get("token")!;
    const browser = await puppeteer.launch({
      executablePath: chromium.path,
      headless: true,
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"],
    });
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      const requested: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error" || message.type() === "warn") {
          problems.push(`${message.type()}: ${message.text()} ${message.location().url ?? ""}`);
        }
      });
      page.on("pageerror", (error) => problems.push(`uncaught: ${error}`));
      page.on("request", (request) => requested.push(request.url()));
      await page.evaluateOnNewDocument(REPORT_CSP_VIOLATIONS);

      const response = await page.goto(`${base}/`);
      strictEqual(response?.status(), 200);
      ok(response.headers()["content-security-policy"]?.startsWith("default-src 'none'"));
      strictEqual(await page.title(), "Logo Lookup");

      // A secret key: wiped from the box, refused, never sent.
      const secret = `sk_${"A".repeat(24)}`;
      await fill(page, domain, secret);
      const refusal = await page.$eval("#message", (element) => element.textContent ?? "");
      ok(refusal.includes("secret key"), refusal);
      strictEqual(await valueOf(page, "input[name=token]"), "");
      deepStrictEqual((await shownImages(page)).filter((image) => image.src !== ""), []);
      deepStrictEqual(requested.filter((url) => url.includes("sk_")), []);

      // The demo key: every image loads, as wide as its URL asks.
      await fill(page, domain, token);
      await page.waitForFunction(
        "[...document.images].every((img) => img.getAttribute('src') && img.complete)",
      );
      const images = await shownImages(page);
      ok(images.length >= 8, `${images.length} images`);
      const widths = new Set<number>();
      for (const image of images) {
        const url = new URL(image.src);
        strictEqual(`${url.origin}${url.pathname}`, `${base}/${domain}`);
        strictEqual(url.searchParams.get("token"), token);
        const size = Number(url.searchParams.get("size") ?? DEFAULT_SIZE);
        widths.add(size);
        strictEqual(image.naturalWidth, size, image.src);
      }
      deepStrictEqual([...widths].sort((a, b) => a - b), [32, 64, 128, 256]);
      ok(images.some((image) => image.src.includes("greyscale=true")));
      ok(images.some((image) => image.src.includes("theme=light")));
      ok(images.some((image) => image.src.includes("theme=dark")));
      // The URL to copy is the default logo's.
      strictEqual(await valueOf(page, "#url"), `${base}/${domain}?token=${token}`);
      deepStrictEqual(problems, []);

      const screenshot = Deno.env.get("LOGO_PAGE_SCREENSHOT");
      if (screenshot !== undefined) {
        await page.setViewport({ width: 1000, height: 800 });
        await page.screenshot({ path: screenshot as `${string}.png`, fullPage: true });
      }

      // The type box: every URL asks for the wordmark; the demo domain has none, so its icon
      // answers every image and the page says so.
      await page.select("select[name=type]", "logo");
      await fill(page, domain, token);
      await page.waitForFunction(
        "[...document.images].every((img) => img.src.includes('type=logo') && img.complete)",
      );
      await page.waitForFunction("document.getElementById('message').textContent !== ''");
      strictEqual(
        await page.$eval("#message", (element) => element.textContent),
        "No wordmark is stored for this domain: its icon is shown (X-Logo-Fallback: icon).",
      );
      for (const image of await shownImages(page)) {
        const size = Number(new URL(image.src).searchParams.get("size") ?? DEFAULT_SIZE);
        strictEqual(image.naturalWidth, size, image.src);
      }
      strictEqual(await valueOf(page, "#url"), `${base}/${domain}?token=${token}&type=logo`);
      deepStrictEqual(problems, []);
      await page.select("select[name=type]", "icon");

      // A domain without a logo: the page shows what the service answered.
      await fill(page, "nothing-here.example", token);
      await page.waitForFunction("document.getElementById('message').textContent !== ''");
      strictEqual(
        await page.$eval("#message", (element) => element.textContent),
        "The logo did not load: 404 Logo not found",
      );
      // …and its monogram image is the letter tile: square, 128 px.
      await page.waitForFunction(
        "[...document.images].some((img) => img.src.includes('nothing-here.example') && " +
          "img.src.includes('fallback=monogram') && img.complete && img.naturalWidth > 0)",
      );
      const tile = await page.$$eval(
        "img",
        (images) =>
          images.filter((img) =>
            img.src.includes("nothing-here.example") && img.src.includes("fallback=monogram")
          ).map((img) => [img.naturalWidth, img.naturalHeight]),
      );
      deepStrictEqual(tile, [[DEFAULT_SIZE, DEFAULT_SIZE]]);
    } finally {
      await browser.close();
    }
  },
});
