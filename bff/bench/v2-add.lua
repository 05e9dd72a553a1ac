-- wrk script: the panel-standard form body of a v2 `add`, a new link each request.
-- BENCH_KEY and BENCH_SERVICE come from the environment (bench/wrk-orders.ts sets them).
local key = os.getenv("BENCH_KEY")
local service = os.getenv("BENCH_SERVICE")
local counter = 0
local thread_id = 0
ok = 0 -- global: done() reads it from each thread
local threads = {}

function setup(thread)
  thread_id = thread_id + 1
  thread:set("id", thread_id)
  table.insert(threads, thread)
end

function init(args)
  ok = 0
end

function request()
  counter = counter + 1
  local body = "key=" .. key .. "&action=add&service=" .. service .. "&link=https%3A%2F%2Fx.example%2Fw" .. id .. "-" .. counter .. "&quantity=10"
  return wrk.format("POST", nil, { ["Content-Type"] = "application/x-www-form-urlencoded" }, body)
end

function response(status, headers, body)
  -- an order was placed only when the answer is 200 {"order": id}
  if status == 200 and string.find(body, '"order"', 1, true) then ok = ok + 1 end
end

function done(summary, latency, requests)
  local placed = 0
  for _, t in ipairs(threads) do placed = placed + t:get("ok") end
  io.write(string.format('WRK {"requests":%d,"placed":%d,"seconds":%.3f,"p50":%.3f,"p90":%.3f,"p99":%.3f,"non2xx":%d,"socketErrors":%d}\n',
    summary.requests, placed, summary.duration / 1e6, latency:percentile(50) / 1000, latency:percentile(90) / 1000, latency:percentile(99) / 1000,
    summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
