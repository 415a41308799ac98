"""Trust and the account in a real Chromium: a member reports a message with JavaScript off, a
moderator named by the operator resolves it end to end, and a member blocks, then deletes their
account, after which the other party's conversation shows "Deleted user"."""
import re
import subprocess

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from conftest import BIN
from test_journey import message_list, register, sell

PHONE = {"width": 360, "height": 800}


def serious(page):
    results = Axe().run(page)
    return [v["id"] for v in results.response["violations"] if v.get("impact") in ("serious", "critical")]


def sign_in(page, base, username, password="password-123"):
    page.goto(f"{base}/signin")
    page.locator("#signin-username").fill(username)
    page.locator("#signin-password").fill(password)
    page.get_by_role("button", name="Sign in", exact=True).click()


def name_moderator(api, username):
    subprocess.run(
        [str(BIN / "bazaar-server"), "moderators", "add", username, "--sqlite", api.database], check=True,
        capture_output=True)


def test_a_moderator_resolves_a_report_end_to_end(stack, browser, shoot):
    api, web = stack
    seller = browser.new_context(viewport=PHONE).new_page()
    register(seller, web.url, "oscar", "Oscar")
    sell(seller, web.url, "Genuine watch", "900")
    product_url = seller.url

    buyer = browser.new_context(java_script_enabled=False, viewport=PHONE).new_page()
    register(buyer, web.url, "rita", "Rita")
    buyer.goto(product_url)
    buyer.get_by_role("button", name="Send message to Oscar").click()
    conversation_url = buyer.url

    seller.goto(f"{web.url}/conversations")
    seller.get_by_role("link", name=re.compile("Rita about Genuine watch")).click()
    seller.get_by_label("Your message").fill("Pay me in gift cards first.")
    seller.get_by_role("button", name="Send").click()
    # Once, when settled: the sender's own live event can fold the delivered message in a moment
    # before the outbox takes its queued line away, and for that moment the page shows both
    # (seen once in CI, 2026-11-27; noted for the chat feature, not hidden here).
    expect(message_list(seller).get_by_text("Pay me in gift cards first.")).to_have_count(1)

    buyer.goto(conversation_url)
    line = message_list(buyer).locator("li", has_text="Pay me in gift cards first.")
    line.get_by_role("link", name="Report").click()
    expect(buyer.get_by_role("heading", name="Report a message")).to_be_visible()
    buyer.get_by_role("button", name="Send the report").click()
    expect(buyer.locator("#reason-error")).to_contain_text("Choose why you report it")
    buyer.get_by_label("Scam or fraud").check()
    buyer.get_by_label("What should the moderators know? (optional)").fill("Asks for gift cards.")
    shoot(buyer, "report")
    buyer.get_by_role("button", name="Send the report").click()
    expect(buyer.get_by_text("Thank you. The moderators will look at it")).to_be_visible()

    moderator = browser.new_context(viewport=PHONE).new_page()
    register(moderator, web.url, "mona", "Mona")
    expect(moderator.get_by_role("link", name="Moderation")).to_have_count(0)
    moderator.goto(f"{web.url}/moderation")
    expect(moderator.get_by_role("heading", name="No such page")).to_be_visible()
    name_moderator(api, "mona")
    # Named by the operator, effective at the next sign-in.
    moderator.get_by_role("button", name="Sign out").click()
    sign_in(moderator, web.url, "mona")
    moderator.get_by_role("link", name="Moderation").click()
    expect(moderator.get_by_role("heading", name="Moderation")).to_be_visible()
    moderator.get_by_role("link", name="Message reported: Scam or fraud").click()
    expect(moderator.get_by_text("Reported by Rita (@rita), against")).to_be_visible()
    reported = moderator.locator("ol.messages li.reported")
    expect(reported).to_contain_text("Pay me in gift cards first.")
    expect(moderator.locator("blockquote")).to_have_text("Asks for gift cards.")
    assert serious(moderator) == []
    shoot(moderator, "moderation")
    moderator.get_by_label("Why (kept with the action").fill("No gift cards on Bazaar.")
    moderator.get_by_role("button", name="Remove the message").click()
    expect(moderator.get_by_text("Resolved: Remove the message on")).to_be_visible()
    expect(moderator.get_by_role("button", name="Dismiss")).to_have_count(0)
    moderator.goto(f"{web.url}/moderation")
    expect(moderator.get_by_text("No reports here.")).to_be_visible()

    buyer.goto(conversation_url)
    expect(message_list(buyer).get_by_text("This message was removed by a moderator.")).to_be_visible()
    expect(message_list(buyer).get_by_text("Pay me in gift cards first.")).to_have_count(0)
    buyer.goto(f"{web.url}/notifications")
    expect(buyer.get_by_text("A moderator acted on your report")).to_be_visible()


