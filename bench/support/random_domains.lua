-- wrk script for the store-growth benchmark: every request asks for the logo of a domain drawn
-- uniformly at random from the N generated ones (growth-SEED-INDEX.com, bench/support/growth_logos.ts),
-- so with N large next to the caches most requests miss them.
-- Environment: BENCH_TOKEN (publishable key), BENCH_SEED, BENCH_COUNT (N), BENCH_QUERY (extra
-- query, e.g. "&size=64", or empty for the default request).

local threads = {}

function setup(thread)
  thread:set("id", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  token = os.getenv("BENCH_TOKEN")
  seed = os.getenv("BENCH_SEED")
  count = tonumber(os.getenv("BENCH_COUNT"))
  query = os.getenv("BENCH_QUERY") or ""
  -- A fixed stream per thread, so two runs ask for the same domains in the same order.
  math.randomseed(tonumber(seed) * 7919 + id)
end

function request()
  local index = math.random(0, count - 1)
  local path = "/growth-" .. seed .. "-" .. index .. ".com?token=" .. token .. query
  return wrk.format("GET", path)
end
