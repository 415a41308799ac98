// The few libvips calls the server makes, as plain C functions Swift can call: libvips' own API
// takes its options as C varargs, which Swift cannot pass.
#ifndef BAZAAR_VIPS_H
#define BAZAAR_VIPS_H

#include <stddef.h>

/// What an image's header says, read without decoding its pixels.
typedef struct {
    int width;
    int height;
    /// The EXIF orientation (1 to 8; 1 when none).
    int orientation;
    /// Whether it has an alpha channel.
    int has_alpha;
    /// 1 JPEG, 2 PNG, 3 WebP.
    int format;
} bz_image_header;

/// Starts libvips once for the process, with at most `concurrency` worker threads per image and
/// an operation cache of at most `cache_bytes` (0: no cache). Returns 0, or -1 when it fails.
int bz_vips_start(int concurrency, size_t cache_bytes);

/// Reads the header of the image in `data`: JPEG, PNG and WebP only (every other loader, SVG and
/// PDF among them, is refused before it runs). Returns 0, or -1 with `*error` set (free it with
/// `bz_vips_free`).
int bz_vips_header(const void *data, size_t length, bz_image_header *header, char **error);

/// Decodes the image in `data` shrunk to fit `longest_side` × `longest_side` (never enlarged),
/// its EXIF orientation applied, and encodes it without any metadata block: JPEG at `quality`, or
/// WebP when it has an alpha channel. Stops once decoding and encoding have taken `seconds`.
/// Returns 0 with `*out` (free it with `bz_vips_free`), `*out_length`, `*out_width`,
/// `*out_height` and `*out_webp` set; -1 with `*error` set when it fails; -2 with `*error` set
/// when it ran out of time.
int bz_vips_resize(
    const void *data, size_t length, int longest_side, int quality, double seconds, void **out, size_t *out_length,
    int *out_width, int *out_height, int *out_webp, char **error);

/// A made-up picture of `width` × `height` (colour bands that vary across it, with grain of
/// standard deviation `noise` when it is above 0), encoded as JPEG (`format` 1), PNG (2) or WebP
/// (3): for tests and demo data. Returns 0 with `*out` set, or -1.
int bz_vips_test_image(
    int width, int height, int format, double noise, void **out, size_t *out_length, char **error);

/// Frees what the functions above returned.
void bz_vips_free(void *pointer);

#endif
