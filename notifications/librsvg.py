"""The board's SVG drawn as a PNG by librsvg, GNOME's SVG library (C and Rust), through ctypes.

Why not cairosvg alone: it reads and walks the SVG in Python, holding the GIL, and cairo's PNG writer
tries every PNG filter on every row; together they were some 40% of a turn email's CPU time
(docs/performance.md, "Turn emails"). librsvg draws the same SVG in C, and ctypes lets go of the GIL
for each call, so while one of a worker's threads draws a board the others go on with their emails.

The board is drawn on white, the white of the email's card around it, so the PNG is opaque RGB: a
transparent one would let a mail program's dark mode show through where the board has no ground, under
labels drawn in dark ink, and its alpha would have to be divided out of cairo's premultiplied pixels
(that and the fourth byte of every pixel were half the time of writing the PNG). The PNG is written
here, not by cairo: the rows unfiltered in one zlib stream at a low level. A board is a few flat
colours, which such a stream packs within some 15% of cairo's size in a third of the time. The stream
is deflated by ISA-L (the `isal` package: Intel's deflate written for speed, zlib's format), not the
standard library's zlib: on the email's mid-game boards a seventh of zlib's CPU time at level 3 for
1.2% more bytes; and the rows are put in PNG's order by one pass of Pillow over cairo's pixels, not
four (docs/performance.md, "Turn emails"). Both let go of the GIL, as zlib did. ISA-L's stream is
not always the same bytes for the same rows: in a thread that had been drawing beside others it was
seen to pick another, equally valid, match (a distance 2 bytes off in a run of one colour). The
picture is the same; the tests compare drawings by their pixels (tests/notifications/helpers.py).

A board wider than the email is shrunk by a whole number of 1/128ths (STEPS), not to exactly the
email's width: Pango, fontconfig and cairo keep the fonts, patterns and glyph caches of every text
size in device pixels they meet, for the life of the process, some 250 kB for each new scale a board
is drawn at. The exact width's scale came out different for nearly every width and height of board
(the height's rounding counted too), so a worker drawing growing boards kept meeting new ones and
grew for hours (docs/performance.md, "Memory"); on the ladder there are at most STEPS scales below
1, whatever the boards, and a picture comes out at most 1/128 of the board's own width narrower than
the column (15 px of 560 for a board of 40 cards, 1,906 px wide). And every FONT_MAP_DRAWINGS
drawings a thread lets go of Pango's font map, and with it every font, pattern and glyph cache
kept: whatever the boards, a worker keeps only what its last drawings met. A new font map costs
the next drawing some 16 ms of CPU, 0.2 ms a drawing over a hundred.

librsvg is a system library (Debian's librsvg2-2, there on the machines this runs on, and on most
Linux desktops); where it cannot be loaded `available()` is False and notifications/pictures.py
draws with cairosvg instead, the same picture.
"""

from __future__ import annotations

import ctypes
import math
import struct
import sys
import threading
import zlib
from collections.abc import Callable
from functools import cache
from typing import Any, cast

from isal import isal_zlib

LIBRARIES = {
    "rsvg": "librsvg-2.so.2",
    "cairo": "libcairo.so.2",
    "gobject": "libgobject-2.0.so.0",
    "glib": "libglib-2.0.so.0",
    "pangocairo": "libpangocairo-1.0.so.0",
}
COLOR_ALPHA = 0x3000  # cairo_content_t CAIRO_CONTENT_COLOR_ALPHA: a tile is transparent around what it draws
RGB24 = 1  # cairo_format_t CAIRO_FORMAT_RGB24: native-endian 32-bit pixels, the top byte unused
LEVEL = 2  # ISA-L's default: as fast as its level 1 on these pictures and as small as zlib's level 3 within 1.2%
SIGNATURE = b"\x89PNG\r\n\x1a\n"
STEPS = 128  # a board is drawn at a scale of n/128: few scales, so few fonts kept (above)
FONT_MAP_DRAWINGS = 100  # drawings a thread makes before it lets go of Pango's fonts (above)
_drawings = threading.local()  # Pango's default font map is a thread's own: so is the count


class DrawingError(Exception):
    """librsvg could not read or draw this SVG."""


class _Rect(ctypes.Structure):
    _fields_ = [(name, ctypes.c_double) for name in ("x", "y", "width", "height")]


