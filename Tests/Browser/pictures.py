"""Real images for the browser tests: the server decodes every photo, so an upload must be one."""
import struct
import zlib


def png(width=320, height=240, seed=0):
    """A PNG of `width` × `height`: colour bands across it (with a little variety from `seed`)."""
    rows = bytearray()
    for y in range(height):
        rows.append(0)  # filter: none
        for x in range(width):
            rows += bytes(((x * 255 // max(1, width - 1) + seed) % 256, y * 255 // max(1, height - 1), (x + y + seed) % 256))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(bytes(rows))) + chunk(b"IEND", b"")


CAMERA_SCRIPT = """([width, height, seed, quality]) => new Promise(resolve => {
    const canvas = document.createElement("canvas");
    canvas.width = width; canvas.height = height;
    const context = canvas.getContext("2d");
    const pixels = context.createImageData(width, height);
    for (let i = 0; i < pixels.data.length; i += 4) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      const x = (i / 4) % width, y = Math.floor(i / 4 / width), noise = seed % 40;
      pixels.data[i] = (x * 255 / width + noise) & 255;
      pixels.data[i + 1] = (y * 255 / height + noise) & 255;
      pixels.data[i + 2] = (((x >> 3) ^ (y >> 3)) * 7 + noise) & 255;
      pixels.data[i + 3] = 255;
    }
    context.putImageData(pixels, 0, 0);
    canvas.toBlob(blob => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result.split(",")[1]);
      reader.readAsDataURL(blob);
    }, "image/jpeg", quality);
})"""


def camera_jpeg(page, width=3000, height=2000, seed=7, quality=0.9):
    """A camera-sized JPEG drawn by the Chromium behind `page` (a Playwright page): gradients with
    noise, which compress as a phone photo does. Nothing is downloaded."""
    import base64
    return base64.b64decode(page.evaluate(CAMERA_SCRIPT, [width, height, seed, quality]))
