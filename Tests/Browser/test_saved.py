"""Saving products in a real Chromium, with JavaScript off: plain forms do it all."""
from playwright.sync_api import expect

from test_journey import register, sell


def test_save_from_the_product_page_then_remove_from_the_saved_page(stack, browser, shoot):
    api, web = stack
    seller = browser.new_context().new_page()
    register(seller, web.url, "sia", "Sia Seller")
    sell(seller, web.url, "Green armchair", "80")
    # The seller cannot save their own product: no button.
    expect(seller.get_by_role("heading", name="Green armchair")).to_be_visible()
    expect(seller.get_by_role("button", name="Save")).to_have_count(0)

    buyer = browser.new_context(java_script_enabled=False).new_page()
    register(buyer, web.url, "ben", "Ben Buyer")
    buyer.goto(f"{web.url}/products?q=armchair")
    # Saved from the list, and back on the same list with the button's state turned.
    buyer.get_by_role("button", name="Save Green armchair").click()
    expect(buyer.get_by_role("heading", name="Results for “armchair”")).to_be_visible()
    buyer.get_by_role("button", name="Remove Green armchair from saved").click()
    expect(buyer.get_by_role("button", name="Save Green armchair")).to_be_visible()
    buyer.get_by_role("link", name="Green armchair").click()
    expect(buyer.get_by_text("Available · saved by 0")).to_be_visible()
    buyer.get_by_role("button", name="Save").click()
    expect(buyer.get_by_role("button", name="Saved ✓ · Remove")).to_be_visible()
    expect(buyer.get_by_text("Available · saved by 1")).to_be_visible()

    buyer.get_by_role("link", name="Saved").click()
    expect(buyer.get_by_role("heading", name="Saved")).to_be_visible()
    expect(buyer.get_by_role("link", name="Green armchair")).to_be_visible()
    shoot(buyer, "saved")
    buyer.get_by_role("button", name="Remove Green armchair from saved").click()
    expect(buyer.get_by_text("Nothing saved yet")).to_be_visible()
    shoot(buyer)
