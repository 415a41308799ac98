"""Photos in a real Chromium: selling with photos with JavaScript off (a plain multipart form) and
on (seen, reordered and removed before the upload, which shows progress), a listing's photos
arranged with plain forms, the catalogue as a grid of photo cards, the bytes a list page costs,
and a chat photo arriving live in the other person's browser, fetched with their session."""
import json
import re

import requests
from playwright.sync_api import expect

import pictures
from conftest import SCREENSHOTS
from test_journey import message_list, register

PHONE = {"width": 360, "height": 800}
DESKTOP = {"width": 1280, "height": 900}


def fill_sell_form(page, base, title, price):
    page.goto(f"{base}/sell")
    page.get_by_label("Title").fill(title)
    page.get_by_label("Description").fill("With photos")
    page.get_by_label("Price").fill(price)


def natural_size(page, image):
    return image.evaluate("image => [image.naturalWidth, image.naturalHeight]")


def test_selling_with_two_photos_without_javascript_then_arranging_them(stack, browser, shoot, tmp_path):
    api, web = stack
    page = browser.new_context(java_script_enabled=False, viewport=PHONE).new_page()
    register(page, web.url, "nojs", "Nora")
    wide, tall = tmp_path / "wide.png", tmp_path / "tall.png"
    wide.write_bytes(pictures.png(480, 320, seed=10))
    tall.write_bytes(pictures.png(300, 450, seed=90))
    fill_sell_form(page, web.url, "Brass lamp", "35")
    page.get_by_label(re.compile("^Photos: up to 8")).set_input_files([str(wide), str(tall)])
    page.get_by_role("button", name="Put it up for sale").click()
    expect(page.get_by_role("heading", name="Brass lamp")).to_be_visible()
    photos = page.locator("ul.photos img")
    expect(photos).to_have_count(2)
    assert [photos.nth(i).get_attribute("width") for i in range(2)] == ["480", "300"], "in the order chosen"
    # Each image is the server's medium size, linking to the full one, and it is a real image.
    for i in range(2):
        source = photos.nth(i).get_attribute("src")
        assert source.startswith(api.url) and source.endswith("?size=medium")
        served = requests.get(source, timeout=10)
        assert served.status_code == 200 and served.headers["content-type"] in ("image/jpeg", "image/webp")
        assert photos.nth(i).locator("xpath=..").get_attribute("href") == source.removesuffix("?size=medium")

    page.get_by_role("link", name="Edit, mark reserved or sold, or take down your listing").click()
    editor = page.locator("ul.photo-editor li")
    expect(editor).to_have_count(2)
    page.get_by_role("button", name="Move Photo 2 earlier").click()
    expect(page.locator("ul.photo-editor img").first).to_have_attribute("width", "160")  # the tall one, 160×240
    page.get_by_role("button", name="Remove Photo 2").click()
    expect(editor).to_have_count(1)
    text = tmp_path / "notes.jpg"
    text.write_text("not a picture")
    page.get_by_label(re.compile("^Add photos")).set_input_files(str(text))
    page.get_by_role("button", name="Add photos", exact=True).click()
    expect(page.get_by_role("alert")).to_contain_text("not a JPEG, PNG or WebP")
    shoot(page, "listing-photos")


def test_selling_with_photos_with_javascript_preview_reorder_remove_and_progress(stack, browser, shoot, tmp_path):
    api, web = stack
    page = browser.new_context(viewport=DESKTOP).new_page()
    register(page, web.url, "jojo", "Jo")
    files = []
    for name, size, seed in [("a.png", (400, 300), 0), ("b.png", (300, 400), 60), ("c.png", (500, 500), 120)]:
        path = tmp_path / name
        path.write_bytes(pictures.png(*size, seed=seed))
        files.append(str(path))
    fill_sell_form(page, web.url, "Record player", "80")
    chooser = page.get_by_label(re.compile("^Photos: up to 8"))
    chooser.set_input_files(files[:2])
    chooser.set_input_files(files[2:])  # choosing again adds to the photos chosen
    preview = page.locator("[data-preview] li")
    expect(preview).to_have_count(3)
    page.get_by_role("button", name="Move photo 3 earlier").click()  # a, c, b
    page.get_by_role("button", name="Remove photo 1").click()  # c, b
    expect(preview).to_have_count(2)
    expect(preview.first).to_contain_text("Photo 1 (the cover)")
    shoot(page, "sell-photos", full_page=True)
    uploads = []
    page.on("request", lambda request: uploads.append(request.resource_type) if request.method == "POST" else None)
    page.get_by_role("button", name="Put it up for sale").click()
    expect(page.get_by_role("heading", name="Record player")).to_be_visible(timeout=15_000)
    assert uploads[0] == "xhr", "sent by the script, which follows the upload's progress"
    widths = [page.locator("ul.photos img").nth(i).get_attribute("width") for i in range(2)]
    assert widths == ["500", "300"], "the order arranged before sending, without the removed photo"


