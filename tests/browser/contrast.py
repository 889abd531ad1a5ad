"""WCAG 2 contrast read from computed styles in the page, for the browser tests.

``measuring(body)`` is a Playwright function ``(root) => {...}`` in which ``rgb(css)``
turns any CSS colour into sRGB bytes (through a canvas, so ``color-mix`` works too) and
``ratio(a, b)`` is the contrast of two of them; ``body`` collects and returns the ratios.
"""

_RATIO = """
  const canvas = document.createElement('canvas'); canvas.width = canvas.height = 1;
  const ctx = canvas.getContext('2d', { willReadFrequently: true });
  const rgb = (css) => { ctx.clearRect(0, 0, 1, 1); ctx.fillStyle = '#000'; ctx.fillStyle = css;
    ctx.fillRect(0, 0, 1, 1); return Array.from(ctx.getImageData(0, 0, 1, 1).data.slice(0, 3)); };
  const linear = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = (c) => { const [r, g, b] = c.map(linear); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const ratio = (a, b) => {
    const [l1, l2] = [lum(a), lum(b)].sort((p, q) => q - p); return (l1 + 0.05) / (l2 + 0.05); };
"""


def measuring(body: str) -> str:
    return "(root) => {" + _RATIO + body + "}"
