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