def test_the_demo_catalogue_is_a_grid_of_photo_cards(demo_stack, browser, shoot):
    api, web = demo_stack
    page = browser.new_context(viewport=DESKTOP).new_page()
    page.goto(f"{web.url}/products")
    cards = page.locator("ul.products.cards li")
    expect(cards.first).to_be_visible()
    assert cards.count() >= 5
    covers = page.locator("a.product-card img")
    assert covers.count() == cards.count(), "every demo product has a photo"
    page.wait_for_function("() => [...document.querySelectorAll('a.product-card img')].every(i => i.complete && i.naturalWidth > 0)")
    first = covers.first
    assert first.get_attribute("src").endswith("?size=thumb")
    assert "?size=medium 960w" in first.get_attribute("srcset")
    # Several columns on a desktop, one at 360 px.
    columns = page.evaluate("getComputedStyle(document.querySelector('ul.cards')).gridTemplateColumns.split(' ').length")
    assert columns >= 3
    shoot(page, "catalogue", full_page=False)
    phone = browser.new_context(viewport=PHONE).new_page()
    phone.goto(f"{web.url}/products")
    assert phone.evaluate("getComputedStyle(document.querySelector('ul.cards')).gridTemplateColumns.split(' ').length") == 1
    shoot(phone, "catalogue-360px", full_page=False)
    phone.locator("a.product-card").first.click()
    expect(phone.locator("ul.photos img").first).to_be_visible()
    shoot(phone, "product-photos", full_page=False)


def test_a_page_of_twenty_products_with_camera_sized_photos_costs_under_400_kb(stack, browser):
    api, web = stack
    page = browser.new_context(viewport={"width": 1280, "height": 4000}).new_page()
    page.goto(f"{web.url}/signin")
    photo = pictures.camera_jpeg(page)
    tokens = requests.post(f"{api.url}/v1/auth/register", json={
        "username": "lister", "password": "password-123", "displayName": "Lister"}, timeout=10).json()
    headers = {"Authorization": f"Bearer {tokens['tokens']['accessToken']}"}
    for index in range(20):
        product = requests.post(f"{api.url}/v1/products", headers=headers, timeout=10, json={
            "title": f"Camera photo {index + 1}", "description": "", "priceCents": 1000 + index, "currency": "EUR"}).json()
        uploaded = requests.post(f"{api.url}/v1/products/{product['id']}/photos", data=photo, timeout=60,
                                 headers={**headers, "Content-Type": "image/jpeg"})
        assert uploaded.status_code == 201, uploaded.text

    sizes = {}
    page.on("response", lambda response: sizes.__setitem__(response.url, len(response.body())) if response.ok else None)
    page.goto(f"{web.url}/products")
    page.wait_for_function("() => [...document.querySelectorAll('a.product-card img')].every(i => i.complete && i.naturalWidth > 0)")
    page.wait_for_load_state("networkidle")
    images = {url: size for url, size in sizes.items() if "/photos/" in url}
    assert len(images) == 20, sorted(images)
    total = sum(sizes.values())
    # What the page cost when covers were served as uploaded: the same page with each cover at its upload's size.
    before = total - sum(images.values()) + 20 * len(photo)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / "list-page-bytes.json").write_text(json.dumps({
        "products": 20, "upload_bytes": len(photo), "page_bytes": total, "image_bytes": sum(images.values()),
        "page_bytes_with_covers_as_uploaded": before}, indent=2))
    print(f"list page: {total} bytes now, {before} with covers as uploaded ({len(photo)} bytes each)")
    assert total < 400 * 1024, f"{total} bytes"


def test_a_chat_photo_arrives_live_in_the_other_browser_and_is_private(stack, browser, shoot, tmp_path):
    api, web = stack
    seller, buyer = browser.new_context(viewport=PHONE).new_page(), browser.new_context(viewport=PHONE).new_page()
    register(seller, web.url, "sal", "Sal Seller")
    fill_sell_form(seller, web.url, "Amplifier", "90")
    seller.get_by_role("button", name="Put it up for sale").click()
    expect(seller.get_by_role("heading", name="Amplifier")).to_be_visible()
    product_url = seller.url
    register(buyer, web.url, "bob", "Bo Buyer")
    buyer.goto(product_url)
    buyer.get_by_role("button", name="Send message to Sal Seller").click()

    seller.goto(f"{web.url}/conversations")
    seller.get_by_role("link", name=re.compile("Bo Buyer about Amplifier")).click()
    expect(message_list(seller).get_by_text("Is it still available?")).to_be_visible()
    expect(message_list(buyer).get_by_text("Is it still available?")).to_be_visible()
    buyer.evaluate("window.__notReloaded = true")
    scratch = tmp_path / "scratch.png"
    scratch.write_bytes(pictures.png(640, 480, seed=33))
    seller.get_by_label("Your message").fill("Here is the scratch")
    seller.get_by_label(re.compile("^Photos \\(up to 4")).set_input_files(str(scratch))
    seller.get_by_role("button", name="Send").click()

    arrived = message_list(buyer).get_by_role("img", name="Photo 1 from Sal Seller")
    expect(arrived).to_be_visible(timeout=15_000)
    assert buyer.evaluate("window.__notReloaded") is True, "it arrived live, with no reload"
    buyer.wait_for_function("() => [...document.querySelectorAll('.photo-message img')].every(i => i.complete && i.naturalWidth > 0)")
    assert natural_size(buyer, arrived) == [640, 480]
    source = arrived.get_attribute("src")
    assert source.startswith("/conversations/"), "fetched through the app, with the session"
    expect(message_list(seller).get_by_role("img", name="Photo 1 from You")).to_be_visible(timeout=15_000)
    shoot(buyer, "chat-photo")

    outsider = browser.new_context().new_page()
    register(outsider, web.url, "eve", "Eve")
    # The outsider's own session cookie goes with the request, as the browser would send it.
    answer = outsider.context.request.get(f"{web.url}{source}")
    assert answer.status == 404
    assert requests.get(f"{web.url}{source}", timeout=10).status_code == 404, "nobody signed in, nothing to see"
