-- wrk script for the product-read comparison (see run.sh):
--
--   wrk -t1 -c64 -d30s -s products.lua URL
--
-- One static request, GET /v1/products?limit=20, sent by wrk without any Lua per request or per
-- answer, so the load generator costs as little as it can and the bare route's ceiling is as high
-- as this machine allows. Non-2xx answers are wrk's own count of statuses >= 400 (this request
-- sends no If-None-Match, so a 304 cannot happen; nothing in the API redirects).
wrk.method = "GET"
wrk.path = "/v1/products?limit=20"

dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "report.lua")
