"""Draws the app icons (static/icons/icon-192.png and -512.png): a star on an order die, in the site's green.

Run from the project folder: `.venv/bin/python scripts/draw_icons.py`.
"""

import math

from PIL import Image, ImageDraw

GREEN, PAPER = (59, 93, 42), (251, 250, 247)


def icon(size):
    scale = 4
    s = size * scale
    image = Image.new("RGB", (s, s), GREEN)
    draw = ImageDraw.Draw(image)
    # the die: a rounded square of paper inside the safe zone of a maskable icon
    m = int(s * 0.2)
    draw.rounded_rectangle((m, m, s - m, s - m), radius=int(s * 0.09), fill=PAPER)
    # the star
    cx, cy, outer = s / 2, s / 2 + s * 0.015, s * 0.24
    inner = outer * 0.382
    points = []
    for i in range(10):
        r = outer if i % 2 == 0 else inner
        a = -math.pi / 2 + i * math.pi / 5
        points.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    draw.polygon(points, fill=GREEN)
    return image.resize((size, size), Image.LANCZOS)


for size in (192, 512):
    icon(size).save(f"static/icons/icon-{size}.png", optimize=True)
