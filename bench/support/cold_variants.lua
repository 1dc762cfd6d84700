-- wrk script for the cold path: every request asks for a variant not requested before, so the
-- server renders each one. Thread 1 asks for colour variants, thread 2 for greyscale ones; each
-- walks domain x size (1..800) x theme (none, light, dark).
-- Environment: BENCH_TOKEN (publishable key), BENCH_DOMAINS (comma-separated domains), and
-- BENCH_ROUND (optional, 0..2): the theme the walk starts at, so up to three runs against one
-- server each ask for variants not asked before.

local threads = {}
local counter = 0

function setup(thread)
  thread:set("grey", #threads % 2 == 1 and "true" or "false")
  table.insert(threads, thread)
end

function init(args)
  token = os.getenv("BENCH_TOKEN")
  domains = {}
  for domain in string.gmatch(os.getenv("BENCH_DOMAINS"), "[^,]+") do
    table.insert(domains, domain)
  end
  themes = { "", "&theme=light", "&theme=dark" }
  round = tonumber(os.getenv("BENCH_ROUND") or "0")
end

function request()
  local i = counter
  counter = counter + 1
  local domain = domains[(i % #domains) + 1]
  i = math.floor(i / #domains)
  local size = (i % 800) + 1
  i = math.floor(i / 800)
  local theme = themes[((i + round) % #themes) + 1]
  local path = "/" .. domain .. "?token=" .. token .. "&size=" .. size .. "&greyscale=" .. grey .. theme
  return wrk.format("GET", path)
end
