#include "bazaar_vips.h"

#include <string.h>
#include <vips/vips.h>

/// The error libvips reported, copied for the caller, and libvips' buffer cleared.
static int fail(char **error, const char *fallback) {
    const char *buffer = vips_error_buffer();
    *error = g_strdup(buffer && buffer[0] ? buffer : fallback);
    vips_error_clear();
    return -1;
}

int bz_vips_start(int concurrency, size_t cache_bytes) {
    if (VIPS_INIT("bazaar-server")) return -1;
    vips_concurrency_set(concurrency);
    vips_cache_set_max_mem(cache_bytes);
    if (cache_bytes == 0) vips_cache_set_max(0);
    return 0;
}

/// 1 JPEG, 2 PNG, 3 WebP, 0 anything else.
static int format_of(const void *data, size_t length) {
    const char *loader = vips_foreign_find_load_buffer(data, length);
    if (loader == NULL) {
        vips_error_clear();
        return 0;
    }
    if (strcmp(loader, "VipsForeignLoadJpegBuffer") == 0) return 1;
    if (strcmp(loader, "VipsForeignLoadPngBuffer") == 0) return 2;
    if (strcmp(loader, "VipsForeignLoadWebpBuffer") == 0) return 3;
    return 0;
}

int bz_vips_header(const void *data, size_t length, bz_image_header *header, char **error) {
    int format = format_of(data, length);
    if (format == 0) {
        *error = g_strdup("not a JPEG, PNG or WebP image");
        return -1;
    }
    // Lazy: only the header is read here.
    VipsImage *image = vips_image_new_from_buffer(data, length, "", "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (image == NULL) return fail(error, "the image's header cannot be read");
    header->width = vips_image_get_width(image);
    header->height = vips_image_get_height(image);
    header->orientation = vips_image_get_orientation(image);
    header->has_alpha = vips_image_hasalpha(image);
    header->format = format;
    g_object_unref(image);
    return 0;
}

/// When the work on one image must stop, and whether it was stopped.
typedef struct {
    gint64 deadline;
    int expired;
} bz_deadline;

/// Called as the pixels are computed: stops the computation once the deadline has passed.
static void on_eval(VipsImage *image, VipsProgress *progress, void *user) {
    (void)image;
    bz_deadline *deadline = user;
    if (g_get_monotonic_time() > deadline->deadline) {
        deadline->expired = 1;
        vips_image_set_kill(progress->im, TRUE);
    }
}

int bz_vips_resize(
    const void *data, size_t length, int longest_side, int quality, double seconds, void **out, size_t *out_length,
    int *out_width, int *out_height, int *out_webp, char **error) {
    if (format_of(data, length) == 0) {
        *error = g_strdup("not a JPEG, PNG or WebP image");
        return -1;
    }
    VipsImage *resized = NULL;
    // Shrinks while it decodes (JPEG's shrink-on-load), applies the EXIF orientation, and
    // converts an embedded colour profile to sRGB.
    if (vips_thumbnail_buffer(
            (void *)data, length, &resized, longest_side, "height", longest_side, "size", VIPS_SIZE_DOWN,
            "fail_on", VIPS_FAIL_ON_ERROR, NULL))
        return fail(error, "the image does not decode");
    // The pixels are decoded as the encoder asks for them, so the clock runs from here.
    bz_deadline deadline = {g_get_monotonic_time() + (gint64)(seconds * G_USEC_PER_SEC), 0};
    vips_image_set_progress(resized, TRUE);
    g_signal_connect(resized, "eval", G_CALLBACK(on_eval), &deadline);
    int webp = vips_image_hasalpha(resized);
    int result = webp ? vips_webpsave_buffer(resized, out, out_length, "Q", quality, "strip", TRUE, NULL)
                      : vips_jpegsave_buffer(
                            resized, out, out_length, "Q", quality, "strip", TRUE, "optimize_coding", TRUE,
                            "interlace", TRUE, NULL);
    if (result || deadline.expired) {
        g_object_unref(resized);
        if (deadline.expired) {
            if (*out) g_free(*out);
            *out = NULL;
            vips_error_clear();
            *error = g_strdup("the image took too long to decode");
            return -2;
        }
        return fail(error, "the image cannot be encoded");
    }
    *out_width = vips_image_get_width(resized);
    *out_height = vips_image_get_height(resized);
    *out_webp = webp;
    g_object_unref(resized);
    return 0;
}

int bz_vips_test_image(
    int width, int height, int format, double noise, void **out, size_t *out_length, char **error) {
    VipsImage *xyz = NULL, *scaled = NULL, *bands = NULL, *first = NULL, *rgb = NULL, *typed = NULL;
    VipsImage *grain = NULL, *grainy = NULL, *clipped = NULL;
    int result = -1;
    // x and y coordinates, spread over 0-255, then (x, y, x) as red, green and blue.
    if (vips_xyz(&xyz, width, height, NULL)) goto done;
    double scale[2] = {255.0 / (width > 1 ? width - 1 : 1), 255.0 / (height > 1 ? height - 1 : 1)};
    double offset[2] = {0, 0};
    if (vips_linear(xyz, &scaled, scale, offset, 2, NULL)) goto done;
    if (vips_cast_uchar(scaled, &bands, NULL)) goto done;
    if (vips_extract_band(bands, &first, 0, NULL)) goto done;
    if (vips_bandjoin2(bands, first, &rgb, NULL)) goto done;
    VipsImage *picture = rgb;
    // Grain as a camera's sensor adds it: what makes a photo's file large.
    if (noise > 0) {
        if (vips_gaussnoise(&grain, width, height, "sigma", noise, "mean", 0.0, NULL)) goto done;
        if (vips_add(rgb, grain, &grainy, NULL)) goto done;
        if (vips_cast_uchar(grainy, &clipped, NULL)) goto done;
        picture = clipped;
    }
    if (vips_copy(picture, &typed, "interpretation", VIPS_INTERPRETATION_sRGB, NULL)) goto done;
    result = format == 2   ? vips_pngsave_buffer(typed, out, out_length, NULL)
             : format == 3 ? vips_webpsave_buffer(typed, out, out_length, "Q", 90, NULL)
                           : vips_jpegsave_buffer(typed, out, out_length, "Q", 90, NULL);
done:
    if (grain) g_object_unref(grain);
    if (grainy) g_object_unref(grainy);
    if (clipped) g_object_unref(clipped);
    if (xyz) g_object_unref(xyz);
    if (scaled) g_object_unref(scaled);
    if (bands) g_object_unref(bands);
    if (first) g_object_unref(first);
    if (rgb) g_object_unref(rgb);
    if (typed) g_object_unref(typed);
    if (result) return fail(error, "the picture could not be made");
    return 0;
}

void bz_vips_free(void *pointer) { g_free(pointer); }
