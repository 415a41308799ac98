"""`bazaar web`'s sessions in a real Chromium: nothing kept for visitors, a new session id at sign-in,
only its own host names answered, and no token outliving the run that made it."""
import json
import time

import requests
from playwright.sync_api import expect

from conftest import WebApp
from test_journey import first_message_sent, message_list, register


def cookies_by_name(context):
    return {c["name"]: c["value"] for c in context.cookies()}


def wait_until(predicate, timeout=30):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def test_visitors_leave_nothing_and_sign_in_starts_a_new_session(stack, browser, shoot):
    api, web = stack
    # Any page on the web can make a browser fetch these (an <img> tag): each must cost nothing.
    for _ in range(50):
        assert requests.get(f"{web.url}/products").status_code == 200
    assert web.browser_folders() == []

    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{web.url}/products")
    visitor = cookies_by_name(context)["bazaar_visitor"]
    assert web.browser_folders() == []
    register(page, web.url, "rue", "Rue")
    cookies = cookies_by_name(context)
    assert "bazaar_visitor" not in cookies
    assert cookies["bazaar_session"] != visitor
    assert len(web.browser_folders()) == 1

    # A session id planted before the sign-in (session fixation) is not the one that signs in.
    planted = browser.new_context()
    planted.add_cookies([{"name": "bazaar_session", "value": "A" * 43, "url": web.url}])
    other = planted.new_page()
    register(other, web.url, "sol", "Sol")
    assert cookies_by_name(planted)["bazaar_session"] != "A" * 43
    shoot(page)


def test_only_the_apps_own_host_names_are_answered(stack, browser, shoot):
    api, web = stack
    port = web.url.rsplit(":", 1)[1]
    rebound = requests.get(f"{web.url}/products", headers={"Host": f"rebound.attacker.example:{port}"})
    assert rebound.status_code == 403
    assert "set-cookie" not in rebound.headers
    assert requests.get(f"{web.url}/products", headers={"Host": f"localhost:{port}"}).status_code == 200
    web.stop()
    named = WebApp(api, web.config.parent, extra=["--host-name", "bazaar.example.org"])
    try:
        assert requests.get(f"{named.url}/products", headers={"Host": "bazaar.example.org"}).status_code == 200
        assert requests.get(f"{named.url}/products", headers={"Host": "other.example.org"}).status_code == 403
    finally:
        named.stop()
    web.start()


def test_a_restart_after_a_crash_revokes_the_sessions_it_left(stack, browser, shoot):
    api, web = stack
    context = browser.new_context()
    page = context.new_page()
    register(page, web.url, "kit", "Kit")
    [folder] = web.browser_folders()
    refresh = json.loads((folder / "tokens.json").read_text())["refreshToken"]
    old_cookie = cookies_by_name(context)["bazaar_session"]

    web.crash()
    web.start()
    assert wait_until(lambda: web.browser_folders() == []), "the earlier run's folder is still there"
    answer = requests.post(f"{api.url}/v1/auth/refresh", json={"refreshToken": refresh})
    assert answer.status_code == 401
    # The browser's old cookie names nothing now: it is a visitor again, and the cookie is deleted.
    page.goto(f"{web.url}/products")
    expect(page.get_by_role("link", name="Sign in or register")).to_be_visible()
    assert cookies_by_name(context).get("bazaar_session") != old_cookie
    shoot(page)


def test_a_stop_signs_everyone_out(stack, browser, shoot):
    api, web = stack
    page = browser.new_context().new_page()
    register(page, web.url, "lou", "Lou")
    [folder] = web.browser_folders()
    refresh = json.loads((folder / "tokens.json").read_text())["refreshToken"]
    web.stop()
    assert web.browser_folders() == []
    assert requests.post(f"{api.url}/v1/auth/refresh", json={"refreshToken": refresh}).status_code == 401
    web.start()


def test_messages_queued_at_sign_out_are_sent_at_the_next_sign_in(stack, browser, shoot):
    api, web = stack
    buyer = first_message_sent(
        browser, web.url, ("tam", "Tam Seller"), ("ivy", "Ivy Buyer"), "Record player", "60")
    conversation = buyer.url

    api.stop()
    buyer.get_by_label("Your message").fill("Queued, then signed out")
    buyer.get_by_role("button", name="Send").click()
    pending = message_list(buyer).locator("li", has_text="Queued, then signed out")
    expect(pending.locator(".state")).to_have_text("queued", timeout=15_000)
    buyer.get_by_role("button", name="Sign out").click()
    expect(buyer.get_by_text("will be sent when you sign in again")).to_be_visible()

    api.start()
    buyer.goto(f"{web.url}/signin")
    buyer.locator("#signin-username").fill("ivy")
    buyer.locator("#signin-password").fill("password-123")
    buyer.get_by_role("button", name="Sign in", exact=True).click()
    expect(buyer.get_by_role("link", name="Profile (Ivy Buyer)")).to_be_visible()
    buyer.goto(conversation)
    delivered = message_list(buyer).locator("li", has_text="Queued, then signed out")
    expect(delivered.locator(".state")).to_have_text("sent", timeout=30_000)
    expect(delivered).to_have_count(1)
    shoot(buyer)
