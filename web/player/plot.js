// A small 2D-canvas plot of the per-step solve and collision times, with a
// marker at the step being shown.

const SOLVE = '#f0a64a';
const COLLISION = '#5fb0f0';

export class TimingPlot {
  constructor(canvas, rec) {
    this.canvas = canvas;
    this.solve = rec.timing.solve_ms;
    this.collision = rec.timing.collision_ms;
    this.steps = this.solve.length;
    // Scale to the 99th percentile: a few slow steps (thread start-up, page
    // faults) would otherwise flatten the curves; taller spikes are clipped.
    const sorted = this.solve.map((x, s) => Math.max(x, this.collision[s])).sort((x, y) => x - y);
    const top = sorted.length ? sorted[Math.floor(0.99 * (sorted.length - 1))] : 0;
    this.top = top > 0 ? top * 1.25 : 1;
    this.marker = 0;
    this.background = null;  // the curves, drawn once per size
  }

  /// Moves the marker to step `step` (0 = the initial state) and redraws.
  setStep(step) {
    this.marker = step;
    this.draw();
  }

  draw() {
    const c = this.canvas;
    const ratio = window.devicePixelRatio || 1;
    const w = Math.max(1, Math.round(c.clientWidth * ratio));
    const h = Math.max(1, Math.round(c.clientHeight * ratio));
    if (c.width !== w || c.height !== h || !this.background) {
      c.width = w;
      c.height = h;
      this.background = this.drawCurves(w, h, ratio);
    }
    const g = c.getContext('2d');
    g.putImageData(this.background, 0, 0);
    if (this.steps > 0) {
      const x = this.x(this.marker, w);
      g.strokeStyle = '#ffffff';
      g.lineWidth = ratio;
      g.beginPath();
      g.moveTo(x, 0);
      g.lineTo(x, h);
      g.stroke();
    }
  }

  x(step, w) {
    return (Math.min(Math.max(step, 0), this.steps) / Math.max(1, this.steps)) * w;
  }

  drawCurves(w, h, ratio) {
    const g = this.canvas.getContext('2d');
    g.clearRect(0, 0, w, h);
    g.fillStyle = 'rgba(0, 0, 0, 0.35)';
    g.fillRect(0, 0, w, h);
    const pad = 14 * ratio;
    const y = (ms) => h - 2 * ratio - (Math.min(ms, this.top) / this.top) * (h - pad - 2 * ratio);
    // Step s (1-based) is drawn at x(s): its time is spent getting from s-1 to s.
    const curve = (values, color) => {
      g.strokeStyle = color;
      g.lineWidth = ratio;
      g.beginPath();
      for (let s = 0; s < this.steps; ++s) {
        const px = this.x(s + 1, w);
        if (s === 0) g.moveTo(this.x(0, w), y(values[0]));
        g.lineTo(px, y(values[s]));
      }
      g.stroke();
    };
    curve(this.collision, COLLISION);
    curve(this.solve, SOLVE);
    g.font = `${10 * ratio}px sans-serif`;
    g.textBaseline = 'top';
    g.fillStyle = SOLVE;
    g.fillText('solve', 4 * ratio, 2 * ratio);
    g.fillStyle = COLLISION;
    g.fillText('collision', 40 * ratio, 2 * ratio);
    g.fillStyle = '#c8ccd2';
    g.textAlign = 'right';
    g.fillText(`${this.top.toPrecision(2)} ms per step`, w - 4 * ratio, 2 * ratio);
    return g.getImageData(0, 0, w, h);
  }
}
