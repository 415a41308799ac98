#!/usr/bin/env python3
"""Seeds a running bazaar-server for the load run, over its public HTTP API (stdlib only).

Writes into OUT:
  data.lua        what the wrk script draws from: product ids, search words, conversations with a
                  participant's access token, usernames and the password for logins
  products.json   GET /v1/products?limit=20 as the server answered it (+ .headers: ETag, Cache-Control)
  product.json    GET /v1/products/{id} (+ .headers)
  messages.json   GET /v1/conversations/{id}/messages?limit=50
  message.json    a 201 answer of POST /v1/conversations/{id}/messages
  login.json      a 200 answer of POST /v1/auth/login
The .json files are what bare-route serves, so the ceiling answers the same bytes.

usage: seed.py BASE_URL OUT [--users 40] [--products 500] [--conversations 60] [--history 50]
"""

import argparse
import concurrent.futures
import json
import os
import random
import sys
import urllib.error
import urllib.request
import uuid

PASSWORD = "load-test-password"
NOUNS = ["bike", "lamp", "chair", "desk", "guitar", "camera", "sofa", "kettle", "jacket", "boots",
         "table", "mirror", "radio", "drill", "tent", "piano", "stroller", "monitor", "rug", "vase"]
ADJECTIVES = ["vintage", "red", "oak", "folding", "electric", "small", "large", "leather", "retro", "blue",
              "steel", "wooden", "classic", "compact", "antique"]


def call(base, method, path, body=None, token=None, headers=None):
    """One request; returns (status, headers, raw body bytes). Raises on a non-2xx answer."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    for name, value in (headers or {}).items():
        request.add_header(name, value)
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        raise SystemExit(f"seed: {method} {path} answered {error.code}: {error.read()[:300]!r}")


def call_json(base, method, path, body=None, token=None, headers=None):
    return json.loads(call(base, method, path, body, token, headers)[2])


def save(out, name, status_headers_body, header_names=()):
    _, headers, body = status_headers_body
    with open(os.path.join(out, name), "wb") as f:
        f.write(body)
    lines = [f"{h}: {headers[h]}" for h in ("Content-Type",) + tuple(header_names) if headers.get(h)]
    with open(os.path.join(out, name + ".headers"), "w") as f:
        f.write("\n".join(lines) + "\n")


def lua_string(value):
    return json.dumps(value)  # a JSON string of ASCII ids and tokens is a valid Lua string literal


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("base")
    parser.add_argument("out")
    parser.add_argument("--users", type=int, default=40)
    parser.add_argument("--products", type=int, default=500)
    parser.add_argument("--conversations", type=int, default=60)
    parser.add_argument("--history", type=int, default=50)
    args = parser.parse_args()
    base = args.base.rstrip("/")
    rng = random.Random(8)
    pool = concurrent.futures.ThreadPoolExecutor(max_workers=8)
    run = uuid.uuid4().hex[:6]

    # Users: registered at the server's own bcrypt cost, so the logins in the mix verify real hashes.
    names = [f"load{run}u{i}" for i in range(args.users)]
    users = list(pool.map(lambda name: call_json(base, "POST", "/v1/auth/register",
                                                 {"username": name, "password": PASSWORD,
                                                  "displayName": name.capitalize()}), names))
    tokens = [u["tokens"]["accessToken"] for u in users]
    ids = [u["user"]["id"] for u in users]

    titles = [f"{rng.choice(ADJECTIVES).capitalize()} {rng.choice(NOUNS)}" for _ in range(args.products)]

    def make_product(i):
        title = titles[i]
        return call_json(base, "POST", "/v1/products",
                         {"title": title, "description": f"A {title.lower()} in good condition, collect in town.",
                          "priceCents": 500 + (i * 137) % 20000, "currency": "EUR"},
                         token=tokens[i % len(tokens)])

    products = list(pool.map(make_product, range(args.products)))

    pairs = []
    while len(pairs) < args.conversations:
        a, b = rng.sample(range(len(users)), 2)
        # A conversation is about a product one of its two members sells: here b's (product i is user i's).
        pairs.append((a, b, rng.choice(products[b::len(users)])["id"]))

    def open_conversation(pair):
        a, b, product = pair
        return call_json(base, "POST", "/v1/conversations", {"userId": ids[b], "productId": product}, token=tokens[a])

    conversations = list(pool.map(open_conversation, pairs))
    # One conversation per pair and product: drop the rare repeat.
    seen, unique = set(), []
    for pair, conversation in zip(pairs, conversations):
        if conversation["id"] not in seen:
            seen.add(conversation["id"])
            unique.append((pair, conversation))

    def fill(item):
        (a, b, _), conversation = item
        last = None
        for n in range(args.history):
            sender = tokens[a] if n % 2 == 0 else tokens[b]
            last = call(base, "POST", f"/v1/conversations/{conversation['id']}/messages",
                        {"body": f"Seed message {n}: is it still available, and could you do a little less?"},
                        token=sender, headers={"Idempotency-Key": str(uuid.uuid4())})
        return last

    sends = list(pool.map(fill, unique))

    os.makedirs(args.out, exist_ok=True)
    first_conversation = unique[0][1]["id"]
    first_token = tokens[unique[0][0][0]]
    save(args.out, "products.json", call(base, "GET", "/v1/products?limit=20"), ("ETag", "Cache-Control"))
    save(args.out, "product.json", call(base, "GET", f"/v1/products/{products[0]['id']}"), ("ETag", "Cache-Control"))
    save(args.out, "messages.json",
         call(base, "GET", f"/v1/conversations/{first_conversation}/messages?limit=50", token=first_token))
    save(args.out, "message.json", sends[0])
    save(args.out, "login.json",
         call(base, "POST", "/v1/auth/login", {"username": names[0], "password": PASSWORD}))

    with open(os.path.join(args.out, "data.lua"), "w") as f:
        f.write("-- generated by seed.py\nreturn {\n")
        f.write("  products = {" + ",".join(lua_string(p["id"]) for p in products) + "},\n")
        f.write("  queries = {" + ",".join(lua_string(n) for n in NOUNS + ADJECTIVES) + "},\n")
        f.write("  conversations = {\n")
        for (a, _, _), conversation in unique:
            f.write(f"    {{id = {lua_string(conversation['id'])}, token = {lua_string(tokens[a])}}},\n")
        f.write("  },\n")
        f.write("  usernames = {" + ",".join(lua_string(n) for n in names) + "},\n")
        f.write(f"  password = {lua_string(PASSWORD)},\n")
        f.write("}\n")
    print(f"seed: {len(users)} users, {len(products)} products, {len(unique)} conversations "
          f"with {args.history} messages each", file=sys.stderr)


if __name__ == "__main__":
    main()