def test_blocking_then_deleting_an_account_leaves_a_deleted_user(stack, browser, shoot):
    api, web = stack
    seller = browser.new_context(viewport=PHONE).new_page()
    register(seller, web.url, "sam", "Sam Seller")
    sell(seller, web.url, "Desk lamp", "15")
    product_url = seller.url

    buyer = browser.new_context(java_script_enabled=False, viewport=PHONE).new_page()
    register(buyer, web.url, "bea", "Bea Buyer")
    buyer.goto(product_url)
    buyer.get_by_role("button", name="Send message to Sam Seller").click()
    conversation_url = buyer.url

    # The buyer blocks the seller from the conversation: nobody can write there any more.
    buyer.get_by_role("button", name="Block Sam Seller").click()
    expect(buyer.get_by_text("You cannot write here: one of you blocked the other.")).to_be_visible()
    expect(buyer.get_by_label("Your message")).to_have_count(0)
    seller.goto(f"{web.url}/conversations")
    seller.get_by_role("link", name=re.compile("Bea Buyer about Desk lamp")).click()
    expect(seller.get_by_text("You cannot write here: one of you blocked the other.")).to_be_visible()
    buyer.goto(f"{web.url}/account")
    blocked = buyer.locator("ul.blocked li", has_text="Sam Seller (@sam)")
    blocked.get_by_role("button", name="Unblock").click()
    expect(buyer.get_by_text("You unblocked Sam Seller.")).to_be_visible()

    # The seller's account: sessions, then the deletion, the password asked again.
    seller.get_by_role("link", name="Account").click()
    expect(seller.get_by_role("heading", name="Your account", exact=True)).to_be_visible()
    expect(seller.locator("ul.sessions li")).to_contain_text("(this device)")
    assert serious(seller) == []
    shoot(seller, "account")
    seller.get_by_label("Your password").fill("not my password")
    seller.get_by_role("button", name="Delete my account").click()
    expect(seller.locator("#delete-password-error")).to_have_text(
        "That is not your password; the account is not deleted.")
    seller.get_by_label("Your password").fill("password-123")
    seller.get_by_role("button", name="Delete my account").click()
    expect(seller.get_by_role("heading", name="Your account is deleted")).to_be_visible()
    expect(seller.get_by_role("link", name="Sign in or register")).to_be_visible()

    buyer.goto(f"{web.url}/conversations")
    expect(buyer.get_by_role("link", name=re.compile("Deleted user"))).to_be_visible()
    buyer.goto(conversation_url)
    expect(buyer.get_by_role("heading", name=re.compile("Chat with Deleted user"))).to_be_visible()
    expect(message_list(buyer).get_by_text("Is it still available?")).to_be_visible()
    expect(buyer.get_by_role("button", name=re.compile("Block"))).to_have_count(0)
    expect(buyer.get_by_text("This person deleted their account: nothing more can be sent here.")).to_be_visible()
    expect(buyer.get_by_label("Your message")).to_have_count(0)
    shoot(buyer, "deleted-user")
    buyer.goto(product_url)
    expect(buyer.get_by_role("heading", name="No such product")).to_be_visible()
    sign_in(seller, web.url, "sam")
    expect(seller.get_by_role("alert")).to_have_text("Wrong username or password.")
