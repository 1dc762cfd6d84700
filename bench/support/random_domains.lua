-- wrk script for the store-growth benchmark: every request asks for the logo of a domain drawn
-- uniformly at random from the N generated ones (growth-SEED-INDEX.com, bench/support/growth_logos.ts),
-- so with N large next to the caches most requests miss them.
-- Environment: BENCH_TOKEN (publishable key), BENCH_SEED, BENCH_COUNT (N), BENCH_QUERY (extra
-- query, e.g. "&size=64", or empty for the default request), BENCH_RUN (optional: each run of a
-- series passes its number, 0, 1, 2…, so it does not replay the domains of an earlier run).

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
  -- A fixed stream per thread and run number, so two series ask for the same domains in the same
  -- order.
  local run = tonumber(os.getenv("BENCH_RUN") or "0")
  math.randomseed(tonumber(seed) * 7919 + id + run * 104729)
end

function request()
  local index = math.random(0, count - 1)
  local path = "/growth-" .. seed .. "-" .. index .. ".com?token=" .. token .. query
  return wrk.format("GET", path)
end
