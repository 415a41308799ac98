"""Offers in a real Chromium: a card in the conversation with its buttons, made and decided with
plain forms (JavaScript off), arriving live without a reload (JavaScript on)."""
import re

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from test_journey import message_list, register, sell

PHONE = {"width": 360, "height": 800}


def card(page, headline):
    return message_list(page).locator(".offer-card", has_text=headline)


def test_an_offer_arrives_live_as_a_card_and_the_seller_accepts_it(stack, browser, shoot):
    api, web = stack
    seller = browser.new_context(viewport=PHONE).new_page()
    register(seller, web.url, "sam", "Sam Seller")
    sell(seller, web.url, "Oak table", "200")
    expect(seller.get_by_role("heading", name="Oak table")).to_be_visible()

    # The buyer has JavaScript off: the message, the offer and the withdrawal are plain forms.
    buyer = browser.new_context(java_script_enabled=False, viewport=PHONE).new_page()
    register(buyer, web.url, "bea", "Bea Buyer")
    buyer.goto(f"{web.url}/products")
    buyer.get_by_role("link", name="Oak table").click()
    buyer.get_by_role("button", name="Send message to Sam Seller").click()
    expect(buyer.get_by_role("heading", name="Chat with Sam Seller about Oak table")).to_be_visible()
    buyer.get_by_label("Make an offer (asking 200.00 EUR)").fill("abc")
    buyer.get_by_role("button", name="Make an offer").click()
    expect(buyer.get_by_role("alert")).to_have_text("An offer is a price such as 120 or 99.50.")
    buyer.go_back()
    buyer.get_by_label("Make an offer (asking 200.00 EUR)").fill("150")
    buyer.get_by_role("button", name="Make an offer").click()
    expect(card(buyer, "You offered 150.00 EUR")).to_contain_text("waiting for the seller")
    expect(card(buyer, "You offered 150.00 EUR").get_by_role("button", name="Withdraw")).to_be_visible()

    # The seller has the conversation open with JavaScript on; the buyer's next offer arrives as
    # a card with its buttons, and the first shows withdrawn, with no reload.
    seller.goto(f"{web.url}/conversations")
    seller.get_by_role("link", name=re.compile("Bea Buyer about Oak table")).click()
    expect(card(seller, "Bea Buyer offered 150.00 EUR")).to_contain_text("waiting for your answer")
    expect(seller.get_by_label(re.compile("Make an offer"))).to_have_count(0)
    seller.evaluate("window.__notReloaded = true")
    buyer.get_by_label("Make an offer (asking 200.00 EUR)").fill("170")
    buyer.get_by_role("button", name="Make an offer").click()
    latest = card(seller, "Bea Buyer offered 170.00 EUR")
    expect(latest.get_by_role("button", name="Accept")).to_be_visible(timeout=10_000)
    expect(card(seller, "Bea Buyer offered 150.00 EUR")).to_contain_text("withdrawn")
    assert seller.evaluate("window.__notReloaded") is True
    results = Axe().run(seller)
    assert [v["id"] for v in results.response["violations"] if v.get("impact") in ("serious", "critical")] == []
    shoot(seller, "offer")

    latest.get_by_role("button", name="Accept").click()
    expect(card(seller, "Bea Buyer offered 170.00 EUR")).to_contain_text("accepted: reserved for Bea Buyer")
    expect(message_list(seller).get_by_text("Accepted the offer of 170.00 EUR")).to_be_visible()

    buyer.reload()
    expect(card(buyer, "You offered 170.00 EUR")).to_contain_text("accepted: reserved for you")
    expect(buyer.get_by_label(re.compile("Make an offer"))).to_have_count(0)
    buyer.goto(f"{web.url}/products")
    expect(buyer.get_by_role("link", name="Oak table")).to_have_count(0)
    shoot(buyer)
