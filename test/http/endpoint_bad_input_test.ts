/**
 * Each class of bad input gets a 400 with a plain reason — never a clamp, never a 500 — and
 * good inputs in unusual spellings are accepted.
 */
import assert from "node:assert/strict";
import { flatImage } from "../support/images.ts";
import { startTestApp } from "../support/server.ts";

const LOGO = flatImage(160, 80, [0, 120, 200, 255]);

Deno.test("each class of invalid domain answers 400 Invalid domain format", async () => {
  await using server = await startTestApp();
  const token = `?token=${server.publishableKey}`;
  const paths: Record<string, string> = {
    protocol: "/https%3A%2F%2Fexample.com",
    "protocol, literal": "/http://example.com",
    path: "/example.com/logo.png",
    "protocol-relative": "//example.com",
    "protocol with a path": "/https://example.com/about",
    "trailing slash": "/example.com/",
    port: "/example.com:8080",
    "user info": "/user@example.com",
    ipv4: "/192.168.1.1",
    "ipv4, short form": "/127.1",
    ipv6: "/%5B::1%5D",
    "single label": "/localhost",
    "empty label": "/a..example.com",
    "label over 63": `/${"a".repeat(64)}.com`,
    "name over 253": `/${Array.from({ length: 5 }, () => "a".repeat(60)).join(".")}.com`,
    "public suffix": "/co.uk",
    "private public suffix": "/github.io",
    underscore: "/my_site.example.com",
    "leading hyphen": "/-example.com",
    "bad percent-encoding": "/example%E0%A4%A.com",
    space: "/exa%20mple.com",
  };
  for (const [name, path] of Object.entries(paths)) {
    const result = await server.exchange(`${server.url}${path}${token}`);
    assert.equal(result.status, 400, `${name}: ${path} → ${result.status} ${result.text}`);
    assert.equal(result.text, "Invalid domain format", name);
  }
});

Deno.test("a bad domain is reported before a missing token", async () => {
  await using server = await startTestApp();
  const result = await server.exchange(`${server.url}/not_a_domain`);
  assert.equal(result.status, 400);
  assert.equal(result.text, "Invalid domain format");
});

Deno.test("size outside 1..800 or not a whole number answers 400, never clamped", async () => {
  await using server = await startTestApp();
  await server.addLogo("example.com", LOGO);
  const reason = "Invalid size: must be a whole number of pixels from 1 to 800";
  for (
    const size of [
      "0",
      "-1",
      "801",
      "1200",
      "99999999",
      "1.5",
      "64.0",
      "abc",
      "",
      " 64",
      "1e2",
      "0x10",
      "+64",
    ]
  ) {
    const result = await server.exchange(server.logoUrl("example.com", { size }));
    assert.equal(result.status, 400, `size=${JSON.stringify(size)}`);
    assert.equal(result.text, reason);
  }
  for (const [size, width] of [["1", 1], ["800", 800], ["064", 64]] as const) {
    const result = await server.exchange(server.logoUrl("example.com", { size }));
    assert.equal(result.status, 200, `size=${size}: ${result.text}`);
    assert.match(result.headers.get("etag")!, new RegExp(`-${width}-png"$`));
  }
});

Deno.test("greyscale accepts true/1/yes/false/0/no and refuses anything else", async () => {
  await using server = await startTestApp();
  await server.addLogo("example.com", LOGO);
  for (const greyscale of ["maybe", "", "2", "on", "y"]) {
    const result = await server.exchange(server.logoUrl("example.com", { greyscale }));
    assert.equal(result.status, 400, `greyscale=${greyscale}`);
    assert.equal(result.text, "Invalid greyscale: must be true, 1, yes, false, 0 or no");
  }
  const on = new Set<string>();
  const off = new Set<string>();
  for (const value of ["true", "1", "yes", "TRUE"]) {
    on.add(
      (await server.exchange(server.logoUrl("example.com", { greyscale: value }))).headers.get(
        "etag",
      )!,
    );
  }
  for (const value of ["false", "0", "no"]) {
    off.add(
      (await server.exchange(server.logoUrl("example.com", { greyscale: value }))).headers.get(
        "etag",
      )!,
    );
  }
  assert.equal(on.size, 1);
  assert.equal(off.size, 1);
  assert.notDeepEqual(on, off);
});

Deno.test("theme accepts light and dark only", async () => {
  await using server = await startTestApp();
  await server.addLogo("example.com", LOGO);
  for (const theme of ["blue", "", "auto", "none"]) {
    const result = await server.exchange(server.logoUrl("example.com", { theme }));
    assert.equal(result.status, 400, `theme=${theme}`);
    assert.equal(result.text, "Invalid theme: must be light or dark");
  }
  for (const theme of ["light", "dark", "Dark"]) {
    assert.equal(
      (await server.exchange(server.logoUrl("example.com", { theme }))).status,
      200,
      theme,
    );
  }
});

Deno.test("format accepts png, webp, jpeg (jpg) and svg only", async () => {
  await using server = await startTestApp();
  await server.addLogo("example.com", LOGO);
  for (const format of ["gif", "svgz", "", "avif", "image/png"]) {
    const result = await server.exchange(server.logoUrl("example.com", { format }));
    assert.equal(result.status, 400, `format=${format}`);
    assert.equal(result.text, "Invalid format: must be png, webp, jpeg or svg");
  }
  const types: Record<string, string> = {
    png: "image/png",
    webp: "image/webp",
    jpeg: "image/jpeg",
    jpg: "image/jpeg",
  };
  for (const [format, type] of Object.entries(types)) {
    const result = await server.exchange(server.logoUrl("example.com", { format }));
    assert.equal(result.headers.get("content-type"), type, format);
  }
});

Deno.test("a parameter given twice answers 400; unknown parameters are ignored", async () => {
  await using server = await startTestApp();
  await server.addLogo("example.com", LOGO);
  for (const name of ["size", "greyscale", "theme", "format", "token"]) {
    const value = name === "token"
      ? server.publishableKey
      : { size: "64", greyscale: "1", theme: "dark", format: "png" }[name];
    const url = `${server.logoUrl("example.com")}&${name}=${value}${
      name === "token" ? "" : `&${name}=${value}`
    }`;
    const result = await server.exchange(url);
    assert.equal(result.status, 400, url);
    assert.equal(result.text, `Invalid ${name}: given more than once`);
  }
  const busted = await server.exchange(server.logoUrl("example.com", { v: "2", utm_source: "x" }));
  assert.equal(busted.status, 200);
});