class _GError(ctypes.Structure):
    _fields_ = [("domain", ctypes.c_uint32), ("code", ctypes.c_int), ("message", ctypes.c_char_p)]


def available() -> bool:
    return _libraries() is not None


@cache
def _libraries() -> dict[str, Any] | None:
    """The libraries with their functions' types declared, or None where any is missing.

    Only on a little-endian machine: the pixels are read as B, G, R, A bytes below."""
    if sys.byteorder != "little":
        return None
    try:
        libs = {name: ctypes.CDLL(soname) for name, soname in LIBRARIES.items()}
        _declare(**libs)
    except (OSError, AttributeError):  # not installed, or a librsvg older than 2.52
        return None
    return libs


def _declare(
    rsvg: ctypes.CDLL, cairo: ctypes.CDLL, gobject: ctypes.CDLL, glib: ctypes.CDLL, pangocairo: ctypes.CDLL
) -> None:
    pointer, error = ctypes.c_void_p, ctypes.POINTER(ctypes.POINTER(_GError))
    double = ctypes.POINTER(ctypes.c_double)
    rsvg.rsvg_handle_new_from_data.argtypes = [ctypes.c_char_p, ctypes.c_size_t, error]
    rsvg.rsvg_handle_new_from_data.restype = pointer
    rsvg.rsvg_handle_get_intrinsic_size_in_pixels.argtypes = [pointer, double, double]
    rsvg.rsvg_handle_get_intrinsic_size_in_pixels.restype = ctypes.c_int
    rsvg.rsvg_handle_render_document.argtypes = [pointer, pointer, ctypes.POINTER(_Rect), error]
    rsvg.rsvg_handle_render_document.restype = ctypes.c_int
    gobject.g_object_unref.argtypes = [pointer]
    cairo.cairo_image_surface_create.argtypes = [ctypes.c_int, ctypes.c_int, ctypes.c_int]
    cairo.cairo_image_surface_create.restype = pointer
    cairo.cairo_create.argtypes = [pointer]
    cairo.cairo_create.restype = pointer
    cairo.cairo_set_source_rgb.argtypes = [pointer, ctypes.c_double, ctypes.c_double, ctypes.c_double]
    cairo.cairo_scale.argtypes = [pointer, ctypes.c_double, ctypes.c_double]
    cairo.cairo_translate.argtypes = [pointer, ctypes.c_double, ctypes.c_double]
    cairo.cairo_identity_matrix.argtypes = [pointer]
    cairo.cairo_set_source_surface.argtypes = [pointer, pointer, ctypes.c_double, ctypes.c_double]
    cairo.cairo_surface_reference.argtypes = [pointer]
    cairo.cairo_surface_reference.restype = pointer
    cairo.cairo_recording_surface_create.argtypes = [ctypes.c_int, ctypes.POINTER(_Rect)]
    cairo.cairo_recording_surface_create.restype = pointer
    for name in ("cairo_save", "cairo_restore"):
        getattr(cairo, name).argtypes = [pointer]
    for name in ("cairo_paint", "cairo_surface_flush", "cairo_destroy", "cairo_surface_destroy"):
        getattr(cairo, name).argtypes = [pointer]
    for name in ("cairo_surface_status", "cairo_image_surface_get_stride"):
        getattr(cairo, name).argtypes = [pointer]
        getattr(cairo, name).restype = ctypes.c_int
    cairo.cairo_image_surface_get_data.argtypes = [pointer]
    cairo.cairo_image_surface_get_data.restype = ctypes.POINTER(ctypes.c_ubyte)
    glib.g_error_free.argtypes = [ctypes.POINTER(_GError)]  # what librsvg reports is GLib's to free
    pangocairo.pango_cairo_font_map_set_default.argtypes = [pointer]


# cairo's pixels: bytes, or cairo's own memory seen through ctypes (any buffer of bytes would do).
Pixels = bytes | ctypes.Array[ctypes.c_ubyte]
# What is drawn over a board after librsvg: called with the cairo context (in device pixels) and the scale.
Over = Callable[[int, float], None]


