"""A link's curve (one cubic) as straight pieces: the weights, the points, how many pieces keep
to it, and a piece clipped to a rectangle (:mod:`widgets.canvas.summary` draws links zoomed out
as these pieces, cut at its tiles' edges). Plain Python and numpy, no Qt."""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

#: zoomed out a link is drawn as this many straight lines at most ...
PIECES = 24
#: ... as few as keep its pieces this close to its curve (scene units: half a pixel at the
#: summary threshold, a fifth at the overview's); the 16x site's links then make 154,576
#: pieces, not 260,736, and the lines in view at 0.26 took 5.5 ms of each paint
PIECE_TOLERANCE = 0.8


@functools.lru_cache(maxsize=512)
def basis(n: int) -> tuple[tuple[float, float, float, float], ...]:
    """The cubic Bernstein weights at ``n + 1`` even steps of the parameter."""
    out = []
    for i in range(n + 1):
        t = i / n
        u = 1 - t
        out.append((u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t))
    return tuple(out)


def cubic(controls: Any, n: int) -> list[tuple[float, float]]:
    """``n + 1`` points of the cubic curve of four ``controls`` at even steps of its parameter."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = controls
    return [(a * x0 + b * x1 + c * x2 + d * x3, a * y0 + b * y1 + c * y2 + d * y3) for a, b, c, d in basis(n)]


@functools.lru_cache(maxsize=512)
def basis_array(n: int) -> np.ndarray:
    return np.array(basis(n))


def pieces(controls: Any) -> int:
    """How many even steps of the parameter keep a cubic curve's chords within
    :data:`PIECE_TOLERANCE` of it, :data:`PIECES` at most: a uniform subdivision into n strays
    at most M / (8 n^2), M the largest second derivative, 6 |P0 - 2 P1 + P2| or 6 |P1 - 2 P2 + P3|."""
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = controls
    bend = max(math.hypot(x0 - 2 * x1 + x2, y0 - 2 * y1 + y2), math.hypot(x1 - 2 * x2 + x3, y1 - 2 * y2 + y3))
    return max(1, min(PIECES, math.ceil(math.sqrt(6 * bend / (8 * PIECE_TOLERANCE)))))


def clip_line(x0: float, y0: float, x1: float, y1: float, left: float, top: float, right: float, bottom: float):
    """The part of the line from (x0, y0) to (x1, y1) inside the rectangle (Liang-Barsky), as
    (x0, y0, x1, y1); None when none of it (or a single point) is."""
    dx, dy = x1 - x0, y1 - y0
    t0, t1 = 0.0, 1.0
    for p, q in ((-dx, x0 - left), (dx, right - x0), (-dy, y0 - top), (dy, bottom - y0)):
        if p == 0:
            if q < 0:
                return None
        elif p < 0:
            t0 = max(t0, q / p)
        else:
            t1 = min(t1, q / p)
    if t0 >= t1:
        return None
    return x0 + t0 * dx, y0 + t0 * dy, x0 + t1 * dx, y0 + t1 * dy
