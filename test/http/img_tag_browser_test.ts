/**
 * What users do with Logo Lookup: put its URL in an `<img>` on their own site. Headless Chromium
 * loads a page from another origin whose `<img crossorigin>` tags point at a real server, draws
 * each image on a canvas and reads its pixels back — which a browser allows only when the CORS
 * headers are right. Chromium is Debian's (`apt-get install chromium`; `.ci/run` installs it).
 */
import { deepStrictEqual, ok, strictEqual } from "node:assert";
import { flatImage } from "../support/images.ts";
import { externalTool } from "../support/external_tool.ts";
import { startTestServer } from "../support/server.ts";

const chromium = externalTool("chromium", ["/usr/bin/chromium"], "apt-get install chromium");

type Outcome = { width: number; height: number; centre: number[] } | { error: string };

const PAGE = `<!doctype html><meta charset="utf-8"><body><pre id="result"></pre><script>
const cases = CASES;
const results = {};
let pending = Object.keys(cases).length;
function done(name, value) {
  results[name] = value;
  if (--pending === 0) document.getElementById("result").textContent = "RESULT<<" + JSON.stringify(results) + ">>";
}
for (const [name, src] of Object.entries(cases)) {
  const img = document.createElement("img");
  img.crossOrigin = "anonymous";
  img.onload = () => {
    try {
      const canvas = document.createElement("canvas");
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const context = canvas.getContext("2d");
      context.drawImage(img, 0, 0);
      const pixel = context.getImageData(canvas.width >> 1, canvas.height >> 1, 1, 1).data;
      done(name, { width: img.naturalWidth, height: img.naturalHeight, centre: Array.from(pixel) });
    } catch (e) {
      done(name, { error: e.name });
    }
  };
  img.onerror = () => done(name, { error: "load" });
  img.src = src;
  document.body.append(img);
}
</script>`;

/** Serves a page on its own origin; Chromium loads it and reports what every `<img>` became. */
async function loadInChromium(
  page: Deno.HttpServer<Deno.NetAddr>,
  setCases: (cases: Record<string, string>) => void,
  cases: Record<string, string>,
): Promise<Record<string, Outcome>> {
  setCases(cases);
  const profile = await Deno.makeTempDir({ prefix: "chromium-profile-" });
  try {
    const { stdout } = await new Deno.Command(chromium.path, {
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        `--user-data-dir=${profile}`,
        "--dump-dom",
        `http://127.0.0.1:${page.addr.port}/`,
      ],
      stdout: "piped",
      stderr: "null",
    }).output();
    const dom = new TextDecoder().decode(stdout);
    const start = dom.indexOf("RESULT&lt;&lt;");
    const end = dom.indexOf("&gt;&gt;", start);
    ok(start >= 0 && end > start, "the page reported every image");
    const json = dom.slice(start + "RESULT&lt;&lt;".length, end).replaceAll("&quot;", '"');
    return JSON.parse(json);
  } finally {
    await Deno.remove(profile, { recursive: true });
  }
}

Deno.test({
  name: "an <img> on another origin loads logos, and CORS lets the page read their pixels",
  ignore: chromium.ignore,
  async fn() {
    let html = "";
    const page = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      () => new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } }),
    );
    const origin = `http://127.0.0.1:${page.addr.port}`;
    const open = await startTestServer();
    const allowed = await startTestServer({ allow: [origin] });
    const elsewhere = await startTestServer({ allow: ["https://app.example.com"] });
    try {
      const red = flatImage(300, 200, [200, 30, 30, 255]);
      for (const server of [open, allowed, elsewhere]) await server.addLogo("acme.example", red);
      const results = await loadInChromium(page, (cases) => {
        html = PAGE.replace("CASES", JSON.stringify(cases));
      }, {
        plain: open.logoUrl("acme.example"),
        greyscale: open.logoUrl("acme.example", { size: "64", greyscale: "true" }),
        missing: open.logoUrl("missing.example"),
        badToken: open.logoUrl("acme.example", { token: "pk_nope" }),
        allowlisted: allowed.logoUrl("acme.example", { size: "30" }),
        notAllowed: elsewhere.logoUrl("acme.example"),
      });
      deepStrictEqual(results.plain, { width: 128, height: 85, centre: [200, 30, 30, 255] });
      const grey = results.greyscale as { width: number; centre: number[] };
      strictEqual(grey.width, 64);
      ok(grey.centre[0] === grey.centre[1] && grey.centre[1] === grey.centre[2], `${grey.centre}`);
      deepStrictEqual(results.missing, { error: "load" });
      deepStrictEqual(results.badToken, { error: "load" });
      deepStrictEqual(results.allowlisted, { width: 30, height: 20, centre: [200, 30, 30, 255] });
      deepStrictEqual(results.notAllowed, { error: "load" });
    } finally {
      await Promise.all([open.close(), allowed.close(), elsewhere.close(), page.shutdown()]);
    }
  },
});
