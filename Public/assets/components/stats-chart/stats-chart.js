// <stats-chart data-chart="reviews">: a chart of the statistics (views/stats.js) that fits its own
// width. The page gives it a drawing function (charts.js returns the SVG); the element draws at the
// width it is given and again whenever its width changes (rotation, window resize), at most once a
// frame and outside the ResizeObserver's callback. It stops observing when it leaves the page, so a
// screen that shows charts has nothing to clean up for them.
//
//   chart.plot((host, width) => render(host, barChart(…, { width })), width);
//   chart.redraw();   // the same width, e.g. after another period was chosen

class StatsChart extends HTMLElement {
  #draw = null;
  #width = 0;
  #observer = null;
  #frame = 0;

  /** Draws with `draw(host, width)` now (at `width`, measured by the caller so that several charts
   * share one layout) and again whenever the element's width changes. */
  plot(draw, width = this.clientWidth) {
    this.#draw = draw;
    this.#width = width;
    draw(this, width);
    this.#observe();
  }

  redraw() {
    this.#draw?.(this, this.#width);
  }

  connectedCallback() {
    if (this.#draw) this.#observe();
  }

  disconnectedCallback() {
    this.#observer?.disconnect();
    this.#observer = null;
    cancelAnimationFrame(this.#frame);
    this.#frame = 0;
  }

  #observe() {
    if (this.#observer || !this.isConnected) return;
    this.#observer = new ResizeObserver(([entry]) => {
      const { width } = entry.contentRect;
      if (Math.round(width) === Math.round(this.#width)) return;
      this.#width = width;
      if (this.#frame) return;
      this.#frame = requestAnimationFrame(() => {
        this.#frame = 0;
        this.redraw();
      });
    });
    this.#observer.observe(this);
  }
}

if (!customElements.get('stats-chart')) customElements.define('stats-chart', StatsChart);
