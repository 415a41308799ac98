// libvips through Debian's libvips-dev (pkg-config vips): the image library the server decodes,
// rotates, strips and resizes photos with.
#include <vips/vips.h>
