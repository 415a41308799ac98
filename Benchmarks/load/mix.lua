-- wrk script for Bazaar's load run (see run.sh).
--
--   wrk -t1 -c64 -d30s --latency -s mix.lua URL -- DATA.lua MIX
--
-- DATA.lua is written by seed.py (product ids, search words, conversations with a participant's
-- token, usernames and the password). MIX is comma-separated kind:weight pairs, for example
-- "list:300,search:150,product:250,history:150,send:140,login:10"; "list:1" is the product-read
-- comparison. Kinds:
--   list     GET  /v1/products?limit=20                         (the first page, as a home screen loads it)
--   search   GET  /v1/products?query=WORD&limit=20
--   product  GET  /v1/products/ID
--   history  GET  /v1/conversations/ID/messages?limit=50        (authenticated)
--   send     POST /v1/conversations/ID/messages + Idempotency-Key (authenticated; a new key each time)
--   login    POST /v1/auth/login                                 (a real bcrypt verification)
--
-- Every answer's status is counted; done() prints one line `RESULT {json}` with throughput,
-- latency percentiles (p50/p90/p99/p99.9/max, microseconds), non-2xx answers, socket errors and
-- the statuses and kinds seen. Nothing is hidden: a run with non-2xx answers says so.

local counter = 0

local data, kinds, cumulative, total
local static = {}
local nonce
issued = {}
statuses = {}
non2xx = 0
first_failure = nil

local function auth(token, extra)
   local headers = { ["Authorization"] = "Bearer " .. token }
   for k, v in pairs(extra or {}) do headers[k] = v end
   return headers
end

local function pick(list)
   return list[math.random(#list)]
end

local builders = {
   list = function()
      return static.list
   end,
   search = function()
      return pick(static.search)
   end,
   product = function()
      return pick(static.product)
   end,
   history = function()
      return pick(static.history)
   end,
   send = function()
      counter = counter + 1
      local conversation = pick(data.conversations)
      local body = '{"body":"Is this still available? Could you do ' .. (counter % 90 + 10) .. ' euros?"}'
      return wrk.format("POST", "/v1/conversations/" .. conversation.id .. "/messages",
         auth(conversation.token, {
            ["Content-Type"] = "application/json",
            ["Idempotency-Key"] = nonce .. "-" .. counter,
         }), body)
   end,
   login = function()
      return pick(static.login)
   end,
}

function init(args)
   data = dofile(args[1])
   local spec = args[2] or "list:1"
   math.randomseed(os.time() + (thread_id or 0) * 7919)
   nonce = string.format("load-%d-%d-%d", os.time(), thread_id or 0, math.random(1, 1000000000))

   kinds, cumulative, total = {}, {}, 0
   for kind, weight in string.gmatch(spec, "(%a+):(%d+)") do
      assert(builders[kind], "unknown kind " .. kind)
      total = total + tonumber(weight)
      table.insert(kinds, kind)
      table.insert(cumulative, total)
      issued[kind] = 0
   end
   assert(total > 0, "empty mix " .. spec)

   -- Requests that never change are formatted once.
   static.list = wrk.format("GET", "/v1/products?limit=20")
   static.search, static.product, static.history, static.login = {}, {}, {}, {}
   for _, word in ipairs(data.queries) do
      table.insert(static.search, wrk.format("GET", "/v1/products?query=" .. word .. "&limit=20"))
   end
   for _, id in ipairs(data.products) do
      table.insert(static.product, wrk.format("GET", "/v1/products/" .. id))
   end
   for _, conversation in ipairs(data.conversations) do
      table.insert(static.history, wrk.format("GET", "/v1/conversations/" .. conversation.id .. "/messages?limit=50",
         auth(conversation.token)))
   end
   for _, username in ipairs(data.usernames) do
      table.insert(static.login, wrk.format("POST", "/v1/auth/login", { ["Content-Type"] = "application/json" },
         '{"username":"' .. username .. '","password":"' .. data.password .. '"}'))
   end
end

function request()
   local r = math.random(total)
   for i = 1, #cumulative do
      if r <= cumulative[i] then
         local kind = kinds[i]
         issued[kind] = issued[kind] + 1
         return builders[kind]()
      end
   end
end

function response(status, headers, body)
   statuses[status] = (statuses[status] or 0) + 1
   if status < 200 or status > 299 then
      non2xx = non2xx + 1
      if first_failure == nil then first_failure = status .. " " .. string.sub(body or "", 1, 160) end
   end
end

-- done(): the RESULT line, shared with products.lua.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "report.lua")