def png(svg: bytes, width: int, over: Over | None = None) -> bytes:
    """The SVG drawn on white at most `width` pixels wide, at the scale `scale` picks (its height in
    proportion), then `over` (notifications/tiles.py pastes the tiles), as PNG bytes. DrawingError if
    librsvg is not available or cannot read or draw it."""
    libs, handle = _read(svg, "the SVG")
    rsvg, gobject = libs["rsvg"], libs["gobject"]
    try:
        size = _size(rsvg, handle)
        factor = scale(width, size[0])
        width, height = (max(1, math.ceil(side * factor)) for side in size)
        return _render(libs, handle, size, factor, (width, height), over)
    finally:
        gobject.g_object_unref(handle)
        _let_go_of_fonts_now_and_then(libs)


def _read(svg: bytes, what: str) -> tuple[dict[str, Any], int]:
    """The libraries and librsvg's handle of the SVG (the caller unrefs it); DrawingError if it cannot."""
    libs = _libraries()
    if libs is None:
        raise DrawingError("librsvg is not available")
    failure = ctypes.POINTER(_GError)()
    handle = libs["rsvg"].rsvg_handle_new_from_data(svg, len(svg), ctypes.byref(failure))
    if not handle:
        raise DrawingError(f"librsvg could not read {what}: {_message(libs, failure)}")
    return libs, handle


def _let_go_of_fonts_now_and_then(libs: dict[str, Any]) -> None:
    """Every FONT_MAP_DRAWINGS drawings of this thread, release its default Pango font map: librsvg
    asks for it anew at each drawing (Pango makes a new one), and nothing else holds it between
    drawings, so its fonts and Pango's patterns and caches are freed with it (the module's docstring)."""
    count = getattr(_drawings, "count", 0) + 1
    if count >= FONT_MAP_DRAWINGS:
        libs["pangocairo"].pango_cairo_font_map_set_default(None)
        count = 0
    _drawings.count = count


def scale(width: int, natural: float) -> float:
    """The scale that draws a picture `natural` pixels wide at most `width` wide: the largest n/STEPS
    that fits (the module's docstring says why not width / natural itself), at least 1/STEPS."""
    return max(1, math.floor(width * STEPS / natural)) / STEPS


def _size(rsvg: ctypes.CDLL, handle: int) -> tuple[float, float]:
    w, h = ctypes.c_double(), ctypes.c_double()
    if not rsvg.rsvg_handle_get_intrinsic_size_in_pixels(handle, ctypes.byref(w), ctypes.byref(h)) or w.value <= 0:
        raise DrawingError("the SVG gives no width and height in pixels")
    return w.value, max(h.value, 1.0)


def _render(
    libs: dict[str, Any],
    handle: int,
    natural: tuple[float, float],
    factor: float,
    pixels: tuple[int, int],
    over: Over | None = None,
) -> bytes:
    """The PNG of the picture, `natural` pixels in size, drawn `factor` times as large on white in a
    surface of `pixels` (width, height). The scale is cairo's own, not librsvg's viewport: so every text
    size in device pixels is a size at `factor`, one of few (the module's docstring). `encode` reads
    cairo's pixels where cairo keeps them, before the surface is destroyed: copying them out first (some
    2 MB) cost as much CPU as deflating them (docs/performance.md, "Turn emails")."""
    rsvg, cairo = libs["rsvg"], libs["cairo"]
    width, height = pixels
    surface = cairo.cairo_image_surface_create(RGB24, width, height)
    context = cairo.cairo_create(surface)
    try:
        if cairo.cairo_surface_status(surface):
            raise DrawingError(f"cairo could not make a {width}x{height} picture")
        cairo.cairo_set_source_rgb(context, 1.0, 1.0, 1.0)
        cairo.cairo_paint(context)
        cairo.cairo_scale(context, factor, factor)
        failure = ctypes.POINTER(_GError)()
        viewport = _Rect(0, 0, *natural)
        if not rsvg.rsvg_handle_render_document(handle, context, ctypes.byref(viewport), ctypes.byref(failure)):
            raise DrawingError(f"librsvg could not draw the SVG: {_message(libs, failure)}")
        if over is not None:
            cairo.cairo_identity_matrix(context)
            over(context, factor)
        cairo.cairo_surface_flush(surface)
        stride = cairo.cairo_image_surface_get_stride(surface)
        data = ctypes.cast(
            cairo.cairo_image_surface_get_data(surface), ctypes.POINTER(ctypes.c_ubyte * (stride * height))
        )
        return encode(width, height, data.contents, stride)  # nothing keeps cairo's bytes past this call
    finally:
        cairo.cairo_destroy(context)
        cairo.cairo_surface_destroy(surface)


