"""The "how often were the guesses right" chart on the taste page, as numbers for an inline SVG."""
from __future__ import annotations

from dataclasses import dataclass

WIDTH, HEIGHT, PAD = 320, 120, 20
LEFT = 36  # room for the axis labels


@dataclass
class Chart:
    points: str  # the polyline's "x,y x,y ..." in SVG units
    dots: list[tuple[float, float, str]]  # (x, y, label) for each stretch of ratings
    width: int = WIDTH
    height: int = HEIGHT
    pad: int = PAD
    left: int = LEFT

    @property
    def mid_y(self) -> float:
        return PAD + (HEIGHT - 2 * PAD) / 2


def agreement_chart(points) -> Chart | None:
    """points: recommender AgreementPoints (first_rating, ratings, agreement 0..1, until), oldest first."""
    points = list(points)
    if not points:
        return None
    span = max(len(points) - 1, 1)
    dots = []
    for i, point in enumerate(points):
        x = LEFT + (WIDTH - LEFT - PAD) * (i / span if len(points) > 1 else 0.5)
        y = PAD + (HEIGHT - 2 * PAD) * (1 - max(0.0, min(1.0, point.agreement)))
        last = point.first_rating + point.ratings
        label = f"ratings {point.first_rating + 1}–{last}: {point.agreement:.0%} agreed"
        dots.append((round(x, 1), round(y, 1), label))
    return Chart(" ".join(f"{x},{y}" for x, y, _ in dots), dots)
