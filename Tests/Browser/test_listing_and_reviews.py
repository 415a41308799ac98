"""A listing's life and the reviews after a sale, in a real Chromium: plain forms do it all (the
buyer has JavaScript off; the seller has it on, which the accessibility audit needs); the seller's
page shows the stars."""
import re

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from test_journey import register, sell

PHONE = {"width": 360, "height": 800}


def serious(page):
    results = Axe().run(page)
    return [v["id"] for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]


def test_edit_sell_and_review_both_ways_then_the_sellers_page(stack, browser, shoot):
    api, web = stack
    seller = browser.new_context(viewport=PHONE).new_page()
    register(seller, web.url, "sam", "Sam Seller")
    sell(seller, web.url, "Film camera", "300")
    seller.get_by_role("link", name="Edit, mark reserved or sold, or take down your listing").click()
    expect(seller.get_by_role("heading", name="Your listing")).to_be_visible()
    expect(seller.get_by_text("Once someone messages you about it")).to_be_visible()
    seller.get_by_label("Price").fill("cheap")
    seller.get_by_role("button", name="Save changes").click()
    expect(seller.locator("#sell-price-error")).to_have_text("Enter a price like 120 or 4.50.")
    seller.get_by_label("Price").fill("250")
    seller.get_by_role("button", name="Save changes").click()
    expect(seller.get_by_role("heading", name="Film camera")).to_be_visible()
    expect(seller.locator(".price").first).to_contain_text("250.00")
    product_url = seller.url

    buyer = browser.new_context(java_script_enabled=False, viewport=PHONE).new_page()
    register(buyer, web.url, "bea", "Bea Buyer")
    buyer.goto(product_url)
    buyer.get_by_role("button", name="Send message to Sam Seller").click()
    conversation_url = buyer.url

    seller.goto(product_url + "/edit")
    seller.get_by_label("Mark it").select_option("sold")
    seller.get_by_label("Buyer (for reserved or sold)").select_option(label="Bea Buyer (@bea)")
    assert serious(seller) == []
    shoot(seller, "listing")
    seller.get_by_role("button", name="Change status").click()
    expect(seller.get_by_text("It is sold: it cannot change any more.")).to_be_visible()

    buyer.goto(conversation_url)
    buyer.get_by_label("Your rating of this sale").select_option("5")
    buyer.get_by_label("What you want to say (optional)").fill("Works perfectly, well packed.")
    shoot(buyer, "review")
    buyer.get_by_role("button", name="Leave a review").click()
    expect(buyer.get_by_text("You rated this sale ★★★★★: “Works perfectly, well packed.”")).to_be_visible()
    expect(buyer.get_by_role("button", name="Leave a review")).to_have_count(0)

    seller.goto(f"{web.url}/conversations")
    seller.get_by_role("link", name=re.compile("Bea Buyer about Film camera")).click()
    seller.get_by_label("Your rating of this sale").select_option("4")
    seller.get_by_role("button", name="Leave a review").click()
    expect(seller.get_by_text("You rated this sale ★★★★☆.")).to_be_visible()

    buyer.goto(product_url)
    buyer.get_by_role("link", name="Sam Seller (@sam)").click()
    expect(buyer.get_by_role("heading", name="Sam Seller")).to_be_visible()
    expect(buyer.locator(".rating")).to_contain_text("5.0 ★ from 1 review")
    expect(buyer.get_by_role("img", name="Rated 5.0 ★ from 1 review")).to_have_text("★★★★★")
    review = buyer.locator("ul.reviews li").first
    expect(review).to_contain_text("Bea Buyer")
    expect(review).to_contain_text("Works perfectly, well packed.")
    listing = buyer.locator("ul.products li", has_text="Film camera")
    expect(listing).to_contain_text("Sold")

    buyer.get_by_role("link", name=re.compile("Profile")).click()
    expect(buyer.locator(".rating")).to_contain_text("4.0 ★ from 1 review")

    seller.get_by_role("link", name=re.compile("Profile")).click()
    seller.get_by_role("link", name="Your page, as others see it").click()
    expect(seller.get_by_role("img", name="Rated 5.0 ★ from 1 review")).to_be_visible()
    assert serious(seller) == []
    shoot(seller, "seller")


def test_taking_a_listing_down(stack, browser, shoot):
    api, web = stack
    seller = browser.new_context(java_script_enabled=False).new_page()
    register(seller, web.url, "tia", "Tia")
    sell(seller, web.url, "Old radio", "20")
    product_url = seller.url
    seller.get_by_role("link", name="Edit, mark reserved or sold, or take down your listing").click()
    seller.get_by_role("button", name="Take it down").click()
    expect(seller.get_by_role("heading", name="Tia")).to_be_visible()
    expect(seller.get_by_text("Nothing listed.")).to_be_visible()
    seller.goto(product_url)
    expect(seller.get_by_role("heading", name="No such product")).to_be_visible()
    # Someone else's listing page does not exist for them.
    other = browser.new_context(java_script_enabled=False).new_page()
    register(other, web.url, "oli", "Oli")
    sell(other, web.url, "Kettle", "5")
    seller.goto(other.url + "/edit")
    expect(seller.get_by_role("heading", name="No such listing")).to_be_visible()
