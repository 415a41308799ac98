-- The done() of Bazaar's wrk scripts (mix.lua, products.lua): one line `RESULT {json}` that run.sh
-- turns into the table. Per-thread counters (statuses, issued, non2xx, first_failure) are read back
-- with thread:get when the script kept them (mix.lua); otherwise (products.lua, a static request with
-- no Lua per request or answer) non-2xx is wrk's own count of statuses >= 400.

threads = {}

-- Numbers the threads (thread_id is a global in each thread's state) and keeps them for done().
function setup(thread)
   thread:set("thread_id", #threads + 1)
   table.insert(threads, thread)
end

local function json_string(s)
   return '"' .. string.gsub(tostring(s), '[%c"\\]', function(c) return string.format("\\u%04x", string.byte(c)) end) .. '"'
end

local function json_object(t)
   local parts = {}
   for k, v in pairs(t) do table.insert(parts, json_string(k) .. ":" .. tostring(v)) end
   table.sort(parts)
   return "{" .. table.concat(parts, ",") .. "}"
end

function done(summary, latency, requests)
   local all_statuses, all_issued, failures, sample = {}, {}, 0, nil
   local counted = false
   for _, thread in ipairs(threads) do
      counted = counted or thread:get("non2xx") ~= nil
      for k, v in pairs(thread:get("statuses") or {}) do all_statuses[tostring(k)] = (all_statuses[tostring(k)] or 0) + v end
      for k, v in pairs(thread:get("issued") or {}) do all_issued[k] = (all_issued[k] or 0) + v end
      failures = failures + (thread:get("non2xx") or 0)
      sample = sample or thread:get("first_failure")
   end
   local e = summary.errors
   if not counted then failures = e.status end
   local seconds = summary.duration / 1e6
   io.write(string.format(
      'RESULT {"requests":%d,"seconds":%.3f,"rps":%.1f,"bytes":%d,' ..
      '"p50_us":%d,"p90_us":%d,"p99_us":%d,"p999_us":%d,"max_us":%d,"mean_us":%.1f,' ..
      '"non2xx":%d,"socket_errors":{"connect":%d,"read":%d,"write":%d,"timeout":%d},' ..
      '"statuses":%s,"issued":%s,"first_failure":%s}\n',
      summary.requests, seconds, summary.requests / seconds, summary.bytes,
      latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9),
      latency.max, latency.mean,
      failures, e.connect, e.read, e.write, e.timeout,
      json_object(all_statuses), json_object(all_issued), sample and json_string(sample) or "null"))
end