def tile(svg: bytes) -> int:
    """A tile (notifications/tiles.py): what librsvg draws for the SVG, recorded by cairo as its drawing
    operations (the glyphs Pango placed, the paths) in the SVG's own units, to be replayed by `paste` at
    any place and scale. The caller owns the recording (`release`). DrawingError if it cannot be drawn."""
    libs, handle = _read(svg, "the tile")
    rsvg, cairo = libs["rsvg"], libs["cairo"]
    failure = ctypes.POINTER(_GError)()
    try:
        natural = _size(rsvg, handle)
        extents = _Rect(0, 0, *natural)
        recording = cairo.cairo_recording_surface_create(COLOR_ALPHA, ctypes.byref(extents))
        context = cairo.cairo_create(recording)
        drawn = rsvg.rsvg_handle_render_document(handle, context, ctypes.byref(extents), ctypes.byref(failure))
        cairo.cairo_destroy(context)
    finally:
        libs["gobject"].g_object_unref(handle)
    if cairo.cairo_surface_status(recording) or not drawn:
        cairo.cairo_surface_destroy(recording)
        raise DrawingError(f"librsvg could not draw the tile: {_message(libs, failure)}")
    return int(recording)


def paste(context: int, recording: int, x: float, y: float, factor: float) -> None:
    """A tile replayed over the picture, its top left corner at (x, y) pixels, `factor` pixels a unit."""
    cairo = _cairo()
    cairo.cairo_save(context)
    cairo.cairo_translate(context, x, y)
    cairo.cairo_scale(context, factor, factor)
    cairo.cairo_set_source_surface(context, recording, 0, 0)
    cairo.cairo_paint(context)
    cairo.cairo_restore(context)


def hold(surface: int) -> None:
    """One more owner of a tile's recording: it stays until each has called `release`."""
    _cairo().cairo_surface_reference(surface)


def release(surface: int) -> None:
    _cairo().cairo_surface_destroy(surface)


def _cairo() -> Any:
    libs = _libraries()
    assert libs is not None, "a tile exists only where librsvg could be loaded"
    return libs["cairo"]


def _message(libs: dict[str, Any], failure: Any) -> str:
    if not failure:
        return "no reason given"
    text = (failure.contents.message or b"").decode("utf-8", "replace")
    libs["glib"].g_error_free(failure)
    return text


def encode(width: int, height: int, bgrx: Pixels, stride: int = 0) -> bytes:
    """A PNG (8-bit RGB) of cairo's RGB24 pixels (`stride` bytes a row; 0: `width` * 4), rows unfiltered.
    The pixels are read, not kept."""
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8 bits, RGB, deflate, no interlace
    data = _deflate(_rows_each_then_0(width, height, bgrx, stride))
    return SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", data) + _chunk(b"IEND", b"")


def _rows_each_then_0(width: int, height: int, bgrx: Pixels, stride: int) -> bytes:
    """Each row in R, G, B order followed by a 0 byte, in one pass in C by Pillow: the pixels mapped as
    they lie (not copied), then packed with a zero-padded row length of 3 * width + 1. Put a 0 before
    the first row and drop the last byte, and this is what a PNG's IDAT deflates: each row behind its
    filter type 0 (none). Pillow's RGBX here is cairo's BGRX, so it is packed as BGR: R, G, B."""
    from PIL import Image  # cairosvg's own dependency, so always installed with it

    buffer = cast(bytes, bgrx)  # Pillow maps any buffer of bytes; its type hints name only bytes and arrays
    pixels = Image.frombuffer("RGBX", (width, height), buffer, "raw", "RGBX", stride, 1)
    return pixels.tobytes("raw", ("BGR", width * 3 + 1))


def _deflate(rows_each_then_0: bytes) -> bytes:
    """The zlib stream of the filter byte of the first row, then the rest but the last 0 (above)."""
    stream = isal_zlib.compressobj(LEVEL)
    rest = memoryview(rows_each_then_0)[:-1]
    return stream.compress(b"\0") + stream.compress(rest) + stream.flush()


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
