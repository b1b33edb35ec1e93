"""A rating's history as a small SVG line, drawn on the server (no script, no chart library)."""

from __future__ import annotations

from dataclasses import dataclass

WIDTH, HEIGHT, PAD = 240, 60, 4


@dataclass
class Line:
    points: str  # the polyline's "x,y x,y ..." in the viewBox
    low: int
    high: int
    last: int
    last_x: float
    last_y: float


def line(values: list[int]) -> Line | None:
    """The values left to right (oldest first), scaled into the box; ``None`` for no values."""
    if not values:
        return None
    low, high = min(values), max(values)
    span = (high - low) or 1
    step = (WIDTH - 2 * PAD) / max(1, len(values) - 1)
    coords = [
        (PAD + i * step, HEIGHT - PAD - (value - low) * (HEIGHT - 2 * PAD) / span) for i, value in enumerate(values)
    ]
    if len(coords) == 1:
        coords = [(PAD, coords[0][1]), (WIDTH - PAD, coords[0][1])]
    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in coords)
    return Line(points, low, high, values[-1], coords[-1][0], coords[-1][1])
