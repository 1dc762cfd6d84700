-- wrk script for the lookup benchmark's skewed traffic: every request asks for the logo of the
-- next domain index of a list written beforehand (bench/support/zipf_traffic.ts: one index a
-- line, drawn from a seeded Zipf distribution), cycling through it; thread i starts at its own
-- offset, i/threads of the way in, so the threads do not ask for the same domains in step, moved
-- on by BENCH_RUN × BENCH_STRIDE, so that each run of a series (a warm-up, then rounds) goes on
-- along the list instead of replaying the requests an earlier run left in the caches.
-- Environment: BENCH_TOKEN (publishable key), BENCH_SEED (domains are growth-SEED-INDEX.com),
-- BENCH_LIST (the file of indices), BENCH_THREADS (wrk's -t), BENCH_RUN (0, 1, 2…; default 0),
-- BENCH_STRIDE (indices a thread moves on per run; default 0), BENCH_QUERY (extra query, e.g.
-- "&size=64", or empty for the default request).

local threads = {}

function setup(thread)
  thread:set("id", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  token = os.getenv("BENCH_TOKEN")
  seed = os.getenv("BENCH_SEED")
  query = os.getenv("BENCH_QUERY") or ""
  indices = {}
  for line in io.lines(os.getenv("BENCH_LIST")) do
    indices[#indices + 1] = tonumber(line)
  end
  local total = tonumber(os.getenv("BENCH_THREADS") or "1")
  local run = tonumber(os.getenv("BENCH_RUN") or "0")
  local stride = tonumber(os.getenv("BENCH_STRIDE") or "0")
  position = (math.floor(#indices * (id - 1) / total) + run * stride) % #indices
end

function request()
  position = position % #indices + 1
  local path = "/growth-" .. seed .. "-" .. indices[position] .. ".com?token=" .. token .. query
  return wrk.format("GET", path)
end
