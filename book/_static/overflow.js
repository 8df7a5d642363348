/* Wide content on screen and on paper.
 *
 * On screen, wide content that scrolls sideways says so: a display equation MathJax 4 could not
 * break (an array), a code block or a table wider than
 * the column (on a phone, mostly) gets the class pc-scroll-more while more of it lies to the
 * right, and pc-scroll-back once it has been scrolled; book.css fades that edge. Without this a
 * reader sees a cut-off formula with nothing to say that the rest is one swipe away.
 * Recomputed when MathJax adds its output, when fonts arrive, when the window resizes and on
 * every scroll.
 */
(function () {
  "use strict";
  /* Inline math does not scroll: MathJax 4 breaks it to the column (book.css). */
  var SELECTOR = "div.math mjx-container, div.highlight pre, .pst-scrollable-table-container";
  /* MathJax's glyphs overhang their box by a pixel or two (an italic k, a superscript): that is
   * no content to scroll to, and a fade there would blur short formulas. */
  var SLACK = 4;
  function mark(el) {
    var rest = el.scrollWidth - el.clientWidth - el.scrollLeft;
    el.classList.toggle("pc-scroll-more", rest > SLACK);
    el.classList.toggle("pc-scroll-back", el.scrollLeft > SLACK);
  }
  /* A box that changes size (a dropdown opened, a solution shown, a font arrived) is measured
   * again; a hidden one measures 0 until then. */
  var resized = window.ResizeObserver ? new ResizeObserver(function (entries) {
    entries.forEach(function (entry) { mark(entry.target); });
  }) : null;
  function markAll() {
    document.querySelectorAll(SELECTOR).forEach(function (el) {
      if (!el.hasAttribute("data-pc-scroll")) {
        el.setAttribute("data-pc-scroll", "");
        el.addEventListener("scroll", function () { mark(el); }, { passive: true });
        if (resized) { resized.observe(el); }
      }
      mark(el);
    });
  }
  var pending = false;
  function soon() {
    if (pending) { return; }
    pending = true;
    window.requestAnimationFrame(function () { pending = false; markAll(); });
  }
  function start() {
    markAll();
    /* MathJax typesets after the page has loaded: its output changes the widths. */
    new MutationObserver(soon).observe(document.body, { childList: true, subtree: true });
    window.addEventListener("resize", soon);
    /* MathJax's web fonts arrive after its output: the widths change with no DOM change. */
    window.addEventListener("load", soon);
    if (document.fonts) { document.fonts.ready.then(soon); document.fonts.onloadingdone = soon; }
  }
  /* On paper nothing scrolls: a display equation wider than the printed column is set smaller
   * to fit it (MathJax breaks lines for the screen's column, not the paper's). The column's width is the printed page's, not
   * the window's, so the size is left to CSS: print.css makes each div.math a container, whose
   * width is 100cqi, and min() keeps the size of an equation that fits. make pdf calls this
   * too (book/_tools/print_pdf.py). */
  function prepareForPrint() {
    document.querySelectorAll("div.math").forEach(function (box) {
      var jax = box.querySelector("mjx-container");
      var glyphs = jax && jax.querySelector(":scope > mjx-math");
      if (!glyphs || jax.hasAttribute("data-print-fit")) { return; }
      var number = box.querySelector(".eqno");
      var reserved = number ? number.getBoundingClientRect().width + 8 : 0;
      var size = parseFloat(window.getComputedStyle(jax).fontSize);
      var perPx = size / glyphs.getBoundingClientRect().width;
      jax.style.fontSize = "min(" + size + "px, calc((100cqi - " + reserved + "px) * " +
        perPx + "))";
      jax.setAttribute("data-print-fit", "");
    });
  }
  /* Back on screen, where div.math is no container and 100cqi would mean the window. */
  function afterPrint() {
    document.querySelectorAll("mjx-container[data-print-fit]").forEach(function (jax) {
      jax.style.fontSize = "";
      jax.removeAttribute("data-print-fit");
    });
  }
  window.pcPrepareForPrint = prepareForPrint;
  window.addEventListener("beforeprint", prepareForPrint);
  window.addEventListener("afterprint", afterPrint);
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
